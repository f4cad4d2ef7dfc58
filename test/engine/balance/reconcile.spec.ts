import type { IDataObject } from 'n8n-workflow';

import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../../harness/fixtures';
import { periodRead } from '../../harness/reads';
import { iso } from '../../harness/records';
import { TERMS, type Term } from '../../../nodes/PaymentsService/reporting/reconciliation';

const SESSION = 'paymentsServiceSessionApi';
const DAY = 86_400;
const NODE = 'Payments Service';

/** A workflow with one Balance → Reconcile node (the Session credential of `credentialId`). */
function reconcileWorkflow(parameters: IDataObject, credentialId?: string) {
	const builder = new WorkflowBuilder('Reconcile');
	builder.then(
		paymentsNode(
			{ resource: 'balance', operation: 'reconcile', ...parameters },
			SESSION,
			credentialId ? { credentials: { [SESSION]: { id: credentialId, name: SESSION } } } : {},
		),
	);
	return builder.build();
}

/** Cents of an amount the sandbox holds (at most 2 decimals). */
const cents = (value: unknown) => BigInt(Math.round(Number(value) * 100));
/** Cents of a decimal text the node output, by padding its decimals: no arithmetic on it. */
const textCents = (text: unknown) => {
	const [whole, fraction = ''] = String(text).replace('-', '').split('.');
	const value = BigInt(whole + fraction.padEnd(2, '0'));
	return String(text).startsWith('-') ? -value : value;
};
const dayOf = (text: unknown) => String(text).slice(0, 10);

/**
 * The oracle: per UTC day, each term in USD cents from the sandbox's own records, by the rule the
 * sandbox's report follows (test/sandbox/balance.ts), summed here apart from the node.
 */
function expectedTerms(fx: Fixture, merchantId: number): Map<string, Record<Term, bigint>> {
	const days = new Map<string, Record<Term, bigint>>();
	const day = (date: unknown) => {
		const key = dayOf(date);
		let terms = days.get(key);
		if (!terms) {
			terms = Object.fromEntries(TERMS.map((term) => [term, 0n])) as Record<Term, bigint>;
			days.set(key, terms);
		}
		return terms;
	};
	const { control } = fx.sandbox;
	for (const deposit of control.deposits(merchantId)) {
		if (!['APPROVED', 'COMPLETED'].includes(deposit.status)) continue;
		const terms = day(deposit.creationDate);
		terms.depositTotal += cents(deposit.amount);
		terms.depositFeeTotal += cents(deposit.fee);
	}
	for (const cashout of control.cashouts(merchantId)) {
		if (['REJECTED', 'CANCELLED', 'DECLINED'].includes(cashout.status)) continue;
		day(cashout.creationDate).cashoutTotal += cents(cashout.merchantAmount) + cents(cashout.fee);
	}
	for (const note of control.notes(merchantId))
		day(note.date).noteTotal += (note.category === 'CREDIT' ? 1n : -1n) * cents(note.amount);
	for (const settlement of control.settlements(merchantId)) {
		const terms = day(settlement.creationDate);
		terms.settlementTotal += cents(settlement.requestedAmount);
		if (['CANCELLED', 'FAILED'].includes(settlement.status))
			terms.cancelledSettlementTotal += cents(settlement.requestedAmount);
	}
	return days;
}

const LIST_PATHS = ['/v1/deposits', '/v1/cashouts', '/v1/notes', '/v1/settlements'];

/** Each list's read of [from, to] and the report's of [reportFrom, to], judged from the request log. */
function reads(fx: Fixture, from: number, to: number, reportFrom: number) {
	const log = fx.sandbox.log.entries();
	return Object.fromEntries(
		[...LIST_PATHS, '/v1/balance/report'].map((path) => {
			const read = periodRead(log, path, path === '/v1/balance/report' ? reportFrom : from, to);
			const all = log.filter((entry) => entry.path === path).length;
			return [path, { ...read, outside: all - read.requests }];
		}),
	);
}

describe('Balance → Reconcile through the n8n engine (generated data)', () => {
	let fx: Fixture;
	let today: number;
	let from: number;
	let to: number;

	beforeAll(async () => {
		fx = await startFixture();
		const now = Math.floor(fx.sandbox.clock.now() / 1000);
		today = now - (now % DAY);
		// Thirty whole UTC days before today.
		from = today - 30 * DAY;
		to = today - 1;
	});
	afterAll(async () => await fx.close());
	beforeEach(() => {
		fx.sandbox.log.clear();
		fx.sandbox.faults.clear();
	});

	const month = () => ({ period: 'custom', createdFrom: iso(from), createdTo: iso(to) });

	test('a month of days reconciles: one item a day, reconciled on every day, each term equal to the sandbox’s own records to the cent; each list read once, no page twice', async () => {
		const run = await fx.engine.run(
			reconcileWorkflow({ ...month(), options: { windowConcurrency: 4 } }),
		);
		expect(run.error).toBeUndefined();
		const items = run.output(NODE).map((item) => item.json);
		expect(items.map((json) => json.day)).toEqual(
			Array.from({ length: 30 }, (_, index) => iso(from + index * DAY).slice(0, 10)),
		);
		expect(items.filter((json) => json.reconciled !== true).map((json) => json.day)).toEqual([]);
		const oracle = expectedTerms(fx, 1001);
		const differ: string[] = [];
		for (const json of items) {
			expect(json).toMatchObject({
				currency: 'USD',
				timeZone: 'UTC',
				reportRow: true,
				dayEnded: true,
				differences: [],
				net: { matches: true },
				balance: { matches: true },
			});
			const terms = json.terms as Record<Term, IDataObject>;
			for (const term of TERMS) {
				const expected = oracle.get(String(json.day))?.[term] ?? 0n;
				if (textCents(terms[term].lists) !== expected || textCents(terms[term].report) !== expected)
					differ.push(
						`${String(json.day)} ${term}: ${String(terms[term].lists)} / ${String(terms[term].report)}, expected ${expected} cents`,
					);
				if (terms[term].difference !== '0.00')
					differ.push(`${String(json.day)} ${term} difference ${String(terms[term].difference)}`);
			}
			// The balance carried over: the previous day's row (every day of the history has one).
			const balance = json.balance as IDataObject;
			expect(balance.previousDay).toBe(
				iso(Date.parse(`${String(json.day)}T00:00:00Z`) / 1000 - DAY).slice(0, 10),
			);
			expect(textCents(balance.expected)).toBe(textCents(balance.report));
		}
		expect(differ).toEqual([]);
		// The days' deposits are real: the month holds hundreds.
		expect(
			items.reduce(
				(sum, json) => sum + Number((json.terms as Record<Term, IDataObject>).depositTotal.records),
				0,
			),
		).toBeGreaterThan(500);
		// Every list read once over the month, the report once over the month and the 59 days before.
		for (const [path, read] of Object.entries(reads(fx, from, to, from - 59 * DAY))) {
			expect([path, read.repeated, read.covers, read.unfinished, read.outside]).toEqual([
				path,
				[],
				true,
				[],
				0,
			]);
			expect(read.requests).toBeGreaterThan(0);
		}
		expect(
			fx.sandbox.log
				.entries()
				.filter(
					(entry) =>
						!/^\/v1\/(deposits|cashouts|notes|settlements|balance\/report|auth\/login)$/.test(
							entry.path,
						),
				),
		).toEqual([]);
		// The rule is in the output, marked as inferred.
		expect(items[0].rule).toMatchObject({
			inferred: expect.stringMatching(/^from the report’s field names/),
			net: 'netAmount = depositTotal − depositFeeTotal − cashoutTotal + noteTotal − settlementTotal + cancelledSettlementTotal',
			terms: {
				depositTotal: {
					list: 'deposits',
					sums: 'amount (in currency)',
					statuses: ['APPROVED', 'COMPLETED'],
				},
				cashoutTotal: {
					sums: 'merchantAmount (in merchantCurrency) + fee (in feeCurrency)',
					statuses: ['ON_HOLD', 'PENDING', 'DELIVERED', 'COMPLETED'],
				},
				noteTotal: {
					sums: 'amount (in currency): category CREDIT adds, DEBIT subtracts; every record (no status)',
					statuses: null,
				},
				cancelledSettlementTotal: { net: 'adds' },
				settlementTotal: { net: 'subtracts' },
			},
		});
	});

	test('Yesterday is the default: the previous UTC day, read as one day', async () => {
		const run = await fx.engine.run(reconcileWorkflow({}));
		expect(run.error).toBeUndefined();
		const items = run.output(NODE).map((item) => item.json);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			day: iso(today - DAY).slice(0, 10),
			dayStart: iso(today - DAY),
			dayEnd: iso(today - 1),
			reconciled: true,
		});
		const read = reads(fx, today - DAY, today - 1, today - 60 * DAY);
		for (const path of LIST_PATHS)
			expect([path, read[path].covers, read[path].repeated]).toEqual([path, true, []]);
	});

	test('a term’s statuses changed in Options: the deposits of another status are summed, and differ from the report by exactly them', async () => {
		const day = today - 3 * DAY;
		const run = await fx.engine.run(
			reconcileWorkflow({
				period: 'custom',
				createdFrom: iso(day).slice(0, 10),
				createdTo: iso(day).slice(0, 10),
				options: { depositStatuses: ['COMPLETED'] },
			}),
		);
		expect(run.error).toBeUndefined();
		const [json] = run.output(NODE).map((item) => item.json);
		const approved = fx.sandbox.control
			.deposits(1001)
			.filter(
				(deposit) =>
					deposit.status === 'APPROVED' && dayOf(deposit.creationDate) === dayOf(iso(day)),
			)
			.reduce((sum, deposit) => sum + cents(deposit.amount), 0n);
		expect(approved).toBeGreaterThan(0n);
		const terms = json.terms as Record<Term, IDataObject>;
		expect(textCents(terms.depositTotal.difference)).toBe(-approved);
		expect(json).toMatchObject({ reconciled: false, differences: ['depositTotal'] });
		expect((json.rule as IDataObject).terms).toMatchObject({
			depositTotal: { statuses: ['COMPLETED'] },
			depositFeeTotal: { statuses: ['APPROVED', 'COMPLETED'] },
		});
	});

	test.each([
		[
			{ options: { cashoutStatuses: ['PAID'] } },
			/^Cashout Statuses "PAID" is not a cashout status \(item 0\)$/,
		],
		[
			{ options: { windowConcurrency: 0 } },
			/^Window Concurrency must be a whole number from 1 to 10/,
		],
		[
			{ period: 'custom', createdFrom: '={{ 1e21 }}' },
			/^Invalid period in item 0: Created From "1e\+21" is after year 9999/,
		],
		[
			{ period: 'custom', createdFrom: '2030-01-01' },
			/^Invalid period in item 0: Created From \(2030-01-01T00:00:00\.000Z\) is after now/,
		],
		[
			{ period: 'custom', createdFrom: '1970-01-01', createdTo: '2026-01-01' },
			/^Reconcile takes at most 366 days, the period has 20455 \(1970-01-01 to 2026-01-01, item 0\)$/,
		],
	])('bad input %j is refused naming it, and nothing is read', async (parameters, message) => {
		const run = await fx.engine.run(reconcileWorkflow(parameters as IDataObject));
		expect(run.error?.message).toMatch(message);
		expect(fx.sandbox.log.entries().filter((entry) => entry.path !== '/v1/auth/login')).toEqual([]);
	});

	test('a report field that is not a number fails the node naming the day, the currency, the field and the value; no list is read', async () => {
		const day = iso(today - DAY);
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v1/balance/report',
			kind: 'status',
			status: 200,
			body: {
				data: [
					{
						idMerchant: 1001,
						date: day,
						currency: 'USD',
						depositTotal: 'n/a',
						depositFeeTotal: 1,
						cashoutTotal: 0,
						noteTotal: 0,
						settlementTotal: 0,
						cancelledSettlementTotal: 0,
						netAmount: 0,
						totalBalance: 0,
					},
				],
				page: 0,
				rows: 1,
				maxRows: 50,
			},
		});
		const run = await fx.engine.run(reconcileWorkflow({}));
		expect(run.error?.message).toBe(
			`The daily balance report of ${day.slice(0, 10)} (USD) has depositTotal "n/a", not a number (item 0)`,
		);
		expect(LIST_PATHS.flatMap((path) => fx.sandbox.log.find('GET', path))).toEqual([]);
	});

	test('a list record whose date is no date fails the node naming the list, the record and the date: it cannot be put on a day', async () => {
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v1/deposits',
			kind: 'status',
			status: 200,
			body: {
				data: [
					{ idDeposit: 77, creationDate: 'soon', status: 'COMPLETED', amount: 1, currency: 'USD' },
				],
				page: 0,
				rows: 1,
				maxRows: 50,
			},
		});
		const run = await fx.engine.run(reconcileWorkflow({}));
		expect(run.error?.message).toBe(
			'1 deposit of the period has a creationDate that is not a date (idDeposit "77": "soon"), so it cannot be put on a day (item 0)',
		);
		expect(run.output(NODE)).toEqual([]);
	});

	test('a report row whose date is not the start of a UTC day is refused: its days are not the UTC days the lists are summed by', async () => {
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v1/balance/report',
			kind: 'status',
			status: 200,
			body: {
				data: [{ date: iso(today - DAY + 3 * 3600), currency: 'USD' }],
				page: 0,
				rows: 1,
				maxRows: 50,
			},
		});
		const run = await fx.engine.run(reconcileWorkflow({}));
		expect(run.error?.message).toBe(
			`A row of the daily balance report (USD) has date "${iso(today - DAY + 3 * 3600)}", not the start of a UTC day (item 0)`,
		);
	});
});

describe('Balance → Reconcile names every difference (a sandbox made to disagree)', () => {
	let fx: Fixture;
	let today: number;

	beforeAll(async () => {
		fx = await startFixture();
		const now = Math.floor(fx.sandbox.clock.now() / 1000);
		today = now - (now % DAY);
	});
	afterAll(async () => await fx.close());

	test('a deposit missing from the report and a balance that does not carry over are each reported on their day, with the right term and difference to the cent; every other day reconciles', async () => {
		const from = today - 30 * DAY;
		const missingDay = today - 12 * DAY;
		const jumpDay = today - 5 * DAY;
		const omitted = fx.sandbox.control
			.deposits(1001)
			.find(
				(deposit) =>
					deposit.status === 'COMPLETED' && dayOf(deposit.creationDate) === dayOf(iso(missingDay)),
			)!;
		fx.sandbox.control.omitFromBalanceReport(omitted.idDeposit);
		fx.sandbox.control.shiftBalanceReport(1001, dayOf(iso(jumpDay)), 12.34);
		const run = await fx.engine.run(
			reconcileWorkflow({ period: 'custom', createdFrom: iso(from), createdTo: iso(today - 1) }),
		);
		expect(run.error).toBeUndefined();
		const items = run.output(NODE).map((item) => item.json);
		expect(items).toHaveLength(30);
		const byDay = new Map(items.map((json) => [json.day, json]));
		const missing = byDay.get(dayOf(iso(missingDay)))!;
		const terms = missing.terms as Record<Term, IDataObject>;
		expect(missing).toMatchObject({
			reconciled: false,
			differences: ['depositTotal', 'depositFeeTotal'],
			net: { matches: true },
			balance: { matches: true },
		});
		expect(textCents(terms.depositTotal.difference)).toBe(cents(omitted.amount));
		expect(textCents(terms.depositFeeTotal.difference)).toBe(cents(omitted.fee));
		expect(textCents(terms.depositTotal.lists) - textCents(terms.depositTotal.report)).toBe(
			cents(omitted.amount),
		);
		const jump = byDay.get(dayOf(iso(jumpDay)))!;
		expect(jump).toMatchObject({
			reconciled: false,
			differences: ['totalBalance'],
			net: { matches: true },
			balance: { matches: false, difference: '-12.34' },
		});
		expect(
			textCents((jump.balance as IDataObject).report) -
				textCents((jump.balance as IDataObject).expected),
		).toBe(1234n);
		// The days after carry the shifted balance on: only the day it jumped fails.
		expect(items.filter((json) => json.reconciled !== true).map((json) => json.day)).toEqual(
			[dayOf(iso(missingDay)), dayOf(iso(jumpDay))].sort(),
		);
	});

	test('a day with a report row but no record of its terms, and a day with no row, are each reported, not skipped; a first row with no earlier one is not called reconciled', async () => {
		// Merchant 1002 holds no generated data: completed deposits on two days, a declined one the next.
		fx.engine.addCredential({
			id: 'cred-session-1002',
			name: 'Sandbox session 1002',
			type: SESSION,
			data: {
				baseUrl: fx.sandbox.baseUrl,
				accessKey: fx.sandbox.credentials.session.accessKey,
				secretKey: fx.sandbox.credentials.session.secretKey,
				merchantId: '1002',
			},
		});
		const first = today - 10 * DAY;
		const add = (at: number, amount: number, status: string) =>
			fx.sandbox.control.addDeposit({ idMerchant: 1002, creationDate: iso(at), amount, status });
		add(first - 20 * DAY + 60, 20, 'COMPLETED');
		const completed = add(first + 3600, 100.1, 'COMPLETED');
		add(first + DAY + 3600, 50, 'DECLINED');
		const run = await fx.engine.run(
			reconcileWorkflow(
				{ period: 'custom', createdFrom: iso(first - DAY), createdTo: iso(first + 2 * DAY) },
				'cred-session-1002',
			),
		);
		expect(run.error).toBeUndefined();
		const items = run.output(NODE).map((item) => item.json);
		expect(items.map((json) => [json.day, json.currency, json.reportRow, json.reconciled])).toEqual(
			[
				[dayOf(iso(first - DAY)), null, false, true],
				[dayOf(iso(first)), 'USD', true, true],
				[dayOf(iso(first + DAY)), 'USD', true, true],
				[dayOf(iso(first + 2 * DAY)), null, false, true],
			],
		);
		expect(items[0].notes).toEqual([
			'No report row for this day, and the lists hold no record of its terms: nothing moved',
		]);
		const deposits = (items[1].terms as Record<Term, IDataObject>).depositTotal;
		expect([textCents(deposits.report), textCents(deposits.lists), deposits.records]).toEqual([
			cents(completed.amount),
			cents(completed.amount),
			1,
		]);
		// The balance carried over from the row 20 days before, across the days without a row.
		expect(items[1].balance).toMatchObject({
			previousDay: dayOf(iso(first - 20 * DAY)),
			matches: true,
		});
		expect(items[2].notes).toEqual([
			'The report has a row for this day, but the lists hold no record of its terms',
		]);
		expect(items[2].balance).toMatchObject({ previousDay: dayOf(iso(first)), matches: true });
		// The merchant's first row: no earlier row to carry from, so its balance is not checked.
		const firstRow = await fx.engine.run(
			reconcileWorkflow(
				{ period: 'custom', createdFrom: iso(first - 20 * DAY), createdTo: iso(first - 20 * DAY) },
				'cred-session-1002',
			),
		);
		expect(firstRow.output(NODE).map((item) => item.json)).toEqual([
			expect.objectContaining({
				reportRow: true,
				reconciled: false,
				differences: [],
				balance: expect.objectContaining({ previousDay: null, matches: null }),
				notes: [
					'No earlier row of the report in USD within the 59 days before the period: the balance carried over is not checked (widen the period to include the row before)',
				],
			}),
		]);
	});
});
