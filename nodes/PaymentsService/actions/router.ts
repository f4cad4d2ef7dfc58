import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { PaymentsClient } from '../transport/client';
import * as balance from './balance';
import * as bank from './bank';
import * as cashout from './cashout';
import * as chargeback from './chargeback';
import * as deposit from './deposit';
import * as exchangeRate from './exchangeRate';
import * as note from './note';
import * as refund from './refund';
import * as session from './session';
import * as settlement from './settlement';
import * as ticket from './ticket';
import type { OperationModule } from './types';

/** Every operation of the node, by resource and operation value. */
export const OPERATIONS: Record<string, Record<string, OperationModule>> = {
	balance: balance.operations,
	bank: bank.operations,
	cashout: cashout.operations,
	chargeback: chargeback.operations,
	deposit: deposit.operations,
	exchangeRate: exchangeRate.operations,
	note: note.operations,
	refund: refund.operations,
	session: session.operations,
	settlement: settlement.operations,
	ticket: ticket.operations,
};

/** The error item Continue On Fail emits: the message, what it means, and the service's code. */
function errorJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.description = error.description;
		if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
		if (error.context.serviceCode !== undefined) json.code = error.context.serviceCode as string | number;
		if (error.context.retryAfterSeconds !== undefined) json.retryAfterSeconds = error.context.retryAfterSeconds as number;
	}
	return json;
}

/**
 * Runs the selected operation for every input item (once for operations that act once per run).
 * Each output item is paired with its input item. With Continue On Fail an item that fails yields
 * an error item and the next item proceeds; otherwise the error, carrying its item index, stops
 * the node.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = OPERATIONS[resource]?.[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for resource "${resource}"`);
	}
	const client = new PaymentsClient(this);
	const returnData: INodeExecutionData[] = [];
	const count = module.oncePerRun ? Math.min(items.length, 1) : items.length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const output = await module.execute.call(this, client, itemIndex);
			returnData.push(...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }));
		} catch (caught) {
			let error = caught as Error;
			if (error instanceof NodeApiError || error instanceof NodeOperationError) {
				if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
			} else {
				error = new NodeOperationError(this.getNode(), error, { itemIndex });
			}
			if (this.continueOnFail()) {
				returnData.push({ json: errorJson(error), pairedItem: { item: itemIndex } });
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
