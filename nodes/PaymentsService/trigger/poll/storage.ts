import type { IDataObject } from 'n8n-workflow';

import { migrateFormat1, unpackFormat1, type FormatOneState } from './format1';
import { LEFT, NO_STATUS, STATE_FORMAT, type SeenEntry, type TriggerState } from './memory';

/**
 * The trigger's memory as stored in the node's workflow static data: packed on save
 * ({@link packState}), checked, unpacked and migrated on load ({@link readStoredState}).
 */

/**
 * A stored state, well formed, whatever its configuration, in the current format (a state of
 * format 1 is migrated, see {@link migrateFormat1}); undefined otherwise.
 */
export function readStoredState(stored: unknown): TriggerState | undefined {
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
