import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	firstSentMs,
	keepOutcome,
	madeNow,
	markReported,
	outcomeOf,
	requestHistories,
	startHistory,
} from '../../../nodes/PaymentsService/idempotency/history';
import type { RequestKey } from '../../../nodes/PaymentsService/idempotency/keys';

/**
 * What an execution knows of the requests it sent (idempotency/history.ts, service rules §5.2): one
 * history per request, in n8n's node context, the object n8n saves with the execution and carries
 * into Retry On Fail and n8n's Retry.
 */

/** An execution's node context, as n8n gives it to every run of the node. */
function execution(nodeContext: IDataObject = {}) {
	return {
		context: { getContext: () => nodeContext } as unknown as IExecuteFunctions,
		nodeContext,
	};
}

const key = (value = 'n8n-key'): RequestKey => ({
	value,
	derived: true,
	window: { label: '2026-11-27', startMs: 1_000, endMs: 2_000 },
});
const body = { amount: '250.00', country: 'BR' };

describe('request histories', () => {
	test('a history starts as its key is first sent, under one name in the node context; a later attempt keeps it', () => {
		const { context, nodeContext } = execution();
		const first = startHistory(requestHistories(context), 'slot-1', key());
		const again = startHistory(requestHistories(context), 'slot-1', key('n8n-other'));
		expect(again).toBe(first);
		expect(nodeContext).toEqual({
			paymentsServiceCreationAttempts: {
				'slot-1': {
					key: 'n8n-key',
					sentMs: expect.any(Number),
					windowStartMs: 1_000,
					windowEndMs: 2_000,
					windowLabel: '2026-11-27',
				},
			},
		});
		expect(firstSentMs(first)).toBe(first.sentMs);
		first.refused = true;
		expect(firstSentMs(first)).toBeUndefined();
	});

	test('without a node context each item gets a history of its own, kept nowhere', () => {
		const context = {} as IExecuteFunctions;
		const history = startHistory(requestHistories(context), 'slot-1', key());
		expect(requestHistories(context)).toEqual({});
		expect(history.key).toBe('n8n-key');
		expect(() => markReported(context)).not.toThrow();
	});

	test('an outcome is found again for the same item, key and request only', () => {
		const history = startHistory({}, 'slot-1', key());
		keepOutcome(history, '0:0', body, { answer: { cashout_id: '7' } });
		expect(outcomeOf(history, '0:0', key(), { country: 'BR', amount: '250.00' })).toEqual({
			runItem: '0:0',
			request: expect.stringMatching(/^[0-9a-f]{16}$/),
			answer: { cashout_id: '7' },
		});
		for (const [runItem, other, otherBody] of [
			['0:1', key(), body],
			['1:0', key(), body],
			['0:0', key('n8n-other'), body],
			// A workflow edited before n8n's Retry: the same key, another amount.
			['0:0', key(), { ...body, amount: '300.00' }],
		] as const)
			expect(outcomeOf(history, runItem, other, otherBody)).toBeUndefined();
	});

	test.each([
		['this item’s own request, not output yet', {}, '0:0', true],
		['the same request another item is outputting', { outcome: '0:1' }, '0:0', false],
		['this item’s outcome, kept for Retry On Fail', { outcome: '0:0' }, '0:0', true],
		['output by a run that ended without an error', { reported: true }, '1:0', false],
		['refused as another execution’s', { refused: true }, '0:0', false],
	] as const)('made now: %s', (_case, state, runItem, expected) => {
		const history = startHistory({}, 'given-order-7', key('order-7'));
		if ('outcome' in state) keepOutcome(history, state.outcome, body, { json: {} });
		if ('reported' in state) history.reported = true;
		if ('refused' in state) history.refused = true;
		expect(madeNow(history, runItem)).toBe(expected);
	});

	test('once the node’s run ended without an error, kept outcomes are marked reported and dropped', () => {
		const { context, nodeContext } = execution();
		const histories = requestHistories(context);
		keepOutcome(startHistory(histories, 'slot-1', key()), '0:0', body, { answer: {} });
		startHistory(histories, 'slot-2', key('n8n-failed'));
		markReported(context);
		expect(nodeContext.paymentsServiceCreationAttempts).toEqual({
			'slot-1': expect.objectContaining({ key: 'n8n-key', reported: true }),
			'slot-2': expect.not.objectContaining({ reported: true }),
		});
		expect(histories['slot-1'].outcome).toBeUndefined();
	});
});
