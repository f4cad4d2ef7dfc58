import { MAX_WINDOW_SECONDS } from '../../codes/service';
import type { TimeWindow } from '../../reporting/read/windows';
import type { PreviousObservation } from './events';
import { overlay, readToAt, type ReadRange } from './ranges';
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

/** The current format of {@link TriggerState}; states of formats 1 and 2 are migrated on load. */
export const STATE_FORMAT = 3;

/**
 * Where one tier's re-reading of older records stands (see planPoll, ./plan.ts). Unix seconds.
 */
export interface SweepCursor {
	/** The creation time the tier's next slice starts from, going back; absent: from its newest record. */
	from?: number;
	/** Time up to which the tier's round of re-reading is done. */
	clock?: number;
}

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
	/** Re-reading older records in turn: one cursor per tier of `config.rereadTiers`. */
	sweeps: SweepCursor[];
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
	/**
	 * Records created within the look-back, by key: every record from `knownFrom` on; below it
	 * (bounded memory) only records whose `lastChangeDate` is after their range's `readTo`.
	 */
	seen: Record<string, SeenEntry>;
	/**
	 * Bounded memory: when each part of the look-back was last read (./ranges.ts); empty for a
	 * full memory.
	 */
	ranges: ReadRange[];
	/**
	 * Bounded memory: when (Unix seconds) a record's status was seen to change while its
	 * `lastChangeDate` did not; from then on the trigger keeps every record it reads one by one.
	 */
	fullMemorySince?: number;
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

/**
 * A fresh state for `config`, taken at `now` (Unix seconds): nothing seen, starting point to read.
 * A bounded memory's starting point is what every poll reads, the records younger than the first
 * tier of `rereadTiers` (its `knownFrom`); the older ones are stamped with the time of activation
 * by the first poll (./ranges.ts).
 */
export function initialState(config: TriggerConfig, now: number): TriggerState {
	const state: TriggerState = {
		v: STATE_FORMAT,
		config: configKey(config),
		activatedAt: now,
		baselineDone: false,
		windowSeconds: MAX_WINDOW_SECONDS,
		sweeps: [],
		statuses: [],
		seen: {},
		ranges: [],
	};
	// What every poll reads (the whole look-back when nothing is re-read in turn).
	if (config.memory === 'bounded')
		state.knownFrom = now - (config.rereadTiers[0]?.olderThan ?? config.lookBackSeconds);
	return state;
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
	return { ...state, statuses: [...state.statuses], seen, ranges: [...state.ranges] };
}

/** What a poll read whole, for {@link MemoryUpdate.finish}. Unix seconds. */
export interface ReadWhole {
	/** Windows read whole whose events were all emitted (none deferred to the next poll). */
	windows: TimeWindow[];
	/** Records read in each of `windows`, in the same order. */
	counts: number[];
	/**
	 * `readTo` for them (./ranges.ts): the service's clock at the first answer of the poll less
	 * the margin; and `startedAt`, that clock without the margin (what the starting point stamps).
	 */
	readTo: number;
	startedAt: number;
	/** Whether the part of the look-back not read is stamped `startedAt` (a fresh starting point). */
	stampUnread: boolean;
}

/**
 * The memory a poll builds for the next one, from a copy of `state`'s (the stored state stays
 * untouched until the poll has succeeded). Records created before `lookBackStart` (Unix seconds)
 * are forgotten: they left the look-back. A bounded memory (`maxRemembered` finite, see
 * `TriggerConfig.memory`) then keeps the newest `maxRemembered` records from `knownFrom` on, and
 * below it only those changed after their range's `readTo`.
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

	/**
	 * A bounded memory after a poll: `ranges` stamped with what the poll read whole (`read`), the
	 * part of the look-back never stamped with the time it started (a starting point), and the
	 * records kept one by one within `maxRemembered` (see the class). Returns the new ranges and
	 * `knownFrom`: lowered over ranges read whole just below it while there is room, raised above
	 * the records that no longer fit. A memory in `full` (`maxRemembered` infinite) keeps every record.
	 */
	bound(
		ranges: readonly ReadRange[],
		knownFrom: number,
		read: ReadWhole,
		now: number,
		maxRemembered: number,
	): { ranges: ReadRange[]; knownFrom: number } {
		let stamped = ranges.filter((range) => range.to >= this.lookBackStart);
		if (read.stampUnread && now >= this.lookBackStart)
			stamped = [{ from: this.lookBackStart, to: now, readTo: read.startedAt }];
		stamped = overlay(
			stamped,
			read.windows.map((window, index) => ({
				from: window.from,
				to: window.to,
				readTo: read.readTo,
				count: read.counts[index],
			})),
		).filter((range) => range.to >= this.lookBackStart);
		if (stamped.length && stamped[0].from < this.lookBackStart)
			stamped[0] = { ...stamped[0], from: this.lookBackStart };
		let from = this.lowered(knownFrom, read.windows, maxRemembered);
		from = this.capped(from, maxRemembered);
		if (Number.isFinite(maxRemembered)) this.keepChangedBelow(from, stamped);
		return { ranges: stamped, knownFrom: from };
	}

	/** The records remembered created at or after `from`. */
	private countFrom(from: number): number {
		let count = 0;
		for (const key in this.seen) if (this.seen[key][2] >= from) count++;
		return count;
	}

	/**
	 * `knownFrom` lowered over the windows read whole that reach down from just below it, as long as
	 * the records they hold fit within `maxRemembered` (their records were all set by this poll).
	 */
	private lowered(knownFrom: number, windows: TimeWindow[], maxRemembered: number): number {
		const below = windows.filter((window) => window.from < knownFrom).sort((a, b) => b.to - a.to);
		let from = knownFrom;
		for (const window of below) {
			if (window.to < from - 1) break;
			if (window.from >= from) continue;
			if (this.countFrom(window.from) > maxRemembered) break;
			from = window.from;
		}
		return from;
	}

	/** `knownFrom` raised above the oldest records until at most `maxRemembered` are at or after it. */
	private capped(knownFrom: number, maxRemembered: number): number {
		if (!Number.isFinite(maxRemembered)) return knownFrom;
		const created: number[] = [];
		for (const key in this.seen)
			if (this.seen[key][2] >= knownFrom) created.push(this.seen[key][2]);
		if (created.length <= maxRemembered) return knownFrom;
		created.sort((a, b) => b - a);
		// Records of one second stay together: the boundary is a second.
		return created[maxRemembered] + 1;
	}

	/**
	 * Below `knownFrom`, keeps only the records changed after their range's `readTo` (the ones a
	 * read of the range would otherwise take for a new change), and those of a part never read.
	 */
	private keepChangedBelow(knownFrom: number, ranges: readonly ReadRange[]): void {
		for (const key of Object.keys(this.seen)) {
			const entry = this.seen[key];
			if (entry[2] >= knownFrom) continue;
			const readTo = readToAt(ranges, entry[2]);
			if (readTo !== undefined && (entry[1] ?? entry[2]) <= readTo) delete this.seen[key];
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
