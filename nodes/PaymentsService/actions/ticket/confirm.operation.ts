import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { confirmTicket } from '../../transport/tickets';
import { readPositiveInteger } from '../common/parameters';

/**
 * Ticket → Confirm: POST /v1/tickets/{idTicket}/confirmTicket (service rules §8). Submits the
 * draft to the support team; it can no longer be changed afterwards.
 */
export const properties: INodeProperties[] = [
	{
		displayName: 'Ticket ID',
		name: 'ticketId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the draft ticket (idTicket)',
	},
];

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const ticketId = readPositiveInteger(this, 'ticketId', 'Ticket ID', itemIndex);
	const ticket = await confirmTicket(client, ticketId, itemIndex);
	return [{ json: { idTicket: ticketId, ...ticket } }];
}
