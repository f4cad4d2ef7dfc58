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
 * The idempotency key of an item's creation: the Idempotency Key option when filled in (trimmed),
 * else the key derived from the workflow, execution, node and item (`deriveIdempotencyKey`), which
 * Retry On Fail repeats.
 */
export function idempotencyKeyFor(context: IExecuteFunctions, itemIndex: number, options: IDataObject): string {
	const userKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
	if (userKey) return userKey;
	const node = context.getNode();
	return deriveIdempotencyKey({ workflowId: context.getWorkflow().id, executionId: context.getExecutionId(), nodeId: node.id ?? node.name, itemIndex });
}
