import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { fakeDate, realDate } from '../../harness/clock';
import { recordAttempt } from '../../../nodes/PaymentsService/idempotency/attempts';
import {
	idempotencyRequestKey,
	requestKey,
	type RequestKeyInput,
} from '../../../nodes/PaymentsService/idempotency/requestKey';

/**
 * The key of one creation request (idempotency/requestKey.ts, service rules §5.2), with an n8n
 * context of the test's making: the node, its run index, the trigger item the item descends from
 * and the node context an execution carries.
 */

interface Run {
	runIndex?: number;
	trigger?: IDataObject;
	nodeContext?: IDataObject;
	type?: string;
}

/** An n8n context of one run of the node, after a trigger named Webhook. */
function context({
	runIndex = 0,
	trigger = { body: { id: 'W-1' } },
	nodeContext = {},
	type,
}: Run = {}) {
	const node = {
		id: 'node-1',
		name: 'Payments Service',
		type: type ?? 'n8n-nodes-payments-service.paymentsService',
	} as INode;
	return {
		getNode: () => node,
		getWorkflow: () => ({ id: 'wf-1' }),
		getContext: () => nodeContext,
		getParentNodes: (name: string) => (name === node.name ? [{ name: 'Webhook' }] : []),
		getWorkflowDataProxy: () => ({
			$runIndex: runIndex,
			$: () => ({ isExecuted: true, item: { json: trigger } }),
		}),
	} as unknown as IExecuteFunctions;
}

const payout = (given: unknown = '', options: IDataObject = {}): RequestKeyInput => ({
	given,
	kind: 'externalId',
	label: 'External ID',
	noun: 'Cashout',
	content: { amount: '250.00', country: 'BR' },
	options,
});

const MIDDAY = Date.UTC(2026, 10, 27, 12);

describe('requestKey', () => {
	afterEach(() => realDate());

	test('a given key is sent exactly as given; one a header or the service cannot carry is refused, naming the item, the field and the rule', () => {
		expect(requestKey(context(), 3, payout('payout-Łukasz-7'))).toEqual({
			value: 'payout-Łukasz-7',
			derived: false,
			attemptKey: 'given-payout-Łukasz-7',
			slot: '0:3',
		});
		expect(() => requestKey(context(), 3, payout('payout\n7'))).toThrow(
			/^Cashout in item 3 is invalid: External ID /,
		);
		expect(() =>
			idempotencyRequestKey(context(), 0, 'Refund', {}, { idempotencyKey: 'order-Ł-1' }),
		).toThrow(/^Refund in item 0 is invalid: Idempotency Key /);
	});

	test('a given Idempotency Key is trimmed; an empty one is derived', () => {
		fakeDate(MIDDAY);
		expect(
			idempotencyRequestKey(context(), 0, 'Refund', {}, { idempotencyKey: ' refund-7 ' }).value,
		).toBe('refund-7');
		expect(
			idempotencyRequestKey(context(), 0, 'Refund', {}, { idempotencyKey: '  ' }).derived,
		).toBe(true);
	});

	test('a derived key follows the item, the run, the trigger item and the Duplicate Window', () => {
		fakeDate(MIDDAY);
		const base = requestKey(context(), 0, payout());
		expect(base.value).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(base.window).toEqual({
			label: '2026-11-27',
			startMs: Date.UTC(2026, 10, 27),
			endMs: Date.UTC(2026, 10, 28),
		});
		expect(base.previous).toBeUndefined();
		expect(requestKey(context(), 0, payout()).value).toBe(base.value);
		const others = [
			requestKey(context(), 1, payout()),
			requestKey(context({ runIndex: 1 }), 0, payout()),
			requestKey(context({ trigger: { body: { id: 'W-2' } } }), 0, payout()),
			requestKey(context(), 0, payout('', { duplicateWindow: 'hour' })),
		];
		for (const other of others) expect(other.value).not.toBe(base.value);
	});

	test('an attempt this execution made before gives its key back after midnight; a new execution gets the new day’s key and looks for the previous one', () => {
		const nodeContext: IDataObject = {};
		fakeDate(Date.UTC(2026, 10, 27, 23, 59, 58));
		const first = requestKey(context({ nodeContext }), 0, payout());
		recordAttempt(context({ nodeContext }), first);
		fakeDate(Date.UTC(2026, 10, 28, 0, 0, 20));
		const retried = requestKey(context({ nodeContext }), 0, payout());
		expect(retried.value).toBe(first.value);
		expect(retried.earlierAttemptMs).toBe(Date.UTC(2026, 10, 27, 23, 59, 58));
		const rerun = requestKey(context(), 0, payout());
		expect(rerun.value).not.toBe(first.value);
		expect(rerun.previous).toEqual({ value: first.value, window: first.window });
	});

	test('the item’s slot is its run and item; as an AI agent’s tool the key leaves the run out, the slot does not', () => {
		fakeDate(MIDDAY);
		const tool = 'n8n-nodes-payments-service.paymentsServiceTool';
		const second = requestKey(context({ runIndex: 1, type: tool }), 0, payout());
		const first = requestKey(context({ runIndex: 0, type: tool }), 0, payout());
		expect(second.value).toBe(first.value);
		expect([first.slot, second.slot]).toEqual(['0:0', '1:0']);
	});
});
