import type { IDataObject } from 'n8n-workflow';

import { migrateFormat1, unpackFormat1, type FormatOneState, type FormatTwoState } from './format1';
import {
	LEFT,
	NO_STATUS,
	STATE_FORMAT,
	type SeenEntry,
	type SweepCursor,
	type TriggerState,
} from './memory';
import type { ReadRange } from './ranges';

/**
 * The trigger's memory as stored in the node's workflow static data: packed on save
 * ({@link packState}), checked, unpacked and migrated on load ({@link readStoredState}).
 */

/**
 * A stored state, well formed, whatever its configuration, in the current format (states of
 * formats 1 and 2 are migrated: {@link migrateFormat1}, {@link migrateFormat2}); undefined otherwise.
 */
export function readStoredState(stored: unknown): TriggerState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	let state = stored as Omit<Partial<TriggerState>, 'v' | 'ranges'> & {
		v?: unknown;
		packed?: unknown;
		ranges?: unknown;
		sweepFrom?: unknown;
		sweepClock?: unknown;
	};
	if (state.v !== 1 && state.v !== 2 && state.v !== STATE_FORMAT) return undefined;
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
	const number = (value: unknown) => value === undefined || typeof value === 'number';
	// A malformed state would fail every poll; starting over is the way out.
	const wellFormed =
		typeof state.activatedAt === 'number' &&
		typeof state.baselineDone === 'boolean' &&
		typeof state.windowSeconds === 'number' &&
		Number.isFinite(state.windowSeconds) &&
		state.windowSeconds > 0 &&
		number(state.resumeFrom) &&
		number(state.sweepFrom) &&
		number(state.sweepClock) &&
		number(state.polledAt) &&
		number(state.knownFrom) &&
		number(state.fullMemorySince) &&
		state.seen !== null &&
		typeof state.seen === 'object' &&
		!Array.isArray(state.seen);
	if (!wellFormed) return undefined;
	if (state.v === 1) return migrateFormat2(migrateFormat1(state as FormatOneState));
	if (state.v === 2) return migrateFormat2(state as FormatTwoState);
	const sweeps = sweepsOf(state.sweeps);
	const ranges = rangesOf(state.ranges);
	if (!sweeps || !ranges) return undefined;
	return { ...(state as TriggerState), sweeps, ranges };
}

/**
 * A format-2 state in format 3: its one re-reading cursor becomes the first tier's, and nothing is
 * known of when parts of the look-back were read (a bounded memory learns it as its tiers read
 * them; until then it keeps the records it has, see MemoryUpdate.bound).
 */
export function migrateFormat2(state: FormatTwoState): TriggerState {
	const { sweepFrom, sweepClock, ...rest } = state;
	const cursor: SweepCursor = {};
	if (sweepFrom !== undefined) cursor.from = sweepFrom;
	if (sweepClock !== undefined) cursor.clock = sweepClock;
	return { ...rest, v: STATE_FORMAT, sweeps: [cursor], ranges: [] };
}

/**
 * The ranges of a stored state: packed ({@link packRanges}), or as objects (a state another
 * writer left unpacked), checked the same way; undefined when they are not well formed.
 */
function rangesOf(value: unknown): ReadRange[] | undefined {
	if (typeof value === 'string') return unpackRanges(value);
	if (!Array.isArray(value)) return undefined;
	const wellFormed = value.every((range: unknown) => {
		if (!range || typeof range !== 'object') return false;
		const { from, to, readTo, count } = range as Record<string, unknown>;
		return [from, to, readTo, count ?? 0].every(Number.isSafeInteger);
	});
	return wellFormed ? unpackRanges(packRanges(value as ReadRange[])) : undefined;
}

/** The tier cursors of a stored state; undefined when they are not well formed. */
function sweepsOf(value: unknown): SweepCursor[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const sweeps: SweepCursor[] = [];
	for (const item of value) {
		if (!item || typeof item !== 'object') return undefined;
		const { from, clock } = item as Record<string, unknown>;
		if (![from, clock].every((field) => field === undefined || Number.isSafeInteger(field)))
			return undefined;
		const cursor: SweepCursor = {};
		if (from !== undefined) cursor.from = from as number;
		if (clock !== undefined) cursor.clock = clock as number;
		sweeps.push(cursor);
	}
	return sweeps;
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
 * The state as stored in static data (service rules §3.4 for the dates). With numeric record ids,
 * `seen` is one string `packed`: entries sorted by creation time, each
 * `idDelta.createdDelta.change.status` in base 36 (deltas from the entry before; `change` =
 * lastChangeDate − creation date, empty when equal, `_` for none; `status` the index in `statuses`,
 * empty for 0, `_` for none, `~` for a record that left a narrowed read), joined by `,`, trailing
 * empty fields left out: about 5 bytes a record instead of 38. Other ids keep the plain `seen`
 * object. Read back by {@link loadState}.
 */
export function packState(state: TriggerState): IDataObject {
	const entries: Array<readonly [number, SeenEntry]> = [];
	for (const key in state.seen) {
		const entry = state.seen[key];
		if (!CANONICAL_ID.test(key) || !packable(entry))
			return { ...state, ranges: packRanges(state.ranges) } as unknown as IDataObject;
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
	const stored: IDataObject = {
		...state,
		packed: parts.join(','),
		ranges: packRanges(state.ranges),
		sweeps: state.sweeps.map((cursor) => ({ ...cursor })),
	};
	delete stored.seen;
	return stored;
}

/** A range field that is not a count: the range was never read. */
const PACKED_NO_COUNT = '_';
const PACKED_RANGE = `${BASE36}\\.${BASE36}\\.${BASE36}\\.(?:${BASE36}|_)`;
/** A well-formed packed ranges string. */
const PACKED_RANGES_FORMAT = new RegExp(`^(?:${PACKED_RANGE}(?:,${PACKED_RANGE})*)?$`);

/**
 * `ranges` (sorted, disjoint) as one string: each `gap.length.readTo.count` in base 36, where
 * `gap` is `from` less the previous range's `to` (0 before the first), `length` is `to − from`,
 * `readTo` is relative to `to` (negative for a range read less than the margin after its newest
 * creation), and `count` is `_` for a range never read. About 15 bytes a range.
 */
export function packRanges(ranges: readonly ReadRange[]): string {
	let previousTo = 0;
	return ranges
		.map((range) => {
			const fields = [
				(range.from - previousTo).toString(36),
				(range.to - range.from).toString(36),
				(range.readTo - range.to).toString(36),
				range.count === undefined ? PACKED_NO_COUNT : range.count.toString(36),
			];
			previousTo = range.to;
			return fields.join('.');
		})
		.join(',');
}

/** The ranges of a {@link packRanges} string; undefined when it is damaged or out of order. */
export function unpackRanges(packed: string): ReadRange[] | undefined {
	if (!PACKED_RANGES_FORMAT.test(packed)) return undefined;
	if (packed === '') return [];
	const ranges: ReadRange[] = [];
	let previousTo = 0;
	for (const entry of packed.split(',')) {
		const [gap, length, readTo, count] = entry.split('.');
		const from = previousTo + parseInt(gap, 36);
		const to = from + parseInt(length, 36);
		const range: ReadRange = { from, to, readTo: to + parseInt(readTo, 36) };
		if (count !== PACKED_NO_COUNT) range.count = parseInt(count, 36);
		const values = [from, to, range.readTo, range.count ?? 0];
		if (!values.every(Number.isSafeInteger) || to < from || (range.count ?? 0) < 0)
			return undefined;
		if (ranges.length && from <= previousTo) return undefined;
		ranges.push(range);
		previousTo = to;
	}
	return ranges;
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
