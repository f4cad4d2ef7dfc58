import type { IDataObject } from 'n8n-workflow';

import type { PaymentsClient } from './client';

/** The per-country reference lists of the payment API (service rules §9). */
export type CountryListPath = '/v3/banks' | '/v3/payment_methods';

/**
 * Reads a per-country reference list: `GET <path>?country=<country>` with the read-only key
 * (service rules §9). Bank → Get Many, Payment Method → Get Many and the Bank and Payment Method
 * pickers all read through here.
 *
 * @param country a 2-letter code, already checked by the caller.
 * @param noun what the list holds, plural ("banks"), for the error message.
 * @returns the entries as the service gives them; an answer that is not an array is no entries.
 * @throws NodeApiError when the service refuses (code 100: the read-only key is wrong).
 */
export async function readCountryList(
	client: PaymentsClient,
	path: CountryListPath,
	country: string,
	noun: string,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const answer = await client.request<IDataObject[]>(
		{ family: 'payments', method: 'GET', path, qs: { country } },
		{ action: `Listing the ${noun} of ${country}`, itemIndex },
	);
	return Array.isArray(answer) ? answer : [];
}
