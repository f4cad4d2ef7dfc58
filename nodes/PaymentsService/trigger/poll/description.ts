import type { INodeProperties } from 'n8n-workflow';

import { listFilterProperties } from '../../reporting/filters';
import {
	recordStatuses,
	REPORTING_LISTS,
	TRIGGER_LISTS,
	type ReportingListDefinition,
} from '../../reporting/lists';
import { optionsCollection } from '../../parameters/options';
import { retryReadsOption } from '../../parameters/retryReads';
import { eventsFor, TRIGGER_EVENTS } from './events';

/*
 * The polling trigger's parameters (the node file, PaymentsServiceTrigger.node.ts, holds the rest
 * of its description); ./config.ts reads them.
 */

/** Default look-back, in days. */
export const DEFAULT_LOOK_BACK_DAYS = 7;
/**
 * Most days Look-Back (Days) takes: ten years. Every poll re-reads the look-back in turn and the
 * trigger remembers each record in it, so a longer one costs requests and memory for records that
 * no longer change; beyond it a value (an expression's 1e21) means no period at all.
 */
export const MAX_LOOK_BACK_DAYS = 3_650;
/** Default maximum of items one poll emits. */
export const DEFAULT_MAX_ITEMS_PER_POLL = 500;
/**
 * Default of Max Records Remembered (version 2): the newest 50,000 records, about 0.2 to 0.4 MiB
 * of the workflow's static data (4 to 8 bytes a record), which n8n saves whole after every poll
 * that emits (docs/polling-trigger.md, "Memory").
 */
export const DEFAULT_MAX_REMEMBERED = 50_000;
/** Most records Max Records Remembered takes: about 40 to 80 MiB of static data. */
export const MAX_MAX_REMEMBERED = 10_000_000;

/** The lists the trigger watches, in the order of TRIGGER_LISTS. */
export const TRIGGER_LIST_DEFINITIONS: ReportingListDefinition[] = TRIGGER_LISTS.map(
	(resource) => REPORTING_LISTS[resource],
);

/**
 * The Event parameter, once per group of lists offering the same events (n8n cannot change a
 * parameter's options by another parameter's value): the events are those the list's records
 * support, from the event registry.
 */
function eventProperties(): INodeProperties[] {
	const groups = new Map<string, ReportingListDefinition[]>();
	for (const list of TRIGGER_LIST_DEFINITIONS) {
		const key = eventsFor(list)
			.map((event) => event.value)
			.join(',');
		groups.set(key, [...(groups.get(key) ?? []), list]);
	}
	return [...groups.values()].map((lists) => {
		const events = eventsFor(lists[0]);
		const missing = TRIGGER_EVENTS.filter((event) => !events.includes(event)).map(
			(event) => event.name,
		);
		const defaultEvent = (events.find((event) => event.value === 'statusChanged') ?? events[0])
			.value;
		const property: INodeProperties = {
			displayName: 'Event',
			name: 'event',
			type: 'options',
			noDataExpression: true,
			default: defaultEvent,
			displayOptions: { show: { resource: lists.map((list) => list.resource) } },
			options: events.map((event) => ({
				name: event.name,
				value: event.value,
				description: event.description,
			})),
		};
		if (missing.length) {
			property.description = `These records lack the fields ${missing.join(' and ')} needs, so it is not offered`;
		}
		return property;
	});
}

/** Each event's own parameters (To Status), per list. */
function eventParameterProperties(): INodeProperties[] {
	return TRIGGER_LIST_DEFINITIONS.flatMap((list) =>
		eventsFor(list).flatMap((event) =>
			event.properties(list).map((property) => ({
				...property,
				displayOptions: { show: { resource: [list.resource], event: [event.value] } },
			})),
		),
	);
}

/** The Filters collection of each list: the same fields as Get Many's, Status judged by the trigger. */
function filterProperties(): INodeProperties[] {
	const statusShownFor = TRIGGER_EVENTS.filter((event) => event.usesStatusFilter).map(
		(event) => event.value,
	);
	return TRIGGER_LIST_DEFINITIONS.map((list) => ({
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: [list.resource] } },
		options: listFilterProperties(list, {
			statusShownFor,
			statusValues: recordStatuses(list),
			statusDescription: 'Only records in this status when the event is detected',
		}),
	}));
}

/** Re-Read Older Records Every, without its description (each version has its own). */
const REREAD_OPTION = {
	displayName: 'Re-Read Older Records Every',
	name: 'rereadMinutes',
	type: 'options',
	default: 'auto',
	options: [
		{
			name: '15 Minutes',
			value: '15',
			description: 'Records created in the last 15 minutes every poll, older ones in turn',
		},
		{
			name: '24 Hours',
			value: '1440',
			description: 'Records created in the last day every poll, older ones in turn',
		},
		{
			name: '6 Hours',
			value: '360',
			description: 'Records created in the last 6 hours every poll, older ones in turn',
		},
		{
			name: 'Automatic',
			value: 'auto',
			description:
				'Every poll when the trigger can ask for the wanted statuses only (To Status, or a Status filter); otherwise 1 hour',
		},
		{ name: 'Every Poll', value: '0', description: 'The whole look-back on every poll' },
		{
			name: 'Hour',
			value: '60',
			description: 'Records created in the last hour every poll, older ones in turn',
		},
	],
} satisfies Omit<INodeProperties, 'description'>;

/** The trigger's parameters: Resource, Event, the event's own parameters, Filters, Options. */
export const TRIGGER_PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		default: 'cashout',
		options: TRIGGER_LIST_DEFINITIONS.map((list) => ({
			name: list.name,
			value: list.resource,
		})).sort((a, b) => a.name.localeCompare(b.name)),
	},
	...eventProperties(),
	...eventParameterProperties(),
	...filterProperties(),
	optionsCollection([
		{
			displayName: 'Count New Records as Changes',
			name: 'includeFirstSightings',
			type: 'boolean',
			default: true,
			displayOptions: { show: { '/event': ['statusChanged', 'anyChange'] } },
			description:
				'Whether a record first seen after activation counts as a change to its first status. Off, it counts only once it changed after its creation (lastChangeDate later than its creation date).',
		},
		{
			displayName: 'Look-Back (Days)',
			name: 'lookBackDays',
			type: 'number',
			default: DEFAULT_LOOK_BACK_DAYS,
			typeOptions: { minValue: 0.01, maxValue: MAX_LOOK_BACK_DAYS, numberPrecision: 2 },
			description:
				'How far back, by creation date, records are watched, at most 3,650 days. Every poll re-reads this period (split into requests of under 60 days); longer means more requests.',
		},
		{
			displayName: 'Max Items per Poll',
			name: 'maxItemsPerPoll',
			type: 'number',
			default: DEFAULT_MAX_ITEMS_PER_POLL,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			description: 'Events beyond this number wait for the next poll (oldest first); none is lost',
		},
		{
			...REREAD_OPTION,
			description:
				'Records created within this time are read on every poll; older ones in turn, each at least once per this time. A change to an older record is seen up to this much later; a shorter time costs more requests.',
			displayOptions: { show: { '@version': [1] } },
		},
		{
			...REREAD_OPTION,
			description:
				'How soon a change to an older record is seen. Each step of age is re-read six times less often: records under a sixth of this time old on every poll, under this time once per a sixth of it, under a day once per this time, older ones once per six times it (at most a day). Shorter costs more requests.',
			displayOptions: { show: { '@version': [2] } },
		},
		{
			displayName: 'Max Records Remembered',
			name: 'maxRemembered',
			type: 'number',
			default: DEFAULT_MAX_REMEMBERED,
			typeOptions: { minValue: 0, maxValue: MAX_MAX_REMEMBERED, numberPrecision: 0 },
			displayOptions: { show: { '@version': [2] } },
			description:
				'How many of the newest records the trigger remembers one by one (about 4 bytes each in the workflow). A change to an older record is still reported, by its lastChangeDate, with previousStatus empty. Status Changed without To Status, settlements and notes remember every record.',
		},
		retryReadsOption,
	]),
];
