import { createHash, randomUUID } from 'crypto';

/** Where in a workflow run a creation happens: what makes its idempotency key. */
export interface IdempotencyScope {
	workflowId: string | undefined;
	/** n8n's execution id; undefined only outside a saved execution. */
	executionId: string | undefined;
	/** The node's id (stable across renames), or its name. */
	nodeId: string;
	itemIndex: number;
}

/**
 * The key that makes one creation happen at most once (service rules §5.2, §6.2): the
 * `X-Idempotency-Key` of a deposit or refund creation, and the derived `external_id` of a cashout.
 *
 * Same workflow, execution, node and item => same key, so when n8n re-runs the item (Retry On
 * Fail) the service recognises the repeat (error 104 for deposits and refunds, 511 for cashouts)
 * instead of creating a second one. Another item or another execution => another key. Shape:
 * `n8n-` + 40 hex characters (44 characters: a valid `invoice_id` (≤ 128) and `external_id`
 * (≤ 100)). Without an execution id (never in a saved execution) the key is random.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	const executionPart = scope.executionId ?? `unsaved-${randomUUID()}`;
	const digest = createHash('sha256')
		.update(`${scope.workflowId ?? ''}\u0000${executionPart}\u0000${scope.nodeId}\u0000${scope.itemIndex}`)
		.digest('hex');
	return `n8n-${digest.slice(0, 40)}`;
}
