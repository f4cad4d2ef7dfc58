import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { PaymentsClient } from '../transport/client';
import { findOperation } from './registry';

/**
 * The error item Continue On Fail emits: the message, what it means, and the service's code —
 * `{error, description?, code?, httpCode?, retryAfterSeconds?}`. Under On Error "Continue (using
 * error output)" n8n sends an item to the error output only when its fields are among `error`,
 * `message` and `details`, so there the same facts are `{error, details: {description?, code?,
 * httpCode?, retryAfterSeconds?}}`; n8n then adds the fields of the input item (e.g. the spreadsheet
 * row that failed).
 */
function errorJson(error: NodeApiError | NodeOperationError, forErrorOutput: boolean): IDataObject {
	const facts: IDataObject = {};
	if (error.description) facts.description = error.description;
	if (error.context.serviceCode !== undefined) facts.code = error.context.serviceCode as string | number;
	if (error instanceof NodeApiError && error.httpCode) facts.httpCode = error.httpCode;
	if (error.context.retryAfterSeconds !== undefined) facts.retryAfterSeconds = error.context.retryAfterSeconds as number;
	return forErrorOutput ? { error: error.message, details: facts } : { error: error.message, ...facts };
}

/**
 * Runs the selected operation for every input item (once for operations that act once per run),
 * with one client per run bound to the credential the registry names for the operation (so one
 * session login serves every item). Each output item is paired with its input item. With Continue
 * On Fail an item that fails yields an error item and the next item proceeds; otherwise the error,
 * carrying its item index, stops the node. Errors are wrapped here only when they are not n8n's.
 * Under On Error "Continue (using error output)" the error items leave by the error output, each
 * joined with the fields of its input item (e.g. the spreadsheet row that failed).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const definition = findOperation(resource, operation);
	if (!definition) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for resource "${resource}"`);
	}
	const client = new PaymentsClient(this, definition.credential);
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const returnData: INodeExecutionData[] = [];
	const count = definition.module.oncePerRun ? Math.min(items.length, 1) : items.length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			if (definition.reads) {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				client.setRetries(options.retryReads !== false);
			}
			const output = await definition.module.execute.call(this, client, itemIndex);
			returnData.push(...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }));
		} catch (caught) {
			const error =
				caught instanceof NodeApiError || caught instanceof NodeOperationError
					? caught
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
			if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
			if (this.continueOnFail()) {
				returnData.push({ json: errorJson(error, toErrorOutput), pairedItem: { item: itemIndex } });
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
