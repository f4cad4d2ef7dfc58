import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readWindowConcurrency } from '../common/parameters';
import { filtersCollection } from '../../reporting/filters';
import {
	hasRecordStatus,
	hasStatus,
	recordKey,
	REPORTING_LISTS,
	type RecordListDefinition,
	type RecordListResource,
} from '../../reporting/lists';
import { isTimeZone, localCalendarPeriod } from '../../reporting/timeZones';
import { splitIntoBalancedWindows, type TimeWindow } from '../../reporting/read/windows';
import { completedWindows, type ListQuery } from '../../reporting/read/period';
import type { PaymentsClient } from '../../transport/client';
import { periodProperties, readFilters, readPeriod } from '../common/list';
import { showValue } from '../../parameters/values';

/**
 * What a report reads (service rules §3.5): the Period and Filters of Get Many, the Time Zone of
 * its calendar periods, Window Concurrency, and the read plan they make (the windows Get Many reads).
 */

/** The Time Zone option: of the calendar periods, and of Summarize's days and hours. */
export const timeZoneOption: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'string',
	default: '',
	placeholder: 'America/Sao_Paulo',
	description:
		'IANA time zone of the periods Today, Yesterday, This Month and Last Month (and of Day and Hour when grouping). Empty: the workflow’s time zone (its settings, else n8n’s).',
};

/**
 * Get Many's Period, its calendar presets read in the report's time zone: a report "for
 * yesterday" in São Paulo is São Paulo's yesterday (service rules §3.5).
 */
const LOCAL_PRESETS: Record<string, string> = {
	today: 'Since 00:00 today, in the time zone',
	yesterday: 'The whole previous day, 00:00 to 23:59:59 in the time zone',
	thisMonth: 'From the 1st of this month (in the time zone) until now',
	lastMonth: 'The previous calendar month, in the time zone',
};

const reportPeriodProperties: INodeProperties[] = periodProperties.map((property) =>
	property.name === 'period'
		? {
				...property,
				description:
					'Creation dates to read. Today, Yesterday, This Month and Last Month follow Options → Time Zone (default the workflow’s); the others end now. Custom dates without an offset are UTC.',
				options: (
					property.options as Array<{ name: string; value: string; description?: string }>
				).map((option) => ({
					...option,
					description: LOCAL_PRESETS[option.value] ?? option.description,
				})),
			}
		: property,
);

/** Period and the list's Filters, as its Get Many shows them (calendar periods in a time zone). */
export function readProperties(resource: RecordListResource): INodeProperties[] {
	return [...reportPeriodProperties, ...filtersCollection(REPORTING_LISTS[resource])];
}

/** The read of one item: the list, its query, the windows and how many are read at once. */
export interface ReportRead {
	list: RecordListDefinition;
	query: ListQuery;
	period: TimeWindow;
	/** IANA time zone of the calendar periods (and of days and hours). */
	timeZone: string;
	windows: TimeWindow[];
	concurrency: number;
	/** The record's identity in its list (service rules §3.4). */
	keyOf: (record: Record<string, unknown>) => string | undefined;
	/** The status the records must be in (checked on the records too, service rules §3.3). */
	status?: string;
}

/**
 * Reads Period, Filters and Window Concurrency of item `itemIndex` and plans the read: the period
 * split into balanced windows, newest first, as Get Many splits it (service rules §3.2). The
 * Status filter is applied to the records (the winning copy of each), not sent to the service
 * (service rules §3.5); the other filters are sent, as Get Many sends them.
 * @throws NodeOperationError naming the field, the item and the fix; nothing has been sent.
 */
export function planRead(
	context: IExecuteFunctions,
	itemIndex: number,
	resource: RecordListResource,
): ReportRead {
	const list = REPORTING_LISTS[resource] as ReportRead['list'];
	const timeZone = readTimeZone(context, itemIndex);
	const nowMs = Date.now();
	const period = readPeriod(context, itemIndex, nowMs);
	const local = localCalendarPeriod(
		context.getNodeParameter('period', itemIndex) as string,
		timeZone,
		Math.floor(nowMs / 1000),
	);
	if (local) Object.assign(period, local);
	const { filters, status } =
		list.filters.length || hasStatus(list)
			? readFilters(context, itemIndex, list)
			: { filters: {}, status: undefined };
	const concurrency = readWindowConcurrency(context, itemIndex);
	return {
		list,
		// The status is judged on the records only, never sent: a record that leaves a status the
		// service filters by while the period is read would move the later ones up a page, and the
		// first of them would be missed (service rules §3.5).
		query: { list, filters },
		period,
		timeZone,
		windows: splitIntoBalancedWindows(period.from, period.to, concurrency).reverse(),
		concurrency,
		keyOf: (record) => recordKey(list, record),
		status,
	};
}

/**
 * Reads the Time Zone option of item `itemIndex`: the option, else (empty) the workflow's.
 * @throws NodeOperationError when it is not an IANA time zone name (an object or a number is not
 *   ignored); nothing has been sent.
 */
export function readTimeZone(context: IExecuteFunctions, itemIndex: number): string {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const raw = options.timeZone ?? '';
	const given = typeof raw === 'string' ? raw.trim() : raw;
	const timeZone = given === '' ? context.getTimezone() : given;
	if (typeof timeZone !== 'string' || !isTimeZone(timeZone)) {
		throw new NodeOperationError(
			context.getNode(),
			`Time Zone ${showValue(timeZone)} is not a time zone (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Use an IANA time zone name such as America/Sao_Paulo, America/Mexico_City or UTC.',
			},
		);
	}
	return timeZone;
}

/**
 * One use of the records a report reads (Summarize's totals, the CSV file): what it keeps of each
 * record until the record's window was read to its end, and what it does with a window's records
 * then. A sink sees each record of the period once, in the Status filter, as last changed.
 */
export interface RecordSink<V> {
	/** What is kept of one record (held until its window ends, so keep it small). */
	keep(record: Record<string, unknown>): V;
	/** Takes the kept values of a window read to its end, in the order the records arrived. */
	take(values: V[]): void;
}

/** What a read has done so far: windows read to their end, record copies their pages held, records given to the sinks. */
export interface ReadCounts {
	windows: number;
	copies: number;
	records: number;
}

/**
 * The one read of a report (service rules §3.5): reads the period of `read` once
 * (`completedWindows`: each record once, the copy last changed) and gives the records of each
 * window in the Status filter to every sink of `sinks`, once the window was read to its end. Yields
 * after each window, so that whoever iterates paces the read (a file's stream pulls it); `counts`
 * grows as it goes. `windowPages` caps the pages of a window being read (what a sink holds).
 * @throws NodeApiError when a request fails (naming the window and the page): the sinks have then
 *   taken part of the period only, and what they hold must not be output.
 */
export async function* readIntoSinks(
	client: PaymentsClient,
	read: ReportRead,
	itemIndex: number,
	sinks: ReadonlyArray<RecordSink<unknown>>,
	counts: ReadCounts,
	windowPages?: number,
): AsyncGenerator<void> {
	// One sink keeps its value; several keep one value each, side by side.
	const single = sinks.length === 1 ? sinks[0] : undefined;
	const windows = completedWindows<unknown>(client, read.query, read.windows, {
		concurrency: read.concurrency,
		itemIndex,
		windowPages,
		keyOf: read.keyOf,
		keep: (record) => {
			if (!hasRecordStatus(record, read.status)) return undefined;
			return single ? single.keep(record) : sinks.map((sink) => sink.keep(record));
		},
	});
	for await (const completed of windows) {
		counts.windows++;
		counts.copies += completed.copies;
		counts.records += completed.values.length;
		if (single) single.take(completed.values);
		else
			sinks.forEach((sink, index) =>
				sink.take(completed.values.map((values) => (values as unknown[])[index])),
			);
		yield;
	}
}

/**
 * Reads the period of `read` once into `sinks` ({@link readIntoSinks}), as fast as the reader goes.
 * @throws NodeApiError as {@link readIntoSinks}.
 */
export async function readAll(
	client: PaymentsClient,
	read: ReportRead,
	itemIndex: number,
	sinks: ReadonlyArray<RecordSink<unknown>>,
): Promise<ReadCounts> {
	const counts: ReadCounts = { windows: 0, copies: 0, records: 0 };
	const reading = readIntoSinks(client, read, itemIndex, sinks, counts);
	let step = await reading.next();
	while (!step.done) step = await reading.next();
	return counts;
}
