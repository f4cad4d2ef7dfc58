import { MAX_WINDOW_SECONDS } from '../../codes/service';
import type { TimeWindow } from '../../reporting/read/windows';
import type { PreviousObservation } from './events';
import type { Observation, TriggerConfig } from './types';

/**
 * The polling trigger's memory: what it saw last of each record. This file and the two that store
 * it (./storage.ts, the packed format; ./format1.ts, the migration from format 1) are the only
 * ones that know how an entry is laid out; the plan and the detection ask through the functions
 * below ({@link recall}, {@link creationTimes}, {@link MemoryUpdate}).
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
	 * Re-reading older records in turn (see planPoll, ./plan.ts): the creation time (Unix seconds)
	 * the next slice of older records starts from, going back; absent: from the newest older record.
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
	 * Creation time (Unix seconds) from which `seen` holds every record the trigger ever read: each
	 * record it read and then dropped (it left the look-back) was created earlier, and so was each
	 * record a shorter Look-Back never reached. A record first seen below it joins the starting
	 * point, so a clock that jumped ahead and back, or a Look-Back made longer, re-emits nothing; a
	 * record first seen at or above it was never read, so it counts as new, also one created while
	 * the clock was ahead ({@link nextKnownFrom}). Absent: no limit (a state from before this field).
	 */
	knownFrom?: number;
	/** Status dictionary for {@link SeenEntry}. */
	statuses: string[];
	/** Records created within the look-back, by key. */
	seen: Record<string, SeenEntry>;
}

/**
 * `knownFrom` after a poll that dropped records created up to `forgottenUpTo` (Unix seconds;
 * undefined: none, see {@link MemoryUpdate}): raised just above them, never to the look-back's start
 * itself, since records created between the last one read and that start were never read (a host
 * clock ahead moves the start past records created meanwhile, which must still count as new). A
 * poll that read the whole look-back holds every record from `lookBackStart` on, so the value is
 * at most that.
 */
export function nextKnownFrom(
	knownFrom: number | undefined,
	forgottenUpTo: number | undefined,
	lookBackStart: number,
	wholeLookBack: boolean,
): number {
	const kept =
		forgottenUpTo === undefined
			? knownFrom
			: Math.max(knownFrom ?? Number.NEGATIVE_INFINITY, forgottenUpTo + 1);
	if (kept === undefined) return lookBackStart;
	return wholeLookBack ? Math.min(kept, lookBackStart) : kept;
}

/** A stable text of the configuration: equal configurations give equal keys. */
export function configKey(config: TriggerConfig): string {
	const sortedFilters = Object.keys(config.filters)
		.sort()
		.filter((name) => config.filters[name] !== '' && config.filters[name] !== undefined)
		.map((name) => [name, config.filters[name]]);
	return JSON.stringify([
		config.list.resource,
		config.event.value,
		sortedFilters,
		[...config.toStatuses].sort(),
		config.status,
		config.lookBackSeconds,
		config.countNewRecords,
	]);
}

/** A fresh state for `config`, taken at `now` (Unix seconds): nothing seen, starting point to read. */
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

/** What the state remembers of the record `key`, in the events' terms; undefined: never seen. */
export function recall(state: TriggerState, key: string): PreviousObservation | undefined {
	const entry = state.seen[key];
	if (!entry) return undefined;
	return {
		status: entry[0] >= 0 ? (state.statuses[entry[0]] ?? null) : null,
		left: entry[0] === LEFT,
		lastChange: entry[1],
	};
}

/** How many records the state remembers. */
export function rememberedCount(state: TriggerState): number {
	return Object.keys(state.seen).length;
}

/** The creation times (Unix seconds) of the records the state remembers, ascending. */
export function creationTimes(state: TriggerState): Float64Array {
	const times = new Float64Array(Object.keys(state.seen).length);
	let index = 0;
	for (const key in state.seen) times[index++] = state.seen[key][2];
	return times.sort();
}

/**
 * The memory of `state` without the records remembered as having left a narrowed read (their
 * status is unknown: under other settings they join the starting point). Copies.
 */
export function forgetLeft(state: TriggerState): TriggerState {
	const seen: Record<string, SeenEntry> = {};
	for (const [id, entry] of Object.entries(state.seen))
		if (entry[0] !== LEFT) seen[id] = [entry[0], entry[1], entry[2]];
	return { ...state, statuses: [...state.statuses], seen };
}

/**
 * The memory a poll builds for the next one, from a copy of `state`'s (the stored state stays
 * untouched until the poll has succeeded). Records created before `lookBackStart` (Unix seconds)
 * are forgotten: they left the look-back.
 */
export class MemoryUpdate {
	private readonly statuses: string[];
	private readonly seen: Record<string, SeenEntry> = {};
	/**
	 * Latest creation time (Unix seconds) of a record read before and not kept: an entry that left
	 * the look-back, or a record read now but created before it. Undefined: nothing was dropped.
	 */
	forgottenUpTo: number | undefined;

	constructor(
		state: TriggerState,
		private readonly lookBackStart: number,
	) {
		this.statuses = [...state.statuses];
		for (const key in state.seen) {
			const entry = state.seen[key];
			if (entry[2] >= lookBackStart) this.seen[key] = [entry[0], entry[1], entry[2]];
			else this.forget(entry[2]);
		}
	}

	/** Remembers `observation` as read now (nothing when it was created before the look-back). */
	set(observation: Observation): void {
		if (observation.created < this.lookBackStart) {
			this.forget(observation.created);
			return;
		}
		this.seen[observation.key] = [
			this.statusIndex(observation.status),
			observation.lastChange,
			observation.created,
		];
	}

	/**
	 * Marks each remembered record created within one of `windows` (read whole, in the wanted
	 * statuses only) and not in `listed` as having left the wanted statuses ({@link LEFT}), so its
	 * return counts as a change.
	 */
	markLeft(listed: ReadonlySet<string>, windows: TimeWindow[]): void {
		for (const [key, entry] of Object.entries(this.seen)) {
			if (listed.has(key)) continue;
			if (windows.some((window) => entry[2] >= window.from && entry[2] <= window.to))
				entry[0] = LEFT;
		}
	}

	/** The memory to store, its status dictionary reduced to the statuses still referenced. */
	result(): Pick<TriggerState, 'statuses' | 'seen'> {
		const used = new Array<boolean>(this.statuses.length).fill(false);
		for (const key in this.seen) {
			const index = this.seen[key][0];
			if (index >= 0) used[index] = true;
		}
		// Each index moves down by the number of unused ones before it.
		const remap: number[] = [];
		const statuses: string[] = [];
		for (let index = 0; index < used.length; index++) {
			remap.push(statuses.length);
			if (used[index]) statuses.push(this.statuses[index]);
		}
		if (statuses.length < this.statuses.length)
			for (const key in this.seen) {
				const entry = this.seen[key];
				if (entry[0] >= 0) entry[0] = remap[entry[0]];
			}
		return { statuses, seen: this.seen };
	}

	private forget(created: number): void {
		if (this.forgottenUpTo === undefined || created > this.forgottenUpTo)
			this.forgottenUpTo = created;
	}

	private statusIndex(status: string | null): number {
		if (status === null) return NO_STATUS;
		let index = this.statuses.indexOf(status);
		if (index < 0) index = this.statuses.push(status) - 1;
		return index;
	}
}
