import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import {
	createOnce,
	type CreateOnceResource,
	type LookUp,
	type PreparedRequest,
} from '../../../nodes/PaymentsService/idempotency/createOnce';
import { forgetOutcomes } from '../../../nodes/PaymentsService/idempotency/attempts';
import type { RequestKey } from '../../../nodes/PaymentsService/idempotency/keys';
import type { PaymentsClient } from '../../../nodes/PaymentsService/transport/client';
import {
	toNodeApiError,
	type ServiceFailure,
} from '../../../nodes/PaymentsService/transport/errors';

/**
 * The create-once flow's decisions (idempotency/createOnce.ts, service rules §5.2) with a scripted
 * resource and client: what is sent, what is recorded before it is sent, and which item or error
 * each answer gives. The engine tests run the three real resources against the sandbox.
 */

const NODE = {
	name: 'Payments Service',
	type: 'n8n-nodes-payments-service.paymentsService',
} as INode;
const ATTEMPTS = 'paymentsServiceCreationAttempts';
const OUTCOMES = 'paymentsServiceCreationOutcomes';

/** An execution's node context and options, as n8n gives them to one run. */
function context(options: IDataObject = {}, nodeContext: IDataObject = {}) {
	return {
		getNode: () => NODE,
		getNodeParameter: (name: string) => (name === 'options' ? options : undefined),
		getContext: () => nodeContext,
		nodeContext,
	} as unknown as IExecuteFunctions & { nodeContext: IDataObject };
}

/** A failure as the client throws it. */
const answered = (failure: ServiceFailure, family: 'cashout' | 'payments' = 'cashout') =>
	toNodeApiError(NODE, failure, family, { action: 'Creating the thing of item 0', itemIndex: 0 });
const REPEAT = { httpStatus: 400, code: 511, message: 'External ID already used' };

/**
 * A client whose creation request answers `answer` (a value, or an error to throw) after sending it
 * `times` times (resends after lost answers, as the real client counts them through `onSend`).
 */
function client(answer: unknown, onSend: () => void = () => undefined, times = 1) {
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

const derived = (extra: Partial<RequestKey> = {}): RequestKey => ({
	value: 'n8n-key',
	derived: true,
	window: { label: '2026-11-27', startMs: 0, endMs: 86_400_000 },
	attemptKey: 'slot-1',
	slot: '0:0',
	...extra,
});
const given = (extra: Partial<RequestKey> = {}): RequestKey => ({
	value: 'payout-7',
	derived: false,
	attemptKey: 'given-payout-7',
	slot: '0:0',
	...extra,
});

/** What the scripted look-up finds. */
type Found = Pick<LookUp<{ status: string }>, 'exists' | 'record' | 'label'>;

/** A scripted resource: what the look-up finds (by key), and what it compares and reports. */
function resource(
	key: RequestKey,
	options: { found?: Found; differs?: boolean; byKey?: boolean; previous?: Found } = {},
) {
	const calls: string[] = [];
	const record: CreateOnceResource<PreparedRequest, { status: string }> = {
		noun: 'cashout',
		key: {
			name: 'external ID',
			repeatCode: 511,
			field: 'External ID',
			distinctField: 'External ID',
		},
		endpoint: {
			family: 'cashout',
			method: 'POST',
			path: '/v3/cashout',
			action: 'Creating the cashout',
		},
		createdField: 'creationDate',
		prepare: () => ({ body: { external_id: key.value, amount: '250.00' }, key }),
		created: async (_context, prepared, answer) => ({
			json: { made: true, key: prepared.key.value, ...answer },
		}),
		lookUp: async (_context, _client, prepared, target) => {
			calls.push(`look up ${target.key} since ${String(prepared.key.earlierAttemptMs)}`);
			const found =
				target.key === prepared.key.value
					? (options.found ?? { exists: options.byKey === true, label: '' })
					: (options.previous ?? { exists: false, label: '' });
			return {
				...found,
				note: found.record ? '' : ' Not in the list.',
				facts: { status: 'PENDING' },
			};
		},
		compare: () => [
			{ field: 'amount', asked: '250.00', found: options.differs ? '300.00' : '250.00' },
		],
		keyNamesRequest: () => options.byKey === true,
		whereToLook: () => 'Cashout → Get Many',
		alreadyMade: async (_context, _client, _prepared, _found, { confirmation, message }) => ({
			already_created: true,
			confirmation,
			message,
		}),
	};
	return { resource: record, calls };
}

const found = (creationDate: string): Found => ({
	exists: true,
	record: { idCashout: 8405147, creationDate },
	label: 'cashout 8405147 (PENDING)',
});

describe('createOnce', () => {
	test('a first success sends once, after recording the attempt, and outputs what the resource made of the answer', async () => {
		const run = context();
		let recordedBeforeSend: unknown;
		const { client: service, sent } = client({ cashout_id: '8405147' }, () => {
			recordedBeforeSend = structuredClone(run.nodeContext[ATTEMPTS]);
		});
		const { resource: cashout, calls } = resource(derived());
		const items = await createOnce(run, service, cashout, 0);
		expect(items).toEqual([{ json: { made: true, key: 'n8n-key', cashout_id: '8405147' } }]);
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({
			method: 'POST',
			path: '/v3/cashout',
			body: { external_id: 'n8n-key', amount: '250.00' },
			repeat: 'keyed',
		});
		expect(recordedBeforeSend).toEqual({
			'slot-1': expect.objectContaining({ key: 'n8n-key', sentMs: expect.any(Number) }),
		});
		expect(calls).toEqual([]);
	});

	test('a repeat answer to a derived key this execution never sent fails as another execution’s request, remembered as refused', async () => {
		const run = context();
		const { resource: cashout, calls } = resource(derived(), {
			found: { exists: true, label: 'a cashout in status PENDING' },
		});
		await expect(
			createOnce(run, client(answered(REPEAT)).client, cashout, 0),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
			description: expect.stringContaining('(n8n-key): a cashout in status PENDING. '),
		});
		expect(calls).toEqual(['look up n8n-key since undefined']);
		expect(run.nodeContext[ATTEMPTS]).toEqual({
			'slot-1': expect.objectContaining({ refused: true }),
		});
	});

	test.each([
		[
			'found and equal',
			{ found: found('2026-11-27T10:00:00Z') },
			'found',
			'Cashout already created by an earlier attempt (external ID n8n-key); no second cashout was made. It is cashout 8405147 (PENDING), with the same amount.',
		],
		[
			'not found, but named by its key',
			{ byKey: true },
			'byKey',
			"Cashout already created by an earlier attempt (external ID n8n-key); no second cashout was made. It is the cashout of this key: its external ID was derived from this request's fields, and this execution sent it before (that answer was lost), so it is this cashout. Not in the list.",
		],
	] as const)(
		'a repeat answer to this execution’s own attempt, %s, is already made, with the flow’s message',
		async (_name, options, confirmation, message) => {
			const { resource: cashout } = resource(
				derived({ earlierAttemptMs: Date.parse('2026-11-27T10:00:05Z') }),
				options,
			);
			const items = await createOnce(context(), client(answered(REPEAT)).client, cashout, 0);
			expect(items).toEqual([{ json: { already_created: true, confirmation, message } }]);
		},
	);

	test('a found record that differs fails the item naming the field: the key belongs to another record', async () => {
		const { resource: cashout } = resource(given({ earlierAttemptMs: 1 }), {
			found: found('2026-11-27T10:00:00Z'),
			differs: true,
		});
		await expect(
			createOnce(context(), client(answered(REPEAT)).client, cashout, 0),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0 was not created: external ID payout-7 already belongs to another cashout',
			description:
				'The service refused it (511): cashout 8405147 (PENDING) differs from this request (amount: 250.00 asked, 300.00 on the existing cashout). No second cashout was made. Give this cashout its own External ID.',
		});
	});

	test('a derived key’s record made before this execution first sent the key is another execution’s', async () => {
		const { resource: cashout } = resource(
			derived({ earlierAttemptMs: Date.parse('2026-11-27T12:00:00Z') }),
			{ found: found('2026-11-27T09:00:00Z') },
		);
		await expect(
			createOnce(context(), client(answered(REPEAT)).client, cashout, 0),
		).rejects.toMatchObject({
			message: expect.stringContaining('repeats a cashout an earlier execution requested'),
			description: expect.stringContaining('(n8n-key): cashout 8405147 (PENDING). '),
		});
	});

	test('a repeat that cannot be confirmed fails the item, or is output unconfirmed when the option says so', async () => {
		const { resource: cashout } = resource(given({ earlierAttemptMs: 1 }));
		await expect(
			createOnce(context(), client(answered(REPEAT)).client, cashout, 0),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0: external ID payout-7 was already used, and the cashout it belongs to could not be confirmed',
			description:
				'The service refused a second cashout with this external ID (511), so no second cashout was made, but the cashout it belongs to could not be found and compared with this request. Not in the list. Look it up (Cashout → Get Many): if it is this cashout, nothing more is needed; if not, give this cashout its own External ID. To output such items instead, set Options → Unconfirmed Repeat to "Output It Unconfirmed".',
		});
		const items = await createOnce(
			context({ unconfirmedRepeat: 'output' }),
			client(answered(REPEAT)).client,
			cashout,
			0,
		);
		expect(items).toEqual([
			{
				json: {
					already_created: true,
					confirmation: 'unconfirmed',
					message:
						'Cashout already created by an earlier attempt (external ID payout-7); no second cashout was made. Not in the list. It could not be compared with this request: if it is not this cashout, give this one its own External ID.',
				},
			},
		]);
	});

	test('a repeat answer to a resend after a 503 reads as this execution’s attempt: looked up since it was sent', async () => {
		const run = context();
		const { resource: cashout, calls } = resource(derived(), { byKey: true });
		const items = await createOnce(
			run,
			client(answered({ ...REPEAT, attempts: 2, earlierAttemptMayHaveActed: true })).client,
			cashout,
			0,
		);
		expect(items).toEqual([
			{ json: expect.objectContaining({ already_created: true, confirmation: 'byKey' }) },
		]);
		const sentMs = (run.nodeContext[ATTEMPTS] as Record<string, { sentMs: number }>)['slot-1']
			.sentMs;
		expect(calls).toEqual([`look up n8n-key since ${sentMs}`]);
	});

	test('a record under the previous window’s key fails the item before anything is sent', async () => {
		const window = { label: '2026-11-26', startMs: 0, endMs: 1 };
		const { resource: cashout, calls } = resource(
			derived({ previous: { value: 'n8n-yesterday', window } }),
			{ previous: { exists: true, label: 'a cashout in status PENDING' } },
		);
		const service = client({ cashout_id: '1' });
		await expect(createOnce(context(), service.client, cashout, 0)).rejects.toMatchObject({
			description: expect.stringContaining(
				'(n8n-yesterday): a cashout in status PENDING, created in the previous Duplicate Window. ',
			),
		});
		expect(calls).toEqual(['look up n8n-yesterday since undefined']);
		expect(service.sent).toHaveLength(0);
	});

	test('no record under the previous window’s key: the request is sent', async () => {
		const window = { label: '2026-11-26', startMs: 0, endMs: 1 };
		const { resource: cashout } = resource(
			derived({ previous: { value: 'n8n-yesterday', window } }),
		);
		const service = client({ cashout_id: '1' });
		await createOnce(context(), service.client, cashout, 0);
		expect(service.sent).toHaveLength(1);
	});

	test('any other failure is passed on as the client built it', async () => {
		const refusal = answered({ httpStatus: 400, code: 514, message: 'Insufficient funds' });
		const { resource: cashout } = resource(derived());
		await expect(createOnce(context(), client(refusal).client, cashout, 0)).rejects.toBe(refusal);
	});

	describe('Retry On Fail and n8n’s Retry send only what this execution has not made', () => {
		test('an item created earlier in the execution is output from its record, not sent again', async () => {
			const run = context();
			const first = client({ cashout_id: '8405147' });
			const { resource: cashout } = resource(derived());
			const made = await createOnce(run, first.client, cashout, 0);
			const again = client({ cashout_id: 'never' });
			const replayed = await createOnce(run, again.client, cashout, 0);
			expect(again.sent).toHaveLength(0);
			expect(replayed).toEqual(made);
		});

		test('an item whose repeat answer was confirmed is output from its record, without a look-up', async () => {
			const run = context();
			const { resource: cashout, calls } = resource(given({ earlierAttemptMs: 1 }), {
				found: found('2026-11-27T10:00:00Z'),
			});
			const made = await createOnce(run, client(answered(REPEAT)).client, cashout, 0);
			const again = client({ cashout_id: 'never' });
			expect(await createOnce(run, again.client, cashout, 0)).toEqual(made);
			expect(again.sent).toHaveLength(0);
			expect(calls).toHaveLength(1);
		});

		test('another item, another run of the node, or another key is another request: it is sent', async () => {
			const run = context();
			await createOnce(run, client({ cashout_id: '1' }).client, resource(derived()).resource, 0);
			for (const key of [
				derived({ slot: '0:1' }),
				derived({ slot: '1:0' }),
				derived({ value: 'n8n-other' }),
			]) {
				const again = client({ cashout_id: '2' });
				await createOnce(run, again.client, resource(key).resource, 0);
				expect(again.sent).toHaveLength(1);
			}
		});

		test('a failed item records nothing: it is sent again, with its key', async () => {
			const run = context();
			const { resource: cashout } = resource(derived());
			const refusal = answered({ httpStatus: 400, code: 514, message: 'Insufficient funds' });
			await expect(createOnce(run, client(refusal).client, cashout, 0)).rejects.toBe(refusal);
			const again = client({ cashout_id: '1' });
			await createOnce(run, again.client, cashout, 0);
			expect(again.sent).toHaveLength(1);
		});

		test('once the node’s run ended without an error the records go, and the execution’s data with them', async () => {
			const run = context();
			await createOnce(run, client({ cashout_id: '1' }).client, resource(derived()).resource, 0);
			expect(run.nodeContext[OUTCOMES]).toBeDefined();
			forgetOutcomes(run);
			expect(run.nodeContext[OUTCOMES]).toBeUndefined();
			expect(run.nodeContext[ATTEMPTS]).toBeDefined();
		});
	});

	describe('times_sent: how many times the request was sent, when more than once', () => {
		test('a request sent once has no times_sent', async () => {
			const [item] = await createOnce(
				context(),
				client({ cashout_id: '1' }).client,
				resource(derived()).resource,
				0,
			);
			expect(item.json.times_sent).toBeUndefined();
		});

		test('resends after lost answers are counted on the item, made or already made', async () => {
			const [made] = await createOnce(
				context(),
				client({ cashout_id: '1' }, undefined, 3).client,
				resource(derived()).resource,
				0,
			);
			expect(made.json).toMatchObject({ made: true, times_sent: 3 });
			const lostThenRepeat = answered({ ...REPEAT, attempts: 2, earlierAttemptMayHaveActed: true });
			const [repeat] = await createOnce(
				context(),
				client(lostThenRepeat, undefined, 2).client,
				resource(derived(), { byKey: true }).resource,
				0,
			);
			expect(repeat.json).toMatchObject({ confirmation: 'byKey', times_sent: 2 });
		});

		test('over the attempts of one execution: a request whose answers were lost, then resent by Retry On Fail, counts every sending', async () => {
			const run = context();
			const { resource: cashout } = resource(derived());
			const lost = answered({ networkCode: 'ECONNRESET', attempts: 3 });
			await expect(createOnce(run, client(lost, undefined, 3).client, cashout, 0)).rejects.toBe(
				lost,
			);
			const [item] = await createOnce(run, client({ cashout_id: '1' }).client, cashout, 0);
			expect(item.json.times_sent).toBe(4);
		});
	});
});
