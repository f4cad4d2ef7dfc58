import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ReportingResource } from '../../reporting/lists';

/**
 * The fields Get Many keeps with Simplify on: what a report, an alert or an AI agent needs of each
 * record (identifiers, amount and currency, country, status, dates, and the reason where the list has
 * one). Fields a record lacks are left out; nothing is renamed or converted.
 */
export const SIMPLE_FIELDS: Readonly<
	Record<Exclude<ReportingResource, 'balanceReport'>, readonly string[]>
> = {
	deposit: [
		'idDeposit',
		'externalId',
		'creationDate',
		'lastChangeDate',
		'country',
		'paymentMethodCode',
		'amount',
		'currency',
		'localAmount',
		'localCurrency',
		'status',
	],
	cashout: [
		'idCashout',
		'externalId',
		'creationDate',
		'lastChangeDate',
		'country',
		'amount',
		'currency',
		'status',
		'reason',
	],
	refund: [
		'id',
		'idBoleto',
		'date',
		'lastChangeDate',
		'country',
		'amount',
		'refundCurrency',
		'status',
	],
	chargeback: [
		'idChargeback',
		'idDeposit',
		'externalId',
		'creationDate',
		'lastChangeDate',
		'country',
		'amount',
		'currency',
		'status',
	],
	settlement: ['id', 'creationDate', 'type', 'amountToTransfer', 'currency', 'status'],
	note: ['id', 'externalId', 'date', 'type', 'category', 'amount', 'currency', 'description'],
};

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
 * The record reduced to the Simplify fields of `resource` (see SIMPLE_FIELDS), in that order.
 * Returns the record itself for a list without a field list.
 */
export function simplifyRecord(resource: ReportingResource, record: IDataObject): IDataObject {
	if (resource === 'balanceReport') return record;
	const simple: IDataObject = {};
	for (const field of SIMPLE_FIELDS[resource])
		if (record[field] !== undefined) simple[field] = record[field];
	return simple;
}
