import fc from 'fast-check';

import {
	boundPeriod,
	DateInputError,
	PERIOD_PRESETS,
	parseDateInput,
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

describe('a date parameter holds a calendar date: years 0000 to 9999', () => {
	const message = (value: unknown) => {
		try {
			parseDateInput(value, 'end', 'Created To');
		} catch (error) {
			expect(error).toBeInstanceOf(DateInputError);
			return (error as Error).message;
		}
		return 'no error';
	};

	test('the last second of 9999 and the first of 0000 are dates; beyond them is refused naming the field and the value', () => {
		expect(parseDateInput('9999-12-31T23:59:59Z', 'end')).toBe(sec('9999-12-31T23:59:59Z'));
		expect(parseDateInput('9999-12-31', 'end')).toBe(sec('9999-12-31T23:59:59Z'));
		expect(parseDateInput('0000-01-01')).toBe(sec('0000-01-01T00:00:00Z'));
		expect(message('+010000-01-01T00:00:00Z')).toBe(
			'Created To "+010000-01-01T00:00:00Z" is after year 9999, a date no calendar holds; use a date such as 2026-11-01T00:00:00Z',
		);
		expect(message('-000001-12-31T00:00:00Z')).toMatch(
			/^Created To "-000001-12-31T00:00:00Z" is before year 0000/,
		);
	});

	test('numbers an expression gives beyond year 9999 (1e21, 8.64e15 ms, the end of JavaScript’s dates) are refused, not read', () => {
		expect(message(1e21)).toMatch(/^Created To "1e\+21" is after year 9999/);
		expect(message(8.64e15)).toMatch(/^Created To "8640000000000000" is after year 9999/);
		expect(message(-8.64e15)).toMatch(/is before year 0000/);
		expect(message(new Date(8.64e15))).toMatch(
			/^Created To "\+275760-09-13T00:00:00.000Z" is after year 9999/,
		);
		expect(message(Number.POSITIVE_INFINITY)).toBe(
			'Created To "Infinity" is not a date; use ISO 8601, e.g. 2026-11-01T00:00:00Z',
		);
		expect(message(Number.NaN)).toMatch(/^Created To "NaN" is not a date/);
		expect(message({ toMillis: () => 1e300 })).toMatch(/is after year 9999/);
	});

	test('a long or control-character value is shown escaped and cut short in the message', () => {
		expect(message(`2026\u0000${'x'.repeat(10_000)}`)).toBe(
			`Created To "2026\\u0000${'x'.repeat(54)}…" is not a date; use ISO 8601, e.g. 2026-11-01T00:00:00Z`,
		);
		expect(message('=cmd|\r\n')).toBe(
			'Created To "=cmd|\\r\\n" is not a date; use ISO 8601, e.g. 2026-11-01T00:00:00Z',
		);
	});

	test('a text is a date only as ISO 8601 or as JavaScript writes dates; what Date.parse would guess at ("3" is 1 March 2001) is refused', () => {
		for (const guess of ['3', 'x 3 Z', 'Tue 2026', '2026\u0000 Z', 'May 5'])
			expect(message(guess)).toMatch(/ is not a date; use ISO 8601/);
		const date = new Date(Date.UTC(2026, 0, 5, 12, 30, 15));
		for (const text of [
			date.toUTCString(),
			date.toString(),
			'2026-01-05 12:30:15',
			'2026-01-05T12:30:15.5+00:00',
		])
			expect(parseDateInput(text)).toBe(sec('2026-01-05T12:30:15Z'));
	});

	test('any number either reads as a date within the calendar’s years or is refused with a DateInputError', () => {
		fc.assert(
			fc.property(fc.oneof(fc.double(), fc.integer(), fc.bigInt().map(Number)), (value) => {
				try {
					const seconds = parseDateInput(value, 'end', 'Created To');
					expect(seconds * 1000).toBeGreaterThanOrEqual(Date.parse('0000-01-01T00:00:00Z') - 1000);
					expect(seconds * 1000).toBeLessThanOrEqual(Date.parse('9999-12-31T23:59:59Z'));
				} catch (error) {
					expect(error).toBeInstanceOf(DateInputError);
				}
			}),
		);
	});
});

describe('boundPeriod: what is read of a period (now = 2026-01-15T13:45:30Z)', () => {
	test('an end after now is read up to now, and the end given is kept to say so', () => {
		expect(
			boundPeriod({ from: sec('2026-01-01T00:00:00Z'), to: sec('9999-12-31T23:59:59Z') }, NOW),
		).toEqual({
			window: { from: sec('2026-01-01T00:00:00Z'), to: NOW },
			endGiven: sec('9999-12-31T23:59:59Z'),
		});
	});

	test('a start before 1970 is read from 1970-01-01T00:00:00Z, the first Unix second', () => {
		expect(boundPeriod({ from: sec('0001-01-01T00:00:00Z'), to: NOW }, NOW)).toEqual({
			window: { from: 0, to: NOW },
			startGiven: sec('0001-01-01T00:00:00Z'),
		});
	});

	test('a period within 1970 and now is read as given, with nothing to say', () => {
		const period = { from: sec('2025-01-01T00:00:00Z'), to: NOW };
		expect(boundPeriod(period, NOW)).toEqual({ window: period });
		expect(boundPeriod({ from: 0, to: 0 }, NOW)).toEqual({ window: { from: 0, to: 0 } });
	});

	test('a period wholly after now, or wholly before 1970, is refused naming the field and the date', () => {
		expect(() => boundPeriod({ from: NOW + 1, to: NOW + 10 }, NOW)).toThrow(
			'Created From (2026-01-15T13:45:31Z) is after now (2026-01-15T13:45:30Z): no record is created in the future',
		);
		expect(() => boundPeriod({ from: -100, to: -1 }, NOW)).toThrow(
			'Created To (1969-12-31T23:59:59Z) is before 1970-01-01T00:00:00Z, the first date the service holds',
		);
	});

	test('whatever the dates, the bounded period lies within 1970 and now, so its windows are at most those of 1970 to now', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -62_167_219_200, max: 253_402_300_799 }),
				fc.integer({ min: -62_167_219_200, max: 253_402_300_799 }),
				(a, b) => {
					const period = { from: Math.min(a, b), to: Math.max(a, b) };
					try {
						const { window } = boundPeriod(period, NOW);
						expect(window.from).toBeGreaterThanOrEqual(0);
						expect(window.to).toBeLessThanOrEqual(NOW);
						expect(window.from).toBeLessThanOrEqual(window.to);
					} catch (error) {
						expect(error).toBeInstanceOf(RangeError);
						expect(period.from > NOW || period.to < 0).toBe(true);
					}
				},
			),
		);
	});
});
