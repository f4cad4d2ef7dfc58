import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_IDS, dropSessionToken, nodeWorkflow, useFixture } from '../../harness/fixtures';
import {
	customPeriod,
	DAY,
	listWorkflow,
	nowSeconds,
	requestLines,
	SANDBOX_LISTS,
	sandboxRecords,
	windowsOf,
	type SandboxList,
} from '../../harness/lists';
import { expectedList, iso } from '../../harness/records';

const SESSION = 'paymentsServiceSessionApi';
/** The newest record of the last 7 days. */
const LATEST = { returnAll: false, limit: 1, period: 'last7Days' };

describe('reporting lists through the n8n engine', () => {
	const fx = useFixture();
	let now: number;
	beforeAll(() => (now = nowSeconds(fx)));

	/**
	 * Get Many of `resource` over [from, to] with Return All and `options`: expects the run to emit
	 * exactly the sandbox's records of the period, newest first, once each; resolves their ids and
	 * the list requests the sandbox received.
	 */
	async function readsThePeriod(
		resource: SandboxList,
		from: number,
		to: number,
		options?: IDataObject,
	) {
		const run = await fx.engine.run(
			listWorkflow(resource, {
				returnAll: true,
				...customPeriod(from, to),
				...(options && { options }),
			}),
		);
		expect(run.error).toBeUndefined();
		const [path, , date, id] = SANDBOX_LISTS[resource];
		const all = sandboxRecords(fx, resource);
		const expected = expectedList(all, date, id, from, to).map((record) => record[id]);
		expect(run.output('Payments Service').map((item) => item.json[id])).toEqual(expected);
		return { expected, requests: fx.sandbox.log.find('GET', path) };
	}

	test('Deposit Get Many at Window Concurrency 1 returns every deposit created in the period, newest first, once each, paging one window', async () => {
		const from = now - 20 * DAY;
		const to = now - 10 * DAY;
		const { expected, requests } = await readsThePeriod('deposit', from, to, {
			windowConcurrency: 1,
		});
		expect(expected.length).toBeGreaterThan(200);
		// Pages 0..n of one window, the last one short.
		expect(requests.map((entry) => Number(entry.query.page))).toEqual(
			Array.from({ length: Math.floor(expected.length / 50) + 1 }, (_, index) => index),
		);
		expect(windowsOf(requests)).toEqual(new Set([`${from}-${to}`]));
	});

	test('at the default Window Concurrency the same period is divided into windows read to their end that cover it exactly, with the same output', async () => {
		const from = now - 20 * DAY;
		const to = now - 10 * DAY;
		const { requests } = await readsThePeriod('deposit', from, to);
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
		const { requests } = await readsThePeriod('cashout', from, to, { windowConcurrency: 1 });
		const windows = [...windowsOf(requests)].map((pair) => pair.split('-').map(Number));
		expect(windows).toHaveLength(2);
		for (const [windowFrom, windowTo] of windows)
			expect(windowTo - windowFrom).toBeLessThan(60 * DAY);
		const sorted = [...windows].sort((a, b) => a[0] - b[0]);
		expect(sorted[0][0]).toBe(from);
		expect(sorted[1][0]).toBe(sorted[0][1] + 1);
		expect(sorted[1][1]).toBe(to);
		expect(fx.sandbox.log.entries().some((entry) => entry.status === 412)).toBe(false);
	});

	test('the output order does not depend on how many windows are read at once', async () => {
		const period = { returnAll: true, ...customPeriod(now - 190 * DAY, now) };
		const ids = async (windowConcurrency: number) =>
			(await fx.engine.run(listWorkflow('refund', { ...period, options: { windowConcurrency } })))
				.output('Payments Service')
				.map((item) => item.json.id);
		const atOne = await ids(1);
		expect(atOne.length).toBeGreaterThan(100);
		expect(await ids(4)).toEqual(atOne);
		expect(new Set(atOne).size).toBe(atOne.length);
	});

	test('Limit stops requesting once enough records arrived', async () => {
		const run = await fx.engine.run(
			listWorkflow('deposit', { returnAll: false, limit: 7, period: 'last90Days' }),
		);
		expect(run.output('Payments Service')).toHaveLength(7);
		expect(fx.sandbox.log.find('GET', '/v1/deposits')).toHaveLength(1);
	});

	test.each([
		{
			filters: { country: 'br', paymentMethod: 'PX' },
			period: 'last30Days',
			sent: { country: 'BR', paymentMethod: 'PX' },
			holds: (json: IDataObject) => json.country === 'BR' && json.paymentMethodCode === 'PX',
		},
		{
			// A status in another case is that status.
			filters: { status: 'completed' },
			period: 'last7Days',
			sent: { status: 'COMPLETED' },
			holds: (json: IDataObject) => json.status === 'COMPLETED',
		},
	])(
		'the filters $filters are sent under the service’s names ($sent) and every record emitted matches them',
		async ({ filters, period, sent, holds }) => {
			const run = await fx.engine.run(
				listWorkflow('deposit', { returnAll: true, period, filters }),
			);
			expect(run.error).toBeUndefined();
			expect(fx.sandbox.log.find('GET', '/v1/deposits')[0].query).toMatchObject(sent);
			const items = run.output('Payments Service');
			expect(items.length).toBeGreaterThan(0);
			expect(items.every((item) => holds(item.json))).toBe(true);
		},
	);

	test.each([
		{
			what: 'a Country that is not a 2-letter code',
			parameters: { period: 'last30Days', filters: { country: 'Brazil' } },
			error: {
				name: 'NodeOperationError',
				message: expect.stringMatching(/Country.*2-letter.*"Brazil".*item 0/),
				context: expect.objectContaining({ itemIndex: 0 }),
			},
		},
		{
			// What a model filling the Status with $fromAI() may send.
			what: 'a Status the list does not have, naming the statuses',
			parameters: { period: 'last7Days', filters: { status: 'SHIPPED' } },
			error: {
				name: 'NodeOperationError',
				message: expect.stringMatching(/Status.*status of deposits.*"SHIPPED".*item 0/),
				description: expect.stringContaining('PENDING, APPROVED, COMPLETED, CANCELLED, DECLINED'),
			},
		},
		{
			what: 'a Period that is not a preset, naming the presets',
			parameters: { period: 'lastWeek' },
			error: {
				name: 'NodeOperationError',
				message: expect.stringMatching(/period.*"lastWeek".*not one of today, yesterday/),
				description: expect.stringContaining('last7Days'),
			},
		},
		{
			what: 'a custom period that ends before it starts, naming both dates',
			parameters: { period: 'custom', createdFrom: '2026-01-10', createdTo: '2026-01-09' },
			error: {
				message:
					'Invalid period in item 0: Created From (2026-01-10T00:00:00.000Z) is after Created To (2026-01-09T23:59:59.000Z)',
			},
		},
	])('$what fails the item before any request', async ({ parameters, error }) => {
		const run = await fx.engine.run(listWorkflow('deposit', { returnAll: true, ...parameters }));
		expect(run.nodeError('Payments Service')).toMatchObject(error);
		expect(fx.sandbox.log.find('GET', '/v1/deposits')).toHaveLength(0);
	});

	test.each(['refund', 'chargeback', 'settlement', 'note'] as const)(
		'%s Get Many returns the sandbox’s records of the period',
		async (resource) => {
			const { expected, requests } = await readsThePeriod(resource, now - 59 * DAY, now);
			expect(expected.length).toBeGreaterThan(0);
			expect(requests.length).toBeGreaterThan(0);
		},
	);

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
				{ returnAll: true, ...customPeriod(from, today - 1) },
				'getDailyReport',
			),
		);
		expect(report.error).toBeUndefined();
		const days = report.output('Payments Service').map((item) => String(item.json.date));
		expect([...days].sort()).toEqual(
			Array.from({ length: 10 }, (_, index) => iso(from + index * DAY)),
		);
		expect(fx.sandbox.log.find('GET', '/v1/balance/report').length).toBeGreaterThan(0);
	});

	test('continueOnFail turns a bad item into an error item and the next item proceeds', async () => {
		const run = await fx.engine.run(
			nodeWorkflow(
				{
					resource: 'deposit',
					operation: 'getMany',
					returnAll: false,
					limit: 2,
					period: 'last30Days',
					filters: { country: '={{ $json.country }}' },
				},
				SESSION,
				{ items: [{ country: 'Brazil' }, { country: 'MX' }], extra: { continueOnFail: true } },
			),
		);
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
		expect(fx.sandbox.log.entries()).toHaveLength(0);
		const workflow = nodeWorkflow(
			{ resource: 'deposit', operation: 'getMany', ...LATEST },
			SESSION,
			{
				items: [{ n: 1 }, { n: 2 }, { n: 3 }],
			},
		);
		// A fresh credential with no token yet.
		dropSessionToken(fx);
		const id = CREDENTIAL_IDS[SESSION];
		for (let execution = 0; execution < 3; execution++) {
			const run = await fx.engine.run(workflow);
			expect(run.output('Payments Service')).toHaveLength(3);
		}
		expect(fx.sandbox.log.find('POST', '/v1/auth/login')).toHaveLength(1);
		expect(fx.sandbox.log.find('GET', '/v1/deposits')).toHaveLength(9);
		expect(fx.engine.credentials.stored(id).sessionToken).not.toBe('');
	});

	test('an expired session is renewed once and the request repeated', async () => {
		const workflow = listWorkflow('deposit', LATEST);
		await fx.engine.run(workflow);
		fx.sandbox.log.clear();
		fx.sandbox.clock.advance(16 * 60_000);
		const run = await fx.engine.run(workflow);
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service')).toHaveLength(1);
		expect(requestLines(fx)).toEqual([
			'GET /v1/deposits 401',
			'POST /v1/auth/login 200',
			'GET /v1/deposits 200',
		]);
	});
});
