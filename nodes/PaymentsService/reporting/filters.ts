import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { hasStatus, NOTE_TYPES, type ReportingListDefinition } from './lists';
import { isCountryCode } from '../reference/countries';
import { codeOptions } from '../parameters/codeOptions';
import { showValue } from '../parameters/values';

// Until the Notification Trigger's description imports it from parameters/ (another change is
// rewriting that file), it finds codeOptions here.
export { codeOptions };

/**
 * A list filter that cannot be sent: its display name, the value (shown escaped and cut short,
 * parameters/values.ts) and what to enter instead.
 */
export class FilterError extends Error {
	constructor(
		readonly field: string,
		readonly value: unknown,
		readonly hint: string,
	) {
		super(`Filter "${field}" ${hint.split('.')[0].toLowerCase()}, got ${showValue(value)}`);
	}
}

/** The display name of each filter, for its errors. */
const FILTER_LABELS: Record<string, string> = {
	status: 'Status',
	country: 'Country',
	paymentMethod: 'Payment Method Code',
	clientDocument: 'Client Document',
	type: 'Type',
};

/**
 * The error n8n shows for a {@link FilterError} (the message names the field and the value, the
 * description what to enter), with ` (item N)` when the filter belongs to an item.
 */
export function filterErrorToNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeOperationError {
	if (!(error instanceof FilterError))
		return new NodeOperationError(node, error as Error, { itemIndex });
	const message = itemIndex === undefined ? error.message : `${error.message} (item ${itemIndex})`;
	return new NodeOperationError(node, message, { itemIndex, description: error.hint });
}

/**
 * Checks and normalises the Filters collection of a reporting list (service rules §3.3:
 * country and paymentMethod at most 2 characters; the status one of the list's statuses). Empty
 * values are dropped, the country is upper-cased, and `status` is returned apart (callers decide
 * whether the service sees it), spelt as the service spells it (a status typed or produced in
 * another case, `completed`, is the same status, `COMPLETED`).
 *
 * @param statuses the statuses the Status filter takes: the service's filter values for Get Many
 *   (the default), every status a record carries for the polling trigger.
 * @throws FilterError for a value that is not a text or a number (true, an object), a country
 *   that is not 2 letters, a payment method longer than 2 characters, a note type or a status the
 *   list does not have (its hint lists them).
 */
export function checkListFilters(
	raw: IDataObject,
	list: Pick<ReportingListDefinition, 'label' | 'filterStatuses'>,
	statuses: readonly string[] = list.filterStatuses,
): { filters: IDataObject; status: string } {
	const filters: IDataObject = {};
	let status = '';
	for (const [name, value] of Object.entries(raw)) {
		if (value === undefined || value === null) continue;
		if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value)))
			throw new FilterError(
				FILTER_LABELS[name] ?? name,
				value,
				'Must be a text. Type the value, or make the expression give a text.',
			);
		const text = String(value).trim();
		if (text === '') continue;
		if (name === 'status') {
			const known = statuses.find((candidate) => candidate.toUpperCase() === text.toUpperCase());
			if (!known) {
				throw new FilterError(
					'Status',
					text,
					`Must be a status of ${list.label}s. Use one of ${statuses.join(', ')}.`,
				);
			}
			status = known;
			continue;
		}
		if (name === 'country' && !isCountryCode(text)) {
			throw new FilterError(
				'Country',
				text,
				'Must be a 2-letter country code. Use an ISO 3166-1 alpha-2 code such as BR, MX or CO.',
			);
		}
		if (
			name === 'type' &&
			!NOTE_TYPES.includes(text.toUpperCase() as (typeof NOTE_TYPES)[number])
		) {
			throw new FilterError(
				'Type',
				text,
				`Must be a note type. Use one of ${NOTE_TYPES.join(', ')}.`,
			);
		}
		if (name === 'paymentMethod' && text.length > 2) {
			throw new FilterError(
				'Payment Method Code',
				text,
				'Must be at most 2 characters. Use the method’s code as the service lists it, e.g. PX or BL.',
			);
		}
		filters[name] = name === 'country' || name === 'type' ? text.toUpperCase() : text;
	}
	return { filters, status };
}

/**
 * The fields of a reporting list's Filters collection (service rules §3.3), built from the list's
 * description: the action node's Get Many and the trigger show the same fields.
 *
 * @param statusShownFor trigger only: the events for which the Status filter is shown
 *   (`/event` values); omitted, the Status filter is always shown.
 * @param statusValues the statuses offered; default the values the service's filter accepts.
 */
export function listFilterProperties(
	list: ReportingListDefinition,
	options: {
		statusShownFor?: string[];
		statusValues?: readonly string[];
		statusDescription?: string;
	} = {},
): INodeProperties[] {
	const fields: INodeProperties[] = list.filters.map((filter) => ({
		...FILTER_PROPERTIES[filter],
	}));
	if (hasStatus(list)) {
		const status: INodeProperties = {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: '',
			options: [
				{ name: 'Any Status', value: '' },
				...codeOptions(options.statusValues ?? list.filterStatuses),
			],
			description:
				options.statusDescription ??
				'Only records in this status. Applied by the service and again to the records it returns.',
		};
		if (options.statusShownFor)
			status.displayOptions = { show: { '/event': options.statusShownFor } };
		fields.push(status);
	}
	return fields.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The Filters collection of a list's read operations (Get Many, the reports), or none when the list takes no filter. */
export function filtersCollection(list: ReportingListDefinition): INodeProperties[] {
	const filters = listFilterProperties(list);
	if (!filters.length) return [];
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: filters,
		},
	];
}

/** The parameter of each filter a list takes besides its status (service rules §3.3). */
const FILTER_PROPERTIES: Record<ReportingListDefinition['filters'][number], INodeProperties> = {
	country: {
		displayName: 'Country',
		name: 'country',
		type: 'string',
		default: '',
		placeholder: 'BR',
		description: '2-letter ISO country code',
	},
	paymentMethod: {
		displayName: 'Payment Method Code',
		name: 'paymentMethod',
		type: 'string',
		default: '',
		placeholder: 'PX',
		description: 'Payment method code, up to 2 characters',
	},
	clientDocument: {
		displayName: 'Client Document',
		name: 'clientDocument',
		type: 'string',
		default: '',
		description: 'Document number of the customer',
	},
	type: {
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: '',
		options: [{ name: 'Any Type', value: '' }, ...codeOptions(NOTE_TYPES)],
		description: 'Only notes of this type',
	},
};
