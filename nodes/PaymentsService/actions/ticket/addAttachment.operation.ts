import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { codeOptions } from '../../parameters/codeOptions';
import type { PaymentsClient } from '../../transport/client';
import { addAttachment, DOCUMENT_TYPES } from '../../transport/tickets';
import { readBinaryFile } from '../common/binary';
import { readPositiveInteger } from '../common/parameters';
import { ticketIdProperty } from './ticketId';

export const properties: INodeProperties[] = [
	ticketIdProperty,
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		description: 'Name of the binary property of the input item that holds the file',
	},
	{
		displayName: 'Document Type',
		name: 'documentType',
		type: 'options',
		default: 'VOUCHER',
		options: codeOptions(DOCUMENT_TYPES),
	},
];

/**
 * Ticket → Add Attachment: POST /v1/tickets/{idTicket}/addAttachment, multipart (service
 * rules §8). The ticket must still be a draft.
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const ticketId = readPositiveInteger(this, 'ticketId', 'Ticket ID', itemIndex);
	const documentType = this.getNodeParameter('documentType', itemIndex);
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex);
	const file = await readBinaryFile(this, itemIndex, propertyName, documentType);
	const ticket = await addAttachment(client, ticketId, file, itemIndex);
	return [{ json: ticket }];
}
