import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger, readRequiredText } from '../common/parameters';

export const properties: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		required: true,
		default: 'DEPOSIT',
		description: 'Ticket type, e.g. DEPOSIT or CASHOUT',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: 'What the support team should look at',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Category',
				name: 'category',
				type: 'string',
				default: '',
				placeholder: 'FLAG_FOR_REVIEW_DEPOSIT',
				description: 'Ticket category',
			},
			{
				displayName: 'Reference ID',
				name: 'referenceId',
				type: 'number',
				default: 0,
				description: 'ID of the related deposit, cashout or other entity (0: none)',
			},
		],
	},
];

/**
 * Ticket → Create Draft: POST /v1/tickets/createTicket (service rules §8). The ticket is
 * not submitted until confirmed (Ticket → Confirm).
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const type = readRequiredText(
		this,
		'type',
		'Type',
		itemIndex,
		'Enter a ticket type such as DEPOSIT.',
	);
	const descriptionText = readRequiredText(
		this,
		'description',
		'Description',
		itemIndex,
		'Describe the issue for the support team.',
	);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { type, description: descriptionText };
	if (typeof additional.category === 'string' && additional.category.trim())
		body.category = additional.category.trim();
	// Set (0, its default, is unset), it must be an id: true, -1 or a text had been sent as 1 or
	// dropped without a word.
	if (![undefined, null, '', 0].includes(additional.referenceId as string))
		body.referenceId = readPositiveInteger(
			this,
			'additionalFields.referenceId',
			'Reference ID',
			itemIndex,
		);
	const ticket = await client.request<IDataObject>(
		{ family: 'tickets', method: 'POST', path: '/v1/tickets/createTicket', body },
		{ action: 'Creating a draft ticket', itemIndex },
	);
	return [{ json: ticket ?? {} }];
}
