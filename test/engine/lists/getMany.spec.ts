import {
	CREDENTIAL_IDS,
	paymentsNode,
	startFixture,
	WorkflowBuilder,
	type Fixture,
} from '../../harness/fixtures';
import { expectedList, iso } from '../../harness/records';

const SESSION = 'paymentsServiceSessionApi';
const DAY = 86_400;

/** A Get Many workflow for `resource` over a custom period. */
function listWorkflow(
	resource: string,
	parameters: Record<string, unknown>,
	operation = 'getMany',
) {
	const builder = new WorkflowBuilder(`List ${resource}`);
	builder.then(paymentsNode({ resource, operation, ...parameters }, SESSION));
	return builder.build();
}

const listRequests = (fx: Fixture, path: string) =>
	fx.sandbox.log.entries().filter((entry) => entry.method === 'GET' && entry.path === path);

describe('reporting lists through the n8n engine', () => {
	let fx: Fixture;
	let now: number;

	beforeAll(async () => {
		fx = await startFixture();
		now = Math.floor(fx.sandbox.clock.now() / 1000);
	});
	afterAll(async () => await fx.close());
	beforeEach(() => fx.sandbox.log.clear());

	test('Deposit Get Many at Window Concurrency 1 returns every deposit created in the period, newest first, once each, paging one window', async () => {
		const from = now - 20 * DAY;
		const to = now - 10 * DAY;
		const run = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'custom',
				createdFrom: iso(from),
				createdTo: iso(to),
				options: { windowConcurrency: 1 },
			}),
		);
		expect(run.error).toBeUndefined();
		const expected = expectedList(
			fx.sandbox.control.deposits(1001),
			'creationDate',
			'idDeposit',
			from,
			to,
		);
		expect(expected.length).toBeGreaterThan(200);
		const emitted = run.output('Payments Service').map((item) => item.json.idDeposit);
		expect(emitted).toEqual(expected.map((deposit) => deposit.idDeposit));
		// Pages 0..n of one window, the last one short.
		const pages = listRequests(fx, '/v1/deposits').map((entry) => Number(entry.query.page));
		expect(pages).toEqual(
			Array.from({ length: Math.floor(expected.length / 50) + 1 }, (_, index) => index),
		);
		expect(
			new Set(
				listRequests(fx, '/v1/deposits').map((entry) => `${entry.query.from}-${entry.query.to}`),
			),
		).toEqual(new Set([`${from}-${to}`]));
	});

	test('at the default Window Concurrency the same period is divided into windows read to their end that cover it exactly, with the same output', async () => {
		const from = now - 20 * DAY;
		const to = now - 10 * DAY;
		const run = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'custom',
				createdFrom: iso(from),
				createdTo: iso(to),
			}),
		);
		expect(run.error).toBeUndefined();
		const expected = expectedList(
			fx.sandbox.control.deposits(1001),
			'creationDate',
			'idDeposit',
			from,
			to,
		);
		expect(run.output('Payments Service').map((item) => item.json.idDeposit)).toEqual(
			expected.map((deposit) => deposit.idDeposit),
		);
		const requests = listRequests(fx, '/v1/deposits');
		// A window read to its end answered a short page; those windows tile [from, to].
		const complete = requests
			.filter((entry) => (entry.responseBody as { rows: number }).rows < 50)
			.map((entry) => [Number(entry.query.from), Number(entry.query.to)])
			.sort((a, b) => a[0] - b[0]);
		expect(complete.length).toBeGreaterThan(1);
		expect(complete[0][0]).toBe(from);
		expect(complete[complete.length - 1][1]).toBe(to);
		for (let index = 1; index < complete.length; index++)
			expect(complete[index][0]).toBe(complete[index - 1][1] + 1);
	});

	test('a 70-day period is fetched as two windows, each shorter than 60 days, with nothing lost at the seam', async () => {
		const from = now - 100 * DAY;
		const to = from + 70 * DAY;
		const run = await fx.engine.run(
			listWorkflow('cashout', {
				returnAll: true,
				period: 'custom',
				createdFrom: iso(from),
				createdTo: iso(to),
				options: { windowConcurrency: 1 },
			}),
		);
		expect(run.error).toBeUndefined();
		const windows = [
			...new Set(
				listRequests(fx, '/v1/cashouts').map((entry) => `${entry.query.from}-${entry.query.to}`),
			),
		].map((pair) => pair.split('-').map(Number));
		expect(windows).toHaveLength(2);
		for (const [windowFrom, windowTo] of windows)
			expect(windowTo - windowFrom).toBeLessThan(60 * DAY);
		const sorted = [...windows].sort((a, b) => a[0] - b[0]);
		expect(sorted[0][0]).toBe(from);
		expect(sorted[1][0]).toBe(sorted[0][1] + 1);
		expect(sorted[1][1]).toBe(to);
		expect(fx.sandbox.log.entries().some((entry) => entry.status === 412)).toBe(false);
		const expected = expectedList(
			fx.sandbox.control.cashouts(1001),
			'creationDate',
			'idCashout',
			from,
			to,
		);
		expect(run.output('Payments Service').map((item) => item.json.idCashout)).toEqual(
			expected.map((cashout) => cashout.idCashout),
		);
	});

	test('the output order does not depend on how many windows are read at once', async () => {
		const period = { period: 'custom', createdFrom: iso(now - 190 * DAY), createdTo: iso(now) };
		const one = await fx.engine.run(
			listWorkflow('refund', { returnAll: true, ...period, options: { windowConcurrency: 1 } }),
		);
		const four = await fx.engine.run(
			listWorkflow('refund', { returnAll: true, ...period, options: { windowConcurrency: 4 } }),
		);
		const ids = (run: typeof one) => run.output('Payments Service').map((item) => item.json.id);
		expect(ids(one).length).toBeGreaterThan(100);
		expect(ids(four)).toEqual(ids(one));
		expect(new Set(ids(one)).size).toBe(ids(one).length);
	});

	test('Limit stops requesting once enough records arrived', async () => {
		const run = await fx.engine.run(
			listWorkflow('deposit', { returnAll: false, limit: 7, period: 'last90Days' }),
		);
		expect(run.output('Payments Service')).toHaveLength(7);
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(1);
	});

	test('filters are sent under the service’s names and an invalid one fails the item before any request', async () => {
		const ok = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'last30Days',
				filters: { country: 'br', paymentMethod: 'PX' },
			}),
		);
		expect(ok.error).toBeUndefined();
		const sent = listRequests(fx, '/v1/deposits')[0].query;
		expect(sent).toMatchObject({ country: 'BR', paymentMethod: 'PX' });
		const items = ok.output('Payments Service');
		expect(items.length).toBeGreaterThan(0);
		expect(
			items.every((item) => item.json.country === 'BR' && item.json.paymentMethodCode === 'PX'),
		).toBe(true);

		fx.sandbox.log.clear();
		const bad = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'last30Days',
				filters: { country: 'Brazil' },
			}),
		);
		expect(bad.nodeError('Payments Service')).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(/Country.*2-letter.*"Brazil".*item 0/),
			context: expect.objectContaining({ itemIndex: 0 }),
		});
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(0);
	});

	test('a Status the list does not have fails the item before any request, naming the statuses; one in another case is that status', async () => {
		// What a model filling the Status with $fromAI() may send.
		const bad = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'last7Days',
				filters: { status: 'SHIPPED' },
			}),
		);
		expect(bad.nodeError('Payments Service')).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(/Status.*status of deposits.*"SHIPPED".*item 0/),
			description: expect.stringContaining('PENDING, APPROVED, COMPLETED, CANCELLED, DECLINED'),
		});
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(0);

		const ok = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'last7Days',
				filters: { status: 'completed' },
			}),
		);
		expect(ok.error).toBeUndefined();
		expect(listRequests(fx, '/v1/deposits')[0].query.status).toBe('COMPLETED');
		const items = ok.output('Payments Service');
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((item) => item.json.status === 'COMPLETED')).toBe(true);
	});

	test('a Period that is not a preset fails the item before any request, naming the presets', async () => {
		const run = await fx.engine.run(
			listWorkflow('deposit', { returnAll: true, period: 'lastWeek' }),
		);
		expect(run.nodeError('Payments Service')).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(/period.*"lastWeek".*not one of today, yesterday/),
			description: expect.stringContaining('last7Days'),
		});
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(0);
	});

	test('a custom period that ends before it starts fails the item before any request, naming both dates', async () => {
		const run = await fx.engine.run(
			listWorkflow('deposit', {
				returnAll: true,
				period: 'custom',
				createdFrom: '2026-01-10',
				createdTo: '2026-01-09',
			}),
		);
		expect(run.nodeError('Payments Service')?.message).toBe(
			'Invalid period in item 0: Created From (2026-01-10T00:00:00.000Z) is after Created To (2026-01-09T23:59:59.000Z)',
		);
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(0);
	});

	test('Refund, Chargeback, Settlement and Credit/Debit Note Get Many return the sandbox’s records of the period', async () => {
		const from = now - 59 * DAY;
		const cases = [
			{
				resource: 'refund',
				path: '/v1/refund',
				records: fx.sandbox.control.refunds(1001),
				date: 'date',
				id: 'id',
			},
			{
				resource: 'chargeback',
				path: '/v1/chargeback',
				records: fx.sandbox.control.chargebacks(1001),
				date: 'creationDate',
				id: 'idChargeback',
			},
			{
				resource: 'settlement',
				path: '/v1/settlements',
				records: fx.sandbox.control.settlements(1001),
				date: 'creationDate',
				id: 'id',
			},
			{
				resource: 'note',
				path: '/v1/notes',
				records: fx.sandbox.control.notes(1001),
				date: 'date',
				id: 'id',
			},
		] as const;
		for (const { resource, path, records, date, id } of cases) {
			fx.sandbox.log.clear();
			const run = await fx.engine.run(
				listWorkflow(resource, {
					returnAll: true,
					period: 'custom',
					createdFrom: iso(from),
					createdTo: iso(now),
				}),
			);
			expect(run.error).toBeUndefined();
			const expected = expectedList(
				records as unknown as Array<Record<string, unknown>>,
				date,
				id,
				from,
				now,
			);
			expect(expected.length).toBeGreaterThan(0);
			expect(run.output('Payments Service').map((item) => item.json[id])).toEqual(
				expected.map((record) => record[id]),
			);
			expect(listRequests(fx, path).length).toBeGreaterThan(0);
		}
	});

	test('Balance Get returns one item per balance and Get Daily Report one item per day', async () => {
		const balance = await fx.engine.run(listWorkflow('balance', {}, 'get'));
		expect(balance.error).toBeUndefined();
		expect(balance.output('Payments Service')).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					currency: 'USD',
					data: expect.objectContaining({ totalBalance: expect.any(Number) }),
				}),
			}),
		]);
		// Ten whole UTC days before today: each has movements, whatever the time of day the test runs.
		const today = now - (now % DAY);
		const from = today - 10 * DAY;
		const report = await fx.engine.run(
			listWorkflow(
				'balance',
				{ returnAll: true, period: 'custom', createdFrom: iso(from), createdTo: iso(today - 1) },
				'getDailyReport',
			),
		);
		expect(report.error).toBeUndefined();
		const days = report.output('Payments Service').map((item) => String(item.json.date));
		expect([...days].sort()).toEqual(
			Array.from({ length: 10 }, (_, index) => iso(from + index * DAY)),
		);
		expect(listRequests(fx, '/v1/balance/report').length).toBeGreaterThan(0);
	});

	test('continueOnFail turns a bad item into an error item and the next item proceeds', async () => {
		const builder = new WorkflowBuilder('continue on fail');
		builder.items('Countries', [{ country: 'Brazil' }, { country: 'MX' }]);
		builder.then(
			paymentsNode(
				{
					resource: 'deposit',
					operation: 'getMany',
					returnAll: false,
					limit: 2,
					period: 'last30Days',
					filters: { country: '={{ $json.country }}' },
				},
				SESSION,
				{ continueOnFail: true },
			),
		);
		const run = await fx.engine.run(builder.build());
		expect(run.error).toBeUndefined();
		const items = run.output('Payments Service');
		expect(items[0].json.error).toMatch(/"Brazil"/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items.slice(1).map((item) => item.json.country)).toEqual(['MX', 'MX']);
		expect(items.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(
			true,
		);
	});

	test('one login serves many items and several executions', async () => {
		const before = fx.sandbox.log.entries().length;
		expect(before).toBe(0);
		const builder = new WorkflowBuilder('three items');
		builder.items('Items', [{ n: 1 }, { n: 2 }, { n: 3 }]);
		builder.then(
			paymentsNode(
				{
					resource: 'deposit',
					operation: 'getMany',
					returnAll: false,
					limit: 1,
					period: 'last7Days',
				},
				SESSION,
			),
		);
		const workflow = builder.build();
		// A fresh credential with no token yet.
		fx.engine.addCredential({
			...storedSession(fx),
			data: { ...storedSession(fx).data, sessionToken: '' },
		});
		for (let execution = 0; execution < 3; execution++) {
			const run = await fx.engine.run(workflow);
			expect(run.output('Payments Service')).toHaveLength(3);
		}
		expect(fx.sandbox.log.find('POST', '/v1/auth/login')).toHaveLength(1);
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(9);
		expect(
			fx.engine.credentials.stored(CREDENTIAL_IDS.paymentsServiceSessionApi).sessionToken,
		).not.toBe('');
	});

	test('an expired session is renewed once and the request repeated', async () => {
		const workflow = listWorkflow('deposit', { returnAll: false, limit: 1, period: 'last7Days' });
		await fx.engine.run(workflow);
		fx.sandbox.log.clear();
		fx.sandbox.clock.advance(16 * 60_000);
		const run = await fx.engine.run(workflow);
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service')).toHaveLength(1);
		const sequence = fx.sandbox.log
			.entries()
			.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
		expect(sequence).toEqual([
			'GET /v1/deposits 401',
			'POST /v1/auth/login 200',
			'GET /v1/deposits 200',
		]);
	});
});

function storedSession(fx: Fixture) {
	return {
		id: CREDENTIAL_IDS.paymentsServiceSessionApi,
		name: 'Sandbox session',
		type: 'paymentsServiceSessionApi',
		data: fx.engine.credentials.stored(CREDENTIAL_IDS.paymentsServiceSessionApi),
	};
}
