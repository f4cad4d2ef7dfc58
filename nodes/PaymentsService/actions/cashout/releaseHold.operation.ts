import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger } from '../common/parameters';
import { cashoutIdProperty, changeCashoutStatus } from './shared';

/**
 * Cashout → Release Hold: PUT /v3/cashout/status with status PENDING; only from ON_HOLD
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
		body: { cashout_id: cashoutId, status: 'PENDING' },
		target: 'PENDING',
		action: `Releasing the hold on cashout ${cashoutId}`,
		verb: 'released from hold',
		allowedFrom: 'ON_HOLD',
		itemIndex,
	});
}
