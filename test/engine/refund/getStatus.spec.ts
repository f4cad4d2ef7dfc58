/** Refund → Get Status through n8n's engine against the sandbox. */
import { createHmac } from 'crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../../harness/fixtures';

const DEPOSIT = 'paymentsServiceDepositApi';

function refundWorkflow(
	parameters: INodeParameters,
	extra: IDataObject = {},
	items?: IDataObject[],
) {
	const builder = new WorkflowBuilder('Refund');
	if (items) builder.items('Deposits', items);
	builder.then(
		paymentsNode({ resource: 'refund', operation: 'create', ...parameters }, DEPOSIT, extra),
	);
	return builder.build();
}

describe('Refund → Get Status through the n8n engine', () => {
	let fx: Fixture;

	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => await fx.close());
	beforeEach(() => {
		fx.sandbox.log.clear();
		fx.sandbox.faults.clear();
	});

	/** A COMPLETED deposit of the demo merchant, 100 USD (543.00 BRL for Brazil). */
	const completedDeposit = (paymentMethodCode = 'PX', country = 'BR') =>
		fx.sandbox.control.addDeposit({
			idMerchant: 1001,
			status: 'COMPLETED',
			country,
			paymentMethodCode,
			amount: 100,
		});

	test('Get Status reads a refund with a signed GET, follows its status, writes its voucher as a PDF and names an unknown one', async () => {
		const deposit = completedDeposit();
		const created = await fx.engine.run(
			refundWorkflow({ depositId: String(deposit.idDeposit), amount: '10' }),
		);
		const refundId = created.output('Payments Service')[0].json.refund_id as number;
		fx.sandbox.control.advanceRefund(refundId, 'DELIVERED');
		fx.sandbox.log.clear();

		const builder = new WorkflowBuilder('Refund status');
		builder.items('Refunds', [{ id: refundId }, { id: 999999 }]);
		builder.then(
			paymentsNode(
				{
					resource: 'refund',
					operation: 'getStatus',
					refundId: '={{ $json.id }}',
					options: { voucherToBinary: true },
				},
				DEPOSIT,
				{ continueOnFail: true },
			),
		);
		const run = await fx.engine.run(builder.build());
		const [found, missing] = run.output('Payments Service');
		expect(found.json).toEqual({
			refund_id: refundId,
			deposit_id: deposit.idDeposit,
			merchant_invoice_id: deposit.externalId,
			status: 'DELIVERED',
			amount: 10,
		});
		expect(found.binary?.voucher).toMatchObject({
			mimeType: 'application/pdf',
			fileName: `refund-${refundId}.pdf`,
		});
		expect(Buffer.from(found.binary!.voucher.data, 'base64').subarray(0, 5).toString()).toBe(
			'%PDF-',
		);
		expect(missing.json).toMatchObject({
			error:
				'Refund 999999 was not found (208): check the Refund ID and that the credential belongs to the merchant that requested it',
			code: 208,
		});

		const [get] = fx.sandbox.log.find('GET', `/v3/refunds/${refundId}`);
		expect(get.query).toEqual({ voucher: 'true' });
		expect(get.headers.authorization).toBe(
			'D24 ' +
				createHmac('sha256', fx.sandbox.credentials.deposit.apiSignature)
					.update(get.headers['x-date'] + get.headers['x-login'])
					.digest('hex'),
		);
	});
});
