import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { DEFAULT_WINDOW_CONCURRENCY } from '../../codes/limits';
import { splitIntoWindows, type TimeWindow } from '../../reporting/read/windows';
import { PaymentsClient } from '../../transport/client';
import { readPeriodPages, type ListQuery } from '../../reporting/read/period';
import { readTriggerConfig } from './config';
import { detectEvents, eventItem, matchesWantedStatus, mayEmit, observe } from './detection';
import { withFailure } from './failure';
import { loadState } from './load';
import { advanceAfterPoll, narrowedStatuses, planPoll } from './plan';
import { readPlannedWindows } from './reads';
import { packState } from './storage';
import type { Observation, TriggerConfig } from './types';

/** Share of n8n's poll budget in which requests start; the rest is left for deciding, saving and emitting. */
const POLL_BUDGET_SHARE = 0.8;
/** Share of n8n's poll budget by which every answer must have come (a request still waiting is abandoned). */
const POLL_ANSWER_SHARE = 0.9;
/** Key of the trigger's state in the node's workflow static data. */
const STATE_KEY = 'paymentsServiceTrigger';

/**
 * One poll of the Payments Service Trigger (n8n's poll()): reads the parameters, loads the state,
 * reads the planned windows, detects the events, stores the state and returns the items to emit
 * (null: none). In manual mode, "Fetch Test Event" instead (no state saved).
 * @throws NodeOperationError for a bad parameter; NodeApiError from a read that failed (the stored
 *   state is then left as it was). Either carries `failure` (./failure.ts), the cause n8n's
 *   durable poll scheduler backs off by.
 */
export async function handlePoll(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	try {
		return await poll(context);
	} catch (error) {
		throw withFailure(error);
	}
}

async function poll(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const { config, maxItems, retryReads } = readTriggerConfig(context);
	const startedAt = Date.now();
	const now = Math.floor(startedAt / 1000);
	const lookBackStart = now - config.lookBackSeconds;
	const { client, deadline } = pollClient(context, startedAt, retryReads);
	// The query filters only by attributes that never change. A poll that may ask for the wanted
	// statuses only (narrowedStatuses) adds one status per read below; otherwise every status is
	// read, because a record must be tracked in every status to know when it changes. Either
	// way the decisions check the status again.
	const query: ListQuery = { list: config.list, filters: config.filters };

	const narrowed = narrowedStatuses(config);
	if (context.getMode() === 'manual')
		return await fetchTestEvent(client, query, config, narrowed, lookBackStart, now);

	const staticData = context.getWorkflowStaticData('node');
	const { state, notes } = loadState(staticData[STATE_KEY], config, now, lookBackStart);
	for (const note of notes) context.logger[note.level](note.message, note.metadata);
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
	const complete = readWindows.length === plan.windows.length;
	const decided = detectEvents(state, config, read.observations, {
		maxEvents: maxItems,
		complete,
		lookBackStart,
		readWindows,
		narrowed: narrowed !== undefined,
		wholeLookBack: !plan.slices && complete && (plan.from ?? lookBackStart) <= lookBackStart,
		now,
		// The service's clock when the reads began; the host's when it sends no Date header.
		serviceTime: client.earliestAnswerDate ?? now,
	});
	if (decided.statusMovedAlone) {
		const { key, from, to } = decided.statusMovedAlone;
		context.logger.warn(
			`Record ${key} changed status from ${from} to ${to} while its lastChangeDate stayed the same: the trigger can no longer rely on lastChangeDate alone and now remembers every record it reads (its state grows with the look-back); changes made before this to records it did not remember may not have been reported`,
			{ recordKey: key, previousStatus: from, status: to },
		);
	}
	// Written only here: a poll that failed above threw before touching the stored state.
	const next = {
		...advanceAfterPoll(decided.state, plan, read.windowsRead, now, config.rereadTiers.length),
		polledAt: now,
	};
	staticData[STATE_KEY] = packState(next);
	if (decided.events.length === 0) return null;
	return [decided.events.map((event) => ({ json: eventItem(event, now) }))];
}

/**
 * The client of one poll: it starts no request after {@link POLL_BUDGET_SHARE} of n8n's poll
 * budget (its `deadline`, epoch ms) and waits for no answer after {@link POLL_ANSWER_SHARE} of it,
 * when the host has a budget (feature-detected: n8n-workflow 2.38 and later; 5 minutes in n8n's
 * default scheduler, about 36 s under its durable scheduler, which abandons a poll at 45 s);
 * `retryReads` from the Retry option.
 */
function pollClient(
	context: IPollFunctions,
	startedAt: number,
	retryReads: boolean,
): { client: PaymentsClient; deadline: number } {
	const budgetMs =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	if (!budgetMs || !Number.isFinite(budgetMs) || budgetMs <= 0) {
		const client = new PaymentsClient(context, 'session');
		client.setRetries(retryReads);
		return { client, deadline: Number.POSITIVE_INFINITY };
	}
	const deadline = startedAt + budgetMs * POLL_BUDGET_SHARE;
	const client = new PaymentsClient(context, 'session', {
		deadline,
		answerBy: startedAt + budgetMs * POLL_ANSWER_SHARE,
	});
	client.setRetries(retryReads);
	return { client, deadline };
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
	// The one period reader, one window at a time: page after page, no request after the match.
	for await (const event of readPeriodPages(client, query, [window], { concurrency: 1 })) {
		if (event.kind !== 'page') continue;
		for (const record of event.page.records) {
			const observation = observe(query.list, record);
			if (observation && matchesWantedStatus(config, observation.status)) return observation;
		}
	}
	return undefined;
}
