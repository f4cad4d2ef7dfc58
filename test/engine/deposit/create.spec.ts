/** Deposit → Create through n8n's engine against the sandbox. */
import { creationsFixture } from '../../harness/creations';
import { createHmac } from 'crypto';
import {
	CREDENTIAL_IDS,
	paymentsNode,
	WorkflowBuilder,
	type Fixture,
} from '../../harness/fixtures';

const DEPOSIT = 'paymentsServiceDepositApi';

const PIX_PAYER = {
	document: '84932495016',
	documentType: 'CPF',
	email: 'ana.souza@example.com',
	firstName: 'Ana',
	lastName: 'Souza',
};

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

const depositPosts = (fx: Fixture) => fx.sandbox.log.find('POST', '/v3/deposits');

describe('Deposit → Create through the n8n engine', () => {
	const fixture = creationsFixture();
	let fx: Fixture;
	beforeEach(() => (fx = fixture()));

	test('a Pix deposit with every field the method needs is ONE_SHOT, with its QR code as a PNG binary', async () => {
		const run = await fx.engine.run(
			createWorkflow({
				amount: '150.25',
				currency: 'BRL',
				country: 'BR',
				paymentMethod: 'PX',
				payer: PIX_PAYER,
				additionalFields: {
					description: 'Order 1001',
					successUrl: 'https://shop.example.com/done',
				},
				options: { qrCodeToBinary: true },
			}),
		);
		expect(run.error).toBeUndefined();
		const [item] = run.output('Payments Service');
		expect(item.json).toMatchObject({
			checkout_type: 'ONE_SHOT',
			payment_info: expect.objectContaining({ payment_method: 'PX' }),
		});
		const qr = item.binary?.qrCode;
		expect(qr).toMatchObject({
			mimeType: 'image/png',
			fileName: `deposit-${String(item.json.deposit_id)}.png`,
		});
		const png = Buffer.from(qr!.data, 'base64');
		expect(png.subarray(0, 8)).toEqual(
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		);

		// The sandbox verified the signature over the exact bytes it received, and created one deposit.
		const [post] = depositPosts(fx);
		expect(post.status).toBe(201);
		const expectedAuthorization =
			'D24 ' +
			createHmac('sha256', fx.sandbox.credentials.deposit.apiSignature)
				.update(post.headers['x-date'] + post.headers['x-login'] + post.rawBody)
				.digest('hex');
		expect(post.headers.authorization).toBe(expectedAuthorization);
		expect(post.headers['x-date']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
		const created = fx.sandbox.control.createdDeposits();
		expect(created).toHaveLength(1);
		expect(created[0].request).toMatchObject({
			amount: '150.25',
			payer: {
				document: '84932495016',
				document_type: 'CPF',
				email: 'ana.souza@example.com',
				first_name: 'Ana',
				last_name: 'Souza',
			},
			description: 'Order 1001',
			success_url: 'https://shop.example.com/done',
		});
		// No invoice id given: the idempotency key is the invoice id, so the deposit can be traced.
		expect(created[0].request.invoice_id).toBe(post.headers['x-idempotency-key']);
		expect(item.json.merchant_invoice_id).toBe(post.headers['x-idempotency-key']);
	});

	test('a deposit without payer details is HOSTED: the customer completes it on the checkout page', async () => {
		const run = await fx.engine.run(
			createWorkflow({ amount: '20', currency: 'MXN', country: 'MX', paymentMethod: 'SE' }),
		);
		expect(run.error).toBeUndefined();
		const [item] = run.output('Payments Service');
		expect(item.json).toMatchObject({
			checkout_type: 'HOSTED',
			redirect_url: expect.stringContaining('/checkout/'),
		});
		expect(item.json.payment_info).toBeUndefined();
	});

	test('the JSON body mode sends the body as written, after validation', async () => {
		const body = {
			amount: 42.5,
			currency: 'USD',
			country: 'BR',
			invoice_id: 'order-42',
			payer: { email: 'x@example.com' },
		};
		const run = await fx.engine.run(
			createWorkflow({ specifyBody: 'json', jsonBody: JSON.stringify(body) }),
		);
		expect(run.error).toBeUndefined();
		expect(JSON.parse(depositPosts(fx)[0].rawBody!)).toEqual(body);
		expect(run.output('Payments Service')[0].json.merchant_invoice_id).toBe('order-42');
	});

	test('a JSON body field the node does not know is sent unchanged and named in the output as unchecked', async () => {
		const body = {
			amount: '30.00',
			currency: 'BRL',
			country: 'BR',
			installments_plan: { count: 3 },
			risk_score_hint: 'low',
		};
		const run = await fx.engine.run(
			createWorkflow({ specifyBody: 'json', jsonBody: JSON.stringify(body) }),
		);
		expect(run.error).toBeUndefined();
		const sent = JSON.parse(depositPosts(fx)[0].rawBody!);
		expect(sent).toMatchObject({
			installments_plan: { count: 3 },
			risk_score_hint: 'low',
			amount: '30.00',
		});
		expect(run.output('Payments Service')[0].json).toMatchObject({
			deposit_id: expect.any(Number),
			unchecked_fields: ['installments_plan', 'risk_score_hint'],
		});
	});

	test('a known field stays checked in a JSON body with unknown fields: nothing is sent', async () => {
		const run = await fx.engine.run(
			createWorkflow({
				specifyBody: 'json',
				jsonBody: JSON.stringify({ amount: '1.001', currency: 'BRL', country: 'BR', extra: 1 }),
			}),
		);
		expect(run.nodeError('Payments Service')?.message).toMatch(
			/^Deposit in item 0 is invalid: amount must be/,
		);
		expect(depositPosts(fx)).toHaveLength(0);
	});

	test('invalid input fails with the item, the field and the rule, and nothing is sent', async () => {
		const run = await fx.engine.run(
			createWorkflow(
				{
					amount: '={{ $json.amount }}',
					currency: 'BRL',
					country: 'BR',
					payer: { email: '={{ $json.email }}' },
					additionalFields: { backUrl: 'http://shop.example.com/back' },
				},
				{},
				[
					{ amount: '10.00', email: 'ok@example.com' },
					{ amount: '10.123', email: 'not-an-email' },
				],
			),
		);
		const error = run.nodeError('Payments Service') as unknown as {
			message: string;
			description: string;
			context: { itemIndex: number };
		};
		// Item 0 is also invalid (its back URL is plain HTTP), so it fails first: nothing is sent for it.
		expect(error.message).toMatch(/^Deposit in item 0 is invalid: back_url must be an HTTPS URL/);
		expect(error.context.itemIndex).toBe(0);
		expect(depositPosts(fx)).toHaveLength(0);

		const second = await fx.engine.run(
			createWorkflow(
				{
					amount: '={{ $json.amount }}',
					currency: 'BRL',
					country: 'BR',
					payer: { email: '={{ $json.email }}' },
				},
				{ continueOnFail: true },
				[
					{ amount: '10.00', email: 'ok@example.com' },
					{ amount: '10.123', email: 'not-an-email' },
				],
			),
		);
		const items = second.output('Payments Service');
		expect(items[0].json.checkout_type).toBe('HOSTED');
		expect(items[1].json.error).toMatch(
			/^Deposit in item 1 is invalid: amount must be a positive decimal/,
		);
		expect(items[1].json.description).toMatch(/payer\.email must be a valid e-mail address/);
		expect(depositPosts(fx)).toHaveLength(1);
	});

	test('a 502 with Retry On Fail: the same idempotency key again, and the 104 answer is the deposit this execution made, once found (Session credential)', async () => {
		// The first creation is processed, but its answer is lost.
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/deposits',
			kind: 'status',
			status: 502,
			phase: 'after',
		});
		const run = await fx.engine.run(
			createWorkflow(
				{ amount: '99.90', currency: 'BRL', country: 'BR', paymentMethod: 'PX', payer: PIX_PAYER },
				{
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 1,
					credentials: {
						paymentsServiceDepositApi: {
							id: CREDENTIAL_IDS.paymentsServiceDepositApi,
							name: 'deposit',
						},
						paymentsServiceSessionApi: {
							id: CREDENTIAL_IDS.paymentsServiceSessionApi,
							name: 'session',
						},
					},
				},
			),
		);
		expect(run.error).toBeUndefined();
		const posts = depositPosts(fx);
		expect(posts.map((entry) => entry.status)).toEqual([502, 400]);
		expect(posts[1].headers['x-idempotency-key']).toBe(posts[0].headers['x-idempotency-key']);
		const [item] = run.output('Payments Service');
		expect(item.json).toMatchObject({
			already_created: false,
			matches_request: true,
			idempotency_key: posts[0].headers['x-idempotency-key'],
			merchant_invoice_id: posts[0].headers['x-idempotency-key'],
			message: expect.stringMatching(
				/^Deposit created \(idempotency key n8n-[0-9a-f]{40}\): this execution sent it before without learning the outcome/,
			),
		});
		expect(
			fx.sandbox.control
				.createdDeposits()
				.filter((deposit) => deposit.idempotencyKey === posts[0].headers['x-idempotency-key']),
		).toHaveLength(1);
	});

	test('idempotency keys differ across items; the same request run again sends the same key and fails as a repeat; a key given by the user wins', async () => {
		const workflow = createWorkflow({ amount: '5', currency: 'USD', country: 'MX' }, {}, [
			{ n: 1 },
			{ n: 2 },
		]);
		await fx.engine.run(workflow);
		const again = await fx.engine.run(workflow);
		const keys = depositPosts(fx).map((entry) => entry.headers['x-idempotency-key']);
		expect(keys).toHaveLength(3);
		expect(new Set(keys.slice(0, 2)).size).toBe(2);
		expect(keys[2]).toBe(keys[0]);
		expect(again.nodeError('Payments Service')?.message).toBe(
			'Deposit in item 0 was not created: it repeats a deposit an earlier execution requested from the same input',
		);
		expect(
			fx.sandbox.control
				.createdDeposits()
				.filter((deposit) => keys.includes(deposit.idempotencyKey)),
		).toHaveLength(2);

		fx.sandbox.log.clear();
		const own = await fx.engine.run(
			createWorkflow({
				amount: '5',
				currency: 'USD',
				country: 'MX',
				options: { idempotencyKey: 'order-7781-attempt' },
			}),
		);
		expect(own.error).toBeUndefined();
		expect(depositPosts(fx)[0].headers['x-idempotency-key']).toBe('order-7781-attempt');
	});

	test('a wrong signature secret is reported with the meaning of code 102, without the secret', async () => {
		fx.engine.addCredential({
			id: 'cred-deposit-wrong',
			name: 'wrong',
			type: DEPOSIT,
			data: {
				baseUrl: fx.sandbox.apiUrl,
				apiKey: fx.sandbox.credentials.deposit.apiKey,
				apiSignature: 'not-the-secret-XYZ',
			},
		});
		const builder = new WorkflowBuilder('wrong secret');
		builder.then({
			...paymentsNode(
				{ resource: 'deposit', operation: 'create', amount: '1', currency: 'USD', country: 'BR' },
				DEPOSIT,
			),
			credentials: { [DEPOSIT]: { id: 'cred-deposit-wrong', name: 'wrong' } },
		});
		const run = await fx.engine.run(builder.build());
		const error = run.nodeError('Payments Service') as unknown as {
			message: string;
			description: string;
		};
		expect(error.message).toMatch(/Creating the deposit of item 0 failed: .*\(102\)/);
		expect(error.description).toMatch(/signature does not match/);
		expect(JSON.stringify(run.run.data)).not.toContain('not-the-secret-XYZ');
		expect(
			fx.sandbox.control.createdDeposits().some((deposit) => deposit.request.amount === '1'),
		).toBe(false);
	});
});
