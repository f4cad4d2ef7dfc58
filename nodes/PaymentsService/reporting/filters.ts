import type { IDataObject } from 'n8n-workflow';

/**
 * Display options for API code values: `WAITING_DETAILS` → "Waiting Details", `ID_DOCUMENT` →
 * "ID Document", sorted by name (n8n's rule for option lists).
 */
export function codeOptions(values: readonly string[]): Array<{ name: string; value: string }> {
	return values
		.map((value) => ({
			name: value
				.toLowerCase()
				.split('_')
				.map((word) => (word === 'id' ? 'ID' : word.charAt(0).toUpperCase() + word.slice(1)))
				.join(' '),
			value,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** A list filter that cannot be sent: its display name, the value and what to enter instead. */
export class FilterError extends Error {
	constructor(
		readonly field: string,
		readonly value: string,
		readonly hint: string,
	) {
		super(`Filter "${field}" ${hint.split('.')[0].toLowerCase()}, got "${value}"`);
	}
}

/**
 * Checks and normalises the Filters collection of a reporting list (service rules §3.3:
 * country and paymentMethod at most 2 characters). Empty values are dropped, the country is
 * upper-cased, and `status` is returned apart (callers decide whether the service sees it).
 *
 * @throws FilterError for a country that is not 2 letters or a payment method longer than 2 characters.
 */
export function checkListFilters(raw: IDataObject): { filters: IDataObject; status: string } {
	const filters: IDataObject = {};
	let status = '';
	for (const [name, value] of Object.entries(raw)) {
		if (value === undefined || value === null) continue;
		const text = String(value).trim();
		if (text === '') continue;
		if (name === 'status') {
			status = text;
			continue;
		}
		if (name === 'country' && !/^[A-Za-z]{2}$/.test(text)) {
			throw new FilterError('Country', text, 'Must be a 2-letter country code. Use an ISO 3166-1 alpha-2 code such as BR, MX or CO.');
		}
		if (name === 'paymentMethod' && text.length > 2) {
			throw new FilterError(
				'Payment Method Code',
				text,
				'Must be at most 2 characters. Use the method’s code as the service lists it, e.g. PX or BL.',
			);
		}
		filters[name] = name === 'country' ? text.toUpperCase() : text;
	}
	return { filters, status };
}

/** Whether `value` is a 2-letter ISO 3166-1 country code (any case). */
export function isCountryCode(value: string): boolean {
	return /^[A-Za-z]{2}$/.test(value);
}
