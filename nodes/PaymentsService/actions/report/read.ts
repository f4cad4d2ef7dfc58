import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readWindowConcurrency } from '../common/parameters';
import { filtersCollection } from '../../reporting/filters';
import {
	hasStatus,
	recordKey,
	REPORTING_LISTS,
	type RecordListDefinition,
	type RecordListResource,
} from '../../reporting/lists';
import { isTimeZone, localCalendarPeriod } from '../../reporting/timeZones';
import { splitIntoBalancedWindows, type TimeWindow } from '../../reporting/read/windows';
import type { ListQuery } from '../../reporting/read/period';
import { periodProperties, readFilters, readPeriod } from '../common/list';

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
 * Reads the Time Zone option of item `itemIndex`: the option, else the workflow's.
 * @throws NodeOperationError when it is not an IANA time zone name; nothing has been sent.
 */
export function readTimeZone(context: IExecuteFunctions, itemIndex: number): string {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const given = typeof options.timeZone === 'string' ? options.timeZone.trim() : '';
	const timeZone = given || context.getTimezone();
	if (!isTimeZone(timeZone)) {
		throw new NodeOperationError(
			context.getNode(),
			`Time Zone "${timeZone}" is not a time zone (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Use an IANA time zone name such as America/Sao_Paulo, America/Mexico_City or UTC.',
			},
		);
	}
	return timeZone;
}
