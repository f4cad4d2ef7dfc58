import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger } from '../common/parameters';
import { cashoutCall, cashoutIdProperty, explainCashoutRefusal } from './shared';

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
	return await cashoutCall(client, 'PUT', { cashout_id: cashoutId, status: 'PENDING' }, {
		action: `Releasing the hold on cashout ${cashoutId}`,
		itemIndex,
		explain: explainCashoutRefusal(cashoutId, 'released from hold', 'ON_HOLD'),
	});
}
