import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	ListSums,
	listsOf,
	readReportRow,
	reconcileDay,
	reconciliationRule,
	ReportRowError,
	TERMS,
	utcDayOf,
	utcDays,
	type ReportRow,
} from '../../../nodes/PaymentsService/reporting/reconciliation';

const DAY = '2026-11-20';
const deposit = (fields: Record<string, unknown>) => ({
	idDeposit: 1,
	creationDate: `${DAY}T10:00:00Z`,
	status: 'COMPLETED',
	amount: 10,
	currency: 'USD',
	fee: 0.55,
	feeCurrency: 'USD',
	...fields,
});

/** A report row of DAY in USD, every field zero but those given. */
function row(fields: Record<string, unknown> = {}, day = DAY): Record<string, unknown> {
	return {
		date: `${day}T00:00:00Z`,
		currency: 'USD',
		...Object.fromEntries([...TERMS, 'netAmount', 'totalBalance'].map((field) => [field, 0])),
		...fields,
	};
}

describe('the reconciliation rule (inferred from the field names)', () => {
	test('defaults: credited deposits, cashouts not returned, every settlement and the undone ones, every note signed by its category; the lists read once each', () => {
		const rule = reconciliationRule();
		expect(rule.depositTotal).toEqual({
			list: 'deposit',
			amounts: [{ field: 'amount', currency: 'currency' }],
			statuses: ['APPROVED', 'COMPLETED'],
		});
		expect(rule.cashoutTotal.statuses).toEqual(['ON_HOLD', 'PENDING', 'DELIVERED', 'COMPLETED']);
		expect(rule.cancelledSettlementTotal.statuses).toEqual(['CANCELLED', 'FAILED']);
		expect(rule.noteTotal.statuses).toBeUndefined();
		expect(listsOf(rule)).toEqual(['deposit', 'cashout', 'note', 'settlement']);
		expect(reconciliationRule({ depositTotal: ['COMPLETED'] }).depositTotal.statuses).toEqual([
			'COMPLETED',
		]);
		expect(reconciliationRule({ depositTotal: ['COMPLETED'] }).depositFeeTotal.statuses).toEqual([
			'APPROVED',
			'COMPLETED',
		]);
	});
});

describe('UTC days', () => {
	test('a record’s day is the UTC date of its date, whatever offset it is written with; no date gives none', () => {
		expect(utcDayOf('2026-11-20T23:59:59Z')).toBe('2026-11-20');
		expect(utcDayOf('2026-11-20T22:30:00-03:00')).toBe('2026-11-21');
		expect(utcDayOf('soon')).toBeUndefined();
		expect(utcDayOf(1_763_600_000)).toBeUndefined();
	});

	test('the days of a period: every UTC day it touches, whole, across a year’s end', () => {
		const from = Date.parse('2025-12-31T18:00:00Z') / 1000;
		const to = Date.parse('2026-01-01T00:00:00Z') / 1000;
		expect(utcDays(from, to)).toEqual([
			{ day: '2025-12-31', start: from - 18 * 3600, end: from - 18 * 3600 + 86_399 },
			{ day: '2026-01-01', start: to, end: to + 86_399 },
		]);
	});
});

describe('the lists’ sums per day, currency and term', () => {
	test('each record adds to the terms whose statuses hold it; a cashout’s amount and fee count as one record', () => {
		const sums = new ListSums(reconciliationRule());
		for (const record of [
			deposit({}),
			deposit({ idDeposit: 2, status: 'approved', amount: '0.10', fee: 0.3 }),
			deposit({ idDeposit: 3, status: 'DECLINED', amount: 99 }),
		]) {
			const share = sums.shareOf('deposit', record);
			if (share) sums.add(share);
		}
		const cashout = sums.shareOf('cashout', {
			creationDate: `${DAY}T01:00:00Z`,
			status: 'PENDING',
			merchantAmount: 20,
			merchantCurrency: 'USD',
			fee: 0.8,
			feeCurrency: 'USD',
		})!;
		sums.add(cashout);
		expect(
			sums.shareOf('cashout', {
				creationDate: `${DAY}T01:00:00Z`,
				status: 'REJECTED',
				merchantAmount: 5,
			}),
		).toBeUndefined();
		expect(sums.sum(DAY, 'USD', 'depositTotal')).toMatchObject({
			total: { units: 101n, scale: 1 },
			records: 2,
		});
		expect(sums.sum(DAY, 'USD', 'depositFeeTotal')).toMatchObject({
			total: { units: 85n, scale: 2 },
			records: 2,
		});
		expect(sums.sum(DAY, 'USD', 'cashoutTotal')).toMatchObject({
			total: { units: 208n, scale: 1 },
			records: 1,
		});
		expect(sums.sum(DAY, 'USD', 'noteTotal')).toMatchObject({ total: { units: 0n }, records: 0 });
		expect(sums.currencies(DAY)).toEqual(['USD']);
	});

	test('a note adds when CREDIT and subtracts when DEBIT; one that is neither, or an amount that is not a number, is counted apart, never as 0', () => {
		const sums = new ListSums(reconciliationRule());
		const note = (category: unknown, amount: unknown) =>
			sums.add(
				sums.shareOf('note', {
					id: 1,
					date: `${DAY}T05:00:00Z`,
					category,
					amount,
					currency: 'usd',
				})!,
			);
		note('CREDIT', 30);
		note('debit', 12.5);
		note('REVERSAL', 7);
		note('CREDIT', 'n/a');
		expect(sums.sum(DAY, 'USD', 'noteTotal')).toMatchObject({
			total: { units: 175n, scale: 1 },
			records: 4,
			unreadable: 2,
		});
	});

	test('an amount without a currency counts under XXX; a settlement counts in both settlement terms when cancelled', () => {
		const sums = new ListSums(reconciliationRule());
		sums.add(
			sums.shareOf('settlement', {
				id: 9,
				creationDate: `${DAY}T10:00:00Z`,
				status: 'FAILED',
				requestedAmount: 1000,
			})!,
		);
		expect(sums.currencies(DAY)).toEqual(['XXX']);
		expect(sums.sum(DAY, 'XXX', 'settlementTotal').records).toBe(1);
		expect(sums.sum(DAY, 'XXX', 'cancelledSettlementTotal').records).toBe(1);
	});

	test('a record whose date is no date is put on no day, and counted with an example', () => {
		const sums = new ListSums(reconciliationRule());
		expect(
			sums.shareOf('deposit', deposit({ idDeposit: 7, creationDate: 'yesterday' })),
		).toBeUndefined();
		expect(sums.shareOf('deposit', deposit({ idDeposit: 8, creationDate: null }))).toBeUndefined();
		expect(sums.undated.get('deposit')).toEqual({
			count: 2,
			example: { id: 7, date: 'yesterday' },
		});
	});

	test('sums are exact: any cents, in any order, add up to their integer sum (property)', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 200 }),
				(centsList) => {
					const sums = new ListSums(reconciliationRule());
					centsList.forEach((cents, index) =>
						sums.add(sums.shareOf('deposit', deposit({ idDeposit: index, amount: cents / 100 }))!),
					);
					const total = sums.sum(DAY, 'USD', 'depositTotal').total;
					const exact = centsList.reduce((sum, cents) => sum + BigInt(cents), 0n);
					return total.units * 10n ** BigInt(2 - total.scale) === exact;
				},
			),
		);
	});
});

describe('the report’s rows', () => {
	test('a row is read at its UTC day, amounts as numbers or their texts', () => {
		const read = readReportRow(
			row({ depositTotal: '12.50', totalBalance: 1e3, currency: ' usd ' }),
		);
		expect(read.day).toBe(DAY);
		expect(read.currency).toBe('USD');
		expect(read.values.depositTotal).toEqual({ units: 125n, scale: 1 });
		expect(read.values.totalBalance).toEqual({ units: 1000n, scale: 0 });
	});

	test.each([
		[
			'a word',
			{ depositTotal: 'n/a' },
			`The daily balance report of ${DAY} (USD) has depositTotal "n/a", not a number`,
		],
		[
			'null',
			{ netAmount: null },
			`The daily balance report of ${DAY} (USD) has netAmount "null", not a number`,
		],
		[
			'a field missing',
			{ totalBalance: undefined },
			`The daily balance report of ${DAY} (USD) has totalBalance missing, not a number`,
		],
		[
			'NaN',
			{ cashoutTotal: Number.NaN },
			`The daily balance report of ${DAY} (USD) has cashoutTotal "NaN", not a number`,
		],
		[
			'an object',
			{ noteTotal: { value: 1 } },
			`The daily balance report of ${DAY} (USD) has noteTotal "{\\"value\\":1}", not a number`,
		],
		[
			'a local midnight',
			{ date: `${DAY}T03:00:00Z` },
			`A row of the daily balance report (USD) has date "${DAY}T03:00:00Z", not the start of a UTC day`,
		],
		[
			'a date that is none',
			{ date: 'today' },
			'A row of the daily balance report (USD) has date "today", not the start of a UTC day',
		],
	])('%s is refused naming the day, the field and the value', (_label, fields, message) => {
		expect(() => readReportRow(row(fields))).toThrow(new ReportRowError(message, 'x'));
	});

	test('only the fields asked for are read: the row before the period needs its totalBalance', () => {
		expect(() => readReportRow(row({ depositTotal: 'n/a' }), ['totalBalance'])).not.toThrow();
	});
});

describe('one day compared', () => {
	const period = {
		day: DAY,
		start: Date.parse(`${DAY}T00:00:00Z`) / 1000,
		end: Date.parse(`${DAY}T23:59:59Z`) / 1000,
	};
	const rule = reconciliationRule();

	function compare(options: {
		fields?: Record<string, unknown>;
		records?: Array<Record<string, unknown>>;
		previous?: ReportRow | null;
		noRow?: boolean;
		ended?: boolean;
	}) {
		const sums = new ListSums(rule);
		for (const record of options.records ?? []) {
			const share = sums.shareOf('deposit', record);
			if (share) sums.add(share);
		}
		return reconcileDay({
			day: period,
			ended: options.ended ?? true,
			currency: 'USD',
			row: options.noRow ? undefined : readReportRow(row(options.fields)),
			previous:
				options.previous === null
					? undefined
					: (options.previous ?? readReportRow(row({ totalBalance: 100 }, '2026-11-19'))),
			sums,
			rule,
			lookBackDays: 59,
		});
	}

	test('a day that adds up: every term, the net and the balance match; amounts written at one scale of at least 2 decimals', () => {
		const json = compare({
			fields: { depositTotal: 10, depositFeeTotal: 0.55, netAmount: 9.45, totalBalance: 109.45 },
			records: [deposit({})],
		});
		expect(json).toMatchObject({
			day: DAY,
			dayStart: `${DAY}T00:00:00Z`,
			dayEnd: `${DAY}T23:59:59Z`,
			timeZone: 'UTC',
			currency: 'USD',
			reportRow: true,
			reconciled: true,
			differences: [],
			net: { report: '9.45', fromTerms: '9.45', difference: '0.00', matches: true },
			balance: {
				previousDay: '2026-11-19',
				previous: '100.00',
				netAmount: '9.45',
				expected: '109.45',
				report: '109.45',
				difference: '0.00',
				matches: true,
			},
			notes: [],
		});
		expect((json.terms as IDataObject).depositTotal).toEqual({
			report: '10.00',
			lists: '10.00',
			difference: '0.00',
			matches: true,
			records: 1,
		});
	});

	test('each difference is named: a term (lists − report), the net (terms − netAmount) and the balance (expected − totalBalance)', () => {
		const json = compare({
			fields: { depositTotal: 4, depositFeeTotal: 0.555, netAmount: 3, totalBalance: 104 },
			records: [deposit({})],
		});
		expect(json.differences).toEqual([
			'depositTotal',
			'depositFeeTotal',
			'netAmount',
			'totalBalance',
		]);
		expect(json.reconciled).toBe(false);
		expect((json.terms as IDataObject).depositTotal).toMatchObject({
			difference: '6.000',
			matches: false,
		});
		expect((json.terms as IDataObject).depositFeeTotal).toMatchObject({
			report: '0.555',
			lists: '0.550',
			difference: '-0.005',
		});
		expect(json.net).toEqual({
			report: '3.000',
			fromTerms: '3.445',
			difference: '0.445',
			matches: false,
		});
		expect(json.balance).toMatchObject({
			expected: '103.000',
			report: '104.000',
			difference: '-1.000',
			matches: false,
		});
	});

	test('a row without an earlier one: its balance is not checked and the day is not called reconciled', () => {
		const json = compare({ previous: null });
		expect(json).toMatchObject({
			reconciled: false,
			differences: [],
			balance: { previous: null, expected: null, matches: null },
		});
		expect(json.notes).toEqual([
			'No earlier row of the report in USD within the 59 days before the period: the balance carried over is not checked (widen the period to include the row before)',
			'The report has a row for this day, but the lists hold no record of its terms',
		]);
	});

	test('no row: reconciled when nothing counts that day, not when the lists hold records of its terms', () => {
		expect(compare({ noRow: true })).toMatchObject({
			reportRow: false,
			reconciled: true,
			net: null,
			balance: null,
		});
		const json = compare({ noRow: true, records: [deposit({})], ended: false });
		expect(json).toMatchObject({
			reconciled: false,
			differences: ['depositTotal', 'depositFeeTotal'],
			dayEnded: false,
		});
		expect((json.terms as IDataObject).depositTotal).toEqual({
			report: null,
			lists: '10.00',
			difference: null,
			matches: false,
			records: 1,
		});
		expect(json.notes).toEqual([
			'No report row for this day, but the lists hold 1 record of its terms',
			'The day has not ended: its records and its row may still change',
		]);
	});

	test('amounts that are not numbers keep their term from matching, and say so', () => {
		const json = compare({
			fields: { depositTotal: 10, netAmount: 10, totalBalance: 110 },
			records: [deposit({ fee: 'free' })],
		});
		expect(json.differences).toEqual(['depositFeeTotal']);
		expect((json.terms as IDataObject).depositFeeTotal).toMatchObject({
			lists: '0.00',
			matches: false,
			unreadable: 1,
		});
		expect(json.notes).toEqual([
			'1 deposit amount of depositFeeTotal is not a number: not added, so depositFeeTotal cannot match',
		]);
	});
});
