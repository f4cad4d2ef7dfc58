import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger, readRequiredText } from '../common/parameters';
import { cashoutIdProperty, changeCashoutStatus } from './statusChange';

/**
 * Cashout → Cancel: DELETE /v3/cashout/cancel with cashout_id and external_id (service
 * rules §6.1). The service decides whether an ON_HOLD cashout can be cancelled (a conflict); the node
 * never blocks it and reports a refusal (510) as it comes.
 */
export const properties: INodeProperties[] = [
	cashoutIdProperty,
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The external_id your system sent when creating the cashout; the service requires both IDs to cancel',
	},
];

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const cashoutId = readPositiveInteger(this, 'cashoutId', 'Cashout ID', itemIndex);
	const externalId = readRequiredText(
		this,
		'externalId',
		'External ID',
		itemIndex,
		'The service needs the external_id sent at creation to cancel a cashout.',
	);
	return await changeCashoutStatus(client, {
		body: { cashout_id: cashoutId, external_id: externalId },
		target: 'CANCELLED',
		action: `Cancelling cashout ${cashoutId}`,
		verb: 'cancelled',
		allowedFrom: 'PENDING or ON_HOLD',
		itemIndex,
	});
}
