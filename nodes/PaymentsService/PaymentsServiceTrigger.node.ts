import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { listFilterProperties } from './reporting/filters';
import { retryReadsOption } from './transport/retry';
import { DEFAULT_WINDOW_CONCURRENCY, SECONDS_PER_DAY } from './codes/constants';
import { checkListFilters, type FilterError } from './reporting/filters';
import {
	recordStatuses,
	REPORTING_LISTS,
	TRIGGER_LISTS,
	type ReportingListDefinition,
} from './reporting/lists';
import {
	detectEvents,
	eventItem,
	matchesWantedStatus,
	mayEmit,
	observe,
} from './trigger/poll/detection';
import { loadState } from './trigger/poll/load';
import { advanceAfterPoll, narrowedStatuses, planPoll } from './trigger/poll/plan';
import { packState } from './trigger/poll/storage';
import type { Observation, TriggerConfig, TriggerEventName } from './trigger/poll/types';
import { splitIntoWindows, type TimeWindow } from './reporting/windows';
import { eventsFor, TRIGGER_EVENTS } from './trigger/poll/events';
import { readPlannedWindows } from './trigger/poll/reads';
import { PaymentsClient } from './transport/client';
import { windowPages, type ListQuery } from './transport/reporting';
import { optionsCollection } from './parameters/options';

/** Share of n8n's poll budget spent on reading; the rest is left for deciding, saving and emitting. */
const POLL_BUDGET_SHARE = 0.8;
/** Default look-back, in days. */
const DEFAULT_LOOK_BACK_DAYS = 7;
/** Default maximum of items one poll emits. */
const DEFAULT_MAX_ITEMS_PER_POLL = 500;
/**
 * Re-read period of older records when the poll cannot ask for the wanted statuses only, in
 * minutes (Re-Read Older Records Every: Automatic): records created in the last hour are read every
 * poll, older ones once an hour. Measured (npm run bench: 1,000 cashouts a day, 7-day look-back, a
 * poll a minute): Any Change falls from 141 requests a poll to about 8, and a change to an older
 * record is seen within about an hour. A narrowed poll (To Status, or a Status filter) already
 * reads only what can raise an event, so Automatic reads all of it every poll.
 */
const AUTOMATIC_REREAD_MINUTES = 60;
/** Key of the trigger's state in the node's workflow static data. */
const STATE_KEY = 'paymentsServiceTrigger';

const TRIGGER_LIST_DEFINITIONS: ReportingListDefinition[] = TRIGGER_LISTS.map(
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

/**
 * Payments Service Trigger: polls the reporting lists and emits new records, status changes or any
 * change, each exactly once (see README, "Trigger"). State lives in the node's workflow static data.
 */
export class PaymentsServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payments Service Trigger',
		name: 'paymentsServiceTrigger',
		icon: {
			light: 'file:../../icons/payments-service.svg',
			dark: 'file:../../icons/payments-service.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] + ": " + $parameter["resource"]}}',
		description:
			'Starts the workflow when deposits, cashouts, refunds, chargebacks, settlements or notes appear or change',
		defaults: { name: 'Payments Service Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paymentsServiceSessionApi', required: true }],
		properties: [
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
					displayName: 'Include First Sightings',
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
					typeOptions: { minValue: 0.01, numberPrecision: 2 },
					description:
						'How far back, by creation date, records are watched. Every poll re-reads this period (split into requests of under 60 days); longer means more requests.',
				},
				{
					displayName: 'Max Items per Poll',
					name: 'maxItemsPerPoll',
					type: 'number',
					default: DEFAULT_MAX_ITEMS_PER_POLL,
					typeOptions: { minValue: 1 },
					description:
						'Events beyond this number wait for the next poll (oldest first); none is lost',
				},
				{
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
					description:
						'Records created within this time are read on every poll; older ones in turn, each at least once per this time. A change to an older record is seen up to this much later; a shorter time costs more requests.',
				},
				retryReadsOption,
			]),
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const { config, maxItems, retryReads } = readTriggerConfig(this);
		const startedAt = Date.now();
		const now = Math.floor(startedAt / 1000);
		const lookBackStart = now - config.lookBackSeconds;
		const budgetMs =
			typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
		const deadline = budgetMs ? startedAt + budgetMs * POLL_BUDGET_SHARE : Number.POSITIVE_INFINITY;
		const client = new PaymentsClient(this, 'session', {
			deadline: Number.isFinite(deadline) ? deadline : undefined,
		});
		client.setRetries(retryReads);
		// The query filters only by attributes that never change. A poll that may ask for the wanted
		// statuses only (narrowedStatuses) adds one status per read below; otherwise every status is
		// read, because a record must be tracked in every status to know when it changes. Either
		// way the decisions check the status again.
		const query: ListQuery = { list: config.list, filters: config.filters };

		const narrowed = narrowedStatuses(config);
		if (this.getMode() === 'manual')
			return await fetchTestEvent(client, query, config, narrowed, lookBackStart, now);

		const staticData = this.getWorkflowStaticData('node');
		const { state, notes } = loadState(staticData[STATE_KEY], config, now, lookBackStart);
		for (const note of notes) this.logger[note.level](note.message, note.metadata);
		const plan = planPoll(state, config, lookBackStart, now);
		const outOfTime = () => Date.now() >= deadline;

		// The planned windows, read side by side; a window cut short is dropped whole and read again
		// by the next poll (with narrowing, one read per wanted status: the service's filter takes one value).
		const read = await readPlannedWindows(client, query, narrowed, plan.windows, {
			concurrency: DEFAULT_WINDOW_CONCURRENCY,
			outOfTime,
			keep: (observation) => mayEmit(state, config, observation),
		});
		const readWindows = plan.windows.slice(0, read.windowsRead);
		const observations = read.observations;
		const decided = detectEvents(state, config, observations, {
			maxEvents: maxItems,
			complete: readWindows.length === plan.windows.length,
			lookBackStart,
			readWindows,
			narrowed: narrowed !== undefined,
			wholeLookBack: !plan.slice && readWindows.length === plan.windows.length,
		});
		// Written only here: a poll that failed above threw before touching the stored state.
		const next = {
			...advanceAfterPoll(decided.state, plan, readWindows.length, now),
			polledAt: now,
		};
		staticData[STATE_KEY] = packState(next);
		if (decided.events.length === 0) return null;
		return [decided.events.map((event) => ({ json: eventItem(event, now) }))];
	}
}

/**
 * Reads and checks the trigger's parameters: the list and the event resolved to their definitions.
 * @throws NodeOperationError naming the field and what to enter.
 */
function readTriggerConfig(context: IPollFunctions): {
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
		includeFirstSightings:
			event.type === 'newRecord' ? false : options.includeFirstSightings !== false,
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
		// checkListFilters throws FilterError only.
		const { message, hint } = error as FilterError;
		throw new NodeOperationError(context.getNode(), message, { description: hint });
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

/**
 * "Fetch Test Event": the newest record of the look-back that the trigger would emit (same status
 * check as the decisions, asking the service for the wanted statuses when it can), shaped like a
 * real event. Reads newest windows first and stops at the first match; saves no state.
 */
async function fetchTestEvent(
	client: PaymentsClient,
	query: ListQuery,
	config: TriggerConfig,
	narrowed: string[] | undefined,
	lookBackStart: number,
	now: number,
): Promise<INodeExecutionData[][] | null> {
	for (const window of splitIntoWindows(lookBackStart, now).reverse()) {
		// The newest match of the window, across the statuses asked for.
		let newest: Observation | undefined;
		for (const status of narrowed ?? [undefined]) {
			const found = await firstMatch(client, { ...query, status }, config, window);
			if (found && (!newest || found.created > newest.created)) newest = found;
		}
		if (newest) {
			const type = config.event.type;
			return [
				[
					{
						json: eventItem(
							{ observation: newest, type, previousStatus: null, previousLastChange: null },
							now,
						),
					},
				],
			];
		}
	}
	return null;
}

/** The first record of a window's pages (newest first, as the service lists them) the trigger would emit. */
async function firstMatch(
	client: PaymentsClient,
	query: ListQuery,
	config: TriggerConfig,
	window: TimeWindow,
): Promise<Observation | undefined> {
	for await (const page of windowPages(client, query, window)) {
		for (const record of page.records) {
			const observation = observe(query.list, record);
			if (observation && matchesWantedStatus(config, observation.status)) return observation;
		}
	}
	return undefined;
}
