import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { executeList, listProperties } from '../common/list';

/** Cashout → Get Many: GET /v1/cashouts over a period (service rules §3). */
export const properties = listProperties('cashout');

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeList(this, client, itemIndex, 'cashout');
}
