/** Refund → Get Status through n8n's engine against the sandbox. */
import { nodeWorkflow, useFixture } from '../../harness/fixtures';
import { depositAuthorization } from '../../harness/signatures';

const DEPOSIT = 'paymentsServiceDepositApi';

describe('Refund → Get Status through the n8n engine', () => {
	const fx = useFixture();

	test('Get Status reads a refund with a signed GET, follows its status, writes its voucher as a PDF and names an unknown one', async () => {
		// A COMPLETED deposit of the demo merchant, 100 USD (543.00 BRL for Brazil).
		const deposit = fx.sandbox.control.addDeposit({
			idMerchant: 1001,
			status: 'COMPLETED',
			country: 'BR',
			paymentMethodCode: 'PX',
			amount: 100,
		});
		const created = await fx.engine.run(
			nodeWorkflow(
				{
					resource: 'refund',
					operation: 'create',
					depositId: String(deposit.idDeposit),
					amount: '10',
				},
				DEPOSIT,
			),
		);
		const refundId = created.output('Payments Service')[0].json.refund_id as number;
		fx.sandbox.control.advanceRefund(refundId, 'DELIVERED');
		fx.sandbox.log.clear();

		const run = await fx.engine.run(
			nodeWorkflow(
				{
					resource: 'refund',
					operation: 'getStatus',
					refundId: '={{ $json.id }}',
					options: { voucherToBinary: true },
				},
				DEPOSIT,
				{ items: [{ id: refundId }, { id: 999999 }], extra: { continueOnFail: true } },
			),
		);
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
			depositAuthorization(get, fx.sandbox.credentials.deposit.apiSignature),
		);
	});
});
