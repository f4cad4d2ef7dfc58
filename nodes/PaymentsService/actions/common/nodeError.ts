import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

/**
 * The error n8n shows for a failure of item `itemIndex` (0-based): n8n's own errors (NodeApiError,
 * NodeOperationError) as they are, with the item index filled in when missing; anything else
 * wrapped in a NodeOperationError for the item, with `description` (what the failure means for the
 * item) when given. Never throws.
 *
 * The router applies it to every failed item (actions/router.ts). An operation that catches a
 * failure to handle some kinds of it (an idempotency key already used, a record not found) rethrows
 * the rest through it: a bare `throw error` of the caught value is refused by n8n's lint rule
 * `@n8n/community-nodes/require-node-api-error`.
 */
export function toNodeError(
	node: INode,
	caught: unknown,
	itemIndex: number,
	description?: string,
): NodeApiError | NodeOperationError {
	const error =
		caught instanceof NodeApiError || caught instanceof NodeOperationError
			? caught
			: new NodeOperationError(node, caught as Error, { itemIndex, description });
	if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
	return error;
}
