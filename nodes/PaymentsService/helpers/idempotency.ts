import { createHash, randomUUID } from 'crypto';

/** Where in a workflow run a deposit creation happens: what makes its idempotency key. */
export interface IdempotencyScope {
	workflowId: string | undefined;
	/** n8n's execution id; undefined only outside a saved execution. */
	executionId: string | undefined;
	/** The node's id (stable across renames), or its name. */
	nodeId: string;
	itemIndex: number;
}

/**
 * The `X-Idempotency-Key` for one deposit creation (API-NOTES: Idempotency).
 *
 * Same workflow, execution, node and item => same key, so when n8n re-runs the item (Retry On
 * Fail) the service recognises the repeat (error 104) instead of creating a second deposit. Another
 * item or another execution => another key. Shape: `n8n-` + 40 hex characters (44 characters, also
 * valid as an `invoice_id`). Without an execution id (never in a saved execution) the key is random.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	const executionPart = scope.executionId ?? `unsaved-${randomUUID()}`;
	const digest = createHash('sha256')
		.update(`${scope.workflowId ?? ''}\u0000${executionPart}\u0000${scope.nodeId}\u0000${scope.itemIndex}`)
		.digest('hex');
	return `n8n-${digest.slice(0, 40)}`;
}
