import {
	DateInputError,
	PERIOD_PRESETS,
	resolvePeriod,
} from '../../../nodes/PaymentsService/reporting/periodParameter';

const DAY = 86_400;
const sec = (iso: string): number => Date.parse(iso) / 1000;

/** 2026-01-15T13:45:30.500Z: mid-day, with milliseconds, in the first month of a year. */
const NOW_MS = Date.UTC(2026, 0, 15, 13, 45, 30, 500);
const NOW = sec('2026-01-15T13:45:30Z');

describe('resolvePeriod presets (now = 2026-01-15T13:45:30.500Z)', () => {
	test('today runs from 00:00:00 UTC of today to now (milliseconds dropped)', () => {
		expect(resolvePeriod('today', NOW_MS)).toEqual({ from: sec('2026-01-15T00:00:00Z'), to: NOW });
	});

	test('yesterday is the whole previous UTC day, 00:00:00 to 23:59:59', () => {
		expect(resolvePeriod('yesterday', NOW_MS)).toEqual({
			from: sec('2026-01-14T00:00:00Z'),
			to: sec('2026-01-14T23:59:59Z'),
		});
	});

	test('yesterday at exactly 00:00:00 UTC is still the previous whole day', () => {
		expect(resolvePeriod('yesterday', Date.UTC(2026, 2, 1))).toEqual({
			from: sec('2026-02-28T00:00:00Z'),
			to: sec('2026-02-28T23:59:59Z'),
		});
	});

	test('last24Hours, last7Days, last30Days and last90Days end now and start N days earlier', () => {
		expect(resolvePeriod('last24Hours', NOW_MS)).toEqual({ from: NOW - DAY, to: NOW });
		expect(resolvePeriod('last7Days', NOW_MS)).toEqual({ from: NOW - 7 * DAY, to: NOW });
		expect(resolvePeriod('last30Days', NOW_MS)).toEqual({ from: NOW - 30 * DAY, to: NOW });
		expect(resolvePeriod('last90Days', NOW_MS)).toEqual({ from: NOW - 90 * DAY, to: NOW });
	});

	test('thisMonth runs from the first of the month 00:00:00 UTC to now', () => {
		expect(resolvePeriod('thisMonth', NOW_MS)).toEqual({
			from: sec('2026-01-01T00:00:00Z'),
			to: NOW,
		});
	});

	test('lastMonth in January is the whole December of the previous year', () => {
		expect(resolvePeriod('lastMonth', NOW_MS)).toEqual({
			from: sec('2025-12-01T00:00:00Z'),
			to: sec('2025-12-31T23:59:59Z'),
		});
	});

	test('lastMonth in March of a non-leap year is February with 28 days', () => {
		expect(resolvePeriod('lastMonth', Date.UTC(2026, 2, 31, 23, 59, 59))).toEqual({
			from: sec('2026-02-01T00:00:00Z'),
			to: sec('2026-02-28T23:59:59Z'),
		});
	});

	test('every preset gives integer bounds with from <= to', () => {
		for (const preset of PERIOD_PRESETS) {
			const window = resolvePeriod(preset, NOW_MS, '2026-01-01');
			expect(Number.isInteger(window.from) && Number.isInteger(window.to)).toBe(true);
			expect(window.from).toBeLessThanOrEqual(window.to);
		}
	});

	test('an unknown preset throws RangeError', () => {
		expect(() => resolvePeriod('nextWeek' as never, NOW_MS)).toThrow(RangeError);
	});
});

describe('resolvePeriod custom', () => {
	test('a date-only From is 00:00:00 UTC and a date-only To is 23:59:59 UTC of that day', () => {
		expect(resolvePeriod('custom', NOW_MS, '2026-01-01', '2026-01-10')).toEqual({
			from: sec('2026-01-01T00:00:00Z'),
			to: sec('2026-01-10T23:59:59Z'),
		});
	});

	test('an empty or missing To means now', () => {
		expect(resolvePeriod('custom', NOW_MS, '2026-01-01', '')).toEqual({
			from: sec('2026-01-01T00:00:00Z'),
			to: NOW,
		});
		expect(resolvePeriod('custom', NOW_MS, '2026-01-01')).toEqual({
			from: sec('2026-01-01T00:00:00Z'),
			to: NOW,
		});
		expect(resolvePeriod('custom', NOW_MS, '2026-01-01', null)).toEqual({
			from: sec('2026-01-01T00:00:00Z'),
			to: NOW,
		});
	});

	test('a date-time string without offset is read as UTC, whatever the machine time zone', () => {
		expect(resolvePeriod('custom', NOW_MS, '2026-01-02T08:30:00', '2026-01-03T10:00:00')).toEqual({
			from: sec('2026-01-02T08:30:00Z'),
			to: sec('2026-01-03T10:00:00Z'),
		});
	});

	test('a date-time string with an offset or Z keeps that offset', () => {
		expect(
			resolvePeriod('custom', NOW_MS, '2026-01-02T08:30:00+02:00', '2026-01-03T10:00:00Z'),
		).toEqual({
			from: sec('2026-01-02T06:30:00Z'),
			to: sec('2026-01-03T10:00:00Z'),
		});
		expect(resolvePeriod('custom', NOW_MS, '2026-01-02T08:30:00-0500').from).toBe(
			sec('2026-01-02T13:30:00Z'),
		);
	});

	test('a full date-time To is used as given, not moved to the end of the day', () => {
		expect(resolvePeriod('custom', NOW_MS, '2026-01-01', '2026-01-10T00:00:00Z').to).toBe(
			sec('2026-01-10T00:00:00Z'),
		);
	});

	test('surrounding whitespace is ignored', () => {
		expect(resolvePeriod('custom', NOW_MS, '  2026-01-01 ', ' 2026-01-02\n')).toEqual({
			from: sec('2026-01-01T00:00:00Z'),
			to: sec('2026-01-02T23:59:59Z'),
		});
	});

	test('a Luxon-like object is read through toMillis()', () => {
		const luxonFrom = { toMillis: () => Date.UTC(2026, 0, 5, 12, 0, 0, 999) };
		const luxonTo = { toMillis: () => Date.UTC(2026, 0, 6, 12, 0, 0) };
		expect(resolvePeriod('custom', NOW_MS, luxonFrom, luxonTo)).toEqual({
			from: sec('2026-01-05T12:00:00Z'),
			to: sec('2026-01-06T12:00:00Z'),
		});
	});

	test('a JavaScript Date is accepted', () => {
		expect(
			resolvePeriod(
				'custom',
				NOW_MS,
				new Date(Date.UTC(2026, 0, 5)),
				new Date(Date.UTC(2026, 0, 6)),
			),
		).toEqual({
			from: sec('2026-01-05T00:00:00Z'),
			to: sec('2026-01-06T00:00:00Z'),
		});
	});

	test('numbers above 10^11 are milliseconds, smaller numbers are seconds', () => {
		const seconds = sec('2026-01-05T00:00:00Z');
		expect(resolvePeriod('custom', NOW_MS, seconds * 1000, seconds + 60)).toEqual({
			from: seconds,
			to: seconds + 60,
		});
		expect(resolvePeriod('custom', NOW_MS, seconds, (seconds + 60) * 1000 + 999)).toEqual({
			from: seconds,
			to: seconds + 60,
		});
	});

	test('an unreadable, empty or missing From throws DateInputError', () => {
		expect(() => resolvePeriod('custom', NOW_MS, 'not a date')).toThrow(DateInputError);
		expect(() => resolvePeriod('custom', NOW_MS, '')).toThrow(DateInputError);
		expect(() => resolvePeriod('custom', NOW_MS, undefined)).toThrow(DateInputError);
		expect(() => resolvePeriod('custom', NOW_MS, true)).toThrow(DateInputError);
		expect(() => resolvePeriod('custom', NOW_MS, Number.NaN)).toThrow(DateInputError);
		expect(() => resolvePeriod('custom', NOW_MS, { toMillis: () => Number.NaN })).toThrow(
			DateInputError,
		);
	});

	test('an unreadable To throws DateInputError', () => {
		expect(() => resolvePeriod('custom', NOW_MS, '2026-01-01', 'tomorrow-ish')).toThrow(
			DateInputError,
		);
		expect(() => resolvePeriod('custom', NOW_MS, '2026-01-01', new Date(Number.NaN))).toThrow(
			DateInputError,
		);
	});

	test('DateInputError is an Error subclass carrying the bad value', () => {
		try {
			resolvePeriod('custom', NOW_MS, 'garbage');
			throw new Error('expected a DateInputError');
		} catch (error) {
			expect(error).toBeInstanceOf(DateInputError);
			expect(error).toBeInstanceOf(Error);
			expect((error as Error).message).toContain('garbage');
		}
	});

	test('From after To throws RangeError', () => {
		expect(() => resolvePeriod('custom', NOW_MS, '2026-01-10', '2026-01-09')).toThrow(RangeError);
		expect(() =>
			resolvePeriod('custom', NOW_MS, '2026-01-10T00:00:01Z', '2026-01-10T00:00:00Z'),
		).toThrow(RangeError);
	});

	test('each message starts with the parameter it is about, and says what is wrong once', () => {
		const message = (run: () => unknown) => {
			try {
				run();
			} catch (error) {
				return (error as Error).message;
			}
			return 'no error';
		};
		expect(message(() => resolvePeriod('custom', NOW_MS, '2026-01-10', '2026-01-09'))).toBe(
			'Created From (2026-01-10T00:00:00.000Z) is after Created To (2026-01-09T23:59:59.000Z)',
		);
		expect(message(() => resolvePeriod('custom', NOW_MS, '2026-02-01'))).toMatch(
			/^Created From \(2026-02-01T00:00:00\.000Z\) is after now \(/,
		);
		expect(message(() => resolvePeriod('custom', NOW_MS, '2026-02-30'))).toBe(
			'Created From "2026-02-30" is not a calendar date',
		);
		expect(message(() => resolvePeriod('custom', NOW_MS, '2026-01-01', 'soon'))).toBe(
			'Created To "soon" is not a date; use ISO 8601, e.g. 2026-11-01T00:00:00Z',
		);
		expect(message(() => resolvePeriod('custom', NOW_MS, ''))).toBe('Created From is empty');
		expect(message(() => resolvePeriod('lastWeek' as never, NOW_MS))).toMatch(
			/^Period is "lastWeek", not one of today, yesterday,/,
		);
	});

	test('a From in the future with an empty To (now) throws RangeError', () => {
		expect(() => resolvePeriod('custom', NOW_MS, '2026-02-01')).toThrow(RangeError);
	});

	test('From equal to To is a valid one-second period', () => {
		expect(resolvePeriod('custom', NOW_MS, '2026-01-10T05:00:00Z', '2026-01-10T05:00:00Z')).toEqual(
			{
				from: sec('2026-01-10T05:00:00Z'),
				to: sec('2026-01-10T05:00:00Z'),
			},
		);
	});
});
