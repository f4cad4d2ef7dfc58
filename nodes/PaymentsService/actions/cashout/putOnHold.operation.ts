import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger } from '../common/parameters';
import { cashoutIdProperty, changeCashoutStatus } from './shared';

/**
 * Cashout → Put On Hold: PUT /v3/cashout/status with status ON_HOLD; only from PENDING
 * (service rules §6.1).
 */
export const properties: INodeProperties[] = [
	cashoutIdProperty,
];

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const cashoutId = readPositiveInteger(this, 'cashoutId', 'Cashout ID', itemIndex);
	return await changeCashoutStatus(client, {
		method: 'PUT',
		body: { cashout_id: cashoutId, status: 'ON_HOLD' },
		target: 'ON_HOLD',
		action: `Putting cashout ${cashoutId} on hold`,
		verb: 'put on hold',
		allowedFrom: 'PENDING',
		itemIndex,
	});
}
