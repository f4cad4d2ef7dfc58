import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	attemptRecords,
	countSend,
	forgetOutcomes,
	recordAttempt,
	recordedOutcome,
	recordOutcome,
	recordRefusedRepeat,
	sentBefore,
} from '../../../nodes/PaymentsService/idempotency/attempts';
import type { RequestKey } from '../../../nodes/PaymentsService/idempotency/keys';

/**
 * What a node remembers of its creations within one execution (idempotency/attempts.ts, service
 * rules §5.2): in n8n's node context, the object n8n saves with the execution and carries into
 * Retry On Fail and n8n's Retry.
 */

/** An execution's node context, as n8n gives it to every run of the node. */
function execution(nodeContext: IDataObject = {}) {
	return {
		context: { getContext: () => nodeContext } as unknown as IExecuteFunctions,
		nodeContext,
	};
}

const key = (extra: Partial<RequestKey> = {}): RequestKey => ({
	value: 'n8n-key',
	derived: true,
	window: { label: '2026-11-27', startMs: 1_000, endMs: 2_000 },
	attemptKey: 'slot-1',
	slot: '0:0',
	...extra,
});

describe('attempt records', () => {
	test('the first attempt records its key, window and time; a later attempt keeps that record', () => {
		const { context, nodeContext } = execution();
		recordAttempt(context, key());
		const first = structuredClone(nodeContext);
		recordAttempt(context, key({ value: 'n8n-other' }));
		expect(nodeContext).toEqual(first);
		expect(attemptRecords(context)).toEqual({
			'slot-1': {
				key: 'n8n-key',
				sentMs: expect.any(Number),
				windowStartMs: 1_000,
				windowEndMs: 2_000,
				windowLabel: '2026-11-27',
			},
		});
	});

	test('a repeat answer to this attempt’s own resend reads the key as sent before; a refused one does not', () => {
		const { context } = execution();
		expect(sentBefore(context, key()).earlierAttemptMs).toBeUndefined();
		recordAttempt(context, key());
		const sentMs = attemptRecords(context)!['slot-1'].sentMs;
		expect(sentBefore(context, key()).earlierAttemptMs).toBe(sentMs);
		recordRefusedRepeat(context, key());
		expect(sentBefore(context, key()).earlierAttemptMs).toBeUndefined();
		expect(sentBefore(context, key({ earlierAttemptMs: 5 })).earlierAttemptMs).toBe(5);
	});

	test('every sending is counted over the execution; without a node context each counts as the first', () => {
		const { context } = execution();
		recordAttempt(context, key());
		expect([
			countSend(context, key()),
			countSend(context, key()),
			countSend(context, key()),
		]).toEqual([1, 2, 3]);
		const withoutContext = {} as IExecuteFunctions;
		expect(attemptRecords(withoutContext)).toBeUndefined();
		expect(countSend(withoutContext, key())).toBe(1);
	});
});

describe('recorded outcomes', () => {
	const body = { amount: '250.00', country: 'BR' };

	test('an outcome is found again for the same item slot, key and request only', () => {
		const { context } = execution();
		recordOutcome(context, key(), body, { answer: { cashout_id: '7' }, timesSent: 2 });
		expect(recordedOutcome(context, key(), { country: 'BR', amount: '250.00' })).toEqual({
			key: 'n8n-key',
			request: expect.stringMatching(/^[0-9a-f]{16}$/),
			answer: { cashout_id: '7' },
			timesSent: 2,
		});
		expect(recordedOutcome(context, key({ slot: '0:1' }), body)).toBeUndefined();
		expect(recordedOutcome(context, key({ slot: '1:0' }), body)).toBeUndefined();
		expect(recordedOutcome(context, key({ value: 'n8n-other' }), body)).toBeUndefined();
		// A workflow edited before n8n's Retry: the same given key, another amount.
		expect(recordedOutcome(context, key(), { ...body, amount: '300.00' })).toBeUndefined();
	});

	test('forgetting the outcomes keeps the attempt records; reading creates nothing', () => {
		const { context, nodeContext } = execution();
		expect(recordedOutcome(context, key(), body)).toBeUndefined();
		expect(nodeContext).toEqual({});
		recordAttempt(context, key());
		recordOutcome(context, key(), body, { json: { already_created: true }, timesSent: 1 });
		forgetOutcomes(context);
		expect(recordedOutcome(context, key(), body)).toBeUndefined();
		expect(Object.keys(nodeContext)).toEqual(['paymentsServiceCreationAttempts']);
	});

	test('without a node context nothing is recorded, and nothing is found', () => {
		const context = {} as IExecuteFunctions;
		recordOutcome(context, key(), body, { answer: {}, timesSent: 1 });
		expect(recordedOutcome(context, key(), body)).toBeUndefined();
		expect(() => forgetOutcomes(context)).not.toThrow();
	});
});
