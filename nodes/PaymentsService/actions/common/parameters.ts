import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { isCountryCode } from '../../reference/countries';
import { locatorValue } from '../../reference/pickers';
import { positiveId } from '../../codes/ids';

/**
 * Reads a required identifier parameter (deposit, cashout or ticket id) as a positive whole number.
 * @throws NodeOperationError naming the field, the item and the bad value.
 */
export function readPositiveInteger(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
): number {
	const raw = context.getNodeParameter(parameter, itemIndex) as unknown;
	const text = typeof raw === 'number' ? String(raw) : String(raw ?? '').trim();
	const id = positiveId(text);
	if (id === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`${label} must be a positive whole number, got "${text}" (item ${itemIndex})`,
			{
				itemIndex,
				description: `Set "${label}" to the identifier the service assigned, e.g. 123456.`,
			},
		);
	}
	return id;
}

/**
 * Reads a required text parameter, trimmed.
 * @throws NodeOperationError when it is empty.
 */
export function readRequiredText(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	const value = String(context.getNodeParameter(parameter, itemIndex, '') ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${label} is empty (item ${itemIndex})`, {
			itemIndex,
			description: hint,
		});
	}
	return value;
}

/**
 * Reads a required 2-letter country code from a Country picker (or a plain string saved before the
 * parameter was a picker), upper-cased.
 * @throws NodeOperationError when it is empty or not 2 letters.
 */
export function readCountry(
	context: IExecuteFunctions,
	parameter: string,
	itemIndex: number,
): string {
	const country = String(
		locatorValue(context.getNodeParameter(parameter, itemIndex, '')) ?? '',
	).trim();
	if (country === '') {
		throw new NodeOperationError(context.getNode(), `Country is empty (item ${itemIndex})`, {
			itemIndex,
			description: 'Pick a country from the list, or type a 2-letter country code such as BR.',
		});
	}
	if (!isCountryCode(country)) {
		throw new NodeOperationError(
			context.getNode(),
			`Country must be a 2-letter country code, got "${country}" (item ${itemIndex})`,
			{
				itemIndex,
				description: 'Use an ISO 3166-1 alpha-2 code such as BR, MX or CO.',
			},
		);
	}
	return country.toUpperCase();
}
