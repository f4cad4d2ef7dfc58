import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { PaymentsClient } from '../transport/client';
import { toNodeError } from './common/nodeError';
import { readConcurrency } from './common/parameters';
import { findOperation } from './registry';

/**
 * The error item Continue On Fail emits: `{error, description?, code?, httpCode?,
 * retryAfterSeconds?}`. The error output takes an item by the shape of its json, and n8n's lines
 * differ: 2.x takes fields among `error`, `message` and `details`, so there the facts go in
 * `{error, details}`; 1.x only `{error}` or `{error, message}`, so there it is `{error, message}`
 * with the description as the message (the error already ends with the service's code). Setting
 * `item.error` routes on both, but n8n then replaces the json with `{error}`, dropping the facts
 * and the input item's fields (which n8n adds otherwise, e.g. the row that failed).
 */
function errorJson(
	error: NodeApiError | NodeOperationError,
	forErrorOutput: false | 'details' | 'message',
): IDataObject {
	const facts: IDataObject = {};
	if (error.description) facts.description = error.description;
	if (error.context.serviceCode !== undefined)
		facts.code = error.context.serviceCode as string | number;
	if (error instanceof NodeApiError && error.httpCode) facts.httpCode = error.httpCode;
	if (error.context.retryAfterSeconds !== undefined)
		facts.retryAfterSeconds = error.context.retryAfterSeconds as number;
	if (forErrorOutput === 'message')
		return { error: error.message, message: error.description || error.message };
	return forErrorOutput === 'details'
		? { error: error.message, details: facts }
		: { error: error.message, ...facts };
}

/**
 * Which error-item shape the running n8n sends to the error output (see errorJson): `details` on
 * n8n 2.x, `message` on 1.x. n8n offers no version to a node, so this asks the execution context
 * for a method n8n-core 2.x has and 1.123.x lacks (`isNodeFeatureEnabled`). The 2.x releases that
 * have it but route only `{error}` and `{error, message}` (2.35.0 and older) are outside the
 * supported range.
 */
function errorOutputShape(context: IExecuteFunctions): 'details' | 'message' {
	return typeof (context as { isNodeFeatureEnabled?: unknown }).isNodeFeatureEnabled === 'function'
		? 'details'
		: 'message';
}

/**
 * One run of the node, planned once before its items: the operation the parameters select and one
 * client bound to the credential the registry names for it (so one session login serves every item).
 * `count` is how many input items the operation runs for (1 for operations that act once per run).
 * The node's `execute()` owns the loop over items and the Continue On Fail decision (n8n's rule
 * require-continue-on-fail looks for it there); the plan gives it what to do for one item and how a
 * failure becomes an n8n error and an error item.
 */
export interface RunPlan {
	/** How many items to run, from 0 (all input items, or 1 for operations that act once per run). */
	count: number;
	/** How many items run at once: Options → Concurrency of the creations, 1 for every other operation. */
	concurrency: number;
	/**
	 * Runs `work` for items 0 to `count` − 1, at most `concurrency` at a time, started in item
	 * order. Once `stopped()` is true no further item starts; resolves when every started item has
	 * finished. `work` handles its own failures (it must not reject).
	 */
	forEachItem(work: (itemIndex: number) => Promise<void>, stopped: () => boolean): Promise<void>;
	/**
	 * True when the node runs as an AI agent's tool (the Payments Service Tool). A failed call then
	 * answers the model with the error item (the refusal, its fix in `description`, the service's
	 * code) instead of failing the agent's execution, as n8n's own HTTP Request tool does: the model
	 * can correct the value and call again. Nothing is sent twice: the answer is the outcome.
	 */
	asTool: boolean;
	/** Called once the run ended without an error (the operation's `afterRun`, types.ts). */
	afterRun(): void;
	/** Runs the operation for one item; the output items are paired with that input item. */
	runItem(itemIndex: number): Promise<INodeExecutionData[]>;
	/**
	 * The error n8n shows for a failure of one item: n8n's own errors as they are (with the item
	 * index filled in when missing), anything else wrapped in a NodeOperationError for that item.
	 */
	toNodeError(caught: unknown, itemIndex: number): NodeApiError | NodeOperationError;
	/**
	 * The item Continue On Fail emits for a failed item: json as errorJson() describes (the shape the
	 * running n8n's error output takes), paired with its input item.
	 */
	errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData;
}

/**
 * Plans a run of the selected operation (see RunPlan). Throws a NodeOperationError when the
 * resource and operation do not name a registered operation (a workflow saved by a newer version).
 */
export function planRun(this: IExecuteFunctions): RunPlan {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const definition = findOperation(resource, operation);
	if (!definition) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for resource "${resource}"`,
		);
	}
	const { run } = definition;
	const client = new PaymentsClient(this, run.credential);
	const count = run.items === 'oncePerRun' ? Math.min(items.length, 1) : items.length;
	const concurrency = run.items === 'concurrent' ? readConcurrency(this) : 1;
	const errorOutput =
		this.getNode().onError === 'continueErrorOutput' ? errorOutputShape(this) : false;
	return {
		count,
		concurrency,
		forEachItem: async (work, stopped) => {
			let next = 0;
			const worker = async () => {
				while (next < count && !stopped()) {
					await work(next++);
					// Before its next item, a worker lets n8n's event loop handle the answers and
					// connections of the items in flight: the next item's preparation would otherwise
					// run in the same turn as this answer, and every other request would wait behind
					// it (measured: +20 ms on each 50 ms request at 8 at once; bench "creations").
					if (concurrency > 1) await sleep(0);
				}
			};
			await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
		},
		asTool: this.getNode().type.endsWith('Tool'),
		afterRun: () => definition.module.afterRun?.(this),
		runItem: async (itemIndex) => {
			if (run.repeat === 'safe') {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				client.setRetries(options.retryReads !== false);
			}
			const output = await definition.module.execute.call(this, client, itemIndex);
			return this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } });
		},
		toNodeError: (caught, itemIndex) => toNodeError(this.getNode(), caught, itemIndex),
		errorItem: (error, itemIndex) => ({
			json: errorJson(error, this.getNode().type.endsWith('Tool') ? false : errorOutput),
			pairedItem: { item: itemIndex },
		}),
	};
}
