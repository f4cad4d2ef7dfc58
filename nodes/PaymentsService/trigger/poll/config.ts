import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { SECONDS_PER_DAY } from '../../codes/service';
import { checkListFilters, filterErrorToNodeError } from '../../reporting/filters';
import { recordStatuses, type ReportingListDefinition } from '../../reporting/lists';
import {
	DEFAULT_LOOK_BACK_DAYS,
	DEFAULT_MAX_ITEMS_PER_POLL,
	TRIGGER_LIST_DEFINITIONS,
} from './description';
import { TRIGGER_EVENTS } from './events';
import { narrowedStatuses } from './plan';
import type { TriggerConfig, TriggerEventName } from './types';

/**
 * Re-read period of older records when the poll cannot ask for the wanted statuses only, in
 * minutes (Re-Read Older Records Every: Automatic): records created in the last hour are read every
 * poll, older ones once an hour, so a change to an older record is seen within about an hour. A
 * narrowed poll (To Status, or a Status filter) already reads only what can raise an event, so
 * Automatic reads all of it every poll. What it saves: docs/polling-trigger.md, "Cost".
 */
const AUTOMATIC_REREAD_MINUTES = 60;

/**
 * Reads and checks the trigger's parameters: the list and the event resolved to their definitions.
 * @throws NodeOperationError naming the field and what to enter.
 */
export function readTriggerConfig(context: IPollFunctions): {
	config: TriggerConfig;
	maxItems: number;
	retryReads: boolean;
} {
	const resource = context.getNodeParameter('resource') as string;
	const eventName = context.getNodeParameter('event') as TriggerEventName;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const list = TRIGGER_LIST_DEFINITIONS.find((candidate) => candidate.resource === resource);
	if (!list)
		throw new NodeOperationError(context.getNode(), `The trigger cannot watch "${resource}"`);
	const { filters, status } = readFilters(context, list);
	const lookBackDays = readLookBackDays(context, options);
	const maxItems = readMaxItems(context, options);
	const event = TRIGGER_EVENTS.find((candidate) => candidate.value === eventName);
	if (!event || !event.supports(list)) {
		throw new NodeOperationError(
			context.getNode(),
			`The ${list.label} list cannot trigger on "${eventName}": its records lack the field it needs`,
		);
	}
	const hasToStatuses = event.properties(list).some((property) => property.name === 'toStatuses');
	const config: TriggerConfig = {
		list,
		event,
		filters,
		toStatuses: hasToStatuses
			? ((context.getNodeParameter('toStatuses', []) as string[]) ?? [])
			: [],
		status: event.usesStatusFilter ? status : '',
		lookBackSeconds: Math.round(lookBackDays * SECONDS_PER_DAY),
		countNewRecords: event.type === 'newRecord' ? false : options.includeFirstSightings !== false,
		rereadSeconds: 0,
	};
	config.rereadSeconds =
		readRereadMinutes(context, options, narrowedStatuses(config) !== undefined) * 60;
	return { config, maxItems, retryReads: options.retryReads !== false };
}

/**
 * Reads the Filters collection of `list`: the service's filters, and the Status the trigger judges.
 * @throws NodeOperationError from the filter check (the field and the fix).
 */
function readFilters(
	context: IPollFunctions,
	list: ReportingListDefinition,
): { filters: IDataObject; status: string } {
	try {
		return checkListFilters(
			context.getNodeParameter('filters', {}) as IDataObject,
			list,
			recordStatuses(list),
		);
	} catch (error) {
		throw filterErrorToNodeError(context.getNode(), error);
	}
}

/** Reads Look-Back (Days). @throws NodeOperationError unless it is a positive number. */
function readLookBackDays(context: IPollFunctions, options: IDataObject): number {
	const lookBackDays = Number(options.lookBackDays ?? DEFAULT_LOOK_BACK_DAYS);
	if (!Number.isFinite(lookBackDays) || lookBackDays <= 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Look-Back (Days) must be a positive number, got "${String(options.lookBackDays)}"`,
		);
	}
	return lookBackDays;
}

/** Reads Max Items per Poll, rounded down. @throws NodeOperationError unless it is at least 1. */
function readMaxItems(context: IPollFunctions, options: IDataObject): number {
	const maxItems = Math.floor(Number(options.maxItemsPerPoll ?? DEFAULT_MAX_ITEMS_PER_POLL));
	if (!Number.isFinite(maxItems) || maxItems < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Items per Poll must be at least 1, got "${String(options.maxItemsPerPoll)}"`,
		);
	}
	return maxItems;
}

/**
 * Reads Re-Read Older Records Every, in minutes (0 = every poll); Automatic is 0 for a narrowed
 * poll and {@link AUTOMATIC_REREAD_MINUTES} otherwise.
 * @throws NodeOperationError for a value that is not 0 or more minutes.
 */
function readRereadMinutes(
	context: IPollFunctions,
	options: IDataObject,
	narrowed: boolean,
): number {
	const value = options.rereadMinutes ?? 'auto';
	if (value === 'auto') return narrowed ? 0 : AUTOMATIC_REREAD_MINUTES;
	const minutes = Number(value);
	if (!Number.isFinite(minutes) || minutes < 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Re-Read Older Records Every must be 0 or more minutes, got "${String(options.rereadMinutes)}"`,
		);
	}
	return minutes;
}
