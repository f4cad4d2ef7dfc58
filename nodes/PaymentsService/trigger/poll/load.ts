import type { IDataObject } from 'n8n-workflow';

import { isoSeconds as iso } from '../../codes/dates';
import { configKey, forgetLeft, initialState, rememberedCount, type TriggerState } from './memory';
import { readStoredState } from './storage';
import type { TriggerConfig } from './types';

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

/**
 * The state a poll starts from, and what to log about it (docs/polling-trigger.md, "Limits"):
 * - the stored state of this configuration, as is (a host clock behind the last poll is logged,
 *   warn; a look-back reaching below `knownFrom` is logged, info, and what it reaches joins the
 *   starting point);
 * - a stored state of the same records under other settings: each record's memory is kept, so a
 *   change pending at the edit is emitted; records never seen join a new starting point (info);
 * - otherwise a new starting point; a warning says how many records were forgotten.
 * @param now the poll's time, Unix seconds. @param lookBackStart now minus the look-back, Unix seconds.
 */
export function loadState(
	stored: unknown,
	config: TriggerConfig,
	now: number,
	lookBackStart: number,
): { state: TriggerState; notes: StateNote[] } {
	const notes: StateNote[] = [];
	const previous = readStoredState(stored);
	const key = configKey(config);
	if (previous && previous.polledAt !== undefined && now < previous.polledAt) {
		notes.push(clockMovedBack(previous.polledAt, now));
	}
	if (previous && previous.config === key) {
		// A state stored before knownFrom stopped below the last record dropped can hold a knownFrom
		// the clock ahead set, later than now: no record created from now on is in the memory.
		const knownFrom =
			previous.knownFrom !== undefined && now < previous.knownFrom ? now : previous.knownFrom;
		if (knownFrom !== undefined && lookBackStart < knownFrom) {
			notes.push(belowMemory(lookBackStart, knownFrom));
		}
		return {
			state: knownFrom === previous.knownFrom ? previous : { ...previous, knownFrom },
			notes,
		};
	}
	const fresh = initialState(config, now);
	if (
		previous &&
		recordSetOf(previous.config) !== undefined &&
		recordSetOf(previous.config) === recordSetOf(key)
	) {
		const kept = keepMemory(previous, fresh, now);
		notes.push(kept.note);
		return { state: kept.state, notes };
	}
	if (stored && typeof stored === 'object' && Object.keys(stored).length > 0) {
		notes.push(startingOver(previous));
	}
	return { state: fresh, notes };
}

/** The warning for a host clock earlier than the last poll's (Unix seconds). */
function clockMovedBack(polledAt: number, now: number): StateNote {
	return {
		level: 'warn',
		message: `The host clock moved back by ${polledAt - now} s since the last poll (${iso(polledAt)}, now ${iso(now)}); events already emitted are not emitted again`,
		metadata: {
			clockMovedBackSeconds: polledAt - now,
			lastPollAt: iso(polledAt),
		},
	};
}

/** The note for a look-back starting below the memory's `knownFrom` (Unix seconds). */
function belowMemory(lookBackStart: number, knownFrom: number): StateNote {
	return {
		level: 'info',
		message: `Records created ${iso(lookBackStart)} – ${iso(knownFrom - 1)} are not in the trigger's memory (the clock moved, or the look-back grew); they join the starting point, and changes to them before this poll are not reported`,
		metadata: {
			startingPointFrom: iso(lookBackStart),
			startingPointTo: iso(knownFrom - 1),
		},
	};
}

/**
 * Same records, other settings: a new starting point at the last poll that keeps what was seen of
 * each record. A record remembered as having left a narrowed read has no known status: forgotten
 * (it joins the starting point).
 */
function keepMemory(
	previous: TriggerState,
	fresh: TriggerState,
	now: number,
): { state: TriggerState; note: StateNote } {
	const memory = forgetLeft(previous);
	const since = Math.min(now, previous.polledAt ?? previous.activatedAt);
	const kept = rememberedCount(memory);
	return {
		state: {
			...fresh,
			activatedAt: since,
			statuses: memory.statuses,
			seen: memory.seen,
			ranges: memory.ranges,
			...(previous.fullMemorySince === undefined
				? {}
				: { fullMemorySince: previous.fullMemorySince }),
			windowSeconds: previous.windowSeconds,
			polledAt: previous.polledAt,
			knownFrom: previous.knownFrom ?? Math.min(now, previous.polledAt ?? previous.activatedAt),
		},
		note: {
			level: 'info',
			message: `The trigger's settings changed: the memory of ${kept} records is kept, so changes made since the last poll (${iso(since)}) are emitted under the new settings; records it never saw that were created before then join the starting point`,
			metadata: { keptRecords: kept, lastPollAt: iso(since) },
		},
	};
}

/** The warning for a stored state dropped: another record set (`previous`), or unreadable. */
function startingOver(previous: TriggerState | undefined): StateNote {
	const dropped = previous ? rememberedCount(previous) : 0;
	const since = previous ? (previous.polledAt ?? previous.activatedAt) : undefined;
	return {
		level: 'warn',
		message: previous
			? `The trigger starts over: it now watches other records (resource or filters changed), so the memory of ${dropped} records is dropped; changes made since the last poll (${iso(since!)}) to records already created are not reported`
			: 'The trigger starts over: its stored state is unreadable (from another version, or damaged); changes made since its last poll to records already created are not reported',
		metadata: { droppedRecords: dropped, lastPollAt: since === undefined ? null : iso(since) },
	};
}
