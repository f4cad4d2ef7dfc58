import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { confirmTicket } from '../../transport/tickets';
import { readPositiveInteger } from '../common/parameters';
import { ticketIdProperty } from './ticketId';

/**
 * Ticket → Confirm: POST /v1/tickets/{idTicket}/confirmTicket (service rules §8). Submits the
 * draft to the support team; it can no longer be changed afterwards.
 */
export const properties: INodeProperties[] = [ticketIdProperty];

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const ticketId = readPositiveInteger(this, 'ticketId', 'Ticket ID', itemIndex);
	const ticket = await confirmTicket(client, ticketId, itemIndex);
	return [{ json: { idTicket: ticketId, ...ticket } }];
}
