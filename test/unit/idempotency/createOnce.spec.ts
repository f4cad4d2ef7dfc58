import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeProperties,
} from 'n8n-workflow';

import { fakeDate, realDate } from '../../harness/clock';
import {
	createOnceOperation,
	type Creation,
} from '../../../nodes/PaymentsService/idempotency/createOnce';
import type { PaymentsClient } from '../../../nodes/PaymentsService/transport/client';
import {
	toNodeApiError,
	type ServiceFailure,
} from '../../../nodes/PaymentsService/transport/errors';

/**
 * The create-once flow's decisions (idempotency/createOnce.ts, service rules §5.2) with a scripted
 * creation, client and list: what is sent, what is kept before it is sent, and which item or error
 * each answer gives. The engine tests run the three real creations against the sandbox.
 */

const NODE = {
	id: 'node-1',
	name: 'Payments Service',
	type: 'n8n-nodes-payments-service.paymentsService',
	credentials: { paymentsServiceSessionApi: { id: '1', name: 'session' } },
} as unknown as INode;
const STORE = 'paymentsServiceCreationAttempts';

/**
 * An execution's node context, the options, and the cashout list the look-ups read (its records,
 * one page; each read recorded).
 */
function run(
	options: IDataObject = {},
	nodeContext: IDataObject = {},
	listed: IDataObject[] | (() => IDataObject[]) = [],
	runIndex = 0,
) {
	const reads: IDataObject[] = [];
	const context = {
		getNode: () => NODE,
		getNodeParameter: (name: string) => (name === 'options' ? options : undefined),
		getContext: () => nodeContext,
		getWorkflow: () => ({ id: 'wf-1' }),
		getParentNodes: () => [],
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		getCredentials: async () => ({ baseUrl: 'https://reports.example.com' }),
		helpers: {
			async httpRequestWithAuthentication(_type: string, request: IHttpRequestOptions) {
				reads.push({ ...(request.qs as IDataObject) });
				const data = typeof listed === 'function' ? listed() : listed;
				return {
					statusCode: 200,
					headers: {},
					body: { data, page: 0, rows: data.length, maxRows: 50 },
				};
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, nodeContext, reads };
}

/** A failure as the client throws it. */
const answered = (failure: ServiceFailure) =>
	toNodeApiError(NODE, failure, 'cashout', {
		action: 'Creating the cashout of item 0',
		itemIndex: 0,
	});
const REPEAT = { httpStatus: 400, code: 511, message: 'External ID already used' };
const LOST_THEN_REPEAT = { ...REPEAT, attempts: 2, earlierAttemptMayHaveActed: true };

/**
 * A client whose creation request answers `answer` (a value, or an error to throw) after sending
 * it `times` times (resends after lost answers, counted as the real client counts them).
 */
function client(answer: unknown, times = 1, onSend: () => void = () => undefined) {
	const sent: IDataObject[] = [];
	return {
		sent,
		client: {
			async request(request: IDataObject, _failure: unknown, control?: { onSend?: () => void }) {
				sent.push(request);
				onSend();
				for (let time = 0; time < times; time++) control?.onSend?.();
				if (answer instanceof Error) throw answer;
				return answer;
			},
		} as unknown as PaymentsClient,
	};
}

/**
 * A scripted cashout creation: the body (with `external_id` when given), what the read by key
 * finds (`status`, or none), how a found record compares.
 */
function cashout(given?: string, script: { status?: string; differs?: boolean } = {}) {
	const creation: Creation = {
		noun: 'cashout',
		key: { sentAs: 'externalId', repeatCode: 511, distinctField: 'External ID' },
		endpoint: {
			family: 'cashout',
			method: 'POST',
			path: '/v3/cashout',
			action: 'Creating the cashout',
		},
		parameters: [{ displayName: 'Amount', name: 'amount', type: 'string', default: '' }],
		body: () => ({
			value: { ...(given ? { external_id: given } : {}), amount: '250.00' },
			unchecked: [],
		}),
		lookUp: {
			list: 'cashout',
			filters: {},
			match: (_body, { key }) => ({ matches: (record) => record.externalId === key }),
			byKey: {
				read: async () =>
					script.status
						? { state: { cashout_status_name: script.status }, status: script.status }
						: undefined,
				none: (key) => ` No cashout ${key}.`,
			},
		},
		compare: () => [
			{ field: 'amount', asked: '250.00', found: script.differs ? '300.00' : '250.00' },
		],
		whereToLook: () => 'Cashout → Get Many',
		made: async (_context, { key }, answer) => ({
			json: { made: true, key: key.value, ...answer },
		}),
		found: async (_context, _client, _request, found) => ({
			already_created: found.already,
			confirmation: found.confirmation,
			message: found.message,
		}),
	};
	return createOnceOperation(creation);
}

/** The creation of item 0, in the run `execution` (a new one unless given). */
const create = async (
	operation: ReturnType<typeof cashout>,
	service: PaymentsClient,
	execution = run(),
) => await operation.execute.call(execution.context, service, 0);

/** A listed cashout of `key`, created at `creationDate`. */
const listed = (key: string, creationDate: string) => ({
	idCashout: 8405147,
	externalId: key,
	creationDate,
});

describe('createOnceOperation', () => {
	afterEach(() => realDate());

	test('the operation’s parameters, then the flow’s options; the key a header adds the Idempotency Key option', () => {
		const names = (properties: INodeProperties[]) =>
			properties.map((property) =>
				property.name === 'options'
					? `options: ${(property.options as INodeProperties[]).map((option) => option.name).join(', ')}`
					: property.name,
			);
		expect(names(cashout().properties)).toEqual([
			'amount',
			'options: duplicateWindow, unconfirmedRepeat',
		]);
	});

	test('a first success sends once, after starting the history, and outputs what the creation made of the answer', async () => {
		const execution = run();
		let keptBeforeSend: unknown;
		const service = client({ cashout_id: '8405147' }, 1, () => {
			keptBeforeSend = structuredClone(execution.nodeContext[STORE]);
		});
		const [item] = await create(cashout('payout-7'), service.client, execution);
		expect(item.json).toEqual({ made: true, key: 'payout-7', cashout_id: '8405147' });
		expect(service.sent).toEqual([
			{
				family: 'cashout',
				method: 'POST',
				path: '/v3/cashout',
				body: { external_id: 'payout-7', amount: '250.00' },
				repeat: 'keyed',
			},
		]);
		expect(keptBeforeSend).toEqual({
			'given-payout-7': { key: 'payout-7', sentMs: expect.any(Number) },
		});
		expect(execution.reads).toEqual([]);
	});

	test('a derived key is sent first in the body, and kept with its window', async () => {
		const execution = run();
		const service = client({ cashout_id: '1' });
		await create(cashout(), service.client, execution);
		const body = service.sent[0].body as IDataObject;
		expect(Object.keys(body)).toEqual(['external_id', 'amount']);
		const [history] = Object.values(execution.nodeContext[STORE] as IDataObject);
		expect(history).toMatchObject({ key: body.external_id, windowLabel: expect.any(String) });
	});

	test('a repeat answer to a derived key this execution never sent fails as another execution’s request, remembered as refused', async () => {
		const execution = run();
		await expect(
			create(cashout(undefined, { status: 'PENDING' }), client(answered(REPEAT)).client, execution),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
			description: expect.stringMatching(/\(n8n-[0-9a-f]{40}\): a cashout in status PENDING\. /),
		});
		expect(Object.values(execution.nodeContext[STORE] as IDataObject)).toEqual([
			expect.objectContaining({ refused: true }),
		]);
	});

	test.each([
		[
			'found in the list and equal',
			true,
			'found',
			' It is cashout 8405147 (PENDING), with the same amount.',
		],
		[
			'read by its key, not listed',
			false,
			'byKey',
			" It is a cashout in status PENDING: its external ID was derived from this request's fields, and this execution sent it before (that answer was lost), so it is this cashout. It was not found in the cashout list (4 pages read in 4 reads); the list may show it a little later.",
		],
	] as const)(
		'a repeat answer to the request’s own resend, %s, is the record it made now',
		async (_case, inList, confirmation, how) => {
			fakeDate(Date.parse('2026-11-27T10:00:00Z'));
			const service = client(answered(LOST_THEN_REPEAT), 2);
			const sentKeys = () =>
				service.sent.map((request) => (request.body as IDataObject).external_id);
			const list = () =>
				inList ? sentKeys().map((key) => listed(String(key), '2026-11-27T10:00:00Z')) : [];
			const [item] = await create(
				cashout(undefined, { status: 'PENDING' }),
				service.client,
				run({}, {}, list),
			);
			expect(item.json).toMatchObject({ already_created: false, confirmation, times_sent: 2 });
			expect(item.json.message).toBe(
				`Cashout created (external ID ${String(sentKeys()[0])}): this execution sent it before without learning the outcome, and the service recognised it sent again (511); no second cashout was made.${how}`,
			);
		},
	);

	test('a found record that differs fails the item naming the field: the key belongs to another record', async () => {
		const execution = run({}, { [STORE]: { 'given-payout-7': { key: 'payout-7', sentMs: 1 } } }, [
			listed('payout-7', '2026-11-27T10:00:00Z'),
		]);
		await expect(
			create(
				cashout('payout-7', { status: 'PENDING', differs: true }),
				client(answered(REPEAT)).client,
				execution,
			),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0 was not created: external ID payout-7 already belongs to another cashout',
			description:
				'The service refused it (511): cashout 8405147 (PENDING) differs from this request (amount: 250.00 asked, 300.00 on the existing cashout). No second cashout was made. Give this cashout its own External ID.',
		});
	});

	test('a derived key’s record made before this execution first sent the key is another execution’s', async () => {
		fakeDate(Date.parse('2026-11-27T12:00:00Z'));
		const service = client(answered({ networkCode: 'ECONNRESET', attempts: 3 }), 3);
		const key = () => String((service.sent[0].body as IDataObject).external_id);
		const execution = run({}, {}, () => [listed(key(), '2026-11-27T09:00:00Z')]);
		await expect(create(cashout(), service.client, execution)).rejects.toThrow();
		await expect(
			create(cashout(undefined, { status: 'PENDING' }), client(answered(REPEAT)).client, execution),
		).rejects.toMatchObject({
			message: expect.stringContaining('repeats a cashout an earlier execution requested'),
			description: expect.stringContaining('): cashout 8405147 (PENDING). '),
		});
	});

	test('a repeat that cannot be confirmed fails the item, or is output unconfirmed when the option says so', async () => {
		fakeDate(Date.now());
		const sent = { [STORE]: { 'given-payout-7': { key: 'payout-7', sentMs: 1 } } };
		await expect(
			create(
				cashout('payout-7', { status: 'PENDING' }),
				client(answered(REPEAT)).client,
				run({}, structuredClone(sent)),
			),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0: external ID payout-7 was already used, and the cashout it belongs to could not be confirmed',
			description: expect.stringContaining(
				'(the service has a cashout in status PENDING). It was not found in the cashout list (4 pages read in 4 reads); the list may show it a little later. Look it up (Cashout → Get Many): ',
			),
		});
		const [item] = await create(
			cashout('payout-7', { status: 'PENDING' }),
			client(answered(REPEAT)).client,
			run({ unconfirmedRepeat: 'output' }, structuredClone(sent)),
		);
		expect(item.json).toMatchObject({ confirmation: 'unconfirmed' });
	});

	test('in the first hour of a window, a record under the previous window’s key fails the item before anything is sent', async () => {
		fakeDate(Date.UTC(2026, 10, 28, 0, 20));
		const service = client({ cashout_id: '1' });
		await expect(
			create(cashout(undefined, { status: 'PENDING' }), service.client),
		).rejects.toMatchObject({
			description: expect.stringMatching(
				/\(n8n-[0-9a-f]{40}\): a cashout in status PENDING, created in the previous Duplicate Window\. /,
			),
		});
		expect(service.sent).toHaveLength(0);
		const none = client({ cashout_id: '1' });
		await create(cashout(), none.client);
		expect(none.sent).toHaveLength(1);
	});

	test('any other failure is passed on as the client built it', async () => {
		const refusal = answered({ httpStatus: 400, code: 514, message: 'Insufficient funds' });
		await expect(create(cashout(), client(refusal).client)).rejects.toBe(refusal);
	});

	describe('already_created: whether the nodes after this one may have seen the record made', () => {
		/** A history of `payout-7` as an execution carries it. */
		const history = (extra: IDataObject = {}) => ({
			[STORE]: { 'given-payout-7': { key: 'payout-7', sentMs: Date.now(), ...extra } },
		});
		test.each([
			['sent by this item before (Retry On Fail, n8n’s Retry)', history(), 0, false],
			[
				'sent by another item of this run, which outputs it',
				history({ outcome: { runItem: '0:1', request: '', json: {} } }),
				0,
				true,
			],
			[
				'output by an earlier run of the node (a loop, an AI agent’s call)',
				history({ reported: true }),
				1,
				true,
			],
			['never sent by this execution (a re-run with the key given)', {}, 0, true],
		] as const)('%s', async (_case, carried, runIndex, already) => {
			const execution = run(
				{},
				structuredClone(carried),
				[listed('payout-7', new Date().toISOString())],
				runIndex,
			);
			const [item] = await create(
				cashout('payout-7', { status: 'PENDING' }),
				client(answered(REPEAT)).client,
				execution,
			);
			expect(item.json).toMatchObject({ already_created: already, confirmation: 'found' });
		});
	});

	describe('Retry On Fail and n8n’s Retry send only what this execution has not made', () => {
		test.each([
			['created', () => client({ cashout_id: '8405147' }), 'payout-8'],
			['confirmed after a repeat answer', () => client(answered(LOST_THEN_REPEAT), 2), 'payout-7'],
		])(
			'an item %s earlier in the execution is output as it was, not sent again',
			async (_case, first, key) => {
				fakeDate(Date.now());
				const execution = run({}, {}, [listed('payout-7', new Date().toISOString())]);
				const operation = cashout(key, { status: 'PENDING' });
				const made = await create(operation, first().client, execution);
				const again = client({ cashout_id: 'never' });
				expect(await create(operation, again.client, execution)).toEqual(made);
				expect(again.sent).toHaveLength(0);
			},
		);

		test('another item, another run of the node, or another key is another request: it is sent', async () => {
			const execution = run();
			await create(cashout('payout-7'), client({ cashout_id: '1' }).client, execution);
			const others = [
				async (service: PaymentsClient) =>
					await cashout('payout-7').execute.call(execution.context, service, 1),
				async (service: PaymentsClient) =>
					await create(cashout('payout-7'), service, run({}, execution.nodeContext, [], 1)),
				async (service: PaymentsClient) => await create(cashout('payout-9'), service, execution),
			];
			for (const other of others) {
				const again = client({ cashout_id: '2' });
				await other(again.client);
				expect(again.sent).toHaveLength(1);
			}
		});

		test('a failed item keeps no outcome: it is sent again, with its key, and every sending is counted', async () => {
			const execution = run();
			const lost = answered({ networkCode: 'ECONNRESET', attempts: 3 });
			await expect(create(cashout(), client(lost, 3).client, execution)).rejects.toBe(lost);
			const again = client({ cashout_id: '1' });
			const [item] = await create(cashout(), again.client, execution);
			expect(again.sent).toHaveLength(1);
			expect(item.json.times_sent).toBe(4);
		});

		test('once the node’s run ended without an error the outcomes go, and the execution’s data with them', async () => {
			const execution = run();
			const operation = cashout('payout-7');
			await create(operation, client({ cashout_id: '1' }).client, execution);
			operation.afterRun(execution.context);
			expect(execution.nodeContext[STORE]).toEqual({
				'given-payout-7': { key: 'payout-7', sentMs: expect.any(Number), sends: 1, reported: true },
			});
		});
	});

	test('a key sent as a header: the Idempotency Key option, trimmed, and the invoice ID too where none is given and it is a valid one', async () => {
		const deposit = (unchecked: string[] = []) =>
			createOnceOperation({
				...({} as Creation),
				noun: 'deposit',
				key: {
					sentAs: 'idempotencyKey',
					repeatCode: 104,
					distinctField: 'Invoice ID',
					asInvoiceId: true,
				},
				endpoint: {
					family: 'payments',
					method: 'POST',
					path: '/v3/deposits',
					action: 'Creating the deposit',
				},
				parameters: [],
				body: () => ({ value: { amount: '10.00' }, unchecked }),
				made: async (_context, request) => ({ json: { body: request.body } }),
			});
		expect(
			(deposit().properties[0].options as INodeProperties[]).map((option) => option.name),
		).toEqual(['duplicateWindow', 'idempotencyKey', 'unconfirmedRepeat']);
		const sent = async (idempotencyKey: string, unchecked?: string[]) => {
			const service = client({});
			const [item] = await deposit(unchecked).execute.call(
				run({ idempotencyKey }).context,
				service.client,
				0,
			);
			return { request: service.sent[0], item: item.json };
		};
		expect((await sent(' order-7 ')).request).toMatchObject({
			headers: { 'X-Idempotency-Key': 'order-7' },
			body: { amount: '10.00', invoice_id: 'order-7' },
		});
		expect((await sent('order.7')).request.body).toEqual({ amount: '10.00' });
		expect((await sent('order-8', ['extra'])).item).toMatchObject({ unchecked_fields: ['extra'] });
	});

	test('times_sent: how many times the key was sent, only when more than once', async () => {
		const once = await create(cashout(), client({ cashout_id: '1' }).client);
		const thrice = await create(cashout(), client({ cashout_id: '1' }, 3).client);
		expect([once[0].json.times_sent, thrice[0].json.times_sent]).toEqual([undefined, 3]);
	});
});
