import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { isCountryCode, matchCountries } from '../reference/countries';
import { locatorValue } from '../reference/pickers';
import { PaymentsClient } from '../transport/client';
import { readCountryList, type CountryListPath } from '../transport/countryLists';

/**
 * The lists of the node's pickers (n8n `methods.listSearch`; see reference/pickers.ts). Each call
 * reads what it needs afresh: nothing is kept between calls (queue mode runs several workers).
 */

/** Items whose name or value contains `filter` (case ignored); all items when it is empty. */
function filtered(
	items: INodeListSearchItems[],
	filter: string | undefined,
): INodeListSearchItems[] {
	const wanted = (filter ?? '').trim().toLowerCase();
	if (!wanted) return items;
	return items.filter(
		(item) =>
			item.name.toLowerCase().includes(wanted) || String(item.value).toLowerCase().includes(wanted),
	);
}

/**
 * The country the node's Country picker holds, upper-cased.
 * @throws NodeOperationError when it is empty, an expression (known only when the workflow runs) or
 *   not a 2-letter code: the list cannot be read, and the code can still be typed By Code.
 */
function chosenCountry(context: ILoadOptionsFunctions, what: string): string {
	const raw = locatorValue(context.getCurrentNodeParameter('country'));
	const country = typeof raw === 'string' ? raw.trim() : '';
	if (country.startsWith('=')) {
		throw new NodeOperationError(
			context.getNode(),
			`The ${what} of a country given by an expression cannot be listed`,
			{
				description: `The country is known only when the workflow runs. Pick the country from the list to see its ${what}, or type the code By Code.`,
			},
		);
	}
	if (!isCountryCode(country)) {
		throw new NodeOperationError(context.getNode(), `Choose a Country first to list its ${what}`, {
			description: 'Pick the country from the list, or type its 2-letter code, e.g. BR.',
		});
	}
	return country.toUpperCase();
}

/** Reads a reference list with the read-only key, answering at once on failure (no retries in the editor). */
async function readReference(
	context: ILoadOptionsFunctions,
	path: CountryListPath,
	country: string,
	what: string,
): Promise<IDataObject[]> {
	const client = new PaymentsClient(context, 'readOnly', {
		retry: false,
		purpose: `to list the ${what} (or type the code By Code)`,
	});
	return await readCountryList(client, path, country, what);
}

/** Country picker: the package's country table (service rules §9); no request, no credential. */
export async function searchCountries(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return {
		results: matchCountries(filter).map((country) => ({
			name: `${country.name} (${country.code}, ${country.currency})`,
			value: country.code,
		})),
	};
}

/**
 * Payment Method picker: `GET /v3/payment_methods?country=` with the read-only key (service rules
 * §9), for the country the node's Country picker holds. Each item is "<name> (<code>)", its value
 * the code.
 * @throws NodeOperationError without a chosen country or without a read-only credential;
 *   NodeApiError when the service refuses (e.g. 100, a wrong key).
 */
export async function searchPaymentMethods(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const country = chosenCountry(this, 'payment methods');
	const methods = await readReference(this, '/v3/payment_methods', country, 'payment methods');
	const items = methods
		.filter((method) => method.code !== undefined && method.code !== null)
		.map((method) => ({
			name: `${String(method.name ?? method.code)} (${String(method.code)})`,
			value: String(method.code),
			...(typeof method.type === 'string' ? { description: method.type } : {}),
		}));
	return { results: filtered(items, filter) };
}

/**
 * Bank picker: `GET /v3/banks?country=` with the read-only key (service rules §9), for the country
 * the node's Country picker holds. Each item is "<name> (<code>)", its value the code as text.
 * @throws NodeOperationError without a chosen country or without a read-only credential;
 *   NodeApiError when the service refuses.
 */
export async function searchBanks(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const country = chosenCountry(this, 'banks');
	const banks = await readReference(this, '/v3/banks', country, 'banks');
	const items = banks
		.filter((bank) => bank.code !== undefined && bank.code !== null)
		.map((bank) => ({
			name: `${String(bank.name ?? bank.code)} (${String(bank.code)})`,
			value: String(bank.code),
		}));
	return { results: filtered(items, filter) };
}
