/** Deposit → Get Status through n8n's engine against the sandbox. */
import { nodeWorkflow, useFixture } from '../../harness/fixtures';
import { depositAuthorization } from '../../harness/signatures';

const DEPOSIT = 'paymentsServiceDepositApi';

describe('Deposit → Get Status through the n8n engine', () => {
	const fx = useFixture();

	test('Get Status reads a created deposit with a signed GET, and names an unknown one', async () => {
		const created = await fx.engine.run(
			nodeWorkflow(
				{
					resource: 'deposit',
					operation: 'create',
					amount: '12.00',
					currency: 'BRL',
					country: 'BR',
				},
				DEPOSIT,
			),
		);
		const depositId = created.output('Payments Service')[0].json.deposit_id;
		fx.sandbox.log.clear();
		const run = await fx.engine.run(
			nodeWorkflow(
				{ resource: 'deposit', operation: 'getStatus', depositId: '={{ $json.id }}' },
				DEPOSIT,
				{
					items: [{ id: depositId }, { id: 999999999 }],
					extra: { continueOnFail: true },
				},
			),
		);
		const [found, missing] = run.output('Payments Service');
		expect(found.json).toMatchObject({ deposit_id: depositId, status: 'PENDING', country: 'BR' });
		expect(missing.json.error).toBe(
			'Deposit 999999999 was not found (208): check the Deposit ID and that the credential belongs to the merchant that created it',
		);
		const [get] = fx.sandbox.log.find('GET', `/v3/deposits/${String(depositId)}`);
		expect(get.headers.authorization).toBe(
			depositAuthorization(get, fx.sandbox.credentials.deposit.apiSignature),
		);
	});
});
