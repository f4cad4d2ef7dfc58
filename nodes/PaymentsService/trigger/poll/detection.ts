import type { IDataObject } from 'n8n-workflow';

import { isoSeconds } from '../../codes/dates';
import { hasStatus, recordKey, type ReportingListDefinition } from '../../reporting/lists';
import type { TimeWindow } from '../../reporting/read/windows';
import { MemoryUpdate, nextKnownFrom, recall, rememberedCount, type TriggerState } from './memory';
import { lowerBound } from './plan';
import { READ_MARGIN_SECONDS, readToAt } from './ranges';
import type { EmittedEventType, Observation, PreviousObservation, TriggerConfig } from './types';

/**
 * The polling trigger's detection: what a record read says ({@link observe}), and what changed
 * since the last poll, what to emit and what to remember ({@link detectEvents}). Pure.
 *
 * The reporting lists filter by creation date and an exact status only (service rules §3.2), so
 * polls re-read the records created within the look-back and compare each with what this trigger
 * saw last. Each record is judged on its own, so the outcome does not depend on page order,
 * records moving between pages, or a poll reading only part of the look-back.
 */

const toSeconds = (value: unknown): number | null => {
	if (typeof value !== 'string' || value === '') return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
};

/**
 * Turns a record into an {@link Observation}; undefined when it lacks an id or a creation date
 * (such a record cannot be tracked).
 */
export function observe(
	list: ReportingListDefinition,
	record: IDataObject,
): Observation | undefined {
	const key = recordKey(list, record);
	const created = toSeconds(record[list.recordDateField]);
	if (key === undefined || created === null) return undefined;
	return {
		key,
		status: hasStatus(list) && typeof record.status === 'string' ? record.status : null,
		lastChange: list.hasLastChangeDate ? toSeconds(record.lastChangeDate) : null,
		created,
		record,
	};
}

/** An event found by {@link detectEvents}, with the item to emit. */
export interface DetectedEvent {
	observation: Observation;
	type: EmittedEventType;
	previousStatus: string | null;
	previousLastChange: number | null;
}

function eventFor(
	config: TriggerConfig,
	previous: PreviousObservation | undefined,
	observation: Observation,
	newRecordsCount: boolean,
): EmittedEventType | undefined {
	const event = config.event;
	if (!previous) {
		if (!newRecordsCount) return undefined;
		if (event.countsNewRecord(config)) return event.type;
		// Count New Records as Changes off: a record's creation is no event, a change after it is. Decided
		// from the record alone (lastChangeDate later than creationDate), not from the memory of the
		// poll that first saw it, which n8n does not save when that poll emits nothing.
		return event.type !== 'newRecord' &&
			observation.lastChange !== null &&
			observation.lastChange > observation.created
			? event.type
			: undefined;
	}
	return event.changed(previous, observation, config) ? event.type : undefined;
}

/**
 * Whether a record in `status` may be emitted for `config`: its current status is one the event
 * wants (To Status for Status Changed, the Status filter otherwise); none wanted passes all.
 * Used by the decisions below and by Fetch Test Event alike.
 */
export function matchesWantedStatus(config: TriggerConfig, status: string | null): boolean {
	const wanted = config.event.wantedStatuses(config);
	if (wanted.length === 0) return true;
	const current = status?.toUpperCase() ?? '';
	return wanted.some((value) => value.toUpperCase() === current);
}

/**
 * New Record with a Status: a record created since activation, reported once, when first seen in
 * that status. Records in other statuses are not remembered, so reaching the status later is a
 * the first time it is seen, whether the poll read every status or only the wanted ones.
 */
function isNewInStatus(config: TriggerConfig): boolean {
	const event = config.event;
	return event.type === 'newRecord' && event.wantedStatuses(config).length > 0;
}

/**
 * What the trigger knows of a record it does not remember one by one (bounded memory, below
 * `knownFrom`): its status is unknown. Every event takes it for a change (`left`), emitted with
 * `previousStatus` and `previousLastChangeDate` null.
 */
const UNKNOWN_PREVIOUS: PreviousObservation = { status: null, left: true, lastChange: null };

/**
 * A record below a bounded memory (./ranges.ts): created after its range was last read, it is
 * seen for the first time; with a `lastChangeDate` after that read, it changed since (its previous
 * status unknown); otherwise it is as it was. `undefined` range: never read, it joins the
 * starting point.
 */
function judgeByRange(
	state: TriggerState,
	config: TriggerConfig,
	observation: Observation,
	newInStatus: boolean,
): { type: EmittedEventType | undefined; previous: PreviousObservation | undefined } {
	const readTo = readToAt(state.ranges, observation.created);
	if (readTo === undefined) return { type: undefined, previous: undefined };
	if (observation.created > readTo) {
		const counts = newInStatus
			? observation.created > state.activatedAt
			: state.baselineDone || observation.created > state.activatedAt;
		return { type: eventFor(config, undefined, observation, counts), previous: undefined };
	}
	if (observation.lastChange === null || observation.lastChange <= readTo)
		return { type: undefined, previous: undefined };
	return {
		type: eventFor(config, UNKNOWN_PREVIOUS, observation, true),
		previous: UNKNOWN_PREVIOUS,
	};
}

/** The event one record raises against the state (undefined: none), and what the state remembers of it. */
function judge(
	state: TriggerState,
	config: TriggerConfig,
	observation: Observation,
	newInStatus: boolean,
) {
	const previous = recall(state, observation.key);
	if (
		!previous &&
		config.memory === 'bounded' &&
		state.knownFrom !== undefined &&
		observation.created < state.knownFrom
	) {
		const judged = judgeByRange(state, config, observation, newInStatus);
		return {
			type:
				judged.type && matchesWantedStatus(config, observation.status) ? judged.type : undefined,
			previous: judged.previous,
		};
	}
	// Until the look-back was read once, an unknown record may be part of the starting point; one
	// created after the activation second cannot be. Below `knownFrom` the memory is not complete
	// (records forgotten by a clock that jumped ahead, or never read under a shorter Look-Back): a
	// record first seen there joins the starting point.
	const remembers = state.knownFrom === undefined || observation.created >= state.knownFrom;
	const newRecordCounts =
		remembers &&
		(newInStatus
			? observation.created > state.activatedAt
			: state.baselineDone || observation.created > state.activatedAt);
	const type = eventFor(config, previous, observation, newRecordCounts);
	return {
		type: type && matchesWantedStatus(config, observation.status) ? type : undefined,
		previous,
	};
}

/**
 * Whether a record the trigger remembers changed status while its `lastChangeDate` stayed where it
 * was (service rules §3.4 assumes every change moves it): a bounded memory cannot see such changes.
 */
function statusMovedAlone(
	previous: PreviousObservation | undefined,
	observation: Observation,
): boolean {
	return (
		previous !== undefined &&
		!previous.left &&
		previous.status !== null &&
		observation.status !== null &&
		previous.status !== observation.status &&
		previous.lastChange !== null &&
		observation.lastChange !== null &&
		observation.lastChange <= previous.lastChange
	);
}

/**
 * Whether `observation` may be emitted by a poll starting from `state`: a reader keeps the whole
 * record only for those (the others need only their key, status and dates), so a poll over
 * hundreds of thousands of records holds little more than the state.
 */
export function mayEmit(
	state: TriggerState,
	config: TriggerConfig,
	observation: Observation,
): boolean {
	const newInStatus = isNewInStatus(config);
	if (newInStatus && !matchesWantedStatus(config, observation.status)) return false;
	return judge(state, config, observation, newInStatus).type !== undefined;
}

/** How a poll read, for {@link detectEvents}. Unix seconds. */
export interface DetectOptions {
	maxEvents: number;
	/** Whether the poll read every window it planned (then the starting point, if pending, is complete). */
	complete: boolean;
	lookBackStart: number;
	/** Windows this poll read whole; with `narrowed`, a remembered record missing from them left the wanted statuses. */
	readWindows?: TimeWindow[];
	/** Whether the poll asked the service for the wanted statuses only ({@link narrowedStatuses}). */
	narrowed?: boolean;
	/** Whether the poll read the whole look-back (then the memory is complete from `lookBackStart` on). */
	wholeLookBack?: boolean;
	/** The poll's time (host clock): the end of the look-back. Bounded memory only. */
	now?: number;
	/**
	 * The service's clock when the poll's reads began (its first answer's `Date`; the host clock
	 * when it sends none). Bounded memory only: what the reads are stamped with (./ranges.ts).
	 */
	serviceTime?: number;
}

/** What {@link detectEvents} found. */
export interface Detection {
	/** To emit now, oldest change first. */
	events: DetectedEvent[];
	/** To store afterwards. */
	state: TriggerState;
	/**
	 * A remembered record whose status changed while its `lastChangeDate` did not (bounded memory):
	 * from this poll on the memory is full (`fullMemorySince`).
	 */
	statusMovedAlone?: { key: string; from: string | null; to: string | null };
}

/**
 * Compares what a poll read with what the trigger saw last: `events` to emit now, oldest change
 * first, at most `maxEvents`; `state` to store afterwards. A record whose wanted event did not fit
 * under `maxEvents` keeps its old entry (and, below a bounded memory, its range its old `readTo`),
 * so the next poll emits it: nothing lost, nothing repeated. Records seen for the first time count
 * once the starting point is complete (and before, for records created after the activation);
 * other first-seen records join the starting point.
 * @param observations records read by this poll, each key once.
 */
export function detectEvents(
	state: TriggerState,
	config: TriggerConfig,
	observations: Observation[],
	options: DetectOptions,
): Detection {
	const { events, update, deferred, movedAlone } = decide(
		state,
		config,
		observations,
		options.maxEvents,
	);
	const memory = new MemoryUpdate(state, options.lookBackStart);
	for (const observation of update) memory.set(observation);
	if (options.narrowed && options.readWindows?.length) {
		// A remembered record that a whole read of its window did not list has left the wanted
		// statuses: remember that, so its return counts as a change.
		const listed = new Set(observations.map((observation) => observation.key));
		memory.markLeft(listed, options.readWindows);
	}
	let knownFrom = nextKnownFrom(
		state.knownFrom,
		memory.forgottenUpTo,
		options.lookBackStart,
		options.wholeLookBack === true,
	);
	// A starting point completed by a poll whose look-back no longer reaches the activation (the
	// clock jumped ahead, or n8n stayed down longer than the look-back) was never read: records
	// created up to the activation join it, should they be listed again, rather than count as new.
	if (!state.baselineDone && options.complete && options.lookBackStart > state.activatedAt)
		knownFrom = Math.max(knownFrom, state.activatedAt + 1);
	let ranges = state.ranges;
	const fullMemorySince =
		state.fullMemorySince ??
		(config.memory === 'bounded' && movedAlone ? (options.now ?? state.activatedAt) : undefined);
	if (config.memory === 'bounded') {
		const now = options.now ?? options.lookBackStart;
		const serviceTime = options.serviceTime ?? now;
		const windows = wholeWithout(options.readWindows ?? [], deferred);
		const bounded = memory.bound(
			state.ranges,
			knownFrom,
			{
				windows,
				counts: countsIn(windows, observations),
				readTo: serviceTime - READ_MARGIN_SECONDS,
				startedAt: serviceTime,
				stampUnread:
					!state.baselineDone && state.ranges.length === 0 && rememberedCount(state) === 0,
			},
			now,
			fullMemorySince === undefined ? config.maxRemembered : Number.POSITIVE_INFINITY,
		);
		ranges = bounded.ranges;
		knownFrom = bounded.knownFrom;
	}
	const next: TriggerState = {
		...state,
		baselineDone: state.baselineDone || options.complete,
		knownFrom,
		...memory.result(),
		ranges,
	};
	if (fullMemorySince !== undefined) next.fullMemorySince = fullMemorySince;
	return {
		events,
		state: next,
		...(movedAlone && state.fullMemorySince === undefined && config.memory === 'bounded'
			? { statusMovedAlone: movedAlone }
			: {}),
	};
}

/** `windows` without those holding the creation second of a record in `deferred`. */
function wholeWithout(windows: TimeWindow[], deferred: readonly Observation[]): TimeWindow[] {
	return windows.filter(
		(window) =>
			!deferred.some(
				(observation) => observation.created >= window.from && observation.created <= window.to,
			),
	);
}

/** How many of `observations` each window holds, by creation second. */
function countsIn(windows: TimeWindow[], observations: Observation[]): number[] {
	const created = Float64Array.from(observations, (observation) => observation.created).sort();
	return windows.map(
		(window) => lowerBound(created, window.to + 1) - lowerBound(created, window.from),
	);
}

/**
 * The events of `observations` to emit now, oldest change first, at most `maxEvents`; the
 * observations to remember (those without a wanted event, then those emitted now); those whose
 * event waits for the next poll; and the first remembered record whose status moved alone.
 */
function decide(
	state: TriggerState,
	config: TriggerConfig,
	observations: Observation[],
	maxEvents: number,
): {
	events: DetectedEvent[];
	update: Iterable<Observation>;
	deferred: Observation[];
	movedAlone?: { key: string; from: string | null; to: string | null };
} {
	const newInStatus = isNewInStatus(config);
	const considered = newInStatus
		? observations.filter((observation) => matchesWantedStatus(config, observation.status))
		: observations;
	const wanted: DetectedEvent[] = [];
	const update = new Map<string, Observation>();
	let movedAlone: { key: string; from: string | null; to: string | null } | undefined;
	for (const observation of considered) {
		const judged = judge(state, config, observation, newInStatus);
		if (!movedAlone && statusMovedAlone(judged.previous, observation))
			movedAlone = {
				key: observation.key,
				from: judged.previous?.status ?? null,
				to: observation.status,
			};
		if (judged.type) {
			wanted.push({
				observation,
				type: judged.type,
				previousStatus: judged.previous?.status ?? null,
				previousLastChange: judged.previous?.lastChange ?? null,
			});
		} else {
			update.set(observation.key, observation);
		}
	}
	const when = (event: DetectedEvent) => event.observation.lastChange ?? event.observation.created;
	wanted.sort(
		(a, b) =>
			when(a) - when(b) ||
			(a.observation.key < b.observation.key ? -1 : a.observation.key > b.observation.key ? 1 : 0),
	);
	const cut = Math.max(0, maxEvents);
	const events = wanted.slice(0, cut);
	for (const event of events) update.set(event.observation.key, event.observation);
	const deferred = wanted.slice(cut).map((event) => event.observation);
	return { events, update: update.values(), deferred, movedAlone };
}

const isoSecondsOrNull = (seconds: number | null) =>
	seconds === null ? null : isoSeconds(seconds);

/**
 * The item emitted for an event: the record as the service sent it plus an `event` object
 * `{type, previousStatus, previousLastChangeDate, detectedAt}` (dates as ISO 8601 UTC strings).
 */
export function eventItem(event: DetectedEvent, detectedAt: number): IDataObject {
	return {
		...event.observation.record,
		event: {
			type: event.type,
			previousStatus: event.previousStatus,
			previousLastChangeDate: isoSecondsOrNull(event.previousLastChange),
			detectedAt: isoSecondsOrNull(detectedAt),
		},
	};
}
