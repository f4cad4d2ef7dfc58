import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { SECONDS_PER_DAY } from './helpers/constants';
import { checkListFilters, codeOptions, FilterError } from './helpers/filters';
import {
	CASHOUT_STATUSES,
	CHARGEBACK_STATUSES,
	DEPOSIT_STATUSES,
	NOTE_TYPES,
	REFUND_STATUSES,
	REPORTING_LISTS,
	SETTLEMENT_STATUSES,
	type ReportingResource,
} from './helpers/lists';
import { RecordCollector } from './helpers/paging';
import {
	advanceReadPosition,
	detectEvents,
	eventItem,
	initialState,
	observe,
	planWindows,
	readState,
	type Observation,
	type TriggerConfig,
	type TriggerEventName,
} from './helpers/triggerState';
import { splitIntoWindows } from './helpers/windows';
import { PaymentsClient } from './transport/client';
import { readWindow, type ListQuery } from './transport/reporting';

/** Share of n8n's poll budget spent on reading; the rest is left for deciding, saving and emitting. */
const POLL_BUDGET_SHARE = 0.8;
/** Default look-back, in days (issue: "default 7 days"). */
const DEFAULT_LOOK_BACK_DAYS = 7;
/** Default maximum of items one poll emits. */
const DEFAULT_MAX_ITEMS_PER_POLL = 500;
/** Key of the trigger's state in the node's workflow static data. */
const STATE_KEY = 'paymentsServiceTrigger';

type TriggerResource = Exclude<ReportingResource, 'balanceReport'>;

const WITH_LAST_CHANGE: TriggerResource[] = ['cashout', 'chargeback', 'deposit', 'refund'];

const STATUS_VALUES: Record<Exclude<TriggerResource, 'note'>, string[]> = {
	cashout: CASHOUT_STATUSES,
	chargeback: CHARGEBACK_STATUSES,
	deposit: [...DEPOSIT_STATUSES, 'CREATED'],
	refund: [...REFUND_STATUSES, 'REJECTED'],
	settlement: SETTLEMENT_STATUSES,
};


const EVENT_OPTIONS = {
	newRecord: {
		name: 'New Record',
		value: 'newRecord',
		description: 'A record created since the trigger was activated',
	},
	statusChanged: {
		name: 'Status Changed',
		value: 'statusChanged',
		description: 'A record’s status differs from the last status this trigger saw',
	},
	anyChange: {
		name: 'Any Change',
		value: 'anyChange',
		description: 'A record’s lastChangeDate moved (or its status changed)',
	},
};

const eventProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'statusChanged',
		displayOptions: { show: { resource: WITH_LAST_CHANGE } },
		options: [EVENT_OPTIONS.anyChange, EVENT_OPTIONS.newRecord, EVENT_OPTIONS.statusChanged],
	},
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'statusChanged',
		displayOptions: { show: { resource: ['settlement'] } },
		options: [EVENT_OPTIONS.newRecord, EVENT_OPTIONS.statusChanged],
		description: 'Settlement records carry no lastChangeDate, so Any Change is not offered',
	},
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'newRecord',
		displayOptions: { show: { resource: ['note'] } },
		options: [EVENT_OPTIONS.newRecord],
		description: 'Credit and debit notes carry no status or lastChangeDate, so only new notes can trigger',
	},
];

const toStatusProperties: INodeProperties[] = (Object.keys(STATUS_VALUES) as Array<keyof typeof STATUS_VALUES>).map(
	(resource) => ({
		displayName: 'To Status',
		name: 'toStatuses',
		type: 'multiOptions',
		default: [],
		displayOptions: { show: { resource: [resource], event: ['statusChanged'] } },
		options: codeOptions(STATUS_VALUES[resource]),
		description: 'Only changes to these statuses trigger; none selected means any status change',
	}),
);

const filterFields = (resource: TriggerResource): INodeProperties[] => {
	const list = REPORTING_LISTS[resource];
	const fields: INodeProperties[] = [];
	if (list.filters.includes('clientDocument')) {
		fields.push({ displayName: 'Client Document', name: 'clientDocument', type: 'string', default: '' });
	}
	if (list.filters.includes('country')) {
		fields.push({ displayName: 'Country', name: 'country', type: 'string', default: '', placeholder: 'BR', description: '2-letter ISO country code' });
	}
	if (list.filters.includes('paymentMethod')) {
		fields.push({ displayName: 'Payment Method Code', name: 'paymentMethod', type: 'string', default: '', placeholder: 'PX' });
	}
	if (list.filters.includes('type')) {
		fields.push({
			displayName: 'Type',
			name: 'type',
			type: 'options',
			default: '',
			options: [{ name: 'Any Type', value: '' }, ...codeOptions(NOTE_TYPES)],
		});
	}
	if (resource !== 'note') {
		fields.push({
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: '',
			displayOptions: { show: { '/event': ['newRecord', 'anyChange'] } },
			options: [{ name: 'Any Status', value: '' }, ...codeOptions(STATUS_VALUES[resource])],
			description: 'Only records in this status when the event is detected',
		});
	}
	return fields;
};

const filterProperties: INodeProperties[] = (Object.keys(REPORTING_LISTS) as ReportingResource[])
	.filter((resource): resource is TriggerResource => resource !== 'balanceReport')
	.map((resource) => ({
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: [resource] } },
		options: filterFields(resource),
	}));

/**
 * Payments Service Trigger: polls the reporting lists and emits new records, status changes or any
 * change, each exactly once (see README, "Trigger"). State lives in the node's workflow static data.
 */
export class PaymentsServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payments Service Trigger',
		name: 'paymentsServiceTrigger',
		icon: { light: 'file:../../icons/payments-service.svg', dark: 'file:../../icons/payments-service.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] + ": " + $parameter["resource"]}}',
		description: 'Starts the workflow when deposits, cashouts, refunds, chargebacks, settlements or notes appear or change',
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
				options: [
					{ name: 'Cashout', value: 'cashout' },
					{ name: 'Chargeback', value: 'chargeback' },
					{ name: 'Credit/Debit Note', value: 'note' },
					{ name: 'Deposit', value: 'deposit' },
					{ name: 'Refund', value: 'refund' },
					{ name: 'Settlement', value: 'settlement' },
				],
			},
			...eventProperties,
			...toStatusProperties,
			...filterProperties,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include First Sightings',
						name: 'includeFirstSightings',
						type: 'boolean',
						default: true,
						displayOptions: { show: { '/event': ['statusChanged', 'anyChange'] } },
						description:
							'Whether a record first seen after activation counts as a change to its first status, so a cashout created and rejected between two polls still triggers',
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
						description: 'Events beyond this number wait for the next poll (oldest first); none is lost',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const { config, maxItems } = readTriggerConfig(this);
		const list = REPORTING_LISTS[config.resource as TriggerResource];
		const client = new PaymentsClient(this);
		const startedAt = Date.now();
		const now = Math.floor(startedAt / 1000);
		const lookBackStart = now - config.lookBackSeconds;
		// Only immutable attributes are filtered by the service; the status is judged here, because a
		// record must be tracked in every status to know when it changes.
		const query: ListQuery = { list, filters: config.filters };

		if (this.getMode() === 'manual') return await fetchTestEvent(client, query, config, lookBackStart, now);

		const staticData = this.getWorkflowStaticData('node');
		const state = readState(staticData[STATE_KEY], config) ?? initialState(config, now);
		const planned = planWindows(state, lookBackStart, now);
		const budgetMs = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
		const deadline = budgetMs ? startedAt + budgetMs * POLL_BUDGET_SHARE : Number.POSITIVE_INFINITY;
		const outOfTime = () => Date.now() >= deadline;

		const collector = new RecordCollector<IDataObject>((record) => observe(list, record)?.key);
		let windowsRead = 0;
		for (const window of planned) {
			if (outOfTime()) break;
			const read = await readWindow(client, query, window, { shouldStop: outOfTime });
			// A window cut short is dropped whole and read again by the next poll.
			if (!read.complete) break;
			for (const record of read.records) collector.add(record);
			windowsRead++;
		}
		const observations = collector
			.records()
			.map((record) => observe(list, record))
			.filter((observation): observation is Observation => observation !== undefined);
		const decided = detectEvents(state, config, observations, {
			maxEvents: maxItems,
			complete: windowsRead === planned.length,
			lookBackStart,
		});
		// Written only here: a poll that failed above threw before touching the stored state.
		staticData[STATE_KEY] = advanceReadPosition(decided.state, planned, windowsRead) as unknown as IDataObject;
		if (decided.events.length === 0) return null;
		return [decided.events.map((event) => ({ json: eventItem(event, now) }))];
	}
}

/**
 * Reads and checks the trigger's parameters.
 * @throws NodeOperationError naming the field and what to enter.
 */
function readTriggerConfig(context: IPollFunctions): { config: TriggerConfig; maxItems: number } {
	const resource = context.getNodeParameter('resource') as TriggerResource;
	const event = context.getNodeParameter('event') as TriggerEventName;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	let filters: IDataObject;
	let status: string;
	try {
		({ filters, status } = checkListFilters(context.getNodeParameter('filters', {}) as IDataObject));
	} catch (error) {
		// checkListFilters throws FilterError only.
		const { message, hint } = error as FilterError;
		throw new NodeOperationError(context.getNode(), message, { description: hint });
	}
	const lookBackDays = Number(options.lookBackDays ?? DEFAULT_LOOK_BACK_DAYS);
	if (!Number.isFinite(lookBackDays) || lookBackDays <= 0) {
		throw new NodeOperationError(context.getNode(), `Look-Back (Days) must be a positive number, got "${String(options.lookBackDays)}"`);
	}
	const maxItems = Math.floor(Number(options.maxItemsPerPoll ?? DEFAULT_MAX_ITEMS_PER_POLL));
	if (!Number.isFinite(maxItems) || maxItems < 1) {
		throw new NodeOperationError(context.getNode(), `Max Items per Poll must be at least 1, got "${String(options.maxItemsPerPoll)}"`);
	}
	const list = REPORTING_LISTS[resource];
	if ((event === 'statusChanged' && !list.hasStatus) || (event === 'anyChange' && !list.hasLastChangeDate)) {
		throw new NodeOperationError(context.getNode(), `The ${list.label} list cannot trigger on "${event}": its records lack the field it needs`);
	}
	return {
		config: {
			resource,
			event,
			filters,
			toStatuses: event === 'statusChanged' ? ((context.getNodeParameter('toStatuses', []) as string[]) ?? []) : [],
			status: event === 'statusChanged' ? '' : status,
			lookBackSeconds: Math.round(lookBackDays * SECONDS_PER_DAY),
			includeFirstSightings: event === 'newRecord' ? false : options.includeFirstSightings !== false,
		},
		maxItems,
	};
}

/**
 * "Fetch Test Event": the newest record of the look-back that matches the trigger's filters, shaped
 * like a real event. Reads newest windows first and stops at the first match; saves no state.
 */
async function fetchTestEvent(
	client: PaymentsClient,
	query: ListQuery,
	config: TriggerConfig,
	lookBackStart: number,
	now: number,
): Promise<INodeExecutionData[][] | null> {
	const matches = (record: IDataObject) => {
		const status = typeof record.status === 'string' ? record.status.toUpperCase() : '';
		if (config.event === 'statusChanged') {
			return config.toStatuses.length === 0 || config.toStatuses.some((wanted) => wanted.toUpperCase() === status);
		}
		return config.status === '' || config.status.toUpperCase() === status;
	};
	let found: IDataObject | undefined;
	for (const window of splitIntoWindows(lookBackStart, now).reverse()) {
		await readWindow(client, query, window, {
			onPage: (records) => {
				found = found ?? records.find(matches);
			},
			shouldStop: () => found !== undefined,
		});
		if (found) break;
	}
	if (!found) return null;
	const observation = observe(query.list, found);
	if (!observation) return null;
	const type = config.event === 'newRecord' ? 'newRecord' : config.event === 'statusChanged' ? 'statusChanged' : 'changed';
	return [[{ json: eventItem({ observation, type, previousStatus: null, previousLastChange: null }, now) }]];
}
