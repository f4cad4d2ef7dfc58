import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import {
	createOnce,
	type CreationAdapter,
	type PreparedCreation,
} from '../../../nodes/PaymentsService/idempotency/createOnce';
import type { RequestKey } from '../../../nodes/PaymentsService/idempotency/keys';
import type { Recovery } from '../../../nodes/PaymentsService/idempotency/lookUp';
import type { PaymentsClient } from '../../../nodes/PaymentsService/transport/client';
import {
	toNodeApiError,
	type ServiceFailure,
} from '../../../nodes/PaymentsService/transport/errors';

/**
 * The create-once flow's decisions (idempotency/createOnce.ts, service rules §5.2) with a scripted
 * adapter and client: what is sent, what is recorded before it is sent, and which item or error
 * each answer gives. The engine tests run the three real adapters against the sandbox.
 */

const NODE = {
	name: 'Payments Service',
	type: 'n8n-nodes-payments-service.paymentsService',
} as INode;
const ATTEMPTS = 'paymentsServiceCreationAttempts';

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

/** A client whose creation request answers `answer` (a value, or an error to throw). */
function client(answer: unknown, onSend: () => void = () => undefined) {
	const sent: IDataObject[] = [];
	return {
		sent,
		client: {
			async request(request: IDataObject) {
				sent.push(request);
				onSend();
				if (answer instanceof Error) throw answer;
				return answer;
			},
		} as unknown as PaymentsClient,
	};
}

const derived = (extra: Partial<RequestKey> = {}): RequestKey => ({
	key: 'n8n-key',
	derived: true,
	window: { label: '2026-11-27', startMs: 0, endMs: 86_400_000 },
	attemptKey: 'slot-1',
	...extra,
});
const given = (extra: Partial<RequestKey> = {}): RequestKey => ({
	key: 'payout-7',
	derived: false,
	attemptKey: 'given-payout-7',
	...extra,
});

/** A scripted adapter: what the look-up finds, and what it compares and reports. */
function adapter(
	creation: RequestKey,
	options: { recovery?: Recovery; differs?: boolean; byKey?: boolean; previous?: string } = {},
) {
	const calls: string[] = [];
	const record: CreationAdapter<PreparedCreation, { status: string }> = {
		noun: 'cashout',
		thing: 'payout',
		keyName: 'external ID',
		repeatCode: 511,
		distinctField: 'External ID',
		request: { family: 'cashout', method: 'POST', path: '/v3/cashout' },
		action: 'Creating the cashout',
		createdField: 'creationDate',
		prepare: () => ({ body: { external_id: creation.key, amount: '250.00' }, creation }),
		inPreviousWindow: async () => {
			calls.push('previous window');
			return options.previous;
		},
		created: async (_context, _client, prepared, answer) => ({
			json: { made: true, key: prepared.creation.key, ...answer },
		}),
		describeRepeat: async () => {
			calls.push('describe repeat');
			return ' (PENDING)';
		},
		lookUp: async (_context, _client, prepared) => {
			calls.push(`look up since ${String(prepared.creation.earlierAttemptMs)}`);
			return {
				recovery: options.recovery ?? { outcome: 'no-credential' },
				facts: { status: 'PENDING' },
			};
		},
		compare: () => [
			{ field: 'amount', asked: '250.00', found: options.differs ? '300.00' : '250.00' },
		],
		describeRecord: (found) => ` (cashout ${String(found.idCashout)})`,
		anotherRecord: (_prepared, _found, differing) => ({
			message: 'belongs to another payout',
			description: differing.join('; '),
		}),
		confirmedByKey: () => options.byKey === true,
		unconfirmedDescription: () => 'It could not be compared.',
		alreadyMade: async (_context, _client, _prepared, { confirmation }) => ({
			already_created: true,
			confirmation,
		}),
	};
	return { adapter: record, calls };
}

const found = (creationDate: string): Recovery => ({
	outcome: 'found',
	record: { idCashout: 8405147, creationDate },
});

describe('createOnce', () => {
	test('a first success sends once, after recording the attempt, and outputs what the adapter made of the answer', async () => {
		const run = context();
		let recordedBeforeSend: unknown;
		const { client: service, sent } = client({ cashout_id: '8405147' }, () => {
			recordedBeforeSend = structuredClone(run.nodeContext[ATTEMPTS]);
		});
		const { adapter: creation, calls } = adapter(derived());
		const items = await createOnce(run, service, creation, 0);
		expect(items).toEqual([{ json: { made: true, key: 'n8n-key', cashout_id: '8405147' } }]);
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({
			method: 'POST',
			path: '/v3/cashout',
			body: { external_id: 'n8n-key', amount: '250.00' },
			safeToRepeat: false,
			resendWhenBusy: true,
		});
		expect(recordedBeforeSend).toEqual({
			'slot-1': expect.objectContaining({ key: 'n8n-key', sentMs: expect.any(Number) }),
		});
		expect(calls).toEqual([]);
	});

	test('a repeat answer to a derived key this execution never sent fails as another execution’s request, remembered as refused', async () => {
		const run = context();
		const { adapter: creation, calls } = adapter(derived());
		await expect(
			createOnce(run, client(answered(REPEAT)).client, creation, 0),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
			description: expect.stringContaining('(n8n-key) (PENDING).'),
		});
		expect(calls).toEqual(['describe repeat']);
		expect(run.nodeContext[ATTEMPTS]).toEqual({
			'slot-1': expect.objectContaining({ refused: true }),
		});
	});

	test.each([
		['found and equal', { recovery: found('2026-11-27T10:00:00Z') }, 'found'],
		['not found, but named by its key', { byKey: true }, 'byKey'],
	] as const)(
		'a repeat answer to this execution’s own attempt, %s, is already made',
		async (_name, options, confirmation) => {
			const { adapter: creation } = adapter(
				derived({ earlierAttemptMs: Date.parse('2026-11-27T10:00:05Z') }),
				options,
			);
			const items = await createOnce(context(), client(answered(REPEAT)).client, creation, 0);
			expect(items).toEqual([{ json: { already_created: true, confirmation } }]);
		},
	);

	test('a found record that differs fails the item naming the field: the key belongs to another record', async () => {
		const { adapter: creation } = adapter(given({ earlierAttemptMs: 1 }), {
			recovery: found('2026-11-27T10:00:00Z'),
			differs: true,
		});
		await expect(
			createOnce(context(), client(answered(REPEAT)).client, creation, 0),
		).rejects.toMatchObject({
			message: 'belongs to another payout',
			description: 'amount: 250.00 asked, 300.00 on the existing cashout',
		});
	});

	test('a derived key’s record made before this execution first sent the key is another execution’s', async () => {
		const { adapter: creation } = adapter(
			derived({ earlierAttemptMs: Date.parse('2026-11-27T12:00:00Z') }),
			{ recovery: found('2026-11-27T09:00:00Z') },
		);
		await expect(
			createOnce(context(), client(answered(REPEAT)).client, creation, 0),
		).rejects.toMatchObject({
			message: expect.stringContaining('repeats a cashout an earlier execution requested'),
			description: expect.stringContaining('(n8n-key) (cashout 8405147).'),
		});
	});

	test('a repeat that cannot be confirmed fails the item, or is output unconfirmed when the option says so', async () => {
		const { adapter: creation } = adapter(given({ earlierAttemptMs: 1 }));
		await expect(
			createOnce(context(), client(answered(REPEAT)).client, creation, 0),
		).rejects.toMatchObject({
			message:
				'Cashout in item 0: external ID payout-7 was already used, and the payout it belongs to could not be confirmed',
			description: expect.stringMatching(/^It could not be compared\. To output such items/),
		});
		const items = await createOnce(
			context({ unconfirmedRepeat: 'output' }),
			client(answered(REPEAT)).client,
			creation,
			0,
		);
		expect(items).toEqual([{ json: { already_created: true, confirmation: 'unconfirmed' } }]);
	});

	test('a repeat answer to a resend after a 503 reads as this execution’s attempt: looked up since it was sent', async () => {
		const run = context();
		const { adapter: creation, calls } = adapter(derived(), { byKey: true });
		const items = await createOnce(
			run,
			client(answered({ ...REPEAT, attempts: 2, earlierAttemptMayHaveActed: true })).client,
			creation,
			0,
		);
		expect(items).toEqual([{ json: { already_created: true, confirmation: 'byKey' } }]);
		const sentMs = (run.nodeContext[ATTEMPTS] as Record<string, { sentMs: number }>)['slot-1']
			.sentMs;
		expect(calls).toEqual([`look up since ${sentMs}`]);
	});

	test('a record under the previous window’s key fails the item before anything is sent', async () => {
		const { adapter: creation } = adapter(derived({ previousWindowKey: 'n8n-yesterday' }), {
			previous: ' (PENDING, created in the previous Duplicate Window)',
		});
		const service = client({ cashout_id: '1' });
		await expect(createOnce(context(), service.client, creation, 0)).rejects.toMatchObject({
			description: expect.stringContaining(
				'(n8n-yesterday) (PENDING, created in the previous Duplicate Window).',
			),
		});
		expect(service.sent).toHaveLength(0);
	});

	test('any other failure is passed on as the client built it', async () => {
		const refusal = answered({ httpStatus: 400, code: 514, message: 'Insufficient funds' });
		const { adapter: creation } = adapter(derived());
		await expect(createOnce(context(), client(refusal).client, creation, 0)).rejects.toBe(refusal);
	});
});
