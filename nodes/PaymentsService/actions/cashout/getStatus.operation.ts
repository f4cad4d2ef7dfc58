import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger, readRequiredText } from '../common/parameters';
import { explainCashoutRefusal, readCashoutStatus } from '../../transport/cashouts';
import { cashoutIdProperty } from './statusChange';

export const properties: INodeProperties[] = [
	{
		displayName: 'Identify By',
		name: 'identifyBy',
		type: 'options',
		default: 'cashoutId',
		options: [
			{ name: 'Cashout ID', value: 'cashoutId', description: 'The ID the service assigned' },
			{
				name: 'External ID',
				value: 'externalId',
				description: 'The ID your system sent at creation',
			},
		],
	},
	{ ...cashoutIdProperty, displayOptions: { show: { identifyBy: ['cashoutId'] } } },
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show: { identifyBy: ['externalId'] } },
		description: 'The external_id your system sent when creating the cashout',
	},
];

/** Cashout → Get Status: POST /v3/cashout/status (service rules §6.1). */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const identifyBy = this.getNodeParameter('identifyBy', itemIndex) as string;
	if (identifyBy === 'externalId') {
		const externalId = readRequiredText(
			this,
			'externalId',
			'External ID',
			itemIndex,
			'Enter the external_id sent when the cashout was created.',
		);
		return await readCashoutStatus(
			client,
			{ external_id: externalId },
			{
				action: `Reading the status of cashout with external ID "${externalId}"`,
				itemIndex,
				explain: explainCashoutRefusal(`with external ID "${externalId}"`, 'read', 'known'),
			},
		);
	}
	const cashoutId = readPositiveInteger(this, 'cashoutId', 'Cashout ID', itemIndex);
	return await readCashoutStatus(
		client,
		{ cashout_id: cashoutId },
		{
			action: `Reading the status of cashout ${cashoutId}`,
			itemIndex,
			explain: explainCashoutRefusal(cashoutId, 'read', 'known'),
		},
	);
}
