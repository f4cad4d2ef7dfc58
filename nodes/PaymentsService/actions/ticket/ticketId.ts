import type { INodeProperties } from 'n8n-workflow';

/** The Ticket ID parameter of Add Attachment and Confirm (service rules §8). */
export const ticketIdProperty: INodeProperties = {
	displayName: 'Ticket ID',
	name: 'ticketId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '51234',
	description: 'The idTicket of the draft ticket (from Create Draft or a review shortcut)',
};
