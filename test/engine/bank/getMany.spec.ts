/** Bank → Get Many through n8n's engine against the sandbox. */
import { paymentsNode, WorkflowBuilder, type Fixture } from '../../harness/fixtures';
import { sharedFixture } from '../../harness/sharedFixture';

const READ_ONLY = 'paymentsServiceReadOnlyApi';

function single(
	resource: string,
	operation: string,
	parameters: Record<string, unknown>,
	credential: 'paymentsServiceSessionApi' | 'paymentsServiceReadOnlyApi',
	extra = {},
) {
	const builder = new WorkflowBuilder(`${resource} ${operation}`);
	builder.then(paymentsNode({ resource, operation, ...parameters }, credential, extra));
	return builder.build();
}

// The read-only blocks share one fixture; the Session block starts its own (it logs out).
const shared = sharedFixture();

describe('Bank → Get Many through the n8n engine', () => {
	let fx: Fixture;
	beforeAll(() => (fx = shared()));
	beforeEach(() => fx.sandbox.log.clear());

	test('Bank Get Many lists a country’s bank codes, one item per bank, with Limit', async () => {
		const all = await fx.engine.run(
			single('bank', 'getMany', { country: 'MX', returnAll: true }, READ_ONLY),
		);
		const banks = all.output('Payments Service').map((item) => item.json);
		expect(banks.length).toBeGreaterThan(2);
		expect(
			banks.every((bank) => typeof bank.code === 'number' && typeof bank.name === 'string'),
		).toBe(true);
		const limited = await fx.engine.run(
			single('bank', 'getMany', { country: 'MX', returnAll: false, limit: 2 }, READ_ONLY),
		);
		expect(limited.output('Payments Service').map((item) => item.json)).toEqual(banks.slice(0, 2));
	});

	test('a wrong read-only key is reported with code 100 and its meaning, without the key', async () => {
		fx.engine.addCredential({
			id: 'ro-wrong',
			name: 'wrong',
			type: READ_ONLY,
			data: { baseUrl: fx.sandbox.apiUrl, readOnlyKey: 'ro_wrong_key_SECRET' },
		});
		const workflow = single('bank', 'getMany', { country: 'BR', returnAll: true }, READ_ONLY);
		workflow.nodes[1].credentials = { [READ_ONLY]: { id: 'ro-wrong', name: 'wrong' } };
		const failed = await fx.engine.run(workflow);
		expect(failed.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(/^Listing the banks of BR failed: .*\(100\)$/),
			description: expect.stringMatching(/read-only key is not valid/),
		});
		expect(JSON.stringify(failed.run.data)).not.toContain('ro_wrong_key_SECRET');
	});
});
