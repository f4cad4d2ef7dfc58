import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { countryPicker } from '../../helpers/pickers';
import type { PaymentsClient } from '../../transport/client';
import { readLimit, returnAllProperties } from '../common/list';
import { readCountry } from '../common/parameters';

export const properties: INodeProperties[] = [
	countryPicker('Country whose payment methods to list: pick it, or type its 2-letter ISO code'),
	...returnAllProperties,
];

/**
 * Payment Method → Get Many: `GET /v3/payment_methods?country=` with the read-only key (service
 * rules §9). One item per method, as the service returns it: `{country, code, name, type, status,
 * logo, daily_average, monthly_average}`; `code` is what Deposit → Create sends as `payment_method`.
 * @throws NodeOperationError for a country that is not 2 letters (nothing is sent); NodeApiError
 *   when the service refuses (code 100: the read-only key is wrong).
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const country = readCountry(this, 'country', itemIndex);
	const methods = await client.request<IDataObject[]>(
		{ family: 'payments', method: 'GET', path: '/v3/payment_methods', qs: { country } },
		{ action: `Listing the payment methods of ${country}`, itemIndex },
	);
	const list = Array.isArray(methods) ? methods : [];
	const limit = readLimit(this, itemIndex);
	return (limit === undefined ? list : list.slice(0, limit)).map((method) => ({ json: method }));
}
