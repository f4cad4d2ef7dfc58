import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { countryPicker } from '../../helpers/pickers';
import type { PaymentsClient } from '../../transport/client';
import { readLimit, returnAllProperties } from '../common/list';
import { readCountry } from '../common/parameters';

export const properties: INodeProperties[] = [
	countryPicker('Country whose banks to list: pick it, or type its 2-letter ISO code'),
	...returnAllProperties,
];

/**
 * Bank → Get Many: GET /v3/banks, the bank codes accepted for cashouts in a country (service rules §9). The list is live: read it when needed rather than storing it.
 */

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const country = readCountry(this, 'country', itemIndex);
	const banks = await client.request<IDataObject[]>(
		{ family: 'payments', method: 'GET', path: '/v3/banks', qs: { country: country } },
		{ action: `Listing the banks of ${country}`, itemIndex },
	);
	const list = Array.isArray(banks) ? banks : [];
	const limit = readLimit(this, itemIndex);
	return (limit === undefined ? list : list.slice(0, limit)).map((bank) => ({ json: bank }));
}
