import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { countryPicker } from '../../reference/pickers';
import type { PaymentsClient } from '../../transport/client';
import { readCountry } from '../common/parameters';
import { showValue } from '../../parameters/values';

export const properties: INodeProperties[] = [
	countryPicker('Country whose local currency is used: pick it, or type its 2-letter ISO code'),
	{
		displayName: 'Amount (USD)',
		name: 'amount',
		type: 'number',
		default: 1,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: 'Amount in USD to convert',
	},
];

/** Exchange Rate → Get: GET /v3/exchange_rates (service rules §9). */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const country = readCountry(this, 'country', itemIndex);
	const amount = this.getNodeParameter('amount', itemIndex, 1) as number;
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Amount must be a number of USD of at least 0, got ${showValue(amount)} (item ${itemIndex})`,
			{ itemIndex, description: 'Set Amount (USD) to the amount to convert, e.g. 100.' },
		);
	}
	const result = await client.request<IDataObject>(
		{
			family: 'payments',
			method: 'GET',
			path: '/v3/exchange_rates',
			qs: { country: country, amount },
		},
		{ action: `Reading the exchange rate for ${country}`, itemIndex },
	);
	return [{ json: result ?? {} }];
}
