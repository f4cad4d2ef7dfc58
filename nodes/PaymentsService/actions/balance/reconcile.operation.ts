import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { SECONDS_PER_DAY } from '../../codes/service';
import { codeOptions } from '../../parameters/codeOptions';
import { optionsCollection } from '../../parameters/options';
import { showValue } from '../../parameters/values';
import {
	recordKey,
	recordStatuses,
	REPORTING_LISTS,
	type RecordListResource,
} from '../../reporting/lists';
import { FIRST_CREATION_SECOND } from '../../reporting/periodParameter';
import { completedWindows } from '../../reporting/read/period';
import {
	splitIntoBalancedWindows,
	splitIntoWindows,
	type TimeWindow,
} from '../../reporting/read/windows';
import {
	DEFAULT_STATUSES,
	ListSums,
	listsOf,
	reconcileDay,
	reconciliationRule,
	readReportRow,
	ReportRowError,
	utcDays,
	type PeriodDay,
	type ReconciliationRule,
	type ReportRow,
	type Share,
	type StatusTerm,
} from '../../reporting/reconciliation';
import type { PaymentsClient } from '../../transport/client';
import { periodProperties, readPeriod } from '../common/list';
import { readWindowConcurrency, windowConcurrencyOption } from '../common/parameters';
import { readAll, type RecordSink, type ReportRead } from '../report/read';

/**
 * Balance → Reconcile (service rules §3.6; docs/reconciliation.md): the daily balance report set
 * beside the day's deposits, cashouts, credit/debit notes and settlements, every difference named.
 * Each list is read once for the whole period through the period reader, its records summed per
 * UTC day as their windows end; the report is read once, with the days before the period that
 * carry a balance into it.
 */

/**
 * Days before the period whose report rows are read for the balance carried into its first day:
 * with the period's day, one window of the service's (under 60 days).
 */
export const LOOK_BACK_DAYS = 59;

/**
 * Most days one item reconciles: a year and a day. Each day is an output item, and a period from
 * 1970 (a date any period takes) would be 20,000 of them; a longer span is reconciled in parts.
 */
export const MAX_RECONCILE_DAYS = 366;

/** The Options that choose each term's statuses, their labels and what they say. */
const STATUS_OPTIONS: ReadonlyArray<{
	term: StatusTerm;
	name: string;
	displayName: string;
	list: RecordListResource;
	sums: string;
}> = [
	{
		term: 'depositTotal',
		name: 'depositStatuses',
		displayName: 'Deposit Statuses',
		list: 'deposit',
		sums: 'depositTotal sums the amount of deposits in these statuses',
	},
	{
		term: 'depositFeeTotal',
		name: 'depositFeeStatuses',
		displayName: 'Deposit Fee Statuses',
		list: 'deposit',
		sums: 'depositFeeTotal sums the fee of deposits in these statuses',
	},
	{
		term: 'cashoutTotal',
		name: 'cashoutStatuses',
		displayName: 'Cashout Statuses',
		list: 'cashout',
		sums: 'cashoutTotal sums merchantAmount plus fee of cashouts in these statuses',
	},
	{
		term: 'settlementTotal',
		name: 'settlementStatuses',
		displayName: 'Settlement Statuses',
		list: 'settlement',
		sums: 'settlementTotal sums the requestedAmount of settlements in these statuses',
	},
	{
		term: 'cancelledSettlementTotal',
		name: 'cancelledSettlementStatuses',
		displayName: 'Cancelled Settlement Statuses',
		list: 'settlement',
		sums: 'cancelledSettlementTotal sums the requestedAmount of settlements in these statuses',
	},
];

/** A status as the panel names it: "ON_HOLD" is "On Hold". */
const statusLabel = (status: string) => codeOptions([status])[0]?.name ?? status;

/** The presets Reconcile offers: periods of whole UTC days. */
const DAY_PRESETS: Record<string, string> = {
	yesterday: 'The previous UTC day',
	today: 'Today so far (UTC): the day has not ended, its report row may still change',
	thisMonth: 'From the 1st of this month (UTC) to today',
	lastMonth: 'Every day of the previous calendar month (UTC)',
	custom: 'The UTC days from Created From to Created To',
};

/**
 * Period, Created From and Created To as Get Many has them (the same names, read by the same
 * checks: readPeriod), offering the presets of whole days, Yesterday by default.
 */
const reconcilePeriodProperties: INodeProperties[] = periodProperties.map((property) => {
	if (property.name === 'period')
		return {
			...property,
			default: 'yesterday',
			description:
				'The days to reconcile. Days are UTC days, as the daily balance report’s are (its date is the start of a UTC day); each day the period touches is reconciled whole.',
			options: (property.options as Array<{ name: string; value: string; description?: string }>)
				.filter((option) => option.value in DAY_PRESETS)
				.map((option) => ({ ...option, description: DAY_PRESETS[option.value] })),
		};
	if (property.name === 'createdFrom')
		return {
			...property,
			description:
				'The first day to reconcile: the UTC day of this date (a date alone, such as 2026-11-01, is that day)',
		};
	if (property.name === 'createdTo')
		return {
			...property,
			description: 'The last day to reconcile: the UTC day of this date. Empty means today.',
		};
	return property;
});

export const properties: INodeProperties[] = [
	...reconcilePeriodProperties,
	optionsCollection([
		...STATUS_OPTIONS.map((option): INodeProperties => ({
			displayName: option.displayName,
			name: option.name,
			type: 'multiOptions',
			default: [...DEFAULT_STATUSES[option.term]],
			options: codeOptions(recordStatuses(REPORTING_LISTS[option.list])),
			description: `${option.sums} (inferred from the report’s field names). Default: ${DEFAULT_STATUSES[option.term].map(statusLabel).join(', ')}.`,
		})),
		windowConcurrencyOption,
	]),
];

/** What Reconcile does for one item, read from its parameters before any request. */
interface ReconcilePlan {
	days: PeriodDay[];
	/** The seconds the lists are read over: the period's days, whole, up to now. */
	window: TimeWindow;
	rule: ReconciliationRule;
	concurrency: number;
	now: number;
}

/**
 * Reads one term's Statuses option of item `itemIndex`: the default when unset.
 * @throws NodeOperationError naming the option, the value, the item and the statuses it takes.
 */
function readStatuses(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	option: (typeof STATUS_OPTIONS)[number],
): string[] {
	const raw = options[option.name];
	if (raw === undefined || raw === null) return [...DEFAULT_STATUSES[option.term]];
	const allowed = recordStatuses(REPORTING_LISTS[option.list]);
	const values = Array.isArray(raw)
		? raw
		: typeof raw === 'string'
			? raw.split(',').filter((value) => value.trim() !== '')
			: [raw];
	const chosen: string[] = [];
	for (const value of values) {
		const status = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
		if (status === undefined || !allowed.includes(status)) {
			throw new NodeOperationError(
				context.getNode(),
				`${option.displayName} ${showValue(value)} is not a ${REPORTING_LISTS[option.list].label} status (item ${itemIndex})`,
				{
					itemIndex,
					description: `Nothing was read. Choose ${option.displayName} among ${allowed.join(', ')}; remove the option for the default (${DEFAULT_STATUSES[option.term].join(', ')}).`,
				},
			);
		}
		if (!chosen.includes(status)) chosen.push(status);
	}
	return chosen;
}

/**
 * Reads and checks every parameter of item `itemIndex`: the period (readPeriod's checks and
 * bounds: Get Many's), each term's statuses and Window Concurrency.
 * @throws NodeOperationError naming the field, the item and the value; nothing has been sent.
 */
function planReconcile(context: IExecuteFunctions, itemIndex: number): ReconcilePlan {
	const nowMs = Date.now();
	const period = readPeriod(context, itemIndex, nowMs);
	const raw = context.getNodeParameter('options', itemIndex, {}) as unknown;
	const options = (typeof raw === 'object' && raw !== null ? raw : {}) as IDataObject;
	const statuses: Partial<Record<StatusTerm, string[]>> = {};
	for (const option of STATUS_OPTIONS)
		statuses[option.term] = readStatuses(context, itemIndex, options, option);
	const concurrency = readWindowConcurrency(context, itemIndex);
	const days = utcDays(period.from, period.to);
	if (days.length > MAX_RECONCILE_DAYS)
		throw new NodeOperationError(
			context.getNode(),
			`Reconcile takes at most ${MAX_RECONCILE_DAYS} days, the period has ${days.length} (${days[0].day} to ${days[days.length - 1].day}, item ${itemIndex})`,
			{
				itemIndex,
				description: `Nothing was read. Each day is an output item: choose a shorter period (Last Month, or Created From and Created To within ${MAX_RECONCILE_DAYS} days) and reconcile a longer span in parts.`,
			},
		);
	const now = Math.floor(nowMs / 1000);
	return {
		days,
		window: { from: days[0].start, to: Math.min(days[days.length - 1].end, now) },
		rule: reconciliationRule(statuses),
		concurrency,
		now,
	};
}

/** The report's rows: those of the period by day and currency, and the latest earlier one per currency. */
interface ReportRows {
	byDay: Map<string, ReportRow[]>;
	before: Map<string, ReportRow>;
}

/**
 * Reads the daily balance report once, from {@link LOOK_BACK_DAYS} days before the period to its
 * end (service rules §3.3, §3.6), and checks its rows: every row's date the start of a UTC day,
 * every amount of the period's rows a number, and the `totalBalance` of the latest earlier row of
 * each currency.
 * @throws NodeOperationError naming the day, the currency, the field and the value (nothing is
 *   compared); NodeApiError when a request fails.
 */
async function readReport(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	plan: ReconcilePlan,
): Promise<ReportRows> {
	const list = REPORTING_LISTS.balanceReport;
	const from = Math.max(FIRST_CREATION_SECOND, plan.window.from - LOOK_BACK_DAYS * SECONDS_PER_DAY);
	// A row a day and currency: the fewest windows (each of one or two pages), newest first.
	const windows = splitIntoWindows(from, plan.window.to).reverse();
	const records: Array<Record<string, unknown>> = [];
	for await (const completed of completedWindows(client, { list, filters: {} }, windows, {
		concurrency: plan.concurrency,
		itemIndex,
		keyOf: (record) => recordKey(list, record),
		keep: (record) => record,
	}))
		records.push(...completed.values);
	try {
		return reportRows(records, plan.days[0].day);
	} catch (error) {
		const field = error instanceof ReportRowError ? error.field : 'a field';
		throw new NodeOperationError(
			context.getNode(),
			`${(error as Error).message} (item ${itemIndex})`,
			{
				itemIndex,
				description: `Nothing was compared: Reconcile takes the report’s numbers exactly and does not guess at ${field}. Read that day with Balance → Get Daily Report to see the row the service sent.`,
			},
		);
	}
}

/**
 * The report's rows read (service rules §3.6): those from `firstDay` on, every amount checked, by
 * day; of the earlier ones, the latest of each currency, its `totalBalance` checked. Every row's
 * date must be the start of a UTC day.
 * @throws ReportRowError naming the day, the currency, the field and the value.
 */
function reportRows(records: ReadonlyArray<Record<string, unknown>>, firstDay: string): ReportRows {
	const rows: ReportRows = { byDay: new Map(), before: new Map() };
	// The latest earlier row of each currency carries its balance into the period.
	const latest = new Map<string, { day: string; record: Record<string, unknown> }>();
	for (const record of records) {
		const { day, currency } = readReportRow(record, []);
		if (day < firstDay) {
			const known = latest.get(currency);
			if (!known || known.day < day) latest.set(currency, { day, record });
			continue;
		}
		const row = readReportRow(record);
		const held = rows.byDay.get(row.day) ?? [];
		held.push(row);
		rows.byDay.set(row.day, held);
	}
	for (const [currency, { record }] of latest)
		rows.before.set(currency, readReportRow(record, ['totalBalance']));
	return rows;
}

/**
 * Reads each list of the rule once over the period's days (actions/report/read.ts: windows read
 * Window Concurrency at a time, each record once, as last changed) into `sums`, one list after
 * the other.
 * @throws NodeApiError when a request fails (nothing is output).
 */
async function readLists(
	client: PaymentsClient,
	itemIndex: number,
	plan: ReconcilePlan,
	sums: ListSums,
): Promise<void> {
	for (const resource of listsOf(plan.rule)) {
		const list = REPORTING_LISTS[resource];
		const read: ReportRead = {
			list,
			query: { list, filters: {} },
			period: plan.window,
			timeZone: 'UTC',
			windows: splitIntoBalancedWindows(
				plan.window.from,
				plan.window.to,
				plan.concurrency,
			).reverse(),
			concurrency: plan.concurrency,
			keyOf: (record) => recordKey(list, record),
		};
		const sink: RecordSink<Share | undefined> = {
			keep: (record) => sums.shareOf(resource, record),
			take: (shares) => {
				for (const share of shares) if (share) sums.add(share);
			},
		};
		await readAll(client, read, itemIndex, [sink as RecordSink<unknown>]);
	}
}

/**
 * Balance → Reconcile for one item (service rules §3.6): every check before the first request;
 * the report read (its rows checked), then each list once; one output item per day of the period
 * and currency (reconciliation.ts, reconcileDay), oldest first. A day with neither a report row nor
 * a record still has its item.
 * @throws NodeOperationError for a parameter that is not valid (nothing sent), a report row that
 *   is not a number or not a UTC day, or list records without a date; NodeApiError when a request
 *   fails. Nothing is output then.
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const plan = planReconcile(this, itemIndex);
	const report = await readReport(this, client, itemIndex, plan);
	const sums = new ListSums(plan.rule);
	await readLists(client, itemIndex, plan, sums);
	for (const [resource, undated] of sums.undated) {
		const list = REPORTING_LISTS[resource];
		throw new NodeOperationError(
			this.getNode(),
			`${undated.count} ${list.label}${undated.count === 1 ? '' : 's'} of the period ${undated.count === 1 ? 'has' : 'have'} a ${list.recordDateField} that is not a date (${list.idFields[0]} ${showValue(undated.example.id)}: ${showValue(undated.example.date)}), so ${undated.count === 1 ? 'it' : 'they'} cannot be put on a day (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Nothing was compared. The service writes dates as ISO 8601 texts (service rules §3.4); report the record to the service.',
			},
		);
	}
	const carried = new Map(report.before);
	const items: INodeExecutionData[] = [];
	for (const day of plan.days) {
		const rows = report.byDay.get(day.day) ?? [];
		const currencies = [
			...new Set([...rows.map((row) => row.currency), ...sums.currencies(day.day)]),
		].sort();
		for (const currency of currencies.length ? currencies : [undefined]) {
			const row = rows.find((candidate) => candidate.currency === currency);
			items.push({
				json: reconcileDay({
					day,
					ended: day.end < plan.now,
					currency,
					row,
					previous: currency === undefined ? undefined : carried.get(currency),
					sums,
					rule: plan.rule,
					lookBackDays: LOOK_BACK_DAYS,
				}),
			});
			if (row && currency !== undefined) carried.set(currency, row);
		}
	}
	return items;
}
