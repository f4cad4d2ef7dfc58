import type { IDataObject, INode } from 'n8n-workflow';

import type { RequestLogEntry } from '../../sandbox/types';
import { fakeDate, realDate } from '../../harness/clock';
import { payoutFromRow } from '../../harness/creations';
import {
	paymentsNode,
	startFixture,
	WorkflowBuilder,
	type CredentialTypeName,
	type Fixture,
} from '../../harness/fixtures';

/**
 * Deposit, Cashout and Refund → Create run their items at once, up to Options → Concurrency
 * (actions/router.ts, idempotency/createOnce.ts): the requests the sandbox received overlap as far
 * as the option allows and no further, the items come out in input order, paired with their input
 * item, and a failure stops the node only after the items in flight finished.
 */

const CASHOUT: CredentialTypeName = 'paymentsServiceCashoutApi';
const DEPOSIT: CredentialTypeName = 'paymentsServiceDepositApi';

/** Rows of payouts, each with its own beneficiary (`name`), so a request names its row. */
const payoutRows = (salt: string, count: number) =>
	Array.from({ length: count }, (_, row) => ({
		name: `Row ${row} ${salt}`,
		amount: `${100 + row}.00`,
		document: '84932495016',
	}));

const payout = payoutFromRow;

/** Rows → `node`. */
function rowsWorkflow(id: string, rows: IDataObject[], node: INode) {
	const builder = new WorkflowBuilder('Creations at once');
	builder.items('Rows', rows);
	builder.then(node);
	return { ...builder.build(), id };
}

/**
 * The most requests that were in flight at once, from the sandbox's order of arrivals and answers:
 * a request counts the earlier ones not yet answered when it arrived.
 */
function peakInFlight(entries: RequestLogEntry[]): number {
	return Math.max(
		0,
		...entries.map(
			(entry) =>
				1 +
				entries.filter(
					(earlier) => earlier.seq < entry.seq && (earlier.answeredSeq ?? Infinity) > entry.seq,
				).length,
		),
	);
}

describe('creations at concurrency', () => {
	let fx: Fixture;

	beforeAll(async () => {
		fx = await startFixture({ sandbox: { depositsPerDay: 0, cashoutsPerDay: 0 } });
	});
	afterAll(async () => await fx.close());
	beforeEach(() => {
		fx.sandbox.log.clear();
		fx.sandbox.faults.clear();
		fx.sandbox.setLatency(30);
	});
	afterEach(() => fx.sandbox.setLatency(0));

	/** The row a cashout request or record belongs to (its beneficiary `Row <n> <salt>`). */
	const rowOf = (name: unknown) => Number(/^Row (\d+) /.exec(String(name))?.[1]);
	const posts = () => fx.sandbox.log.find('POST', '/v3/cashout');
	const paid = (salt: string) =>
		fx.sandbox.control
			.createdCashouts()
			.filter((entry) => String(entry.request.beneficiary_name).endsWith(salt))
			.map((entry) => rowOf(entry.request.beneficiary_name))
			.sort((a, b) => a - b);

	test.each([
		['1 (saved workflows)', 1, {}, 1],
		['1.1 (saved workflows)', 1.1, {}, 1],
		['1.2 (new nodes)', 1.2, {}, 8],
		['1.2 with Concurrency 3', 1.2, { concurrency: 3 }, 3],
		['1 with Concurrency 16', 1, { concurrency: 16 }, 16],
	])(
		'node version %s sends up to that many payouts at once, and outputs them in input order, paired with their rows',
		async (_name, typeVersion, options, expected) => {
			const salt = `#at-once-${typeVersion}-${expected}`;
			// Two rounds at the expected concurrency, and at least 8 rows.
			const rows = payoutRows(salt, Math.max(8, 2 * expected));
			const run = await fx.engine.run(
				rowsWorkflow('wf-at-once', rows, {
					...paymentsNode(payout({ options }), CASHOUT),
					typeVersion,
				}),
			);
			expect(run.error).toBeUndefined();
			// Never more than the option; on a busy machine the last of a round may leave after the
			// first answer came back, so at least more than half of it.
			const peak = peakInFlight(posts());
			expect(peak).toBeLessThanOrEqual(expected);
			expect(peak).toBeGreaterThan(expected / 2);
			const output = run.output('Payments Service');
			expect(output.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
			const byRow = new Map(
				fx.sandbox.control
					.createdCashouts()
					.map((entry) => [rowOf(entry.request.beneficiary_name), entry.cashoutId]),
			);
			expect(output.map((item) => item.json.cashout_id)).toEqual(
				rows.map((_, row) => byRow.get(row)),
			);
			expect(paid(salt)).toEqual(rows.map((_, row) => row));
		},
	);

	test.each([0, 17, 2.5, 'many'])(
		'Concurrency %p is refused before anything is sent, naming the field and the range',
		async (concurrency) => {
			const run = await fx.engine.run(
				rowsWorkflow(
					'wf-bad-concurrency',
					payoutRows('#bad', 2),
					paymentsNode(payout({ options: { concurrency } }), CASHOUT),
				),
			);
			expect(run.nodeError('Payments Service')?.message).toBe(
				`Concurrency must be a whole number from 1 to 16, got "${String(concurrency)}" (item 0)`,
			);
			expect(posts()).toHaveLength(0);
		},
	);

	test('deposits and refunds run at Concurrency too, each made once, in input order', async () => {
		const depositRows = Array.from({ length: 10 }, (_, row) => ({ amount: `${50 + row}.00` }));
		const deposits = await fx.engine.run(
			rowsWorkflow(
				'wf-deposits-at-once',
				depositRows,
				paymentsNode(
					{
						resource: 'deposit',
						operation: 'create',
						amount: '={{ $json.amount }}',
						currency: 'BRL',
						country: 'BR',
						options: { concurrency: 5 },
					},
					DEPOSIT,
				),
			),
		);
		expect(deposits.error).toBeUndefined();
		expect(peakInFlight(fx.sandbox.log.find('POST', '/v3/deposits'))).toBeLessThanOrEqual(5);
		expect(peakInFlight(fx.sandbox.log.find('POST', '/v3/deposits'))).toBeGreaterThan(2);
		const made = deposits.output('Payments Service').map((item) => item.json);
		const byInvoice = new Map(
			fx.sandbox.control.createdDeposits().map((entry) => [entry.request.invoice_id, entry]),
		);
		const depositOf = (item: IDataObject) => byInvoice.get(item.idempotency_key);
		expect(made.map((item) => String(depositOf(item)?.request.amount))).toEqual(
			depositRows.map((row) => row.amount),
		);
		expect(made.map((item) => item.deposit_id)).toEqual(
			made.map((item) => depositOf(item)?.depositId),
		);
		const refundRows = Array.from({ length: 8 }, () => ({
			deposit: fx.sandbox.control.addDeposit({
				idMerchant: 1001,
				status: 'COMPLETED',
				country: 'BR',
				paymentMethodCode: 'PX',
				amount: 100,
			}).idDeposit,
		}));
		const refunds = await fx.engine.run(
			rowsWorkflow(
				'wf-refunds-at-once',
				refundRows,
				paymentsNode(
					{
						resource: 'refund',
						operation: 'create',
						depositId: '={{ $json.deposit }}',
						amount: '5.00',
						options: { concurrency: 4 },
					},
					DEPOSIT,
				),
			),
		);
		expect(refunds.error).toBeUndefined();
		expect(peakInFlight(fx.sandbox.log.find('POST', '/v3/refunds'))).toBeLessThanOrEqual(4);
		expect(peakInFlight(fx.sandbox.log.find('POST', '/v3/refunds'))).toBeGreaterThan(2);
		expect(refunds.output('Payments Service').map((item) => item.json.deposit_id)).toEqual(
			refundRows.map((row) => row.deposit),
		);
		const requested = fx.sandbox.control
			.createdRefunds()
			.filter((refund) => refundRows.some((row) => row.deposit === refund.depositId));
		expect(requested.map((refund) => refund.depositId).sort()).toEqual(
			refundRows.map((row) => row.deposit).sort(),
		);
	});

	test('with Continue On Fail, a refused row becomes its error item in its place; the others are paid', async () => {
		const rows = payoutRows('#cof', 12);
		// A document of one repeated digit fails the sandbox's KYC check.
		rows[3].document = '11111111111';
		rows[7].document = '11111111111';
		const run = await fx.engine.run(
			rowsWorkflow(
				'wf-cof',
				rows,
				paymentsNode(payout({ options: { concurrency: 8 } }), CASHOUT, { continueOnFail: true }),
			),
		);
		expect(run.error).toBeUndefined();
		const output = run.output('Payments Service');
		expect(output.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(output.map((item) => (item.json.error ? 'error' : item.json.already_created))).toEqual(
			rows.map((_, row) => (row === 3 || row === 7 ? 'error' : false)),
		);
		expect(output[3].json.error).toBe(
			'The beneficiary of the cashout in item 3 did not pass the KYC check (USER_REJECTED_KYC_CHECK): no payout was made',
		);
		expect(paid('#cof')).toEqual([0, 1, 2, 4, 5, 6, 8, 9, 10, 11]);
	});

	test("a failure stops the node after the payouts in flight finish, showing the first failing row's error; n8n's Retry sends only what was not made, and pays every row exactly once", async () => {
		const salt = '#stop';
		const rows = payoutRows(salt, 16);
		// The 3rd creation is made, but answered 500: its outcome is unknown, and the node stops.
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout',
			kind: 'status',
			status: 500,
			phase: 'after',
			skip: 2,
		});
		const workflow = rowsWorkflow(
			'wf-stop',
			rows,
			paymentsNode(payout({ options: { concurrency: 4 } }), CASHOUT),
		);
		const failed = await fx.engine.run(workflow);
		const sent = posts();
		const rowsOf = (entries: typeof sent) =>
			entries.map((entry) => rowOf(JSON.parse(entry.rawBody!).beneficiary_name));
		const [unknown] = rowsOf(sent.filter((entry) => entry.fault === 'status:500:after'));
		expect(failed.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(/^Creating the cashout of item \d+ failed/),
			context: expect.objectContaining({ itemIndex: unknown }),
		});
		// Rows after the failure were never started; those in flight were answered.
		expect(sent.length).toBeLessThan(rows.length);
		expect(sent.every((entry) => entry.answeredSeq !== undefined)).toBe(true);
		const paidBefore = paid(salt);
		expect(paidBefore).toEqual(rowsOf(sent).sort((a, b) => a - b));

		fx.sandbox.log.clear();
		const retried = await fx.engine.retry(failed, workflow);
		expect(retried.error).toBeUndefined();
		expect(paid(salt)).toEqual(rows.map((_, row) => row));
		// Sent again: the row whose outcome was unknown (with its key) and the rows never sent.
		const notMade = rows.map((_, row) => row).filter((row) => !paidBefore.includes(row));
		expect(rowsOf(posts()).sort((a, b) => a - b)).toEqual(
			[unknown, ...notMade].sort((a, b) => a - b),
		);
		const output = retried.output('Payments Service').map((item) => item.json);
		// The answered rows come from the failed execution's record, the unknown one is found, the
		// rest were paid now: every row reads as made now, none having reached a later node.
		expect(output.map((item, row) => [row, item.already_created])).toEqual(
			rows.map((_, row) => [row, false]),
		);
		// …with the cashout each made, as the sandbox holds it (the unknown one's id is known only to
		// a Session credential's look-up).
		const made = new Map(
			fx.sandbox.control
				.createdCashouts()
				.map((entry) => [rowOf(entry.request.beneficiary_name), entry.cashoutId]),
		);
		expect(output.map((item, row) => [row, item.cashout_id])).toEqual(
			rows.map((_, row) => [row, row === unknown ? null : made.get(row)]),
		);
	});

	test('Retry On Fail after a 500 sends only what the first try did not make: the rows answered before are output from the record, not sent again', async () => {
		// n8n's clock stands still: Retry On Fail's wait ends at once.
		fakeDate(Date.now());
		const salt = '#rof';
		const rows = payoutRows(salt, 12);
		// The 5th creation is not processed: the node stops after the payouts in flight.
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout',
			kind: 'status',
			status: 500,
			skip: 4,
		});
		const run = await fx.engine.run(
			rowsWorkflow(
				'wf-rof',
				rows,
				paymentsNode(payout({ options: { concurrency: 4 } }), CASHOUT, {
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 1,
				}),
			),
		);
		expect(run.error).toBeUndefined();
		expect(paid(salt)).toEqual(rows.map((_, row) => row));
		const sent = posts().map((entry) => rowOf(JSON.parse(entry.rawBody!).beneficiary_name));
		// Every row once, and the refused one twice: nothing answered was sent again.
		expect(sent).toHaveLength(rows.length + 1);
		expect(new Set(sent).size).toBe(rows.length);
		const output = run.output('Payments Service').map((item) => item.json);
		expect(output.map((item) => item.already_created)).toEqual(rows.map(() => false));
		expect(output.filter((item) => item.times_sent === 2)).toHaveLength(1);
		realDate();
	});

	test('a 429 pauses every payout of the run, then the refused one is sent again with its key', async () => {
		// When each creation arrived, in real milliseconds (the sandbox's own clock stands still).
		const arrived = new Map<number, number>();
		const log = fx.sandbox.log as unknown as { begin: (fields: object) => RequestLogEntry };
		const begin = log.begin.bind(log);
		const spy = jest.spyOn(log, 'begin').mockImplementation((fields) => {
			const entry = begin(fields);
			arrived.set(entry.seq, Date.now());
			return entry;
		});
		const at = (entry: RequestLogEntry) => arrived.get(entry.seq)!;
		const salt = '#429-all';
		const rows = payoutRows(salt, 16);
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout',
			kind: 'status',
			status: 429,
			retryAfterSeconds: 1,
			skip: 2,
		});
		const run = await fx.engine.run(
			rowsWorkflow(
				'wf-429-all',
				rows,
				paymentsNode(payout({ options: { concurrency: 8 } }), CASHOUT),
			),
		);
		expect(run.error).toBeUndefined();
		expect(paid(salt)).toEqual(rows.map((_, row) => row));
		const sent = posts();
		const refused = sent.find((entry) => entry.status === 429)!;
		const key = JSON.parse(refused.rawBody!).external_id as string;
		const resent = sent.filter(
			(entry) => entry !== refused && JSON.parse(entry.rawBody!).external_id === key,
		);
		expect(resent.map((entry) => entry.status)).toEqual([200]);
		spy.mockRestore();
		expect(at(resent[0]) - at(refused)).toBeGreaterThanOrEqual(1_000);
		// While the service's wait lasted, only requests already on their way arrived (one per other
		// worker at most): without the pause, the other 7 workers would have sent every row by then.
		const during = sent.filter((entry) => entry.seq > refused.seq && at(entry) < at(refused) + 900);
		expect(during.length).toBeLessThanOrEqual(7);
	});
});
