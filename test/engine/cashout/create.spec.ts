import { creationsFixture } from '../../harness/creations';
import { createHmac } from 'crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	CREDENTIAL_IDS,
	paymentsNode,
	WorkflowBuilder,
	type Fixture,
} from '../../harness/fixtures';
import { fakeDate } from '../../harness/clock';

const CASHOUT = 'paymentsServiceCashoutApi';

/** A picker value as n8n's editor saves it. */
const picked = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

/** The fields of a valid Brazilian payout (a Pix-like bank transfer). */
const payout = (overrides: IDataObject = {}): INodeParameters => ({
	resource: 'cashout',
	operation: 'create',
	externalId: 'payout-0001',
	country: picked('BR'),
	amount: '250.00',
	documentId: '84932495016',
	beneficiaryName: 'Ana',
	notificationUrl: 'https://shop.example.com/payouts/notify',
	beneficiary: {
		beneficiaryLastName: 'Souza',
		email: 'ana.souza@example.com',
		documentType: 'CPF',
	},
	bankAccount: {
		bankCode: picked('341'),
		bankAccount: '12345-6',
		bankBranch: '0001',
		accountType: 'C',
	},
	...overrides,
});

function createWorkflow(
	parameters: INodeParameters,
	extra: IDataObject = {},
	items?: IDataObject[],
) {
	const builder = new WorkflowBuilder('Create cashout');
	if (items) builder.items('Payouts', items);
	builder.then(paymentsNode(parameters, CASHOUT, extra));
	return builder.build();
}

describe('Cashout Create through the n8n engine', () => {
	const fixture = creationsFixture();
	let fx: Fixture;
	beforeEach(() => (fx = fixture()));

	const created = (externalId: string) =>
		fx.sandbox.control
			.createdCashouts()
			.filter((entry) => entry.request.external_id === externalId);
	const calls = () =>
		fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

	test('creates a signed cashout from every field in one request: the id is a number, as the other cashout operations take it, and the status is the one it starts in', async () => {
		const workflow = createWorkflow(
			payout({ additionalFields: { comments: 'Refund of order 77', currency: 'BRL' } }),
		);
		// Only the cashout credential: the read-only key serves only the Bank picker.
		expect(Object.keys(workflow.nodes[1].credentials!)).toEqual([CASHOUT]);
		const run = await fx.engine.run(workflow);
		expect(run.error).toBeUndefined();
		const [record] = created('payout-0001');
		expect(run.output('Payments Service').map((item) => item.json)).toEqual([
			{
				already_created: false,
				cashout_id: record.cashoutId,
				external_id: 'payout-0001',
				cashout_status: 0,
				cashout_status_description: 'Pending',
				cashout_status_name: 'PENDING',
				message: `Cashout ${record.cashoutId} created with external ID payout-0001 (PENDING).`,
			},
		]);
		expect(record.response).toEqual({ cashout_id: String(record.cashoutId) });
		expect(record.request).toEqual({
			login: fx.sandbox.credentials.cashout.login,
			pass: fx.sandbox.credentials.cashout.pass,
			external_id: 'payout-0001',
			country: 'BR',
			amount: '250.00',
			document_id: '84932495016',
			beneficiary_name: 'Ana',
			notification_url: 'https://shop.example.com/payouts/notify',
			on_hold: false,
			document_type: 'CPF',
			beneficiary_lastname: 'Souza',
			email: 'ana.souza@example.com',
			bank_code: 341,
			bank_account: '12345-6',
			bank_branch: '0001',
			account_type: 'C',
			currency: 'BRL',
			comments: 'Refund of order 77',
		});
		expect(calls()).toEqual(['POST /v3/cashout 200']);
		expect(
			fx.sandbox.control.cashouts(1001).find((entry) => entry.idCashout === record.cashoutId)
				?.status,
		).toBe('PENDING');
		const [create] = fx.sandbox.log.entries();
		expect(create.headers['payload-signature']).toBe(
			createHmac('sha256', fx.sandbox.credentials.cashout.apiSignature)
				.update(create.rawBody!)
				.digest('hex'),
		);
	});

	test('On Hold creates the cashout ON_HOLD', async () => {
		const run = await fx.engine.run(
			createWorkflow(payout({ externalId: 'payout-hold', onHold: true })),
		);
		expect(run.output('Payments Service')[0].json).toMatchObject({
			already_created: false,
			cashout_status: 5,
			cashout_status_description: 'On hold',
			cashout_status_name: 'ON_HOLD',
		});
		expect(calls()).toEqual(['POST /v3/cashout 200']);
		expect(created('payout-hold')[0]).toMatchObject({
			initialStatus: 'ON_HOLD',
			request: expect.objectContaining({ on_hold: true }),
		});
	});

	test('an empty External ID is derived per item (≤ 100 characters); running the same workflow again on the same input pays nothing twice and says so', async () => {
		const workflow = createWorkflow(
			payout({ externalId: '', documentId: '={{ $json.document }}' }),
			{},
			[{ document: '11122233344' }, { document: '55566677788' }],
		);
		const first = await fx.engine.run(workflow);
		const second = await fx.engine.run(workflow);
		const firstIds = first.output('Payments Service').map((item) => String(item.json.external_id));
		expect(firstIds.every((id) => /^n8n-[0-9a-f]{40}$/.test(id))).toBe(true);
		expect(new Set(firstIds).size).toBe(2);
		// A new execution on the same input derives the same IDs; it cannot be told from a second
		// request, so it makes nothing and fails instead of reading as made.
		expect(second.nodeError('Payments Service')?.message).toBe(
			'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
		);
		expect(
			fx.sandbox.log
				.find('POST', '/v3/cashout')
				.map((post) => JSON.parse(post.rawBody!).external_id as string),
		).toEqual([...firstIds, firstIds[0]]);
		for (const id of firstIds) expect(created(id)).toHaveLength(1);
	});

	test('a lost answer is sent again by the node with the same external ID: one payout, made now, confirmed by its status read without a Session credential, sent twice', async () => {
		// At midday UTC: in the first hour of a day a first attempt also reads the previous day's key
		// (one more request, tested in creations/money-moves-once.spec.ts), and this test counts every
		// request. The clock stands still, so the node's 0.5 s backoff ends at once.
		fakeDate(Date.UTC(2026, 10, 25, 12));
		// The first creation is processed, but the connection drops before the answer.
		fx.sandbox.faults.add({ method: 'POST', path: '/v3/cashout', kind: 'reset', phase: 'after' });
		const run = await fx.engine.run(createWorkflow(payout({ externalId: '' })));
		expect(run.error).toBeUndefined();
		const [item] = run.output('Payments Service');
		const externalId = String(item.json.external_id);
		expect(externalId).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(item.json).toEqual({
			already_created: false,
			cashout_id: null,
			external_id: externalId,
			cashout_status: 0,
			cashout_status_description: 'Pending',
			cashout_status_name: 'PENDING',
			matches_request: true,
			message: `Cashout created (external ID ${externalId}): this execution sent it before without learning the outcome, and the service recognised it sent again (511); no second cashout was made. It is a cashout in status PENDING: its external ID was derived from this request's fields, and this execution sent it before (that answer was lost), so it is this cashout. Select a Session credential on this node to have the existing cashout looked up and compared.`,
			times_sent: 2,
		});
		expect(calls()).toEqual([
			'POST /v3/cashout 0',
			'POST /v3/cashout 400',
			'POST /v3/cashout/status 200',
		]);
		const posts = fx.sandbox.log.find('POST', '/v3/cashout');
		expect(JSON.parse(posts[1].rawBody!).external_id).toBe(
			JSON.parse(posts[0].rawBody!).external_id,
		);
		expect(JSON.parse(fx.sandbox.log.find('POST', '/v3/cashout/status')[0].rawBody!)).toMatchObject(
			{ external_id: externalId },
		);
		expect(created(externalId)).toHaveLength(1);
		expect(
			fx.sandbox.control.cashouts(1001).filter((record) => record.externalId === externalId),
		).toHaveLength(1);
	});

	test('after three lost answers, without Retry On Fail, the item fails naming the external ID to look up before paying out again', async () => {
		fakeDate(Date.UTC(2026, 10, 25, 12));
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout',
			kind: 'reset',
			phase: 'after',
			times: 3,
		});
		const run = await fx.engine.run(createWorkflow(payout({ externalId: 'payout-lost' })));
		const error = run.nodeError('Payments Service') as unknown as {
			message: string;
			description: string;
		};
		expect(error.message).toMatch(
			/^Creating the cashout of item 0 failed: the payments service could not be reached/,
		);
		expect(error.description).toBe(
			'No answer came back, so the cashout may or may not have been created. The external ID of this cashout is payout-lost. Retrying with the same external ID is safe at any time: the service recognises the repeat (511) and this node reports the existing cashout instead of making a second one. Tried 3 times.',
		);
		expect(calls()).toEqual(['POST /v3/cashout 0', 'POST /v3/cashout 0', 'POST /v3/cashout 0']);
		expect(created('payout-lost')).toHaveLength(1);
	});

	test('the same given External ID in a later run is refused (511): no second payout; it cannot be compared without a Session credential, so the item fails unless told to output it', async () => {
		const rejected = fx.sandbox.control.addCashout({
			idMerchant: 1001,
			externalId: 'payout-old-rejected',
			country: 'BR',
			amount: 80,
			currency: 'BRL',
		});
		fx.sandbox.control.advanceCashout(rejected.idCashout, 'DELIVERED');
		fx.sandbox.control.advanceCashout(rejected.idCashout, 'REJECTED', {
			code: 801,
			reason: 'Account closed',
		});
		const failed = await fx.engine.run(
			createWorkflow(payout({ externalId: 'payout-old-rejected' })),
		);
		const error = failed.nodeError('Payments Service') as unknown as {
			message: string;
			description: string;
		};
		expect(error.message).toBe(
			'Cashout in item 0: external ID payout-old-rejected was already used, and the cashout it belongs to could not be confirmed',
		);
		expect(error.description).toBe(
			'The service refused a second cashout with this external ID (511), so no second cashout was made, but the cashout it belongs to could not be found and compared with this request (the service has a cashout in status REJECTED). Select a Session credential on this node to have the existing cashout looked up and compared. Look it up (Cashout → Get Many, or the merchant panel): if it is this cashout, nothing more is needed; if not, give this cashout its own External ID. To output such items instead, set Options → Unconfirmed Repeat to "Output It Unconfirmed".',
		);
		const run = await fx.engine.run(
			createWorkflow(
				payout({ externalId: 'payout-old-rejected', options: { unconfirmedRepeat: 'output' } }),
			),
		);
		expect(run.output('Payments Service')[0].json).toEqual({
			already_created: true,
			cashout_id: null,
			external_id: 'payout-old-rejected',
			cashout_status: 3,
			cashout_status_description: 'Rejected',
			cashout_status_name: 'REJECTED',
			rejection_code: 801,
			rejection_reason: 'Account closed',
			rejection_code_name: 'ERROR_ACCOUNT_CLOSED',
			message:
				'Cashout already created by an earlier attempt (external ID payout-old-rejected); no second cashout was made. It is a cashout in status REJECTED. Select a Session credential on this node to have the existing cashout looked up and compared. It could not be compared with this request: if it is not this cashout, give this one its own External ID.',
			matches_request: null,
		});
		expect(created('payout-old-rejected')).toHaveLength(0);
	});

	test.each([
		[
			'303',
			{ externalId: 'refused-303', bankAccount: { bankCode: picked('999', 'id') } },
			/^Bank code 999 is not a bank of BR \(303\): pick the bank from the list/,
			/not one of the banks the service lists/,
		],
		[
			'540',
			{
				externalId: 'refused-540',
				country: picked('CO'),
				amount: '200000',
				beneficiary: {},
				bankAccount: {},
			},
			/^Cashouts to CO need the beneficiary’s e-mail or phone \(540\)/,
			/e-mail or phone is required/,
		],
		[
			'533',
			{ externalId: 'refused-533', amount: '10.00' },
			/^The cashout amount 10\.00 of item 0 is below the minimum \(533\)/,
			/below the minimum cashout amount/,
		],
		[
			'508',
			{ externalId: 'refused-508', amount: '60000.00' },
			/^The cashout amount 60000\.00 of item 0 is above the limit \(508\)/,
			/above a limit/,
		],
		[
			'KYC',
			{ externalId: 'refused-kyc', documentId: '11111111111' },
			/did not pass the KYC check \(USER_REJECTED_KYC_CHECK\): no payout was made$/,
			/The service said: USER_REJECTED_KYC_CHECK/,
		],
		[
			'300',
			{ externalId: 'refused-300', beneficiary: { documentType: 'RG' } },
			/^The cashout of item 0 was refused: invalid parameters \(300\)$/,
			/document_type must be one of CPF, CNPJ for BR.*Meaning: the request parameters are not valid/,
		],
	])(
		'a %s refusal reaches the user with its meaning, and nothing is paid out',
		async (_code, overrides, message, description) => {
			const run = await fx.engine.run(createWorkflow(payout(overrides as IDataObject)));
			const error = run.nodeError('Payments Service') as unknown as {
				name: string;
				message: string;
				description: string;
			};
			expect(error.name).toBe('NodeApiError');
			expect(error.message).toMatch(message);
			expect(error.description).toMatch(description);
			expect(created(String((overrides as IDataObject).externalId))).toHaveLength(0);
			// A refusal is never repeated: one request, no status read.
			expect(calls()).toEqual(['POST /v3/cashout 400']);
		},
	);

	test('a 514 refusal (not enough funds) reaches the user with its meaning', async () => {
		fx.sandbox.control.setCashoutFunds(1001, 10);
		try {
			const run = await fx.engine.run(
				createWorkflow(payout({ externalId: 'refused-514' }), { continueOnFail: true }),
			);
			expect(run.output('Payments Service')[0].json).toMatchObject({
				error: 'Not enough funds for the cashout of item 0 (514): no payout was made',
				code: 514,
				description: expect.stringMatching(/insufficient funds/),
			});
		} finally {
			fx.sandbox.control.setCashoutFunds(1001, 50_000);
		}
	});

	test('bad input names the item, every broken field and the rule; nothing is sent for that item', async () => {
		const run = await fx.engine.run(
			createWorkflow(
				payout({
					externalId: '={{ $json.id }}',
					amount: '={{ $json.amount }}',
					beneficiaryName: '={{ $json.name }}',
					notificationUrl: '={{ $json.url }}',
					beneficiary: { email: '={{ $json.email }}', birthdate: '={{ $json.birthdate }}' },
				}),
				{ continueOnFail: true },
				[
					{
						id: 'bad-input-ok',
						amount: '99.90',
						name: 'Ana',
						url: 'https://shop.example.com/n',
						email: 'ana@example.com',
						birthdate: '1990-01-31',
					},
					{
						id: 'x'.repeat(101),
						amount: '10.123',
						name: '',
						url: 'ftp://shop.example.com/n',
						email: 'not-an-email',
						birthdate: '19903101',
					},
				],
			),
		);
		const [ok, bad] = run.output('Payments Service');
		expect(ok.json).toMatchObject({ already_created: false, external_id: 'bad-input-ok' });
		expect(bad.json.error).toBe(
			'Cashout in item 1 is invalid: external_id must be at most 100 characters',
		);
		expect(bad.json.description).toBe(
			'Nothing was sent. Fix these 6 fields: external_id must be at most 100 characters; amount must be a positive decimal with at most 18 integer digits and 2 decimals, e.g. 100.50; beneficiary_name is required; notification_url must be an http or https URL; email must be a valid e-mail address; beneficiary_birthdate must be a date written yyyyMMdd or yyyy-MM-dd, e.g. 19900131.',
		);
		expect(fx.sandbox.log.find('POST', '/v3/cashout')).toHaveLength(1);
		expect(
			JSON.parse(fx.sandbox.log.find('POST', '/v3/cashout')[0].rawBody!).beneficiary_birthdate,
		).toBe('1990-01-31');
	});

	test('the Bank picker lists the chosen country’s banks with the read-only key', async () => {
		const result = await fx.engine.listSearch('searchBanks', {
			parameters: payout({ country: picked('MX') }),
			credentials: {
				[CASHOUT]: { id: CREDENTIAL_IDS[CASHOUT], name: CASHOUT },
				paymentsServiceReadOnlyApi: {
					id: CREDENTIAL_IDS.paymentsServiceReadOnlyApi,
					name: 'read-only',
				},
			},
			path: 'parameters.bankAccount.bankCode',
		});
		expect(result.results[0]).toEqual({ name: 'Banamex (2)', value: '2' });
		expect(result.results.map((bank) => bank.value)).toEqual(['2', '12', '14', '21', '72', '646']);
		const filtered = await fx.engine.listSearch('searchBanks', {
			parameters: payout({ country: 'MX' }),
			credentials: {
				paymentsServiceReadOnlyApi: {
					id: CREDENTIAL_IDS.paymentsServiceReadOnlyApi,
					name: 'read-only',
				},
			},
			filter: 'bbva',
		});
		expect(filtered.results).toEqual([{ name: 'BBVA México (12)', value: '12' }]);
		expect(fx.sandbox.log.find('GET', '/v3/banks').map((entry) => entry.query)).toEqual([
			{ country: 'MX' },
			{ country: 'MX' },
		]);
	});
});
