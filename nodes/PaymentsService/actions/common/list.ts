import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { readWindowConcurrency, windowConcurrencyOption } from './parameters';
import {
	checkListFilters,
	filterErrorToNodeError,
	filtersCollection,
} from '../../reporting/filters';
import {
	hasRecordStatus,
	hasStatus,
	recordKey,
	REPORTING_LISTS,
	type ReportingListDefinition,
	type ReportingResource,
} from '../../reporting/lists';
import {
	boundPeriod,
	PERIOD_PRESETS,
	resolvePeriod,
	type BoundedPeriod,
	type PeriodPreset,
} from '../../reporting/periodParameter';
import { isoSeconds } from '../../codes/dates';
import { numberOf, showValue } from '../../parameters/values';
import type { TimeWindow } from '../../reporting/read/windows';
import type { PaymentsClient } from '../../transport/client';
import { RecordCollector } from '../../reporting/read/deduplication';
import { comparePaths, splitIntoBalancedWindows } from '../../reporting/read/windows';
import { readPeriodPages, type ListQuery } from '../../reporting/read/period';
import type { OperationModule } from '../types';
import { simplifyProperties, simplifyRecord } from './simplify';
import { optionsCollection } from '../../parameters/options';

/** The "Period" parameters shared by every reporting list and the daily balance report. */
export const periodProperties: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: 'last7Days',
		description:
			'Creation dates to list, in UTC. Periods of 60 days or more are split into several requests automatically.',
		options: [
			{ name: 'Custom', value: 'custom', description: 'Between two dates you choose' },
			{ name: 'Last 24 Hours', value: 'last24Hours' },
			{ name: 'Last 30 Days', value: 'last30Days' },
			{ name: 'Last 7 Days', value: 'last7Days' },
			{ name: 'Last 90 Days', value: 'last90Days' },
			{ name: 'Last Month', value: 'lastMonth', description: 'The previous calendar month (UTC)' },
			{
				name: 'This Month',
				value: 'thisMonth',
				description: 'From the 1st of this month (UTC) until now',
			},
			{ name: 'Today', value: 'today', description: 'Since 00:00 UTC today' },
			{
				name: 'Yesterday',
				value: 'yesterday',
				description: 'The whole previous day, 00:00 to 23:59:59 UTC',
			},
		],
	},
	{
		displayName: 'Created From',
		name: 'createdFrom',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			'Start of the period (inclusive). A date or time without an offset is read as UTC.',
	},
	{
		displayName: 'Created To',
		name: 'createdTo',
		type: 'dateTime',
		default: '',
		displayOptions: { show: { period: ['custom'] } },
		description:
			'End of the period (inclusive). A date alone means the end of that day (23:59:59 UTC). Empty means now.',
	},
];

/** "Return All" and "Limit" as n8n's Get Many operations name them. */
export const returnAllProperties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/**
 * The parameters of a reporting-list Get Many for `resource`: Return All / Limit, Period, the
 * list's Filters, Simplify (simplify.ts) and Options (Window Concurrency). The operation registry shows them for their
 * resource and operation.
 */
export function listProperties(resource: ReportingResource): INodeProperties[] {
	const properties: INodeProperties[] = [
		...returnAllProperties,
		...periodProperties,
		...filtersCollection(REPORTING_LISTS[resource]),
	];
	if (resource !== 'balanceReport') properties.push(...simplifyProperties);
	properties.push(optionsCollection([windowConcurrencyOption]));
	return properties;
}

/**
 * Reads the Period parameters of item `itemIndex` as the inclusive window of Unix seconds to read,
 * bounded by {@link boundPeriod}: an end after now is read as now, a start before 1970 from
 * 1970-01-01. When an end or a start was moved, an execution hint on the output says so (the
 * records read are the same; the requests are those of the bounded period).
 * @throws NodeOperationError naming the field, the item, the value and how to fix it: a date that
 *   is not one, or beyond year 9999; From after To; a period wholly after now or before 1970.
 */
export function readPeriod(
	context: IExecuteFunctions,
	itemIndex: number,
	nowMs = Date.now(),
): TimeWindow {
	const preset = context.getNodeParameter('period', itemIndex) as PeriodPreset;
	const from =
		preset === 'custom' ? context.getNodeParameter('createdFrom', itemIndex, '') : undefined;
	const to = preset === 'custom' ? context.getNodeParameter('createdTo', itemIndex, '') : undefined;
	let bounded: BoundedPeriod;
	try {
		bounded = boundPeriod(resolvePeriod(preset, nowMs, from, to), Math.floor(nowMs / 1000));
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`Invalid period in item ${itemIndex}: ${(error as Error).message}`,
			{
				itemIndex,
				description: `Choose a preset period (${PERIOD_PRESETS.filter((value) => value !== 'custom').join(', ')}), or custom with Created From (and optionally Created To) as dates such as 2026-11-01 or 2026-11-01T00:00:00Z, with From before To and before now.`,
			},
		);
	}
	hintBoundedPeriod(context, itemIndex, bounded);
	return bounded.window;
}

/**
 * Tells the user, as an execution hint on the node's output (n8n 1.x and 2.x), that the period of
 * item `itemIndex` was read within bounds ({@link boundPeriod}). Nothing when nothing was moved.
 */
function hintBoundedPeriod(
	context: IExecuteFunctions,
	itemIndex: number,
	{ window, endGiven, startGiven }: BoundedPeriod,
): void {
	const moved: string[] = [];
	if (endGiven !== undefined)
		moved.push(
			`Created To (${isoSeconds(endGiven)}) is after now: read up to now (${isoSeconds(window.to)}), as no record is created in the future`,
		);
	if (startGiven !== undefined)
		moved.push(
			`Created From (${isoSeconds(startGiven)}) is before 1970: read from ${isoSeconds(window.from)}, the first date the service holds`,
		);
	if (!moved.length || typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints({
		message: `Item ${itemIndex}: ${moved.join('; ')}.`,
		type: 'info',
		location: 'outputPane',
	});
}

/**
 * Reads and checks the Filters collection (see {@link checkListFilters}).
 * @throws NodeOperationError naming the filter, the item and the bad value.
 */
export function readFilters(
	context: IExecuteFunctions,
	itemIndex: number,
	list: ReportingListDefinition,
): { filters: IDataObject; status?: string } {
	try {
		const { filters, status } = checkListFilters(
			context.getNodeParameter('filters', itemIndex, {}) as IDataObject,
			list,
		);
		return { filters, status: status || undefined };
	} catch (error) {
		throw filterErrorToNodeError(context.getNode(), error, itemIndex);
	}
}

/**
 * Reads Return All / Limit of item `itemIndex`: undefined means return all; else the Limit, a whole
 * number of at least 1 (a huge one returns all).
 * @throws NodeOperationError naming the field, the item and the value when Return All is not true
 *   or false, or Limit is not a whole number of at least 1 (0, -1, 2.5, NaN, a text); nothing is sent.
 */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false);
	if (returnAll === true) return undefined;
	if (returnAll !== false) {
		throw new NodeOperationError(
			context.getNode(),
			`Return All must be true or false, got ${showValue(returnAll)} (item ${itemIndex})`,
			{
				itemIndex,
				description: 'Turn Return All on or off, or make its expression give true or false.',
			},
		);
	}
	const raw = context.getNodeParameter('limit', itemIndex, 50);
	const limit = numberOf(raw);
	if (limit === undefined || !Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Limit must be a whole number of at least 1, got ${showValue(raw)} (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Set Limit to how many records to return at most, e.g. 50, or turn on Return All.',
			},
		);
	}
	return limit;
}

/**
 * Runs a reporting-list Get Many for one item: one output item per record (its Simplify fields when
 * Simplify is on), each once (service rules §3.1) and only in the wanted status even when the
 * service ignored the filter (§3.3). Returning all, the period's windows are read Window Concurrency
 * at a time and busy ones divided (`readPeriodPages`); with a limit, newest first, one after the
 * other, until enough records arrived. Order: newest window first, the service's order within one.
 */
export async function executeList(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	resource: ReportingResource,
): Promise<INodeExecutionData[]> {
	const list = REPORTING_LISTS[resource];
	const period = readPeriod(context, itemIndex);
	const { filters, status } =
		list.filters.length || hasStatus(list)
			? readFilters(context, itemIndex, list)
			: { filters: {}, status: undefined };
	const limit = readLimit(context, itemIndex);
	const concurrency = limit === undefined ? readWindowConcurrency(context, itemIndex) : 1;
	const windows = splitIntoBalancedWindows(period.from, period.to, concurrency).reverse();
	const query = { list, filters, status };
	const records = await readWindows(client, query, windows, {
		concurrency,
		itemIndex,
		limit,
		dateField: list.recordDateField,
	});
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	const items: INodeExecutionData[] = new Array(records.length);
	for (let index = 0; index < records.length; index++)
		items[index] = { json: simplify ? simplifyRecord(resource, records[index]) : records[index] };
	return items;
}

/**
 * Reads `windows` (newest first) with {@link readPeriodPages} and returns each record once, in the
 * wanted status, newest window first; at most `limit` records, reading no page past the one that
 * completed them. A window that was divided contributes nothing itself: its parts hold its records.
 */
async function readWindows(
	client: PaymentsClient,
	query: ListQuery,
	windows: TimeWindow[],
	options: { concurrency: number; itemIndex: number; limit?: number; dateField?: string },
): Promise<IDataObject[]> {
	const { limit } = options;
	// Records of each window read, by path ("0", "0.3", …), in arrival order within the window.
	const byWindow = new Map<string, { path: readonly number[]; records: IDataObject[] }>();
	let held = 0;
	const collect = () => {
		const collector = new RecordCollector<IDataObject>((record) => recordKey(query.list, record));
		const ordered = [...byWindow.values()].sort((a, b) => comparePaths(a.path, b.path));
		for (const { records } of ordered) for (const record of records) collector.add(record);
		return collector;
	};
	for await (const event of readPeriodPages(client, query, windows, options)) {
		const key = event.path.join('.');
		if (event.kind === 'split') {
			held -= byWindow.get(key)?.records.length ?? 0;
			byWindow.delete(key);
			continue;
		}
		let entry = byWindow.get(key);
		if (!entry) byWindow.set(key, (entry = { path: event.path, records: [] }));
		for (const record of event.page.records) {
			if (hasRecordStatus(record, query.status)) {
				entry.records.push(record);
				held++;
			}
		}
		// Duplicates can make `held` overcount: the exact count is taken only once it may suffice.
		if (limit !== undefined && held >= limit && collect().size >= limit) break;
	}
	const records = collect().records();
	return limit === undefined || records.length <= limit ? records : records.slice(0, limit);
}

/**
 * The Get Many operation of a reporting list (service rules §3): its parameters built from the
 * list's entry in reporting/lists.ts (period, limit, its filters, Simplify) and a read over the
 * chosen period. Every reporting list's Get Many (and Balance → Get Daily Report) is this, so a new
 * list is its entry there and its line in the registry.
 */
export function listOperation(resource: ReportingResource): OperationModule {
	return {
		properties: listProperties(resource),
		async execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
			return await executeList(this, client, itemIndex, resource);
		},
	};
}
