import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_WINDOW_CONCURRENCY } from '../../codes/constants';
import { listFilterProperties } from '../../reporting/filters';
import {
	hasStatus,
	recordKey,
	REPORTING_LISTS,
	type ReportingListDefinition,
} from '../../reporting/lists';
import type { SUMMARIES } from '../../reporting/summary';
import { splitIntoBalancedWindows, type TimeWindow } from '../../reporting/windows';
import type { ListQuery } from '../../transport/reporting';
import { periodProperties, readFilters, readPeriod } from '../common/list';

/**
 * What Summarize and Export to File share (service rules §3.5): the lists they read, the Period and
 * Filters of Get Many, Window Concurrency, and the read plan (the windows Get Many reads).
 */

/** The lists a report reads: every reporting list but the daily balance report. */
export type ReportResource = keyof typeof SUMMARIES;

/** Window Concurrency, as Get Many offers it (the report always reads every record). */
export const windowConcurrencyOption: INodeProperties = {
	displayName: 'Window Concurrency',
	name: 'windowConcurrency',
	type: 'number',
	default: DEFAULT_WINDOW_CONCURRENCY,
	typeOptions: { minValue: 1, maxValue: 10 },
	description:
		'How many windows of the period are read at the same time. A long period is split into windows of under 60 days, and a busy window is split further.',
};

/** Period and the list's Filters, exactly as its Get Many shows them. */
export function readProperties(resource: ReportResource): INodeProperties[] {
	const filters = listFilterProperties(REPORTING_LISTS[resource]);
	const properties: INodeProperties[] = [...periodProperties];
	if (filters.length) {
		properties.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: filters,
		});
	}
	return properties;
}

/** The read of one item: the list, its query, the windows and how many are read at once. */
export interface ReportRead {
	list: ReportingListDefinition & { resource: ReportResource };
	query: ListQuery;
	period: TimeWindow;
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
	resource: ReportResource,
): ReportRead {
	const list = REPORTING_LISTS[resource] as ReportRead['list'];
	const period = readPeriod(context, itemIndex);
	const { filters, status } =
		list.filters.length || hasStatus(list)
			? readFilters(context, itemIndex, list)
			: { filters: {}, status: undefined };
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const concurrency = Number(options.windowConcurrency ?? DEFAULT_WINDOW_CONCURRENCY);
	if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 10) {
		throw new NodeOperationError(
			context.getNode(),
			`Window Concurrency must be a whole number from 1 to 10, got "${String(options.windowConcurrency)}" (item ${itemIndex})`,
			{ itemIndex, description: 'Set Options → Window Concurrency to a number from 1 to 10.' },
		);
	}
	return {
		list,
		// The status is judged on the records only, never sent: a record that leaves a status the
		// service filters by while the period is read would move the later ones up a page, and the
		// first of them would be missed (service rules §3.5).
		query: { list, filters },
		period,
		windows: splitIntoBalancedWindows(period.from, period.to, concurrency).reverse(),
		concurrency,
		keyOf: (record) => recordKey(list, record),
		status,
	};
}

/**
 * Checks that every value of a multiple choice is one of `allowed` (a value can come from an
 * expression, or from a workflow written for another list).
 * @throws NodeOperationError naming the parameter, the value, the item and the values allowed.
 */
export function checkChoices(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	values: unknown,
	allowed: readonly string[],
	listLabel: string,
): string[] {
	const list = Array.isArray(values)
		? values
		: typeof values === 'string' && values.trim() !== ''
			? values.split(',')
			: values === undefined || values === null || values === ''
				? []
				: [values];
	const chosen: string[] = [];
	for (const raw of list) {
		const value = String(raw).trim();
		if (!allowed.includes(value)) {
			throw new NodeOperationError(
				context.getNode(),
				`${parameter} "${value}" is not a field of ${listLabel}s (item ${itemIndex})`,
				{
					itemIndex,
					description: `Use ${allowed.length ? allowed.join(', ') : 'none'} for ${parameter} of ${listLabel}s.`,
				},
			);
		}
		if (!chosen.includes(value)) chosen.push(value);
	}
	return chosen;
}
