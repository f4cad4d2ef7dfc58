import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { fakeDate, realDate } from '../../harness/clock';
import {
	startHistory,
	type RequestHistory,
} from '../../../nodes/PaymentsService/idempotency/history';
import {
	requestKey as keyOf,
	type RequestKeyInput,
} from '../../../nodes/PaymentsService/idempotency/requestKey';

/**
 * The key of one creation request (idempotency/requestKey.ts, service rules §5.2), with an n8n
 * context of the test's making: the node, its run index and the trigger item the item descends
 * from, and the histories an execution carries.
 */

interface Run {
	runIndex?: number;
	trigger?: IDataObject;
	type?: string;
}

/** An n8n context of one run of the node, after a trigger named Webhook. */
function context({ runIndex = 0, trigger = { body: { id: 'W-1' } }, type }: Run = {}) {
	const node = {
		id: 'node-1',
		name: 'Payments Service',
		type: type ?? 'n8n-nodes-payments-service.paymentsService',
	} as INode;
	return {
		getNode: () => node,
		getWorkflow: () => ({ id: 'wf-1' }),
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
	noun: 'cashout',
	content: { amount: '250.00', country: 'BR' },
	options,
});

/** The key of item `itemIndex` in a run, with the histories of an execution (none: a new one). */
const requestKey = (
	run: ReturnType<typeof context>,
	itemIndex: number,
	input: RequestKeyInput,
	histories: Record<string, RequestHistory> = {},
) => keyOf(run, itemIndex, input, histories);

const MIDDAY = Date.UTC(2026, 10, 27, 12);

describe('requestKey', () => {
	afterEach(() => realDate());

	test('a given key is sent exactly as given; one a header or the service cannot carry is refused, naming the item, the field and the rule', () => {
		expect(requestKey(context(), 3, payout('payout-Łukasz-7'))).toEqual({
			key: { value: 'payout-Łukasz-7', derived: false },
			historyKey: 'given-payout-Łukasz-7',
			runItem: '0:3',
		});
		expect(() => requestKey(context(), 3, payout('payout\n7'))).toThrow(
			/^Cashout in item 3 is invalid: External ID /,
		);
		const header = {
			...payout('order-Ł-1'),
			kind: 'idempotencyKey',
			label: 'Idempotency Key',
			noun: 'refund',
		} as const;
		expect(() => requestKey(context(), 0, header)).toThrow(
			/^Refund in item 0 is invalid: Idempotency Key /,
		);
	});

	test('a derived key follows the item, the run, the trigger item and the Duplicate Window', () => {
		fakeDate(MIDDAY);
		const base = requestKey(context(), 0, payout());
		expect(base.key.value).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(base.key.window).toEqual({
			label: '2026-11-27',
			startMs: Date.UTC(2026, 10, 27),
			endMs: Date.UTC(2026, 10, 28),
		});
		expect(base.previous).toBeUndefined();
		expect(requestKey(context(), 0, payout()).key.value).toBe(base.key.value);
		const others = [
			requestKey(context(), 1, payout()),
			requestKey(context({ runIndex: 1 }), 0, payout()),
			requestKey(context({ trigger: { body: { id: 'W-2' } } }), 0, payout()),
			requestKey(context(), 0, payout('', { duplicateWindow: 'hour' })),
		];
		for (const other of others) expect(other.key.value).not.toBe(base.key.value);
	});

	test('a request this execution sent gives its key back after midnight; a new execution gets the new day’s key and looks for the previous one', () => {
		const histories: Record<string, RequestHistory> = {};
		fakeDate(Date.UTC(2026, 10, 27, 23, 59, 58));
		const first = requestKey(context(), 0, payout(), histories);
		startHistory(histories, first.historyKey, first.key);
		fakeDate(Date.UTC(2026, 10, 28, 0, 0, 20));
		const retried = requestKey(context(), 0, payout(), histories);
		expect(retried.key).toEqual(first.key);
		expect(retried.previous).toBeUndefined();
		const rerun = requestKey(context(), 0, payout());
		expect(rerun.key.value).not.toBe(first.key.value);
		expect(rerun.previous).toEqual(first.key);
	});

	test('the item’s place is its run and item; as an AI agent’s tool the key leaves the run out, the place does not', () => {
		fakeDate(MIDDAY);
		const tool = 'n8n-nodes-payments-service.paymentsServiceTool';
		const second = requestKey(context({ runIndex: 1, type: tool }), 0, payout());
		const first = requestKey(context({ runIndex: 0, type: tool }), 0, payout());
		expect(second.key.value).toBe(first.key.value);
		expect([first.runItem, second.runItem]).toEqual(['0:0', '1:0']);
	});
});
