import type { INodeProperties } from 'n8n-workflow';

/**
 * The pickers of the action node: n8n resource locators with a searchable list (From List) and a
 * typed code (By Code); either may hold an expression, so fields mapped from earlier nodes keep
 * working. A parameter saved before it became a picker (a plain string such as "BR") stays valid:
 * {@link locatorValue} reads both shapes, as n8n does.
 *
 * - Country: the package's country table (service rules §9); it needs no credential.
 * - Payment Method: `GET /v3/payment_methods` for the chosen country (read-only key).
 * - Bank: `GET /v3/banks` for the chosen country (read-only key).
 */

/** The `methods.listSearch` names of the node, one per picker. */
export const LIST_SEARCH_METHODS = {
	country: 'searchCountries',
	paymentMethod: 'searchPaymentMethods',
	bank: 'searchBanks',
} as const;
export type PickerKind = keyof typeof LIST_SEARCH_METHODS;

/** What a picker looks like apart from its name, label and description. */
type PickerSettings = Pick<INodeProperties, 'type' | 'default' | 'modes' | 'typeOptions'>;

/**
 * A picker's settings: From List (a searchable list from `listSearch`) and By Code (typed, checked
 * against `code` by n8n before the workflow runs).
 */
function picker(
	kind: PickerKind,
	code: { pattern: string; example: string; error: string },
	options: { dependsOnCountry?: boolean; noCredential?: boolean } = {},
): PickerSettings {
	return {
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		...(options.dependsOnCountry
			? { typeOptions: { loadOptionsDependsOn: ['country.value'] } }
			: {}),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: {
					searchListMethod: LIST_SEARCH_METHODS[kind],
					searchable: true,
					...(options.noCredential ? { skipCredentialsCheckInRLC: true } : {}),
				},
			},
			{
				displayName: 'By Code',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${code.example}`,
				validation: [
					{ type: 'regex', properties: { regex: code.pattern, errorMessage: code.error } },
				],
			},
		],
	};
}

/**
 * The settings of each picker. Payment methods and banks depend on the Country parameter; the
 * country list needs no credential.
 */
export const PICKERS: Readonly<Record<PickerKind, PickerSettings>> = {
	country: picker(
		'country',
		{ pattern: '^[A-Za-z]{2}$', example: 'BR', error: 'Enter a 2-letter country code, e.g. BR' },
		{ noCredential: true },
	),
	paymentMethod: picker(
		'paymentMethod',
		{
			pattern: '^[A-Za-z0-9]{1,10}$',
			example: 'PX',
			error: 'Enter the payment method code, e.g. PX',
		},
		{ dependsOnCountry: true },
	),
	bank: picker(
		'bank',
		{ pattern: '^[0-9]+$', example: '341', error: 'Enter the bank code as digits, e.g. 341' },
		{ dependsOnCountry: true },
	),
};

/**
 * The Country picker as a parameter of its own (required).
 * @param description what the country is for, e.g. "Country whose banks to list".
 */
export function countryPicker(description: string): INodeProperties {
	return {
		displayName: 'Country',
		name: 'country',
		required: true,
		description,
		...PICKERS.country,
	};
}

/**
 * The value a picker holds: `value` of a resource locator (`{__rl: true, mode, value}`), or the
 * value itself when it was saved as a plain string or number (before the parameter was a picker).
 */
export function locatorValue(raw: unknown): unknown {
	if (
		raw !== null &&
		typeof raw === 'object' &&
		!Array.isArray(raw) &&
		'value' in raw &&
		('__rl' in raw || 'mode' in raw)
	) {
		return (raw as { value: unknown }).value;
	}
	return raw;
}
