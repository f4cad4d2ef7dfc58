import fc from 'fast-check';
import { REPORTING_LISTS } from '../../../nodes/PaymentsService/reporting/lists';
import { formatDecimal, parseDecimal } from '../../../nodes/PaymentsService/reporting/decimal';
import { Summary, type SummaryRequest } from '../../../nodes/PaymentsService/reporting/summary';

const deposits = REPORTING_LISTS.deposit as SummaryRequest['list'];

function summarize(
	records: Array<Record<string, unknown>>,
	request: Partial<SummaryRequest> = {},
): Summary {
	const summary = new Summary({
		list: deposits,
		groupBy: [],
		amountFields: ['amount'],
		timeZone: 'UTC',
		...request,
	});
	for (const record of records) summary.add(summary.contribution(record));
	return summary;
}

describe('exact decimals', () => {
	test('amounts are read from the text the service sent, exponents included', () => {
		expect(parseDecimal(12.5)).toEqual({ units: 125n, scale: 1 });
		expect(parseDecimal('0012.50')).toEqual({ units: 125n, scale: 1 });
		expect(parseDecimal(-0.07)).toEqual({ units: -7n, scale: 2 });
		expect(parseDecimal(1e21)).toEqual({ units: 10n ** 21n, scale: 0 });
		expect(parseDecimal(1.5e-7)).toEqual({ units: 15n, scale: 8 });
		expect(parseDecimal('12,50')).toBeUndefined();
		expect(parseDecimal(Number.NaN)).toBeUndefined();
		expect(parseDecimal(true)).toBeUndefined();
		expect(formatDecimal(-5n, 2)).toBe('-0.05');
		expect(formatDecimal(123456n, 0)).toBe('123456');
	});

	test('a number is read as its shortest text is, whatever its size and decimals (property: the fast path for 2 decimals and the text path agree)', () => {
		const asText = (value: number) => parseDecimal(String(value));
		fc.assert(
			fc.property(
				fc.oneof(
					fc
						.tuple(
							fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
							fc.integer({ min: 0, max: 4 }),
						)
						.map(([units, decimals]) => units / 10 ** decimals),
					fc.double({ noNaN: true, noDefaultInfinity: true }),
					fc.constantFrom(0.29, 1.005, 0.1 + 0.2, -0, 9_999_999_999_999.99, 1e13, -1e13, 123.456),
				),
				(value) => {
					expect(parseDecimal(value)).toEqual(asText(value));
				},
			),
			{ numRuns: 5_000 },
		);
	});

	test('a sum of many cents equals the integer sum, where floating point drifts (property)', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 2_000 }),
				(cents) => {
					const summary = summarize(
						cents.map((value) => ({ amount: value / 100, currency: 'USD' })),
					);
					const expected = cents.reduce((sum, value) => sum + BigInt(value), 0n);
					const total = summary.totalsJson() as {
						amount: Record<string, { sum: string; count: number }>;
					};
					if (!cents.length) return expect(total.amount).toEqual({});
					// The sum's text, brought to cents by padding its decimals: no arithmetic of ours on it.
					const [whole, fraction = ''] = total.amount.USD.sum.replace('-', '').split('.');
					const got = BigInt(whole + fraction.padEnd(2, '0'));
					expect(total.amount.USD.sum.startsWith('-') ? -got : got).toBe(expected);
				},
			),
			{ numRuns: 200 },
		);
		// The classic drift: 0.1 + 0.2 in floating point is 0.30000000000000004.
		const drift = summarize([
			{ amount: 0.1, currency: 'USD' },
			{ amount: 0.2, currency: 'USD' },
		]);
		expect((drift.totalsJson().amount as Record<string, { sum: string }>).USD.sum).toBe('0.3');
	});

	test('min, max and an average rounded half away from zero at the amounts’ scale', () => {
		const summary = summarize(
			[1.0, 2.0, 2.01]
				.map((amount) => ({ amount, currency: 'BRL' }))
				.concat([{ amount: 5, currency: 'BRL' }]),
		);
		expect((summary.totalsJson().amount as Record<string, unknown>).BRL).toEqual({
			count: 4,
			sum: '10.01',
			min: '1.00',
			max: '5.00',
			average: '2.50',
		});
		const negative = summarize([
			{ amount: -0.01, currency: 'USD' },
			{ amount: -0.02, currency: 'USD' },
		]);
		expect((negative.totalsJson().amount as Record<string, { average: string }>).USD.average).toBe(
			'-0.02',
		);
	});
});

describe('currencies are never added together', () => {
	test('each amount field is totalled per its own currency field; a record without one counts under XXX', () => {
		const summary = summarize(
			[
				{
					amount: 10,
					currency: 'USD',
					localAmount: 50,
					localCurrency: 'BRL',
					fee: 1,
					feeCurrency: 'USD',
				},
				{
					amount: 20,
					currency: 'USD',
					localAmount: 400,
					localCurrency: 'MXN',
					fee: 1.5,
					feeCurrency: 'USD',
				},
				{ amount: 5, localAmount: 'n/a', localCurrency: 'BRL' },
			],
			{ amountFields: ['amount', 'localAmount', 'fee', 'usdCountryTaxFee'] },
		);
		type Stats = { count: number; sum: string; min: string; max: string; average: string };
		const totals = summary.totalsJson() as {
			count: number;
			localAmountUnreadable: number;
		} & Record<'amount' | 'localAmount' | 'fee' | 'usdCountryTaxFee', Record<string, Stats>>;
		expect(totals.count).toBe(3);
		expect(Object.keys(totals.amount)).toEqual(['USD', 'XXX']);
		expect(totals.amount.USD.sum).toBe('30');
		expect(totals.localAmount).toEqual({
			BRL: { count: 1, sum: '50', min: '50', max: '50', average: '50' },
			MXN: { count: 1, sum: '400', min: '400', max: '400', average: '400' },
		});
		expect(totals.localAmountUnreadable).toBe(1);
		expect(totals.fee.USD.sum).toBe('2.5');
		expect(totals.usdCountryTaxFee).toEqual({});
	});
});

describe('days and hours in a time zone', () => {
	const at = (iso: string) => ({ creationDate: iso, amount: 1, currency: 'USD' });

	test('New York’s day of the clocks set back has 25 hours, its 01:00 twice with two offsets, in order', () => {
		// 2026-11-01: 02:00 EDT becomes 01:00 EST; the local day runs 04:00Z to 05:00Z next day.
		const records = [
			'2026-11-01T03:59:59Z', // 31 October, 23:59:59 EDT
			'2026-11-01T04:00:00Z', // 00:00 EDT
			'2026-11-01T05:30:00Z', // 01:30 EDT
			'2026-11-01T06:30:00Z', // 01:30 EST
			'2026-11-02T04:59:59Z', // 23:59:59 EST
			'2026-11-02T05:00:00Z', // 2 November 00:00 EST
		].map(at);
		const byDay = summarize(records, {
			groupBy: ['day'],
			timeZone: 'America/New_York',
		}).groupsJson();
		expect(byDay.map((group) => [group.day, group.count])).toEqual([
			['2026-10-31', 1],
			['2026-11-01', 4],
			['2026-11-02', 1],
		]);
		const byHour = summarize(records, {
			groupBy: ['hour'],
			timeZone: 'America/New_York',
		}).groupsJson();
		expect(byHour.map((group) => group.hour)).toEqual([
			'2026-10-31T23:00-04:00',
			'2026-11-01T00:00-04:00',
			'2026-11-01T01:00-04:00',
			'2026-11-01T01:00-05:00',
			'2026-11-01T23:00-05:00',
			'2026-11-02T00:00-05:00',
		]);
	});

	test('São Paulo’s day of the clocks set forward (4 November 2018) has 23 hours; UTC days differ', () => {
		const records = [
			'2018-11-04T02:59:59Z', // 3 November 23:59:59 (-03:00)
			'2018-11-04T03:00:00Z', // 4 November 01:00 (-02:00): midnight did not happen
			'2018-11-05T01:59:59Z', // 4 November 23:59:59 (-02:00)
		].map(at);
		const local = summarize(records, {
			groupBy: ['day', 'hour'],
			timeZone: 'America/Sao_Paulo',
		}).groupsJson();
		expect(local.map((group) => [group.day, group.hour])).toEqual([
			['2018-11-03', '2018-11-03T23:00-03:00'],
			['2018-11-04', '2018-11-04T01:00-02:00'],
			['2018-11-04', '2018-11-04T23:00-02:00'],
		]);
		const utc = summarize(records, { groupBy: ['day'], timeZone: 'UTC' }).groupsJson();
		expect(utc.map((group) => [group.day, group.count])).toEqual([
			['2018-11-04', 2],
			['2018-11-05', 1],
		]);
	});

	test('a half-hour zone (Asia/Kolkata) starts its hours on the half hour', () => {
		const groups = summarize([at('2026-11-01T18:29:59Z'), at('2026-11-01T18:30:00Z')], {
			groupBy: ['hour'],
			timeZone: 'Asia/Kolkata',
		}).groupsJson();
		expect(groups.map((group) => group.hour)).toEqual([
			'2026-11-01T23:00+05:30',
			'2026-11-02T00:00+05:30',
		]);
	});
});
