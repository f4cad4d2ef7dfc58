import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';

/**
 * Balance → Get: GET /v1/balance, the total available balance (service rules §3.4). One output item per balance entry (one per currency and type).
 */
export const properties: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const answer = await client.request<IDataObject>(
		{ family: 'reporting', method: 'GET', path: '/v1/balance' },
		{ action: 'Reading the available balance', itemIndex },
	);
	const balances = Array.isArray(answer?.balances) ? (answer.balances as IDataObject[]) : undefined;
	if (!balances) return [{ json: answer ?? {} }];
	return balances.map((balance) => ({ json: balance }));
}
