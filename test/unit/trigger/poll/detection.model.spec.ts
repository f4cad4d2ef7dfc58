import { isDeepStrictEqual } from 'util';
import fc from 'fast-check';

import {
	detectEvents,
	type DetectedEvent,
} from '../../../../nodes/PaymentsService/trigger/poll/detection';
import {
	initialState,
	type TriggerState,
} from '../../../../nodes/PaymentsService/trigger/poll/memory';
import type {
	EmittedEventType,
	Observation,
	TriggerConfig,
	TriggerEventName,
} from '../../../../nodes/PaymentsService/trigger/poll/types';
import { resolveConfig } from '../../../harness/triggerConfig';

/*
 * Model-based test of detectEvents. A small world of records is changed at random between polls
 * (changes, double changes, a change and its undo, new records, late arrivals); each poll that
 * succeeds shows detectEvents everything visible within the look-back. A reference model that knows
 * only the world (the last snapshot it saw of each record) says which events a poll must emit.
 */

const HOUR = 3_600;
const INTERVAL = 2 * HOUR;
const LOOK_BACK = 5 * INTERVAL;
const T0 = 1_700_000_000;
const STATUSES = ['PENDING', 'ON_HOLD', 'COMPLETED', 'REJECTED'];

type Status = string | null;

type Action =
	| { kind: 'change'; target: number; to: Status[]; undo: boolean }
	| { kind: 'create'; back: number; status: Status };

interface PollPlan {
	actions: Action[];
	fails: boolean;
	order: number;
}

interface SimRecord {
	id: string;
	created: number;
	/** Index of the first poll that can see the record (later than its creation for late arrivals). */
	visibleFrom: number;
	status: Status;
	lastChange: number | null;
}

interface Seen {
	status: Status;
	lastChange: number | null;
}

interface Summary {
	id: string;
	type: EmittedEventType;
	previousStatus: Status;
	previousLastChange: number | null;
	status: Status;
}

const statusArb: fc.Arbitrary<Status> = fc.oneof(
	{ weight: 9, arbitrary: fc.constantFrom(...STATUSES) },
	{ weight: 1, arbitrary: fc.constant(null) },
);

const actionArb: fc.Arbitrary<Action> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant('change' as const),
			target: fc.nat(),
			to: fc.array(statusArb, { minLength: 1, maxLength: 2 }),
			undo: fc.boolean(),
		}),
	},
	// Created since the previous poll.
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('create' as const),
			back: fc.integer({ min: 0, max: INTERVAL - 1 }),
			status: statusArb,
		}),
	},
	// A late arrival: created before the previous poll (maybe even outside the look-back), visible only now.
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('create' as const),
			back: fc.integer({ min: INTERVAL, max: LOOK_BACK + INTERVAL }),
			status: statusArb,
		}),
	},
);

const initialArb = fc.array(
	fc.record({ back: fc.integer({ min: 0, max: LOOK_BACK + INTERVAL }), status: statusArb }),
	{ maxLength: 12 },
);

const orderArb = fc.integer({ min: 1, max: 1_008 });

function configArb(event: TriggerEventName): fc.Arbitrary<TriggerConfig> {
	return fc
		.record({
			toStatuses: fc.subarray(['PENDING', 'on_hold', 'COMPLETED', 'rejected']),
			status: fc.constantFrom('', 'PENDING', 'completed', 'REJECTED'),
			countNewRecords: fc.boolean(),
		})
		.map(({ toStatuses, status, countNewRecords }) =>
			resolveConfig({
				resource: 'cashout',
				event,
				filters: {},
				toStatuses: event === 'statusChanged' ? toStatuses : [],
				status: event === 'statusChanged' ? '' : status,
				lookBackSeconds: LOOK_BACK,
				countNewRecords,
				rereadSeconds: 0,
			}),
		);
}

/** The service's records as they are; what a poll may see. */
class World {
	readonly records: SimRecord[] = [];
	private clock = 0;

	constructor(private readonly withLastChange: boolean) {}

	add(created: number, visibleFrom: number, status: Status): void {
		const id = `r${String(this.records.length).padStart(3, '0')}`;
		this.records.push({
			id,
			created,
			visibleFrom,
			status,
			lastChange: this.withLastChange ? created : null,
		});
	}

	/** Applies the actions that happen after poll `poll - 1` and before poll `poll` (at `now`). */
	apply(actions: Action[], poll: number, now: number): void {
		this.clock = Math.max(this.clock, now - INTERVAL);
		for (const action of actions) {
			if (action.kind === 'create') {
				this.add(now - action.back, poll, action.status);
			} else if (this.records.length > 0) {
				const record = this.records[action.target % this.records.length];
				const original = record.status;
				for (const status of action.to) this.set(record, status);
				if (action.undo) this.set(record, original);
			}
		}
	}

	visible(poll: number, now: number): SimRecord[] {
		return this.records.filter(
			(record) =>
				record.visibleFrom <= poll && record.created >= now - LOOK_BACK && record.created <= now,
		);
	}

	private set(record: SimRecord, status: Status): void {
		this.clock++;
		record.status = status;
		if (record.lastChange !== null) {
			record.lastChange = Math.max(this.clock, record.lastChange + 1);
			this.clock = record.lastChange;
		}
	}
}

const toObservation = (record: SimRecord): Observation => ({
	key: record.id,
	status: record.status,
	lastChange: record.lastChange,
	created: record.created,
	record: { id: record.id, status: record.status },
});

/** A permutation of `items` chosen by `seed` (1..1008; 1009 is prime). */
function shuffled<T>(items: T[], seed: number): T[] {
	return items
		.map((item, index) => ({ item, rank: ((index + 1) * seed) % 1_009 }))
		.sort((a, b) => a.rank - b.rank)
		.map((entry) => entry.item);
}

/**
 * New Record with a Status: a record created since activation, reported once, when first seen in
 * that status; records in other statuses are not remembered.
 */
const newInStatus = (config: TriggerConfig) =>
	config.event.value === 'newRecord' && config.status !== '';
const inWantedStatus = (config: TriggerConfig, record: SimRecord) =>
	config.status.toUpperCase() === (record.status ?? '');

/** The records whose state the trigger updates after a poll that saw `visible` (the others keep what it saw before). */
function remembered(config: TriggerConfig, visible: SimRecord[]): SimRecord[] {
	return newInStatus(config) ? visible.filter((record) => inWantedStatus(config, record)) : visible;
}

/** The reference: which event the README promises for a record, given what the trigger saw of it last. */
function expectedType(
	config: TriggerConfig,
	previous: Seen | undefined,
	record: SimRecord,
	activatedAt: number,
): EmittedEventType | undefined {
	const current = record.status ?? '';
	const wanted =
		config.event.value === 'statusChanged'
			? config.toStatuses.length === 0 ||
				config.toStatuses.some((status) => status.toUpperCase() === current)
			: config.status === '' || config.status.toUpperCase() === current;
	if (!wanted) return undefined;
	if (previous === undefined) {
		if (newInStatus(config)) return record.created > activatedAt ? 'newRecord' : undefined;
		if (config.event.value === 'newRecord') return 'newRecord';
		const type = config.event.value === 'statusChanged' ? 'statusChanged' : 'changed';
		// Without new records, a record's creation is no event; a change after it is.
		if (!config.countNewRecords)
			return record.lastChange !== null && record.lastChange > record.created ? type : undefined;
		return type;
	}
	// With To Status, a later lastChangeDate in a chosen status is a return to it (issue 24).
	if (
		config.event.value === 'statusChanged' &&
		(previous.status !== record.status ||
			(config.toStatuses.length > 0 &&
				previous.lastChange !== null &&
				record.lastChange !== null &&
				record.lastChange > previous.lastChange))
	)
		return 'statusChanged';
	// In this world lastChangeDate only moves forward, so "moved" is "differs".
	if (
		config.event.value === 'anyChange' &&
		(previous.status !== record.status || previous.lastChange !== record.lastChange)
	)
		return 'changed';
	return undefined;
}

function expectedEvents(
	config: TriggerConfig,
	model: Map<string, Seen>,
	visible: SimRecord[],
	activatedAt: number,
): Summary[] {
	const events: Summary[] = [];
	for (const record of visible) {
		const previous = model.get(record.id);
		const type = expectedType(config, previous, record, activatedAt);
		if (type) {
			events.push({
				id: record.id,
				type,
				previousStatus: previous ? previous.status : null,
				previousLastChange: previous ? previous.lastChange : null,
				status: record.status,
			});
		}
	}
	return events;
}

function remember(config: TriggerConfig, model: Map<string, Seen>, visible: SimRecord[]): void {
	for (const record of remembered(config, visible))
		model.set(record.id, { status: record.status, lastChange: record.lastChange });
}

const summarize = (event: DetectedEvent): Summary => ({
	id: event.observation.key,
	type: event.type,
	previousStatus: event.previousStatus,
	previousLastChange: event.previousLastChange,
	status: event.observation.status,
});

const byId = (events: Summary[]) =>
	[...events].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

const when = (event: DetectedEvent) => event.observation.lastChange ?? event.observation.created;

/**
 * `expect(actual).toEqual(expected)`, called only when the two differ (same report then). The
 * properties below check a few things on each of thousands of polls, and each `expect` call costs
 * more than the code under test.
 */
function expectEqual(actual: unknown, expected: unknown): void {
	if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

/** Throws when the events are not oldest change first. */
function expectOldestFirst(events: DetectedEvent[]): void {
	// One assertion per poll, not per event (expect costs about as much as the trigger here).
	const late = events.filter((event, i) => i > 0 && when(event) < when(events[i - 1]));
	expectEqual(late.map(summarize), []);
}

/**
 * Throws when the state does not remember exactly what the model says the trigger saw last of the
 * visible records (those within the look-back), in a compact dictionary.
 */
function expectStateMatches(
	state: TriggerState,
	visible: SimRecord[],
	model: Map<string, Seen>,
): void {
	const known = visible.filter((record) => model.has(record.id));
	expectEqual(Object.keys(state.seen).sort(), known.map((record) => record.id).sort());
	// One assertion for all records (an expect per record cost more than the code under test).
	const differing = known.flatMap((record) => {
		const [status, lastChange, created] = state.seen[record.id];
		const seen = model.get(record.id)!;
		const stored = [status >= 0 ? state.statuses[status] : null, lastChange, created];
		const expected = [seen.status, seen.lastChange, record.created];
		return isDeepStrictEqual(stored, expected) ? [] : [{ id: record.id, stored, expected }];
	});
	expectEqual(differing, []);
	expectEqual(new Set(state.statuses).size, state.statuses.length);
	const used = new Set(Object.values(state.seen).map((entry) => entry[0]));
	expectEqual(
		state.statuses.filter((_status, index) => !used.has(index)),
		[],
	);
}

function detect(
	state: TriggerState,
	config: TriggerConfig,
	visible: SimRecord[],
	now: number,
	maxEvents: number,
	order: number,
) {
	const before = JSON.stringify(state);
	const result = detectEvents(state, config, shuffled(visible.map(toObservation), order), {
		maxEvents,
		complete: true,
		lookBackStart: now - LOOK_BACK,
	});
	expectEqual(JSON.stringify(state), before);
	return result;
}

const EVENTS: TriggerEventName[] = ['newRecord', 'statusChanged', 'anyChange'];

describe('detectEvents against a reference model', () => {
	const historyArb = fc.record({
		withLastChange: fc.boolean(),
		initial: initialArb,
		polls: fc.array(
			fc.record({
				actions: fc.array(actionArb, { maxLength: 6 }),
				fails: fc.integer({ min: 0, max: 4 }).map((value) => value === 0),
				order: orderArb,
			}),
			{ minLength: 2, maxLength: 12 },
		),
	});

	test.each(EVENTS)(
		'%s: every poll emits exactly the differences from the last successful poll',
		(event) => {
			fc.assert(
				fc.property(configArb(event), historyArb, (config, history) => {
					const world = new World(history.withLastChange);
					for (const record of history.initial) world.add(T0 - record.back, 0, record.status);
					const model = new Map<string, Seen>();
					let stored: TriggerState | undefined;
					let activatedAt = T0;
					history.polls.forEach((poll: PollPlan, index) => {
						const now = T0 + index * INTERVAL;
						world.apply(poll.actions, index, now);
						const visible = world.visible(index, now);
						const result = detect(
							stored ?? initialState(config, now),
							config,
							visible,
							now,
							100_000,
							poll.order,
						);
						if (poll.fails) return; // the poll threw: its result is dropped, the state stays
						if (stored === undefined) activatedAt = now;
						const expected =
							stored === undefined ? [] : expectedEvents(config, model, visible, activatedAt);
						expectEqual(byId(result.events.map(summarize)), byId(expected));
						expectOldestFirst(result.events);
						remember(config, model, visible);
						expectStateMatches(result.state, visible, model);
						expectEqual(result.state.baselineDone, true);
						stored = result.state;
					});
				}),
				{ numRuns: 150 },
			);
		},
	);

	const drainArb = fc.record({
		withLastChange: fc.boolean(),
		initial: initialArb,
		maxEvents: fc.integer({ min: 1, max: 3 }),
		phases: fc.array(
			fc.record({
				actions: fc.array(actionArb, { minLength: 1, maxLength: 8 }),
				failures: fc.array(fc.boolean(), { maxLength: 4 }),
			}),
			{ minLength: 1, maxLength: 5 },
		),
	});

	test.each(EVENTS)(
		'%s: with a small Max Items per Poll, polls without further changes emit the differences once each, oldest first',
		(event) => {
			fc.assert(
				fc.property(configArb(event), drainArb, (config, history) => {
					const world = new World(history.withLastChange);
					for (const record of history.initial) world.add(T0 - record.back, 0, record.status);
					const first = world.visible(0, T0);
					const startingPoint = detect(
						initialState(config, T0),
						config,
						first,
						T0,
						history.maxEvents,
						1,
					);
					expect(startingPoint.events).toEqual([]);
					let state = startingPoint.state;
					const model = new Map<string, Seen>();
					remember(config, model, first);
					history.phases.forEach((phase, index) => {
						const poll = index + 1;
						const now = T0 + poll * INTERVAL;
						world.apply(phase.actions, poll, now);
						const visible = world.visible(poll, now);
						const expected = expectedEvents(config, model, visible, T0);
						const emitted: DetectedEvent[] = [];
						for (let attempt = 0; ; attempt++) {
							if (attempt > 200) throw new Error('the backlog never drains');
							const result = detect(
								state,
								config,
								visible,
								now,
								history.maxEvents,
								((attempt * 37) % 1_008) + 1,
							);
							if (phase.failures[attempt]) continue;
							state = result.state;
							if (result.events.length === 0) break;
							// A poll defers only what does not fit.
							expectEqual(
								result.events.length,
								Math.min(history.maxEvents, expected.length - emitted.length),
							);
							emitted.push(...result.events);
						}
						const summaries = emitted.map(summarize);
						expectEqual(new Set(summaries.map((summary) => summary.id)).size, summaries.length);
						expectEqual(byId(summaries), byId(expected));
						expectOldestFirst(emitted);
						remember(config, model, visible);
						expectStateMatches(state, visible, model);
					});
				}),
				{ numRuns: 120 },
			);
		},
	);
});
