import { parse } from 'csv-parse/sync';
import type { IDataObject } from 'n8n-workflow';

import { paymentsNode, WorkflowBuilder } from '../../harness/fixtures';
import { periodRead } from '../../harness/reads';
import { expectedList, iso } from '../../harness/records';
import { sharedFixture } from '../../harness/sharedFixture';

const NODE = 'Payments Service';
const DAY = 86_400;

/** A workflow with one Payments Service node: Deposit → `operation` with `parameters`. */
function depositWorkflow(operation: string, parameters: Record<string, unknown>) {
	const builder = new WorkflowBuilder(`Deposit ${operation}`);
	builder.then(
		paymentsNode({ resource: 'deposit', operation, ...parameters }, 'paymentsServiceSessionApi'),
	);
	return { ...builder.build(), settings: {} };
}

const EXTRA: Record<string, Record<string, unknown>> = {
	getMany: { returnAll: true, options: { windowConcurrency: 4 } },
	summarize: { groupBy: ['status'], options: { timeZone: 'UTC', windowConcurrency: 4 } },
	exportToFile: { options: { timeZone: 'UTC', windowConcurrency: 4 } },
};

describe('A period is bounded before anything is read: an end after now is read as now, a date beyond year 9999 is refused', () => {
	const fixture = sharedFixture({ sandbox: { days: 180, depositsPerDay: 12, cashoutsPerDay: 0 } });
	beforeEach(() => fixture().sandbox.log.clear());

	test.each(['getMany', 'summarize', 'exportToFile'])(
		'%s with Created To 9999-12-31T23:59:59Z reads the period up to now: the requests of an end of now, every record created since From, and a hint that says so',
		async (operation) => {
			const fx = fixture();
			const from = Math.floor(fx.sandbox.clock.now() / 1000) - 20 * DAY;
			const before = Math.floor(Date.now() / 1000);
			const run = await fx.engine.run(
				depositWorkflow(operation, {
					period: 'custom',
					createdFrom: iso(from),
					createdTo: '9999-12-31T23:59:59Z',
					...EXTRA[operation],
				}),
			);
			const after = Math.ceil(Date.now() / 1000);
			expect(run.error).toBeUndefined();
			// One read of [from, now]: its windows cover it and none reaches past now.
			const requests = fx.sandbox.log.entries().filter((entry) => entry.path === '/v1/deposits');
			const end = Math.max(...requests.map((entry) => Number(entry.query.to)));
			expect(end).toBeGreaterThanOrEqual(before);
			expect(end).toBeLessThanOrEqual(after);
			const read = periodRead(fx.sandbox.log.entries(), '/v1/deposits', from, end);
			expect([read.requests, read.covers, read.repeated]).toEqual([requests.length, true, []]);
			expect(read.requests).toBeLessThan(20);
			const records = expectedList(
				fx.sandbox.control.deposits(1001),
				'creationDate',
				'idDeposit',
				from,
				end,
			);
			expect(records.length).toBeGreaterThan(100);
			const items = run.output(NODE);
			if (operation === 'getMany') expect(items).toHaveLength(records.length);
			else {
				const json = items.at(-1)!.json;
				expect(json.periodTo).toBe(iso(end));
				const count =
					operation === 'summarize'
						? json.count
						: (parse(Buffer.from(items[0].binary!.data.data, 'base64')) as string[][]).length - 1;
				expect([json.periodFrom, count]).toEqual([iso(from), records.length]);
			}
			const hints = run.run.data.resultData.runData[NODE][0].hints ?? [];
			expect(hints.map((hint) => hint.message)).toEqual([
				`Item 0: Created To (9999-12-31T23:59:59Z) is after now: read up to now (${iso(end)}), as no record is created in the future.`,
			]);
		},
	);

	test.each([
		['getMany', 1e21, /^Invalid period in item 0: Created To "1e\+21" is after year 9999/],
		[
			'summarize',
			8.64e15,
			/^Invalid period in item 0: Created To "8640000000000000" is after year 9999/,
		],
		[
			'exportToFile',
			'+275760-09-13T00:00:00Z',
			/Created To "\+275760-09-13T00:00:00Z" is after year 9999/,
		],
		['getMany', '={{ 1 / 0 }}', /^Invalid period in item 0: Created To "Infinity" is not a date/],
	])(
		'%s with Created To %s (an expression’s number beyond any calendar) fails at once naming the field, the item and the value; nothing is sent',
		async (operation, createdTo, message) => {
			const fx = fixture();
			const run = await fx.engine.run(
				depositWorkflow(operation, {
					period: 'custom',
					createdFrom: '2026-01-01',
					createdTo,
					...EXTRA[operation],
				}),
			);
			expect(run.error?.message).toMatch(message);
			expect(fx.sandbox.log.entries()).toEqual([]);
		},
	);

	test('a start before 1970 is read from 1970-01-01T00:00:00Z (the service holds no older date), with a hint; a period wholly in the future is refused', async () => {
		const fx = fixture();
		const run = await fx.engine.run(
			depositWorkflow('summarize', {
				period: 'custom',
				createdFrom: '0001-01-01',
				createdTo: '1970-04-30',
				options: { windowConcurrency: 1 },
			}),
		);
		expect(run.error).toBeUndefined();
		const json = run.output(NODE).at(-1)!.json as IDataObject;
		expect([json.periodFrom, json.periodTo, json.count]).toEqual([
			'1970-01-01T00:00:00Z',
			'1970-04-30T23:59:59Z',
			0,
		]);
		// 60 days at most a window: two windows, one empty page each.
		const requests = fx.sandbox.log.entries().map((entry) => [entry.query.from, entry.query.to]);
		expect(requests).toHaveLength(2);
		expect(Math.min(...requests.map(([from]) => Number(from)))).toBe(0);
		expect(run.run.data.resultData.runData[NODE][0].hints?.[0].message).toMatch(
			/Created From \(0001-01-01T00:00:00Z\) is before 1970: read from 1970-01-01T00:00:00Z/,
		);

		fx.sandbox.log.clear();
		const future = await fx.engine.run(
			depositWorkflow('getMany', {
				period: 'custom',
				createdFrom: '9999-01-01',
				createdTo: '9999-12-31',
			}),
		);
		expect(future.error?.message).toMatch(
			/^Invalid period in item 0: Created From \(9999-01-01T00:00:00Z\) is after now .*: no record is created in the future$/,
		);
		expect(fx.sandbox.log.entries()).toEqual([]);
	});
});
