/**
 * The seven reporting lists (spec: List endpoints (reporting)): where each lives, which field
 * identifies a record, and which filters it takes. Shared by the action node (Get Many) and the
 * polling trigger.
 */

/** Reporting resources that can be listed. */
export type ReportingResource =
	| 'deposit'
	| 'cashout'
	| 'note'
	| 'refund'
	| 'chargeback'
	| 'settlement'
	| 'balanceReport';

/** Filter parameters a list accepts besides `from`, `to` and `page`. */
export type ListFilter = 'country' | 'paymentMethod' | 'clientDocument' | 'type' | 'status';

export interface ReportingListDefinition {
	/** Path under the reporting base URL ({base_url}). */
	path: string;
	/** Path named by newer public docs, given as a hint when `path` answers 404 (API-NOTES: Conflicts). */
	alternativePath?: string;
	/** Human name, singular, for messages ("deposit"). */
	label: string;
	/** Field(s) that identify a record; joined when several. */
	idFields: string[];
	/** The record's creation time, which `from`/`to` filter (spec: List endpoints). */
	createdField: string;
	/** Whether records carry `lastChangeDate` (deposits, cashouts, refunds, chargebacks). */
	hasLastChangeDate: boolean;
	/** Whether records carry a `status`. */
	hasStatus: boolean;
	/** Query name of the status filter: the spec writes `Status` for cashouts and settlements. */
	statusParam?: 'status' | 'Status';
	/** Status values the list's filter accepts (spec). Records may carry others (CREATED, REJECTED). */
	statuses?: string[];
	filters: ListFilter[];
}

export const DEPOSIT_STATUSES = ['PENDING', 'APPROVED', 'COMPLETED', 'CANCELLED', 'DECLINED'];
export const CASHOUT_STATUSES = [
	'ON_HOLD',
	'PENDING',
	'DELIVERED',
	'COMPLETED',
	'REJECTED',
	'CANCELLED',
	'DECLINED',
];
export const REFUND_STATUSES = ['PENDING', 'COMPLETED', 'CANCELLED', 'WAITING_DETAILS'];
export const CHARGEBACK_STATUSES = ['PENDING', 'COMPLETED', 'CANCELLED', 'FAILED'];
export const SETTLEMENT_STATUSES = ['PENDING', 'COMPLETED', 'CANCELLED', 'FAILED'];
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
];

export const REPORTING_LISTS: Record<ReportingResource, ReportingListDefinition> = {
	deposit: {
		path: '/v1/deposits',
		label: 'deposit',
		idFields: ['idDeposit'],
		createdField: 'creationDate',
		hasLastChangeDate: true,
		hasStatus: true,
		statusParam: 'status',
		statuses: DEPOSIT_STATUSES,
		filters: ['country', 'paymentMethod', 'status', 'clientDocument'],
	},
	cashout: {
		path: '/v1/cashouts',
		label: 'cashout',
		idFields: ['idCashout'],
		createdField: 'creationDate',
		hasLastChangeDate: true,
		hasStatus: true,
		statusParam: 'Status',
		statuses: CASHOUT_STATUSES,
		filters: ['country', 'status', 'clientDocument'],
	},
	note: {
		path: '/v1/notes',
		label: 'credit/debit note',
		idFields: ['id'],
		createdField: 'date',
		hasLastChangeDate: false,
		hasStatus: false,
		filters: ['type'],
	},
	refund: {
		path: '/v1/refund',
		alternativePath: '/v1/refunds',
		label: 'refund',
		idFields: ['id'],
		createdField: 'date',
		hasLastChangeDate: true,
		hasStatus: true,
		statusParam: 'status',
		statuses: REFUND_STATUSES,
		filters: ['country', 'paymentMethod', 'status'],
	},
	chargeback: {
		path: '/v1/chargeback',
		alternativePath: '/v1/chargebacks',
		label: 'chargeback',
		idFields: ['idChargeback'],
		createdField: 'creationDate',
		hasLastChangeDate: true,
		hasStatus: true,
		statusParam: 'status',
		statuses: CHARGEBACK_STATUSES,
		filters: ['country', 'status'],
	},
	settlement: {
		path: '/v1/settlements',
		label: 'settlement',
		idFields: ['id'],
		createdField: 'creationDate',
		hasLastChangeDate: false,
		hasStatus: true,
		statusParam: 'Status',
		statuses: SETTLEMENT_STATUSES,
		filters: ['status'],
	},
	balanceReport: {
		path: '/v1/balance/report',
		label: 'daily balance report',
		idFields: ['date', 'currency'],
		createdField: 'date',
		hasLastChangeDate: false,
		hasStatus: false,
		filters: [],
	},
};

/**
 * The identity of a record in its list: the value of its id field(s), or `undefined` when the
 * record lacks them (such a record is kept, never merged with another).
 */
export function recordKey(list: ReportingListDefinition, record: Record<string, unknown>): string | undefined {
	const parts: string[] = [];
	for (const field of list.idFields) {
		const value = record[field];
		if (value === undefined || value === null || value === '') return undefined;
		parts.push(String(value));
	}
	return parts.join('|');
}
