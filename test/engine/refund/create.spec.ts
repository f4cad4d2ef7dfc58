/** Refund → Create through n8n's engine against the sandbox. */
import { creationsFixture } from '../../harness/creations';
import { createHmac } from 'crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { paymentsNode, WorkflowBuilder, type Fixture } from '../../harness/fixtures';
import { fakeDate } from '../../harness/clock';

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

describe('Refund → Create through the n8n engine', () => {
	const fixture = creationsFixture();
	let fx: Fixture;
	beforeEach(() => (fx = fixture()));

	/** A COMPLETED deposit of the demo merchant, 100 USD (543.00 BRL for Brazil). */
	const completedDeposit = (paymentMethodCode = 'PX', country = 'BR') =>
		fx.sandbox.control.addDeposit({
			idMerchant: 1001,
			status: 'COMPLETED',
			country,
			paymentMethodCode,
			amount: 100,
		});
	const refundsOf = (depositId: number) =>
		fx.sandbox.control.createdRefunds().filter((refund) => refund.depositId === depositId);
	const calls = () =>
		fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

	test('a full refund of a Pix deposit by its ID: signed like deposits, with a derived idempotency key', async () => {
		const deposit = completedDeposit();
		const run = await fx.engine.run(
			refundWorkflow({
				depositId: String(deposit.idDeposit),
				additionalFields: { comments: 'Order cancelled' },
			}),
		);
		expect(run.error).toBeUndefined();
		const [refund] = refundsOf(deposit.idDeposit);
		const [post] = fx.sandbox.log.find('POST', '/v3/refunds');
		const key = post.headers['x-idempotency-key'];
		expect(key).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(run.output('Payments Service').map((item) => item.json)).toEqual([
			{
				already_requested: false,
				refund_id: refund.refundId,
				deposit_id: deposit.idDeposit,
				invoice_id: null,
				amount: null,
				idempotency_key: key,
				refund_info: null,
				message: `Refund ${refund.refundId} of deposit ${deposit.idDeposit} requested (everything left).`,
			},
		]);
		expect(JSON.parse(post.rawBody!)).toEqual({
			deposit_id: deposit.idDeposit,
			comments: 'Order cancelled',
		});
		expect(post.headers.authorization).toBe(
			'D24 ' +
				createHmac('sha256', fx.sandbox.credentials.deposit.apiSignature)
					.update(post.headers['x-date'] + post.headers['x-login'] + post.rawBody)
					.digest('hex'),
		);
		expect(
			fx.sandbox.control.refunds(1001).find((record) => record.id === refund.refundId),
		).toMatchObject({ amountType: 'FULL', status: 'PENDING', amount: 543 });
	});

	test('a partial refund of a card deposit by its invoice ID carries the acquirer’s refund_info', async () => {
		const deposit = completedDeposit('VI');
		const run = await fx.engine.run(
			refundWorkflow({ identifyBy: 'invoiceId', invoiceId: deposit.externalId, amount: '100.50' }),
		);
		expect(run.error).toBeUndefined();
		const [item] = run.output('Payments Service');
		expect(item.json).toMatchObject({
			already_requested: false,
			deposit_id: null,
			invoice_id: deposit.externalId,
			amount: '100.50',
			refund_info: { type: 'CREDIT_CARD', result: 'SUCCESS', amount: 100.5, currency: 'BRL' },
		});
		expect(refundsOf(deposit.idDeposit)).toHaveLength(1);
	});

	test('a bank-transfer deposit is refunded to the bank account given', async () => {
		const deposit = completedDeposit('BL');
		const run = await fx.engine.run(
			refundWorkflow({
				depositId: String(deposit.idDeposit),
				amount: '43',
				bankAccount: {
					beneficiary: 'João Lima',
					bankCode: '341',
					accountNumber: '99887-0',
					branch: '0042',
					accountType: 'C',
				},
			}),
		);
		expect(run.error).toBeUndefined();
		expect(JSON.parse(fx.sandbox.log.find('POST', '/v3/refunds')[0].rawBody!)).toEqual({
			deposit_id: deposit.idDeposit,
			amount: '43',
			bank_account: {
				beneficiary: 'João Lima',
				bank_code: '341',
				branch: '0042',
				account_number: '99887-0',
				account_type: 'C',
			},
		});
		expect(
			fx.sandbox.control.refunds(1001).find((record) => record.idBoleto === deposit.idDeposit),
		).toMatchObject({ bankAccount: '99887-0', bankName: 'Itaú Unibanco' });
	});

	test('a lost answer is sent again by the node; without a Session credential the repeat (104) cannot be confirmed, so it is output only when Unconfirmed Repeat says so: one refund', async () => {
		fakeDate(Date.UTC(2026, 10, 25, 12));
		const deposit = completedDeposit();
		fx.sandbox.faults.add({ method: 'POST', path: '/v3/refunds', kind: 'reset', phase: 'after' });
		const failed = await fx.engine.run(
			refundWorkflow(
				{ depositId: String(deposit.idDeposit), amount: '7.00' },
				{ retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
			),
		);
		expect(failed.nodeError('Payments Service')?.message).toMatch(
			/^Refund in item 0: idempotency key n8n-[0-9a-f]{40} was already used, and the refund it belongs to could not be confirmed$/,
		);
		expect(refundsOf(deposit.idDeposit)).toHaveLength(1);
		fx.sandbox.log.clear();

		fx.sandbox.faults.add({ method: 'POST', path: '/v3/refunds', kind: 'reset', phase: 'after' });
		const run = await fx.engine.run(
			refundWorkflow(
				{ depositId: String(deposit.idDeposit), options: { unconfirmedRepeat: 'output' } },
				{ retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
			),
		);
		expect(run.error).toBeUndefined();
		const posts = fx.sandbox.log.find('POST', '/v3/refunds');
		expect(calls()).toEqual(['POST /v3/refunds 0', 'POST /v3/refunds 400']);
		const key = posts[0].headers['x-idempotency-key'];
		expect(posts[1].headers['x-idempotency-key']).toBe(key);
		expect(run.output('Payments Service')[0].json).toEqual({
			already_requested: false,
			refund_id: null,
			deposit_id: deposit.idDeposit,
			invoice_id: null,
			amount: null,
			idempotency_key: key,
			refund_info: null,
			matches_request: null,
			message: `Refund created (idempotency key ${key}): this execution sent it before without learning the outcome, and the service recognised it sent again (104); no second refund was made. Refund records carry no key: only a refund of deposit ${deposit.idDeposit} and this amount made since this execution first sent the key confirms it. Select a Session credential on this node to have the existing refund looked up and compared. It could not be compared with this request: if it is not this refund, give this one its own Idempotency Key.`,
			times_sent: 2,
		});
		expect(refundsOf(deposit.idDeposit)).toHaveLength(2);
		expect(
			fx.sandbox.control.refunds(1001).filter((record) => record.idBoleto === deposit.idDeposit),
		).toHaveLength(2);
	});

	test('an Idempotency Key given in the options is sent as it is', async () => {
		const deposit = completedDeposit();
		const run = await fx.engine.run(
			refundWorkflow({
				depositId: String(deposit.idDeposit),
				options: { idempotencyKey: 'refund-order-77' },
			}),
		);
		expect(run.output('Payments Service')[0].json.idempotency_key).toBe('refund-order-77');
		expect(fx.sandbox.log.find('POST', '/v3/refunds')[0].headers['x-idempotency-key']).toBe(
			'refund-order-77',
		);
	});

	test.each([
		[
			'802',
			() => ({ depositId: String(completedDeposit().idDeposit), amount: '9999.00' }),
			/^The amount of the refund of deposit \d+ cannot be refunded \(802\)$/,
			/The service said: Invalid amount to refund: .* at most 543\.00 BRL \(left to refund\).*Meaning: the amount cannot be refunded/,
		],
		[
			'804',
			() => ({ depositId: String(completedDeposit('BL').idDeposit) }),
			/^The refund of deposit \d+ needs the customer’s bank account \(804\): fill Bank Account/,
			/Meaning: the deposit was paid by a method that refunds to a bank account/,
		],
		[
			'208',
			() => ({ depositId: '999999999' }),
			/^Deposit 999999999 was not found \(208\): check it/,
			/Meaning: the resource was not found/,
		],
		[
			'300',
			() => ({
				depositId: String(
					fx.sandbox.control.addDeposit({
						idMerchant: 1001,
						status: 'PENDING',
						country: 'BR',
						paymentMethodCode: 'PX',
					}).idDeposit,
				),
			}),
			/^The refund of item 0 was refused: invalid request \(300\)$/,
			/Details: deposit_id: deposit \d+ is PENDING; only COMPLETED deposits can be refunded/,
		],
	])(
		'a %s refusal reaches the user with its meaning, and nothing is refunded',
		async (_code, parameters, message, description) => {
			const before = fx.sandbox.control.createdRefunds().length;
			const run = await fx.engine.run(refundWorkflow(parameters()));
			const error = run.nodeError('Payments Service') as unknown as {
				name: string;
				message: string;
				description: string;
			};
			expect(error.name).toBe('NodeApiError');
			expect(error.message).toMatch(message);
			expect(error.description).toMatch(description);
			expect(fx.sandbox.control.createdRefunds()).toHaveLength(before);
			expect(calls()).toEqual([expect.stringMatching(/^POST \/v3\/refunds 40[04]$/)]);
		},
	);

	test('bad input names the item, every broken field and the rule; nothing is sent', async () => {
		const run = await fx.engine.run(
			refundWorkflow(
				{
					depositId: '={{ $json.deposit }}',
					amount: '={{ $json.amount }}',
					additionalFields: { notificationUrl: '={{ $json.url }}' },
				},
				{ continueOnFail: true },
				[
					{ deposit: 'abc', amount: '1.234', url: 'http://shop.example.com/n' },
					{ deposit: '', amount: '5.00', url: 'https://shop.example.com/n' },
				],
			),
		);
		expect(run.output('Payments Service').map((item) => item.json)).toEqual([
			{
				error:
					'Refund in item 0 is invalid: deposit_id must be a positive whole number, the deposit_id of the deposit, e.g. 300012345',
				description:
					'Nothing was sent. Fix these 3 fields: deposit_id must be a positive whole number, the deposit_id of the deposit, e.g. 300012345; amount must be a positive decimal with at most 18 integer digits and 2 decimals, e.g. 100.50; notification_url must be an HTTPS URL (https://...).',
			},
			{
				error:
					'Refund in item 1 is invalid: deposit_id or invoice_id is required: name the deposit to refund',
				description:
					'Nothing was sent. Fix this field: deposit_id or invoice_id is required: name the deposit to refund.',
			},
		]);
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});
});
