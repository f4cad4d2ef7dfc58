import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { countryPicker } from '../../reference/pickers';
import type { PaymentsClient } from '../../transport/client';
import { readCountryList, type CountryListPath } from '../../transport/countryLists';
import { readLimit, returnAllProperties } from './list';
import { readCountry } from './parameters';

/** A list the service gives per country with the read-only key (banks, payment methods). */
export interface CountryList {
	/** The request path, e.g. `/v3/banks`. */
	path: CountryListPath;
	/** What is listed, in the plural, for the picker's hint and the error's action (`banks`). */
	noun: string;
}

/**
 * The parameters and the run of a Get Many over a per-country list (service rules §9): a country
 * picker, Return All and Limit; one `GET <path>?country=` whose answer is an array, one item per
 * entry as the service returns it, cut to Limit. The list is live: read it when needed rather than
 * storing it.
 * @throws NodeOperationError for a country that is not 2 letters (nothing is sent); NodeApiError when
 *   the service refuses (code 100: the read-only key is wrong).
 */
export function countryListOperation(list: CountryList): {
	properties: INodeProperties[];
	execute: (
		this: IExecuteFunctions,
		client: PaymentsClient,
		itemIndex: number,
	) => Promise<INodeExecutionData[]>;
} {
	return {
		properties: [
			countryPicker(`Country whose ${list.noun} to list: pick it, or type its 2-letter ISO code`),
			...returnAllProperties,
		],
		async execute(
			this: IExecuteFunctions,
			client: PaymentsClient,
			itemIndex: number,
		): Promise<INodeExecutionData[]> {
			const country = readCountry(this, 'country', itemIndex);
			const entries = await readCountryList(client, list.path, country, list.noun, itemIndex);
			const limit = readLimit(this, itemIndex);
			return (limit === undefined ? entries : entries.slice(0, limit)).map((entry) => ({
				json: entry,
			}));
		},
	};
}
