import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { deriveIdempotencyKey } from '../../helpers/idempotency';

/**
 * The Idempotency Key option of a creation sent with `X-Idempotency-Key` (deposits, refunds;
 * service rules §5.2, §6.2). `what` names the creation: "the same deposit being created twice".
 */
export function idempotencyKeyOption(what: string): INodeProperties {
	return {
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description: `Key that stops ${what}. Empty: one is derived from the execution and the item, so Retry On Fail reuses it.`,
	};
}

/**
 * The key derived for an item's creation from the workflow, execution, node and item
 * (`deriveIdempotencyKey`): the same when n8n re-runs the item (Retry On Fail), different for
 * other items and executions. Deposits and refunds send it as `X-Idempotency-Key`, cashouts as
 * their `external_id`.
 */
export function derivedKeyFor(context: IExecuteFunctions, itemIndex: number): string {
	const node = context.getNode();
	return deriveIdempotencyKey({ workflowId: context.getWorkflow().id, executionId: context.getExecutionId(), nodeId: node.id ?? node.name, itemIndex });
}

/**
 * The idempotency key of an item's creation: the Idempotency Key option when filled in (trimmed),
 * else {@link derivedKeyFor}.
 */
export function idempotencyKeyFor(context: IExecuteFunctions, itemIndex: number, options: IDataObject): string {
	const userKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
	return userKey || derivedKeyFor(context, itemIndex);
}
