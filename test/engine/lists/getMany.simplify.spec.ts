import { RECORD_LISTS, REPORTING_LISTS } from '../../../nodes/PaymentsService/reporting/lists';
import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../../harness/fixtures';

const SESSION = 'paymentsServiceSessionApi';

/** A Get Many over the last 30 days, limit 5, with the node at `typeVersion`. */
function listWorkflow(
	resource: string,
	typeVersion: number,
	parameters: Record<string, unknown> = {},
) {
	const builder = new WorkflowBuilder(`List ${resource} v${typeVersion}`);
	builder.then(
		paymentsNode(
			{ resource, operation: 'getMany', period: 'last30Days', limit: 5, ...parameters },
			SESSION,
			{ typeVersion },
		),
	);
	return builder.build();
}

describe('Get Many’s Simplify', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => await fx.close());

	test.each(RECORD_LISTS.map((list) => list.resource))(
		'%s: a new node (version 1.1) returns only the simple fields, the same records as the whole ones',
		async (resource) => {
			const simple = await fx.engine.run(listWorkflow(resource, 1.1));
			const whole = await fx.engine.run(listWorkflow(resource, 1.1, { simplify: false }));
			expect([simple.error, whole.error]).toEqual([undefined, undefined]);
			const fields = REPORTING_LISTS[resource].simpleFields;
			const wholeRecords = whole.output('Payments Service').map((item) => item.json);
			const simpleRecords = simple.output('Payments Service').map((item) => item.json);
			expect(simpleRecords.length).toBe(wholeRecords.length);
			// Each simple record is its whole record's simple fields, nothing renamed or added.
			expect(simpleRecords).toEqual(
				wholeRecords.map((record) =>
					Object.fromEntries(
						fields
							.filter((field) => record[field] !== undefined)
							.map((field) => [field, record[field]]),
					),
				),
			);
			expect(wholeRecords.length).toBeGreaterThan(0);
			expect(JSON.stringify(simpleRecords).length).toBeLessThan(
				JSON.stringify(wholeRecords).length,
			);
		},
	);

	test('a workflow saved with version 1 keeps the whole records', async () => {
		const run = await fx.engine.run(listWorkflow('deposit', 1));
		const records = run.output('Payments Service').map((item) => item.json);
		expect(records.length).toBeGreaterThan(0);
		for (const record of records)
			expect(Object.keys(record).length).toBeGreaterThan(
				REPORTING_LISTS.deposit.simpleFields.length,
			);
	});
});
