/** Deposit → Get Status through n8n's engine against the sandbox. */
import { createHmac } from 'crypto';
import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../../harness/fixtures';

const DEPOSIT = 'paymentsServiceDepositApi';

function createWorkflow(
	parameters: Record<string, unknown>,
	extra: Record<string, unknown> = {},
	items?: Array<Record<string, unknown>>,
) {
	const builder = new WorkflowBuilder('Create deposit');
	if (items) builder.items('Orders', items);
	builder.then(
		paymentsNode({ resource: 'deposit', operation: 'create', ...parameters }, DEPOSIT, extra),
	);
	return builder.build();
}

describe('Deposit → Get Status through the n8n engine', () => {
	let fx: Fixture;

	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => await fx.close());
	beforeEach(() => {
		fx.sandbox.log.clear();
		fx.sandbox.faults.clear();
	});

	test('Get Status reads a created deposit with a signed GET, and names an unknown one', async () => {
		const created = await fx.engine.run(
			createWorkflow({ amount: '12.00', currency: 'BRL', country: 'BR' }),
		);
		const depositId = created.output('Payments Service')[0].json.deposit_id;
		fx.sandbox.log.clear();
		const builder = new WorkflowBuilder('Deposit status');
		builder.items('Deposits', [{ id: depositId }, { id: 999999999 }]);
		builder.then(
			paymentsNode(
				{ resource: 'deposit', operation: 'getStatus', depositId: '={{ $json.id }}' },
				DEPOSIT,
				{ continueOnFail: true },
			),
		);
		const run = await fx.engine.run(builder.build());
		const [found, missing] = run.output('Payments Service');
		expect(found.json).toMatchObject({ deposit_id: depositId, status: 'PENDING', country: 'BR' });
		expect(missing.json.error).toBe(
			'Deposit 999999999 was not found (208): check the Deposit ID and that the credential belongs to the merchant that created it',
		);
		const [get] = fx.sandbox.log.find('GET', `/v3/deposits/${String(depositId)}`);
		const expected =
			'D24 ' +
			createHmac('sha256', fx.sandbox.credentials.deposit.apiSignature)
				.update(get.headers['x-date'] + get.headers['x-login'])
				.digest('hex');
		expect(get.headers.authorization).toBe(expected);
	});
});
