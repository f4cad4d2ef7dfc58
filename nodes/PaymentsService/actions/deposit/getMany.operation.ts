import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { executeList, listProperties } from '../common/list';

/** Deposit → Get Many: GET /v1/deposits over a period (service rules §3). */
export const properties = listProperties('deposit');

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeList(this, client, itemIndex, 'deposit');
}
