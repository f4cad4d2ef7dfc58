import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { REPORTING_LISTS, type ReportingResource } from '../../reporting/lists';

/**
 * The Simplify parameter of a Get Many. n8n's own nodes default Simplify to on; a saved workflow must
 * keep its output, so it is off on node version 1 (every workflow saved before it existed) and on
 * from version 1.1, which new nodes get.
 */
const SIMPLIFY_DESCRIPTION =
	'Whether to return only the fields a report or an alert needs (IDs, amount and currency, country, status, dates) instead of the whole record';
export const simplifyProperties: INodeProperties[] = [
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: SIMPLIFY_DESCRIPTION,
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: SIMPLIFY_DESCRIPTION,
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
];

/**
 * The record reduced to the Simplify fields of `resource` (its `simpleFields`), in that order.
 * Returns the record itself for a list without a field list.
 */
export function simplifyRecord(resource: ReportingResource, record: IDataObject): IDataObject {
	if (resource === 'balanceReport') return record;
	const simple: IDataObject = {};
	for (const field of REPORTING_LISTS[resource].simpleFields)
		if (record[field] !== undefined) simple[field] = record[field];
	return simple;
}
