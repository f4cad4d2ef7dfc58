import type { IDataObject } from 'n8n-workflow';

import { triggerEvent, type PreviousSighting } from './events';
import type { EmittedEventType, Observation, TriggerConfig } from './types';

export type { EmittedEventType, Observation, TriggerConfig, TriggerEventName } from './types';
import {
	hasStatus,
	recordKey,
	REPORTING_LISTS,
	type ReportingListDefinition,
} from '../../reporting/lists';
import { MAX_WINDOW_SECONDS, SECONDS_PER_DAY } from '../../codes/constants';
import { splitIntoWindows, type TimeWindow } from '../../reporting/windows';
import { isoSeconds } from '../../codes/dates';

/**
 * The polling trigger's memory and its pure decisions: what changed since the last poll, what to
 * emit, what to remember. Nothing here sends requests or reads parameters; the trigger node does.
 *
 * The reporting lists filter by creation date and an exact status only (service rules §3.2), so
 * polls re-read the records created within the look-back (in the wanted statuses when the poll may
 * ask for them, older records in turn; see {@link planPoll}) and compare each with what this
 * trigger saw last. Each record is judged on its own, so the outcome does not depend on page order,
 * records moving between pages, or a poll reading only part of the look-back.
 */

/**
 * What the trigger remembers of one record: [status, lastChangeDate in Unix seconds or null (the
 * record has none), creation date in Unix seconds]. `status` is an index in `statuses` (0 or more),
 * {@link NO_STATUS} (the record has none) or {@link LEFT} (it left the statuses a narrowed read asks
 * for). No marker is a value a record can bring. About 30 bytes of JSON per record.
 */
export type SeenEntry = [number, number | null, number];

/** {@link SeenEntry} status: the record carries no status. */
export const NO_STATUS = -1;

/**
 * {@link SeenEntry} status of a record that left the statuses a narrowed read asks for: it is no
 * longer listed, so its current status is unknown, but not the one remembered. Emitted as
 * `previousStatus: null`.
 */
export const LEFT = -2;

/** The current format of {@link TriggerState}; states of format 1 are migrated on load. */
export const STATE_FORMAT = 2;

/** The trigger's state in the node's workflow static data. */
export interface TriggerState {
	/** Format version ({@link STATE_FORMAT}). */
	v: typeof STATE_FORMAT;
	/** {@link configKey} of the configuration this state belongs to. */
	config: string;
	/** When the starting point was taken (Unix seconds). */
	activatedAt: number;
	/**
	 * True once the whole look-back was read at least once; until then only records created after
	 * `activatedAt` can be new (the others may belong to the starting point).
	 */
	baselineDone: boolean;
	/** Creation time (Unix seconds) the next poll starts reading from, after a poll cut short. */
	resumeFrom?: number;
	/** Window span in seconds (shrinks when a single window cannot be read within the poll budget). */
	windowSeconds: number;
	/**
	 * Re-reading older records in turn (see {@link planPoll}): the creation time (Unix seconds) the
	 * next slice of older records starts from, going back; absent: from the newest older record.
	 */
	sweepFrom?: number;
	/** Time (Unix seconds) up to which the older records' re-reading is done. */
	sweepClock?: number;
	/**
	 * Time (Unix seconds, the host's clock) of the last poll that succeeded; absent before the first.
	 * A later poll whose clock shows an earlier time knows the host clock moved back.
	 */
	polledAt?: number;
	/**
	 * Lowest creation time (Unix seconds) from which `seen` holds every record the trigger read:
	 * records created earlier were forgotten (they left the look-back) or never read (a longer
	 * Look-Back). A record first seen below it joins the starting point instead of counting as new,
	 * so a clock that jumped ahead and back, or a Look-Back made longer, re-emits nothing. Absent:
	 * no limit (a state from before this field).
	 */
	knownFrom?: number;
	/** Status dictionary for {@link SeenEntry}. */
	statuses: string[];
	/** Records created within the look-back, by key. */
	seen: Record<string, SeenEntry>;
}

/**
 * Most remembered records one window of a poll should hold: 20 pages of 50 (service rules §3.1), so
 * a window costs at most 21 requests and the windows of a busy look-back can be read side by side.
 */
export const TARGET_RECORDS_PER_WINDOW = 1_000;

/** Smallest window the trigger narrows to when polls keep running out of time: one hour. */
export const MIN_TRIGGER_WINDOW_SECONDS = 3_600;

/** A stable text of the configuration: equal configurations give equal keys. */
export function configKey(config: TriggerConfig): string {
	const sortedFilters = Object.keys(config.filters)
		.sort()
		.filter((name) => config.filters[name] !== '' && config.filters[name] !== undefined)
		.map((name) => [name, config.filters[name]]);
	return JSON.stringify([
		config.resource,
		config.event,
		sortedFilters,
		[...config.toStatuses].sort(),
		config.status,
		config.lookBackSeconds,
		config.includeFirstSightings,
	]);
}

/** A fresh state for `config`, taken at `now` (Unix seconds): nothing seen, baseline to read. */
export function initialState(config: TriggerConfig, now: number): TriggerState {
	return {
		v: STATE_FORMAT,
		config: configKey(config),
		activatedAt: now,
		baselineDone: false,
		windowSeconds: MAX_WINDOW_SECONDS,
		statuses: [],
		seen: {},
	};
}

/**
 * A stored state, well formed, whatever its configuration, in the current format (a state of
 * format 1 is migrated, see {@link migrateFormat1}); undefined otherwise.
 */
function wellFormedState(stored: unknown): TriggerState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	let state = stored as Omit<Partial<TriggerState>, 'v'> & { v?: unknown; packed?: unknown };
	if (state.v !== 1 && state.v !== STATE_FORMAT) return undefined;
	if (typeof state.config !== 'string' || !Array.isArray(state.statuses)) return undefined;
	if (typeof state.packed === 'string' && state.seen === undefined) {
		const seen =
			state.v === 1
				? unpackFormat1(state.packed, state.config, state.statuses)
				: unpackSeen(state.packed);
		if (!seen) return undefined;
		state = { ...state, seen };
		delete state.packed;
	}
	// A malformed state would fail every poll; starting over is the way out.
	const wellFormed =
		typeof state.activatedAt === 'number' &&
		typeof state.baselineDone === 'boolean' &&
		typeof state.windowSeconds === 'number' &&
		Number.isFinite(state.windowSeconds) &&
		state.windowSeconds > 0 &&
		(state.resumeFrom === undefined || typeof state.resumeFrom === 'number') &&
		(state.sweepFrom === undefined || typeof state.sweepFrom === 'number') &&
		(state.sweepClock === undefined || typeof state.sweepClock === 'number') &&
		(state.polledAt === undefined || typeof state.polledAt === 'number') &&
		(state.knownFrom === undefined || typeof state.knownFrom === 'number') &&
		state.seen !== null &&
		typeof state.seen === 'object' &&
		!Array.isArray(state.seen);
	if (!wellFormed) return undefined;
	return state.v === 1 ? migrateFormat1(state as FormatOneState) : (state as TriggerState);
}

/*
 * The packed format (format 2). Every number is written in base 36 (`-?[0-9a-z]+`); a marker is a
 * character outside that alphabet, so no value can read as a marker (format 1 used `n` and `x`,
 * which are the base-36 digits for 23 and 33).
 */
/** `change` field: the record has no lastChangeDate. */
const PACKED_NO_CHANGE = '_';
/** `status` field: the record has no status ({@link NO_STATUS}). */
const PACKED_NO_STATUS = '_';
/** `status` field: the record left the statuses a narrowed read asks for ({@link LEFT}). */
const PACKED_LEFT = '~';
const BASE36 = '-?[0-9a-z]+';
const PACKED_ENTRY = `${BASE36}(?:\\.(?:${BASE36})?(?:\\.(?:${BASE36}|_)?(?:\\.(?:${BASE36}|_|~)?)?)?)?`;
/** A well-formed packed string, checked once: then every field is a number or its marker. */
const PACKED_FORMAT = new RegExp(`^(?:${PACKED_ENTRY}(?:,${PACKED_ENTRY})*)?$`);
const CANONICAL_ID = /^(0|[1-9][0-9]{0,14})$/;

/** Whether `entry` can be packed: whole seconds and a status the format has a field for. */
const packable = (entry: SeenEntry): boolean =>
	Number.isSafeInteger(entry[0]) &&
	entry[0] >= LEFT &&
	Number.isSafeInteger(entry[2]) &&
	(entry[1] === null ||
		(Number.isSafeInteger(entry[1]) && Number.isSafeInteger(entry[1] - entry[2])));

/**
 * The state as stored in static data (service rules §3.4 for the dates). With numeric record ids
 * (every list the trigger watches), `seen` is stored as one string `packed`: entries sorted by
 * creation time, each `idDelta.createdDelta.change.status`, joined by `,`:
 * - `idDelta`, `createdDelta`: the id and the creation time (Unix seconds) minus the entry before's,
 *   in base 36;
 * - `change`: lastChangeDate minus creation date in base 36 (any sign); empty when equal; `_` when
 *   the record has no lastChangeDate;
 * - `status`: the index in `statuses` in base 36, empty for 0; `_` for no status, `~` for a record
 *   that left a narrowed read;
 * - trailing empty fields left out.
 * An unchanged record costs about 5 bytes instead of about 38, so a look-back of 140,000 records
 * stays near 0.7 MB. Other ids (or values that are not whole seconds) keep the plain `seen` object.
 * Read back by {@link loadState}.
 */
export function packState(state: TriggerState): IDataObject {
	const entries: Array<readonly [number, SeenEntry]> = [];
	for (const key in state.seen) {
		const entry = state.seen[key];
		if (!CANONICAL_ID.test(key) || !packable(entry)) return state as unknown as IDataObject;
		entries.push([Number(key), entry]);
	}
	entries.sort((a, b) => a[1][2] - b[1][2] || a[0] - b[0]);
	const parts: string[] = new Array<string>(entries.length);
	let previousId = 0;
	let previousCreated = 0;
	for (let index = 0; index < entries.length; index++) {
		const [id, [status, lastChange, created]] = entries[index];
		const fields = [
			(id - previousId).toString(36),
			(created - previousCreated).toString(36),
			lastChange === null
				? PACKED_NO_CHANGE
				: lastChange === created
					? ''
					: (lastChange - created).toString(36),
			status === 0
				? ''
				: status === NO_STATUS
					? PACKED_NO_STATUS
					: status === LEFT
						? PACKED_LEFT
						: status.toString(36),
		];
		while (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
		parts[index] = fields.join('.');
		previousId = id;
		previousCreated = created;
	}
	const stored: IDataObject = { ...state, packed: parts.join(',') };
	delete stored.seen;
	return stored;
}

/** The `seen` map of a {@link packState} string; undefined when the string is damaged. */
function unpackSeen(packed: string): Record<string, SeenEntry> | undefined {
	const seen: Record<string, SeenEntry> = {};
	if (!PACKED_FORMAT.test(packed)) return undefined;
	if (packed === '') return seen;
	const base36 = (text: string) => parseInt(text, 36);
	let id = 0;
	let created = 0;
	for (const entry of packed.split(',')) {
		const [idDelta, createdDelta = '', change = '', status = ''] = entry.split('.');
		id += base36(idDelta);
		created += createdDelta === '' ? 0 : base36(createdDelta);
		const lastChange =
			change === PACKED_NO_CHANGE ? null : change === '' ? created : created + base36(change);
		const statusIndex =
			status === ''
				? 0
				: status === PACKED_NO_STATUS
					? NO_STATUS
					: status === PACKED_LEFT
						? LEFT
						: base36(status);
		if (![id, created, lastChange ?? 0, statusIndex].every(Number.isSafeInteger)) return undefined;
		// A numeric status is an index (0 or more); only the markers stand for the others.
		if (statusIndex < 0 && status !== PACKED_NO_STATUS && status !== PACKED_LEFT) return undefined;
		seen[String(id)] = [statusIndex, lastChange, created];
	}
	return seen;
}

/** A stored state of format 1: `v: 1`, `seen` entries with 0 for "no lastChangeDate". */
type FormatOneState = Omit<TriggerState, 'v'> & { v: 1 };

/** Format 1's status remembered for a record that left a narrowed read (a string in `statuses`). */
const FORMAT1_LEFT_STATUS = '~left';

/**
 * The `seen` map of a format-1 packed string, each marker read the way it was meant. Format 1
 * wrote `n` for "no lastChangeDate" and also for a lastChangeDate 23 s after creation (23 in base
 * 36), and `x` for "no status" and also for status index 33:
 * - `n` is 23 s for a list whose records carry lastChangeDate (deposits, cashouts, refunds,
 *   chargebacks: a record of those without one is all but unknown, and if it was one, the next poll
 *   reads no lastChangeDate, which no event takes for a change), and "none" for the others;
 * - `x` is index 33 when the list has statuses and `statuses` has an index 33, and "none" otherwise.
 * Undefined when the string is damaged.
 */
function unpackFormat1(
	packed: string,
	config: string,
	statuses: unknown[],
): Record<string, SeenEntry> | undefined {
	const list = listOfConfig(config);
	const nMeans23 = list?.hasLastChangeDate ?? false;
	const xMeans33 = list !== undefined && hasStatus(list) && statuses.length > 33;
	const seen: Record<string, SeenEntry> = {};
	if (packed === '') return seen;
	let id = 0;
	let created = 0;
	for (const entry of packed.split(',')) {
		const [idDelta, createdDelta = '', change = '', status = ''] = entry.split('.');
		id += parseInt(idDelta, 36);
		created += createdDelta === '' ? 0 : parseInt(createdDelta, 36);
		const lastChange =
			change === 'n'
				? nMeans23
					? created + 23
					: null
				: change === ''
					? created
					: created + parseInt(change, 36);
		const statusIndex =
			status === '' ? 0 : status === 'x' ? (xMeans33 ? 33 : NO_STATUS) : parseInt(status, 36);
		if (![id, created, lastChange ?? 0, statusIndex].every(Number.isFinite)) return undefined;
		seen[String(id)] = [statusIndex, lastChange, created];
	}
	return seen;
}

/** The list a {@link configKey} watches; undefined for a key that is not one. */
function listOfConfig(key: string): ReportingListDefinition | undefined {
	try {
		const parts = JSON.parse(key) as unknown[];
		const resource = Array.isArray(parts) ? parts[0] : undefined;
		return typeof resource === 'string' &&
			Object.prototype.hasOwnProperty.call(REPORTING_LISTS, resource)
			? REPORTING_LISTS[resource as keyof typeof REPORTING_LISTS]
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * A format-1 state in format 2: lastChangeDate 0 or below (format 1 read those as "none") becomes
 * null, and the status `~left` in `statuses` becomes {@link LEFT} (a service status spelled `~left`
 * could not be told from it). Unpacked entries are already in format 2 (see {@link unpackFormat1}).
 */
function migrateFormat1(state: FormatOneState): TriggerState {
	const left = state.statuses.indexOf(FORMAT1_LEFT_STATUS);
	const statuses = state.statuses.filter((status) => status !== FORMAT1_LEFT_STATUS);
	const remap = (index: number) =>
		index === left && left >= 0 ? LEFT : left >= 0 && index > left ? index - 1 : index;
	const seen: Record<string, SeenEntry> = {};
	for (const [key, entry] of Object.entries(state.seen)) {
		const lastChange = entry[1] === null || entry[1] <= 0 ? null : entry[1];
		seen[key] = [remap(entry[0]), lastChange, entry[2]];
	}
	return { ...state, v: STATE_FORMAT, statuses, seen };
}

/** The records a stored state remembers, by key, packed or not; undefined for no readable state. */
export function storedSeen(stored: unknown): Record<string, SeenEntry> | undefined {
	return wellFormedState(stored)?.seen;
}

/** Reads a stored state; undefined when absent, malformed, of another version or another config. */
export function loadTriggerState(stored: unknown, config: TriggerConfig): TriggerState | undefined {
	const state = wellFormedState(stored);
	return state && state.config === configKey(config) ? state : undefined;
}

/**
 * The part of {@link configKey} that decides which records the list holds (resource and service
 * filters): two configurations with the same record set can share the memory of those records.
 */
function recordSetOf(key: string): string | undefined {
	try {
		const parts = JSON.parse(key) as unknown[];
		return Array.isArray(parts) ? JSON.stringify([parts[0], parts[2]]) : undefined;
	} catch {
		return undefined;
	}
}

/** A line for the node's log: what the trigger did that the user would otherwise not see. */
export interface StateNote {
	level: 'info' | 'warn';
	message: string;
	metadata: IDataObject;
}

const iso = isoSeconds;

/**
 * The state a poll starts from, and what to log about it (README, "Payments Service Trigger (polling)").
 *
 * - The stored state of this configuration: used as is. A host clock earlier than the last poll's
 *   is logged (warn), and a look-back reaching below the memory (`knownFrom`) is logged (info):
 *   records first seen there join the starting point, so nothing already emitted is emitted again.
 * - A stored state of the same record set (resource and filters) under other settings (event, To
 *   Status, Status, Look-Back, Include First Sightings): the memory of each record is kept, so a
 *   change pending at the edit is emitted under the new settings; records it never saw and that
 *   were created before the last poll join a new starting point (logged, info).
 * - Otherwise (nothing stored, another record set, a malformed or older state): a new starting
 *   point; when something was stored, a warning says how many records were forgotten and since
 *   when changes to them go unreported.
 *
 * @param now the poll's time, Unix seconds. @param lookBackStart now minus the look-back, Unix seconds.
 */
export function loadState(
	stored: unknown,
	config: TriggerConfig,
	now: number,
	lookBackStart: number,
): { state: TriggerState; notes: StateNote[] } {
	const notes: StateNote[] = [];
	const previous = wellFormedState(stored);
	const key = configKey(config);
	if (previous && previous.polledAt !== undefined && now < previous.polledAt) {
		notes.push({
			level: 'warn',
			message: `The host clock moved back by ${previous.polledAt - now} s since the last poll (${iso(previous.polledAt)}, now ${iso(now)}); events already emitted are not emitted again`,
			metadata: {
				clockMovedBackSeconds: previous.polledAt - now,
				lastPollAt: iso(previous.polledAt),
			},
		});
	}
	if (previous && previous.config === key) {
		if (previous.knownFrom !== undefined && lookBackStart < previous.knownFrom) {
			notes.push({
				level: 'info',
				message: `Records created ${iso(lookBackStart)} – ${iso(previous.knownFrom - 1)} are not in the trigger's memory (the clock moved, or the look-back grew); they join the starting point, and changes to them before this poll are not reported`,
				metadata: {
					startingPointFrom: iso(lookBackStart),
					startingPointTo: iso(previous.knownFrom - 1),
				},
			});
		}
		return { state: previous, notes };
	}
	const fresh = initialState(config, now);
	if (
		previous &&
		recordSetOf(previous.config) !== undefined &&
		recordSetOf(previous.config) === recordSetOf(key)
	) {
		// Same records, other settings: keep what was seen of each record. A record remembered as
		// having left a narrowed read has no known status: forget it (it joins the starting point).
		const seen: Record<string, SeenEntry> = {};
		for (const [id, entry] of Object.entries(previous.seen))
			if (entry[0] !== LEFT) seen[id] = [entry[0], entry[1], entry[2]];
		const since = Math.min(now, previous.polledAt ?? previous.activatedAt);
		notes.push({
			level: 'info',
			message: `The trigger's settings changed: the memory of ${Object.keys(seen).length} records is kept, so changes made since the last poll (${iso(since)}) are emitted under the new settings; records it never saw that were created before then join the starting point`,
			metadata: { keptRecords: Object.keys(seen).length, lastPollAt: iso(since) },
		});
		return {
			state: {
				...fresh,
				activatedAt: since,
				statuses: [...previous.statuses],
				seen,
				windowSeconds: previous.windowSeconds,
				polledAt: previous.polledAt,
				knownFrom: previous.knownFrom ?? Math.min(now, previous.polledAt ?? previous.activatedAt),
			},
			notes,
		};
	}
	if (stored && typeof stored === 'object' && Object.keys(stored).length > 0) {
		const dropped = previous ? Object.keys(previous.seen).length : 0;
		const since = previous ? (previous.polledAt ?? previous.activatedAt) : undefined;
		notes.push({
			level: 'warn',
			message: previous
				? `The trigger starts over: it now watches other records (resource or filters changed), so the memory of ${dropped} records is dropped; changes made since the last poll (${iso(since!)}) to records already created are not reported`
				: 'The trigger starts over: its stored state is unreadable (from another version, or damaged); changes made since its last poll to records already created are not reported',
			metadata: { droppedRecords: dropped, lastPollAt: since === undefined ? null : iso(since) },
		});
	}
	return { state: fresh, notes };
}

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

/**
 * The windows one poll reads, in order: from `resumeFrom` (when a previous poll was cut short) up
 * to `now`, then from the start of the look-back up to `resumeFrom`; each range oldest first, in
 * windows of at most `state.windowSeconds`. Without `resumeFrom` this is simply the look-back.
 */
export function planWindows(state: TriggerState, lookBackStart: number, now: number): TimeWindow[] {
	const span = Math.max(
		MIN_TRIGGER_WINDOW_SECONDS,
		Math.min(state.windowSeconds, MAX_WINDOW_SECONDS),
	);
	const resume = state.resumeFrom;
	if (resume === undefined || resume <= lookBackStart || resume > now)
		return splitIntoWindows(lookBackStart, now, span);
	return [
		...splitIntoWindows(resume, now, span),
		...splitIntoWindows(lookBackStart, resume - 1, span),
	];
}

/**
 * The statuses to ask the service for, so a poll reads only the records that can raise an event
 * (service rules §3.3: the status filter is an exact match); undefined to read every record.
 *
 * Narrowing applies when the event wants statuses (Status Changed with To Status; New Record or Any
 * Change with a Status filter) and stays exact:
 * - every wanted status must be one the list's filter accepts (a record-only status such as
 *   CREATED cannot be asked for);
 * - Status Changed and Any Change need Include First Sightings: a record entering a wanted status
 *   is new to a narrowed read, so only counting first sightings reports it.
 * A narrowed read never sees the status a record left, so `previousStatus` is null when the trigger
 * never saw the record in another status.
 */
export function narrowedStatuses(
	config: TriggerConfig,
	list: ReportingListDefinition,
): string[] | undefined {
	const event = triggerEvent(config.event);
	const wanted = [...new Set(event.wantedStatuses(config).map((status) => status.toUpperCase()))];
	if (wanted.length === 0 || !list.statusParam) return undefined;
	if (!wanted.every((status) => list.filterStatuses.includes(status))) return undefined;
	if (event.type !== 'newRecord' && !config.includeFirstSightings) return undefined;
	return wanted.sort();
}

/** What one poll reads. */
export interface PollPlan {
	/** Windows to read, in order; each holds every record it covers once read whole. */
	windows: TimeWindow[];
	/**
	 * Re-reading in turn: how many of `windows`, at the end, are the slice of older records, and
	 * where that slice reaches (`lowest`, Unix seconds). Absent when the poll reads the whole look-back.
	 */
	slice?: { count: number; lowest: number; top: number };
}

/**
 * The windows one poll reads (service rules §3.2).
 *
 * Until the starting point is complete, after a poll cut short, or when `rereadSeconds` is 0 or
 * not shorter than the look-back: the whole look-back ({@link planWindows}).
 *
 * Otherwise in turn: every record created within the last `rereadSeconds` (the recent records,
 * which change most), then the next slice of older records, going back from the newest older
 * record to the start of the look-back and round again. A slice covers the older records in
 * proportion to the time since the last slice, so each older record is re-read at least once every
 * `rereadSeconds` plus one poll interval; read newest first, so a slice cut short by the poll budget
 * still moves on.
 */
export function planPoll(
	state: TriggerState,
	config: TriggerConfig,
	lookBackStart: number,
	now: number,
): PollPlan {
	const period = config.rereadSeconds;
	const olderEnd = now - period;
	const created = creationTimes(state);
	const refine = (windows: TimeWindow[]) =>
		splitByDensity(windows, created, TARGET_RECORDS_PER_WINDOW);
	const belowMemory = state.knownFrom !== undefined && lookBackStart < state.knownFrom;
	if (
		!state.baselineDone ||
		belowMemory ||
		state.resumeFrom !== undefined ||
		period <= 0 ||
		olderEnd <= lookBackStart
	) {
		return { windows: refine(planWindows(state, lookBackStart, now)) };
	}
	const span = Math.max(
		MIN_TRIGGER_WINDOW_SECONDS,
		Math.min(state.windowSeconds, MAX_WINDOW_SECONDS),
	);
	const recent = refine(splitIntoWindows(olderEnd + 1, now, span));
	const olderLength = olderEnd - lookBackStart + 1;
	const elapsed = Math.min(period, Math.max(0, now - (state.sweepClock ?? now - period)));
	const sliceLength = Math.min(olderLength, Math.ceil((olderLength * elapsed) / period));
	if (sliceLength <= 0) return { windows: recent };
	const top =
		state.sweepFrom !== undefined && state.sweepFrom >= lookBackStart && state.sweepFrom <= olderEnd
			? state.sweepFrom
			: olderEnd;
	const lowest = Math.max(lookBackStart, top - sliceLength + 1);
	const slice = refine(splitIntoWindows(lowest, top, span)).reverse();
	return { windows: [...recent, ...slice], slice: { count: slice.length, lowest, top } };
}

/** The creation times (Unix seconds) of the records the state remembers, ascending. */
function creationTimes(state: TriggerState): Float64Array {
	const times = new Float64Array(Object.keys(state.seen).length);
	let index = 0;
	for (const key in state.seen) times[index++] = state.seen[key][2];
	return times.sort();
}

/** Index of the first value in `sorted` that is at least `value`. */
function lowerBound(sorted: Float64Array, value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (sorted[middle] < value) low = middle + 1;
		else high = middle;
	}
	return low;
}

/**
 * Splits each window, in order, into consecutive windows holding at most `target` of the creation
 * times in `created` (ascending Unix seconds): the windows follow the density of the records, a
 * busy hour cut finer than a quiet day. Every second of a window stays in exactly one of its parts;
 * more than `target` records created in one second stay in one one-second window. A window with
 * `target` records or fewer is kept whole, so a quiet look-back costs no extra request.
 */
export function splitByDensity(
	windows: TimeWindow[],
	created: Float64Array,
	target: number,
): TimeWindow[] {
	const result: TimeWindow[] = [];
	for (const window of windows) {
		let from = window.from;
		let index = lowerBound(created, from);
		const end = lowerBound(created, window.to + 1);
		while (end - index > target) {
			// The first record that does not fit starts the next part (later than `from`, so each part has a second).
			const cut = Math.max(from + 1, created[index + target]);
			if (cut > window.to) break;
			result.push({ from, to: cut - 1 });
			from = cut;
			index = lowerBound(created, from);
		}
		result.push({ from, to: window.to });
	}
	return result;
}

/**
 * Where the next poll continues after this one read the first `windowsRead` windows of `plan`
 * (see {@link planPoll}; a whole-look-back plan moves on as {@link advanceReadPosition}).
 * A slice of older records read whole moves the re-reading on to just below it (round to the
 * newest older record after the start of the look-back); read in part, it moves on below the last
 * window read, and the time it accounts for in proportion.
 */
export function advanceAfterPoll(
	state: TriggerState,
	plan: PollPlan,
	windowsRead: number,
	now: number,
): TriggerState {
	if (!plan.slice) {
		const next = advanceReadPosition(state, plan.windows, windowsRead);
		// A whole look-back read also counts as a round of re-reading.
		return windowsRead >= plan.windows.length
			? { ...next, sweepClock: now, sweepFrom: undefined }
			: next;
	}
	const recentCount = plan.windows.length - plan.slice.count;
	if (windowsRead < recentCount) {
		const windowSeconds =
			windowsRead === 0 ? narrowedSpan(state.windowSeconds) : state.windowSeconds;
		return { ...state, windowSeconds };
	}
	const sliceRead = windowsRead - recentCount;
	const clock = state.sweepClock ?? now;
	if (sliceRead === 0) return state;
	const lastRead = plan.windows[recentCount + sliceRead - 1];
	const share = (plan.slice.top - lastRead.from + 1) / (plan.slice.top - plan.slice.lowest + 1);
	// Below the start of the look-back, the next slice starts round again at the newest older record.
	return {
		...state,
		sweepClock: sliceRead === plan.slice.count ? now : Math.round(clock + (now - clock) * share),
		sweepFrom: lastRead.from - 1,
		windowSeconds: Math.min(MAX_WINDOW_SECONDS, state.windowSeconds * 2),
	};
}

/** An event found by {@link detectEvents}, with the item to emit. */
export interface DetectedEvent {
	observation: Observation;
	type: EmittedEventType;
	previousStatus: string | null;
	previousLastChange: number | null;
}

/** What `entry` says of a record, in the events' terms (see {@link PreviousSighting}). */
function decode(state: TriggerState, entry: SeenEntry | undefined): PreviousSighting | undefined {
	if (!entry) return undefined;
	return {
		status: entry[0] >= 0 ? (state.statuses[entry[0]] ?? null) : null,
		left: entry[0] === LEFT,
		lastChange: entry[1],
	};
}

function eventFor(
	config: TriggerConfig,
	previous: PreviousSighting | undefined,
	observation: Observation,
	firstSightingsCount: boolean,
): EmittedEventType | undefined {
	const event = triggerEvent(config.event);
	if (!previous) {
		if (!firstSightingsCount) return undefined;
		if (event.countsFirstSighting(config)) return event.type;
		// Include First Sightings off: a record's creation is no event, a change after it is. Decided
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
	const wanted = triggerEvent(config.event).wantedStatuses(config);
	if (wanted.length === 0) return true;
	const current = status?.toUpperCase() ?? '';
	return wanted.some((value) => value.toUpperCase() === current);
}

/**
 * New Record with a Status: a record created since activation, reported once, when first seen in
 * that status. Records in other statuses are not remembered, so reaching the status later is a
 * first sighting, whether the poll read every status or only the wanted ones.
 */
function isNewInStatus(config: TriggerConfig): boolean {
	const event = triggerEvent(config.event);
	return event.type === 'newRecord' && event.wantedStatuses(config).length > 0;
}

/** The event one record raises against the state (undefined: none), and what the state remembers of it. */
function judge(
	state: TriggerState,
	config: TriggerConfig,
	observation: Observation,
	newInStatus: boolean,
) {
	const previous = decode(state, state.seen[observation.key]);
	// Until the look-back was read once, an unknown record may be part of the starting point; one
	// created after the activation second cannot be. Below `knownFrom` the memory is not complete
	// (records forgotten by a clock that jumped ahead, or never read under a shorter Look-Back): a
	// record first seen there joins the starting point.
	const remembers = state.knownFrom === undefined || observation.created >= state.knownFrom;
	const firstSightingCounts =
		remembers &&
		(newInStatus
			? observation.created > state.activatedAt
			: state.baselineDone || observation.created > state.activatedAt);
	const type = eventFor(config, previous, observation, firstSightingCounts);
	return {
		type: type && matchesWantedStatus(config, observation.status) ? type : undefined,
		previous,
	};
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

/**
 * Compares what a poll read with what the trigger saw last, and decides.
 *
 * - `events`: what to emit now, oldest change first, at most `maxEvents`.
 * - `state`: the state to store afterwards. A record's entry is updated when it had no event, when
 *   its event was filtered out (the change is seen, not wanted), or when its event is emitted now.
 *   A record whose wanted event did not fit under `maxEvents` keeps its old entry (or none), so the
 *   next poll finds the same difference and emits it then: nothing is lost, nothing repeated.
 *
 * First sightings count (as New Record, or as a change when `includeFirstSightings`) once the
 * baseline is done, and before that for records created after the activation second; other
 * records first seen while the baseline is still being read are taken as the starting point.
 *
 * @param observations records read by this poll, each key once.
 * @param complete whether the poll read every window it planned (then the baseline, if pending, is done).
 */
export function detectEvents(
	state: TriggerState,
	config: TriggerConfig,
	observations: Observation[],
	options: {
		maxEvents: number;
		complete: boolean;
		lookBackStart: number;
		/** Windows this poll read whole; with `narrowed`, a remembered record missing from them left the wanted statuses. */
		readWindows?: TimeWindow[];
		/** Whether the poll asked the service for the wanted statuses only ({@link narrowedStatuses}). */
		narrowed?: boolean;
		/** Whether the poll read the whole look-back (then the memory is complete from `lookBackStart` on). */
		wholeLookBack?: boolean;
	},
): { events: DetectedEvent[]; state: TriggerState } {
	const newInStatus = isNewInStatus(config);
	const considered = newInStatus
		? observations.filter((observation) => matchesWantedStatus(config, observation.status))
		: observations;
	const wanted: DetectedEvent[] = [];
	const update = new Map<string, Observation>();
	for (const observation of considered) {
		const judged = judge(state, config, observation, newInStatus);
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
	const events = wanted.slice(0, Math.max(0, options.maxEvents));
	for (const event of events) update.set(event.observation.key, event.observation);

	const statuses = [...state.statuses];
	const statusIndex = (status: string | null) => {
		if (status === null) return NO_STATUS;
		let index = statuses.indexOf(status);
		if (index < 0) index = statuses.push(status) - 1;
		return index;
	};
	const seen: Record<string, SeenEntry> = {};
	for (const [key, entry] of Object.entries(state.seen)) {
		// Copies: the stored state must stay untouched until the poll has succeeded.
		if (entry[2] >= options.lookBackStart) seen[key] = [entry[0], entry[1], entry[2]];
	}
	for (const observation of update.values()) {
		if (observation.created < options.lookBackStart) continue;
		seen[observation.key] = [
			statusIndex(observation.status),
			observation.lastChange,
			observation.created,
		];
	}
	if (options.narrowed && options.readWindows?.length) {
		// A remembered record that a whole read of its window did not list has left the wanted
		// statuses: remember that, so its return counts as a change.
		const listed = new Set(observations.map((observation) => observation.key));
		for (const [key, entry] of Object.entries(seen)) {
			if (listed.has(key)) continue;
			if (options.readWindows.some((window) => entry[2] >= window.from && entry[2] <= window.to))
				entry[0] = LEFT;
		}
	}
	// Keep only the statuses still referenced, so the dictionary stays small.
	const used = [
		...new Set(
			Object.values(seen)
				.map((entry) => entry[0])
				.filter((index) => index >= 0),
		),
	].sort((a, b) => a - b);
	const remap = new Map(used.map((index, position) => [index, position]));
	for (const entry of Object.values(seen)) if (entry[0] >= 0) entry[0] = remap.get(entry[0])!;
	return {
		events,
		state: {
			...state,
			baselineDone: state.baselineDone || options.complete,
			knownFrom:
				options.wholeLookBack || state.knownFrom === undefined
					? options.lookBackStart
					: Math.max(state.knownFrom, options.lookBackStart),
			statuses: used.map((index) => statuses[index]),
			seen,
		},
	};
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

/**
 * The window span after a poll that could not read even one window within its budget: half, at
 * most one day (a starting point of 100,000 records a day then saves its progress a day at a
 * time rather than halving from 60 days poll after poll), at least {@link MIN_TRIGGER_WINDOW_SECONDS}.
 */
function narrowedSpan(windowSeconds: number): number {
	return Math.max(
		MIN_TRIGGER_WINDOW_SECONDS,
		Math.min(SECONDS_PER_DAY, Math.floor(windowSeconds / 2)),
	);
}

/**
 * Where the next poll continues after this one read the first `windowsRead` of `planned` windows:
 * all read => from the start of the look-back, with the window span allowed to grow back; cut short
 * => from the first unread window; not even one window read => the same place, with half the
 * window span (at most a day, at least an hour), so a poll budget too small for one window still
 * makes progress.
 */
export function advanceReadPosition(
	state: TriggerState,
	planned: TimeWindow[],
	windowsRead: number,
): TriggerState {
	if (windowsRead >= planned.length) {
		const next: TriggerState = {
			...state,
			windowSeconds: Math.min(MAX_WINDOW_SECONDS, state.windowSeconds * 2),
		};
		delete next.resumeFrom;
		return next;
	}
	const windowSeconds = windowsRead === 0 ? narrowedSpan(state.windowSeconds) : state.windowSeconds;
	return { ...state, resumeFrom: planned[windowsRead].from, windowSeconds };
}
