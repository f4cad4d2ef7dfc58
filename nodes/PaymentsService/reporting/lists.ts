/**
 * The seven reporting lists (service rules §3): the one description of each. Get Many and its
 * Simplify, the polling trigger, the trigger state, Fetch Test Event, Summarize (groups and amount
 * fields), the CSV columns, the lists' tool descriptions and their operations in the registry are
 * all derived from it. Adding a list is an entry here, plus its tests.
 */

/** Reporting resources that can be listed. */
export type ReportingResource =
	'deposit' | 'cashout' | 'note' | 'refund' | 'chargeback' | 'settlement' | 'balanceReport';

/** The lists with records of their own, which Summarize and Export to File read: all but the daily balance. */
export type RecordListResource = Exclude<ReportingResource, 'balanceReport'>;

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

/** What records can be grouped by. */
export type GroupField = 'status' | 'currency' | 'country' | 'paymentMethod' | 'day' | 'hour';

/** An amount field of a list and the record field naming its currency (or a fixed currency). */
export interface AmountField {
	/** Record field holding the amount (a JSON number, or its text). */
	field: string;
	/** Record field holding its currency (ISO 4217), or `{ fixed }` when the name says it. */
	currency: string | { fixed: string };
	/** Name shown in the node's panel. */
	name: string;
}

/** How a list's records are summarised: the field behind each grouping it has, its amount fields. */
export interface SummaryDefinition {
	/** Record field of each grouping the list has (day and hour use the list's creation date). */
	groups: Partial<Record<GroupField, string>>;
	amounts: readonly AmountField[];
}

/** A list with records of its own: what its operations and its tool description are made of. */
export interface RecordListDefinition extends ReportingListDefinition {
	resource: RecordListResource;
	/** Human name, plural, for action texts ("credit and debit notes"). */
	plural: string;
	/** The other name of its records, given in its tool description ("payouts"). */
	alsoCalled?: string;
	/** What each record holds, for its tool description. */
	recordSummary: string;
	/**
	 * The fields of its records in the interface's order (service rules §3.4; refunds and
	 * chargebacks from the public docs): the columns of an export of all columns.
	 */
	fields: readonly string[];
	/**
	 * The fields Get Many keeps with Simplify on: what a report, an alert or an AI agent needs
	 * (identifiers, amount and currency, country, status, dates, the reason where there is one).
	 */
	simpleFields: readonly string[];
	/**
	 * Its summary (service rules §3.5). Each amount is paired with the field naming its currency;
	 * where the records carry none (cashout `tax`, settlement amounts), the record's `currency`.
	 */
	summary: SummaryDefinition;
}

const amount = (field: string, currency: string, name: string): AmountField => ({
	field,
	currency,
	name,
});

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

export const REPORTING_LISTS: Readonly<
	Record<RecordListResource, RecordListDefinition> & { balanceReport: ReportingListDefinition }
> = {
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
		plural: 'deposits',
		alsoCalled: 'pay-ins',
		recordSummary:
			'Each has its ID, invoice ID, amount and currency, country, payment method, status and dates.',
		fields: [
			'idDeposit',
			'externalId',
			'creationDate',
			'countryName',
			'country',
			'paymentMethodName',
			'paymentMethodCode',
			'requestedPaymentMethod',
			'requestedPaymentMethodName',
			'clientId',
			'clientDocument',
			'amount',
			'currency',
			'balanceCurrency',
			'requestedAmount',
			'requestedCurrency',
			'localAmount',
			'localCurrency',
			'localCountryTaxFee',
			'usdCountryTaxFee',
			'fee',
			'feeCurrency',
			'lastChangeDate',
			'status',
			'idUser',
			'flags',
			'idMerchant',
			'merchantName',
			'allowInstallments',
			'refundAttempted',
		],
		simpleFields: [
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
		summary: {
			groups: {
				status: 'status',
				currency: 'currency',
				country: 'country',
				paymentMethod: 'paymentMethodCode',
			},
			amounts: [
				amount('amount', 'currency', 'Amount'),
				amount('localAmount', 'localCurrency', 'Local Amount'),
				amount('requestedAmount', 'requestedCurrency', 'Requested Amount'),
				amount('fee', 'feeCurrency', 'Fee'),
				amount('localCountryTaxFee', 'localCurrency', 'Local Country Tax Fee'),
				{ field: 'usdCountryTaxFee', currency: { fixed: 'USD' }, name: 'USD Country Tax Fee' },
			],
		},
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
		plural: 'cashouts',
		alsoCalled: 'payouts',
		recordSummary: 'Each has its ID, external ID, amount and currency, country, status and dates.',
		fields: [
			'idCashout',
			'externalId',
			'creationDate',
			'country',
			'currency',
			'amount',
			'creditedCurrency',
			'creditedAmount',
			'merchantCurrency',
			'merchantAmount',
			'feeCurrency',
			'fee',
			'tax',
			'lastChangeDate',
			'status',
			'clientDocument',
			'flags',
			'idMerchant',
			'merchantName',
			'reason',
			'existVoucher',
		],
		simpleFields: [
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
		summary: {
			groups: { status: 'status', currency: 'currency', country: 'country' },
			amounts: [
				amount('amount', 'currency', 'Amount'),
				amount('creditedAmount', 'creditedCurrency', 'Credited Amount'),
				amount('merchantAmount', 'merchantCurrency', 'Merchant Amount'),
				amount('fee', 'feeCurrency', 'Fee'),
				amount('tax', 'currency', 'Tax'),
			],
		},
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
		plural: 'credit and debit notes',
		recordSummary: 'Each has its ID, type, amount, currency and dates.',
		fields: [
			'id',
			'externalId',
			'idMerchant',
			'merchantName',
			'date',
			'amount',
			'currency',
			'type',
			'description',
			'category',
		],
		simpleFields: [
			'id',
			'externalId',
			'date',
			'type',
			'category',
			'amount',
			'currency',
			'description',
		],
		summary: {
			groups: { currency: 'currency' },
			amounts: [amount('amount', 'currency', 'Amount')],
		},
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
		plural: 'refunds',
		recordSummary: 'Each has its ID, the deposit refunded, amount, currency, status and dates.',
		fields: [
			'id',
			'idBoleto',
			'idMerchant',
			'merchantName',
			'date',
			'lastChangeDate',
			'country',
			'paymentMethod',
			'status',
			'amount',
			'refundCurrency',
			'amountType',
			'type',
			'apiVersion',
			'comments',
			'beneficiary',
			'cpf',
			'documentType',
			'bankName',
			'bankCode',
			'branchNumber',
			'bankAccount',
			'accountType',
			'allowPixApiRefund',
		],
		simpleFields: [
			'id',
			'idBoleto',
			'date',
			'lastChangeDate',
			'country',
			'amount',
			'refundCurrency',
			'status',
		],
		summary: {
			groups: {
				status: 'status',
				currency: 'refundCurrency',
				country: 'country',
				paymentMethod: 'paymentMethod',
			},
			amounts: [amount('amount', 'refundCurrency', 'Amount')],
		},
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
		plural: 'chargebacks',
		alsoCalled: 'disputed deposits',
		recordSummary: 'Each has its ID, the deposit it disputes, amount, currency, reason and dates.',
		fields: [
			'idChargeback',
			'creationDate',
			'lastChangeDate',
			'idMerchant',
			'merchantName',
			'inMediation',
			'idDeposit',
			'amount',
			'currency',
			'merchantAmount',
			'merchantCurrency',
			'country',
			'countryName',
			'status',
			'notified',
			'externalId',
			'comments',
		],
		simpleFields: [
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
		summary: {
			groups: { status: 'status', currency: 'currency', country: 'country' },
			amounts: [
				amount('amount', 'currency', 'Amount'),
				amount('merchantAmount', 'merchantCurrency', 'Merchant Amount'),
			],
		},
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
		plural: 'settlements',
		alsoCalled: 'transfers of funds to the merchant',
		recordSummary: 'Each has its ID, amount, currency, status and dates.',
		fields: [
			'id',
			'creationDate',
			'type',
			'currency',
			'requestedAmount',
			'fee',
			'amountToTransfer',
			'status',
			'idMerchant',
			'merchantName',
		],
		simpleFields: ['id', 'creationDate', 'type', 'amountToTransfer', 'currency', 'status'],
		summary: {
			groups: { status: 'status', currency: 'currency' },
			amounts: [
				amount('requestedAmount', 'currency', 'Requested Amount'),
				amount('fee', 'currency', 'Fee'),
				amount('amountToTransfer', 'currency', 'Amount to Transfer'),
			],
		},
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

/** The lists with records of their own, in the order of REPORTING_LISTS. */
export const RECORD_LISTS: readonly RecordListDefinition[] = Object.values(REPORTING_LISTS).filter(
	(list): list is RecordListDefinition => 'fields' in list,
);

/** Whether records of `list` carry a status. */
export function hasStatus(list: ReportingListDefinition): boolean {
	return list.statusParam !== undefined;
}

/** Every status a record of `list` can carry: the filter's values, then the record-only ones. */
export function recordStatuses(list: ReportingListDefinition): string[] {
	return [...list.filterStatuses, ...list.recordOnlyStatuses];
}

/** The lists a trigger can watch: those with records that appear over time (not the daily balance). */
export const TRIGGER_LISTS: readonly RecordListResource[] = [
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
