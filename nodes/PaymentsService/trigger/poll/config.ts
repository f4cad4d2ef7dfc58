import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { SECONDS_PER_DAY } from '../../codes/service';
import { checkListFilters, filterErrorToNodeError } from '../../reporting/filters';
import { recordStatuses, type ReportingListDefinition } from '../../reporting/lists';
import {
	DEFAULT_LOOK_BACK_DAYS,
	DEFAULT_MAX_ITEMS_PER_POLL,
	DEFAULT_MAX_REMEMBERED,
	MAX_LOOK_BACK_DAYS,
	MAX_MAX_REMEMBERED,
	TRIGGER_LIST_DEFINITIONS,
} from './description';
import { numberOf, showValue } from '../../parameters/values';
import { TRIGGER_EVENTS } from './events';
import { narrowedStatuses } from './plan';
import type { RereadTier, TriggerConfig, TriggerEventName } from './types';

/**
 * Re-read period of older records when the poll cannot ask for the wanted statuses only, in
 * minutes (Re-Read Older Records Every: Automatic): records created in the last hour are read every
 * poll, older ones once an hour, so a change to an older record is seen within about an hour. A
 * narrowed poll (To Status, or a Status filter) already reads only what can raise an event, so
 * Automatic reads all of it every poll. What it saves: docs/polling-trigger.md, "Cost".
 */
const AUTOMATIC_REREAD_MINUTES = 60;

/**
 * Version 2 re-reads a record less often the older it is, each step of age six times less often
 * (docs/polling-trigger.md, "Cost"): a record changes most while it is young (a payment completes
 * within minutes, a payout within hours), and at a million records a day the records of the last
 * hour alone would cost 870 requests a poll.
 */
const AGE_STEP_FACTOR = 6;
/** Age (seconds: a day) from which version 2 re-reads records at its slowest. */
const OLDEST_STEP_AGE_SECONDS = SECONDS_PER_DAY;

/**
 * How often records are read again by age (docs/polling-trigger.md, "Cost"), youngest first; the
 * first tier's `olderThan` is where the records read every poll end. With P = `rereadSeconds`:
 * version 1, every record older than P once per P; version 2, records under P/6 old every poll,
 * under P once per P/6, under a day once per P, older once per 6 × P (at most daily, at least P).
 * None when every record is read every poll (P = 0).
 */
export function rereadTiers(rereadSeconds: number, version: number): RereadTier[] {
	if (rereadSeconds <= 0) return [];
	const period = { olderThan: rereadSeconds, every: rereadSeconds };
	if (version < 2) return [period];
	const young = Math.round(rereadSeconds / AGE_STEP_FACTOR);
	const tiers = [{ olderThan: young, every: young }];
	if (rereadSeconds < OLDEST_STEP_AGE_SECONDS) tiers.push(period);
	tiers.push({
		olderThan: Math.max(rereadSeconds, OLDEST_STEP_AGE_SECONDS),
		every: Math.max(rereadSeconds, Math.min(AGE_STEP_FACTOR * rereadSeconds, SECONDS_PER_DAY)),
	});
	return tiers;
}

/**
 * Whether the trigger can remember only the newest records one by one (version 2): the others are
 * judged by their `lastChangeDate` against when their part of the look-back was read (./ranges.ts),
 * which needs a `lastChangeDate` and an event that a later one decides. Not Status Changed without
 * To Status (it needs each record's status), nor New Record with a Status (it needs to know each
 * record was ever in it, so a record that leaves and comes back is not new again).
 */
function boundedMemoryWorks(config: TriggerConfig): boolean {
	const { list, event } = config;
	if (!list.hasLastChangeDate) return false;
	if (event.value === 'statusChanged') return config.toStatuses.length > 0;
	if (event.value === 'newRecord') return config.status === '';
	return true;
}

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
		throw new NodeOperationError(
			context.getNode(),
			`The trigger cannot watch ${showValue(resource)}`,
			{
				description: `Choose a Resource: ${TRIGGER_LIST_DEFINITIONS.map((entry) => entry.resource).join(', ')}.`,
			},
		);
	const { filters, status } = readFilters(context, list);
	const lookBackDays = readLookBackDays(context, options);
	const maxItems = readMaxItems(context, options);
	const event = TRIGGER_EVENTS.find((candidate) => candidate.value === eventName);
	if (!event || !event.supports(list)) {
		throw new NodeOperationError(
			context.getNode(),
			`The ${list.label} list cannot trigger on ${showValue(eventName)}: its records lack the field it needs`,
		);
	}
	const hasToStatuses = event.properties(list).some((property) => property.name === 'toStatuses');
	const config: TriggerConfig = {
		list,
		event,
		filters,
		toStatuses: hasToStatuses ? readToStatuses(context, list) : [],
		status: event.usesStatusFilter ? status : '',
		lookBackSeconds: Math.round(lookBackDays * SECONDS_PER_DAY),
		countNewRecords: event.type === 'newRecord' ? false : options.includeFirstSightings !== false,
		rereadSeconds: 0,
		rereadTiers: [],
		memory: 'full',
		maxRemembered: Number.POSITIVE_INFINITY,
	};
	const version = context.getNode().typeVersion;
	config.rereadSeconds =
		readRereadMinutes(context, options, narrowedStatuses(config) !== undefined) * 60;
	config.rereadTiers = rereadTiers(config.rereadSeconds, version);
	if (version >= 2 && boundedMemoryWorks(config)) {
		config.memory = 'bounded';
		config.maxRemembered = readMaxRemembered(context, options);
	}
	return { config, maxItems, retryReads: options.retryReads !== false };
}

/**
 * Reads To Status: statuses of `list`'s records, spelt as the service spells them (`rejected` is
 * REJECTED); none means any status change.
 * @throws NodeOperationError naming To Status and the value when one is not a status of the list
 *   (an expression's number, object or unknown text).
 */
function readToStatuses(context: IPollFunctions, list: ReportingListDefinition): string[] {
	const raw = context.getNodeParameter('toStatuses', []) as unknown;
	const values = Array.isArray(raw)
		? raw
		: typeof raw === 'string'
			? raw.split(',').filter((value) => value.trim() !== '')
			: raw === undefined || raw === null
				? []
				: [raw];
	const statuses = recordStatuses(list);
	return values.map((value) => {
		const known =
			typeof value === 'string'
				? statuses.find((status) => status.toUpperCase() === value.trim().toUpperCase())
				: undefined;
		if (known) return known;
		throw new NodeOperationError(
			context.getNode(),
			`To Status ${showValue(value)} is not a status of ${list.label}s`,
			{ description: `Choose To Status among ${statuses.join(', ')}, or none for any change.` },
		);
	});
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

/**
 * Reads Look-Back (Days): a number of days above 0, at most {@link MAX_LOOK_BACK_DAYS}.
 * @throws NodeOperationError naming the option and the value otherwise (a text that is no
 *   number, true, NaN, 1e21 days).
 */
function readLookBackDays(context: IPollFunctions, options: IDataObject): number {
	const raw = options.lookBackDays ?? DEFAULT_LOOK_BACK_DAYS;
	const lookBackDays = numberOf(raw);
	if (lookBackDays === undefined || !(lookBackDays > 0 && lookBackDays <= MAX_LOOK_BACK_DAYS)) {
		throw new NodeOperationError(
			context.getNode(),
			`Look-Back (Days) must be a number of days above 0 and at most ${MAX_LOOK_BACK_DAYS}, got ${showValue(raw)}`,
			{
				description: `Set Options → Look-Back (Days) to how far back, by creation date, records are watched, e.g. ${DEFAULT_LOOK_BACK_DAYS}. Every poll re-reads that period, so ${MAX_LOOK_BACK_DAYS} days (ten years) is the most it takes.`,
			},
		);
	}
	return lookBackDays;
}

/**
 * Reads Max Items per Poll: a whole number of at least 1.
 * @throws NodeOperationError naming the option and the value otherwise (0, 2.5, a text that is
 *   no number, true).
 */
function readMaxItems(context: IPollFunctions, options: IDataObject): number {
	const raw = options.maxItemsPerPoll ?? DEFAULT_MAX_ITEMS_PER_POLL;
	const maxItems = numberOf(raw);
	if (maxItems === undefined || !Number.isInteger(maxItems) || maxItems < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Items per Poll must be a whole number of at least 1, got ${showValue(raw)}`,
			{
				description: `Set Options → Max Items per Poll to how many events one poll emits at most, e.g. ${DEFAULT_MAX_ITEMS_PER_POLL}; the others wait for the next poll.`,
			},
		);
	}
	return maxItems;
}

/**
 * Reads Max Records Remembered (version 2): a whole number from 0 to {@link MAX_MAX_REMEMBERED}.
 * @throws NodeOperationError naming the option and the value otherwise.
 */
function readMaxRemembered(context: IPollFunctions, options: IDataObject): number {
	const raw = options.maxRemembered ?? DEFAULT_MAX_REMEMBERED;
	const value = numberOf(raw);
	if (value === undefined || !Number.isInteger(value) || value < 0 || value > MAX_MAX_REMEMBERED) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Records Remembered must be a whole number from 0 to ${MAX_MAX_REMEMBERED.toLocaleString('en')}, got ${showValue(raw)}`,
			{
				description: `Set Options → Max Records Remembered to how many of the newest records the trigger remembers one by one, e.g. ${DEFAULT_MAX_REMEMBERED.toLocaleString('en')} (about 4 bytes of state each).`,
			},
		);
	}
	return value;
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
	const minutes = numberOf(value);
	if (minutes === undefined || !Number.isFinite(minutes) || minutes < 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Re-Read Older Records Every must be 0 or more minutes, got ${showValue(value)}`,
			{
				description:
					'Choose one of the intervals offered, or make the expression give a number of minutes (0: every poll).',
			},
		);
	}
	return minutes;
}
