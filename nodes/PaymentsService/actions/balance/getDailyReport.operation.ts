import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { executeList, listProperties } from '../common/list';

/**
 * Balance → Get Daily Report: GET /v1/balance/report over a period, one item per day
 * (service rules §3).
 */
export const properties = listProperties('balanceReport');

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeList(this, client, itemIndex, 'balanceReport');
}
