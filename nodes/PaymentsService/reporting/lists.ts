/**
 * The seven reporting lists (service rules §3): the one description of each that the action node's
 * Get Many, the polling trigger, the trigger state and Fetch Test Event all read. Adding a list is
 * an entry here (plus its Get Many operation file and a line in the operation registry).
 */

/** Reporting resources that can be listed. */
export type ReportingResource =
	'deposit' | 'cashout' | 'note' | 'refund' | 'chargeback' | 'settlement' | 'balanceReport';

/** Filter parameters a list accepts besides `from`, `to`, `page` and its status (service rules §3.3). */
export type ListFilter = 'country' | 'paymentMethod' | 'clientDocument' | 'type';

export interface ReportingListDefinition {
	resource: ReportingResource;
	/** Path under the reporting base URL. */
	path: string;
	/** Path named by newer public docs, given as a hint when `path` answers 404 (service rules §3.3). */
	alternativePath?: string;
	/** Human name, singular, for messages ("deposit"). */
	label: string;
	/** Name in resource lists ("Credit/Debit Note"). */
	name: string;
	/** Field(s) that identify a record; joined when several (service rules §3.4). */
	idFields: string[];
	/** The record's date field, the creation date that `from`/`to` filter (service rules §3.2, §3.3). */
	recordDateField: string;
	/** Whether records carry `lastChangeDate` (deposits, cashouts, refunds, chargebacks). */
	hasLastChangeDate: boolean;
	/** Query name of the status filter (`Status` for cashouts and settlements); absent: no status. */
	statusParam?: 'status' | 'Status';
	/** Status values the service's filter accepts (service rules §3.3). */
	filterStatuses: readonly string[];
	/** Further statuses records carry that the filter does not accept (judged on the client only). */
	recordOnlyStatuses: readonly string[];
	/** Filters sent to the service, besides the status. */
	filters: readonly ListFilter[];
}

/** Note types the notes list filters by (service rules §3.3). */
export const NOTE_TYPES = [
	'GENERIC_CREDIT_NOTE',
	'SERVICE_FEE_CREDIT_NOTE',
	'CHARGEBACK_COVERED_CREDIT_NOTE',
	'GENERIC_DEBIT_NOTE',
	'REFUND',
	'REFUND_PROCESSING_FEE',
	'CASHOUT_TRANSACTION',
	'CASHOUT_PROCESSING_FEE',
	'CHARGEBACK',
	'CHARGEBACK_PROCESSING_FEE',
	'SERVICE_FEE_DEBIT_NOTE',
] as const;

export const REPORTING_LISTS: Readonly<Record<ReportingResource, ReportingListDefinition>> = {
	deposit: {
		resource: 'deposit',
		name: 'Deposit',
		path: '/v1/deposits',
		label: 'deposit',
		idFields: ['idDeposit'],
		recordDateField: 'creationDate',
		hasLastChangeDate: true,
		statusParam: 'status',
		filterStatuses: ['PENDING', 'APPROVED', 'COMPLETED', 'CANCELLED', 'DECLINED'],
		recordOnlyStatuses: ['CREATED'],
		filters: ['country', 'paymentMethod', 'clientDocument'],
	},
	cashout: {
		resource: 'cashout',
		name: 'Cashout',
		path: '/v1/cashouts',
		label: 'cashout',
		idFields: ['idCashout'],
		recordDateField: 'creationDate',
		hasLastChangeDate: true,
		statusParam: 'Status',
		filterStatuses: [
			'ON_HOLD',
			'PENDING',
			'DELIVERED',
			'COMPLETED',
			'REJECTED',
			'CANCELLED',
			'DECLINED',
		],
		recordOnlyStatuses: [],
		filters: ['country', 'clientDocument'],
	},
	note: {
		resource: 'note',
		name: 'Credit/Debit Note',
		path: '/v1/notes',
		label: 'credit/debit note',
		idFields: ['id'],
		recordDateField: 'date',
		hasLastChangeDate: false,
		filterStatuses: [],
		recordOnlyStatuses: [],
		filters: ['type'],
	},
	refund: {
		resource: 'refund',
		name: 'Refund',
		path: '/v1/refund',
		alternativePath: '/v1/refunds',
		label: 'refund',
		idFields: ['id'],
		recordDateField: 'date',
		hasLastChangeDate: true,
		statusParam: 'status',
		filterStatuses: ['PENDING', 'COMPLETED', 'CANCELLED', 'WAITING_DETAILS'],
		recordOnlyStatuses: ['REJECTED'],
		filters: ['country', 'paymentMethod'],
	},
	chargeback: {
		resource: 'chargeback',
		name: 'Chargeback',
		path: '/v1/chargeback',
		alternativePath: '/v1/chargebacks',
		label: 'chargeback',
		idFields: ['idChargeback'],
		recordDateField: 'creationDate',
		hasLastChangeDate: true,
		statusParam: 'status',
		filterStatuses: ['PENDING', 'COMPLETED', 'CANCELLED', 'FAILED'],
		recordOnlyStatuses: [],
		filters: ['country'],
	},
	settlement: {
		resource: 'settlement',
		name: 'Settlement',
		path: '/v1/settlements',
		label: 'settlement',
		idFields: ['id'],
		recordDateField: 'creationDate',
		hasLastChangeDate: false,
		statusParam: 'Status',
		filterStatuses: ['PENDING', 'COMPLETED', 'CANCELLED', 'FAILED'],
		recordOnlyStatuses: [],
		filters: [],
	},
	balanceReport: {
		resource: 'balanceReport',
		name: 'Daily Balance Report',
		path: '/v1/balance/report',
		label: 'daily balance report',
		idFields: ['date', 'currency'],
		recordDateField: 'date',
		hasLastChangeDate: false,
		filterStatuses: [],
		recordOnlyStatuses: [],
		filters: [],
	},
};

/** Whether records of `list` carry a status. */
export function hasStatus(list: ReportingListDefinition): boolean {
	return list.statusParam !== undefined;
}

/** Every status a record of `list` can carry: the filter's values, then the record-only ones. */
export function recordStatuses(list: ReportingListDefinition): string[] {
	return [...list.filterStatuses, ...list.recordOnlyStatuses];
}

/** The lists a trigger can watch: those with records that appear over time (not the daily balance). */
export const TRIGGER_LISTS: readonly ReportingResource[] = [
	'cashout',
	'chargeback',
	'note',
	'deposit',
	'refund',
	'settlement',
];

/**
 * The identity of a record in its list: the value of its id field(s), or `undefined` when the
 * record lacks them (such a record is kept, never merged with another).
 */
export function recordKey(
	list: ReportingListDefinition,
	record: Record<string, unknown>,
): string | undefined {
	const parts: string[] = [];
	for (const field of list.idFields) {
		const value = record[field];
		if (value === undefined || value === null || value === '') return undefined;
		parts.push(String(value));
	}
	return parts.join('|');
}

/** Whether `record`'s status is `status` (case-insensitive); no status given passes everything. */
export function hasRecordStatus(
	record: Record<string, unknown>,
	status: string | undefined,
): boolean {
	if (!status) return true;
	return typeof record.status === 'string' && record.status.toUpperCase() === status.toUpperCase();
}
