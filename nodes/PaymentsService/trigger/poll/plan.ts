import { MAX_WINDOW_SECONDS, SECONDS_PER_DAY } from '../../codes/service';
import { splitIntoWindows, type TimeWindow } from '../../reporting/read/windows';
import { creationTimes, type SweepCursor, type TriggerState } from './memory';
import { splitByCounts, within } from './ranges';
import type { TriggerConfig } from './types';

/**
 * The polling trigger's plan: which windows of the look-back one poll reads, in which statuses,
 * and where the next poll goes on (service rules §3.2). Pure: nothing here sends requests.
 */

/**
 * Most remembered records one window of a poll should hold: 20 pages of 50 (service rules §3.1), so
 * a window costs at most 21 requests and the windows of a busy look-back can be read side by side.
 */
export const TARGET_RECORDS_PER_WINDOW = 1_000;

/** Smallest window the trigger narrows to when polls keep running out of time: one hour. */
export const MIN_TRIGGER_WINDOW_SECONDS = 3_600;

/**
 * The windows one poll reads, in order: from `resumeFrom` (when a previous poll was cut short) up
 * to `now`, then from the start of the look-back up to `resumeFrom`; each range oldest first, in
 * windows of at most `state.windowSeconds`. Without `resumeFrom` this is simply the look-back.
 */
export function planWindows(state: TriggerState, lookBackStart: number, now: number): TimeWindow[] {
	const span = windowSpan(state);
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
 * Narrowing applies when the event wants statuses (Status Changed with To Status; New Record or Any
 * Change with a Status filter), every wanted status is one the list's filter accepts, and (Status
 * Changed, Any Change) records seen for the first time count, since a record entering a wanted
 * status is new to a narrowed read. A narrowed read never sees the status a record left, so
 * `previousStatus` is null when the trigger never saw the record in another status.
 */
export function narrowedStatuses(config: TriggerConfig): string[] | undefined {
	const { event, list } = config;
	const wanted = [...new Set(event.wantedStatuses(config).map((status) => status.toUpperCase()))];
	if (wanted.length === 0 || !list.statusParam) return undefined;
	if (!wanted.every((status) => list.filterStatuses.includes(status))) return undefined;
	if (event.type !== 'newRecord' && !config.countNewRecords) return undefined;
	return wanted.sort();
}

/** One tier's slice of older records in a {@link PollPlan}. Unix seconds. */
export interface PlannedSlice {
	/** Index of the tier in `config.rereadTiers` (and of its cursor in `state.sweeps`). */
	tier: number;
	/** How many windows of the plan, in order after the recent ones and the earlier tiers', are this slice. */
	count: number;
	/** Oldest creation second the slice reaches. */
	lowest: number;
	/** Newest creation second the slice starts from. */
	top: number;
}

/** What one poll reads. */
export interface PollPlan {
	/** Windows to read, in order; each holds every record it covers once read whole. */
	windows: TimeWindow[];
	/**
	 * Re-reading in turn: the slices of older records at the end of `windows`, one per tier with
	 * something to read, youngest tier first (none when no tier is due). Absent when the poll reads
	 * one range whole (the starting point, a poll cut short, or everything every poll).
	 */
	slices?: PlannedSlice[];
	/** A plan of one range read whole (no `slices`): where the range starts (it ends now). */
	from?: number;
}

/** The span of the plan's windows (seconds): the state's, within its bounds. */
function windowSpan(state: TriggerState): number {
	return Math.max(MIN_TRIGGER_WINDOW_SECONDS, Math.min(state.windowSeconds, MAX_WINDOW_SECONDS));
}

/**
 * Where the range read whole starts: the start of the look-back, except while the starting point
 * of a bounded memory is read (from `knownFrom`: version 2 takes the records read every poll as its
 * starting point, and the time of activation for the rest, see ./ranges.ts).
 */
function wholeReadStart(state: TriggerState, config: TriggerConfig, lookBackStart: number): number {
	if (config.memory === 'bounded' && !state.baselineDone && state.knownFrom !== undefined)
		return Math.max(lookBackStart, state.knownFrom);
	return lookBackStart;
}

/**
 * The windows one poll reads (service rules §3.2). Until the starting point is complete, after a
 * poll cut short, or when nothing is older than the first tier of `config.rereadTiers`: one range
 * whole ({@link planWindows}). Otherwise the records younger than the first tier, then, per
 * tier, the next slice of its older records, newest first, going back to the tier's oldest and
 * round again; a slice is in proportion to the time since the tier's last one, so each record of a
 * tier is re-read at least once per the tier's `every` plus one poll interval.
 */
export function planPoll(
	state: TriggerState,
	config: TriggerConfig,
	lookBackStart: number,
	now: number,
): PollPlan {
	const tiers = config.rereadTiers;
	const created = creationTimes(state);
	const countedBelow =
		state.knownFrom === undefined ? [] : within(state.ranges, lookBackStart, state.knownFrom - 1);
	const refine = (windows: TimeWindow[]) =>
		splitByCounts(
			splitByDensity(windows, created, TARGET_RECORDS_PER_WINDOW),
			countedBelow,
			TARGET_RECORDS_PER_WINDOW,
		);
	// A full memory reads what it does not hold whole; a bounded one knows it by ./ranges.ts.
	const belowMemory =
		config.memory === 'full' && state.knownFrom !== undefined && lookBackStart < state.knownFrom;
	// The records read every poll: those younger than the first tier.
	const olderEnd = now - (tiers[0]?.olderThan ?? 0);
	if (
		!state.baselineDone ||
		belowMemory ||
		state.resumeFrom !== undefined ||
		tiers.length === 0 ||
		olderEnd <= lookBackStart
	) {
		const from = wholeReadStart(state, config, lookBackStart);
		return { windows: refine(planWindows(state, from, now)), from };
	}
	const span = windowSpan(state);
	const windows = refine(splitIntoWindows(olderEnd + 1, now, span));
	const slices: PlannedSlice[] = [];
	tiers.forEach((tier, index) => {
		const high = now - tier.olderThan;
		const next = tiers[index + 1];
		const low = Math.max(lookBackStart, next ? now - next.olderThan + 1 : lookBackStart);
		if (high < low) return;
		const length = high - low + 1;
		const cursor = state.sweeps[index] ?? {};
		// A clock that went back leaves a round's time ahead of now: nothing has elapsed yet.
		const elapsed = Math.min(tier.every, Math.max(0, now - (cursor.clock ?? now - tier.every)));
		const sliceLength = Math.min(length, Math.ceil((length * elapsed) / tier.every));
		if (sliceLength <= 0) return;
		const top =
			cursor.from !== undefined && cursor.from >= low && cursor.from <= high ? cursor.from : high;
		const lowest = Math.max(low, top - sliceLength + 1);
		const slice = refine(splitIntoWindows(lowest, top, span)).reverse();
		windows.push(...slice);
		slices.push({ tier: index, count: slice.length, lowest, top });
	});
	// Read in tiers even when no tier is due yet: the recent records alone are not the look-back.
	return { windows, slices };
}

/** Index of the first value in `sorted` (ascending) that is at least `value`. */
export function lowerBound(sorted: Float64Array, value: number): number {
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
 * (see {@link planPoll}; a plan of one range read whole moves on as {@link advanceReadPosition}).
 * Each tier's slice read whole moves its re-reading on to just below it (round to the tier's
 * newest record after its oldest); read in part, below the last window read, and the time it
 * accounts for in proportion; a slice not reached stays where it was.
 */
export function advanceAfterPoll(
	state: TriggerState,
	plan: PollPlan,
	windowsRead: number,
	now: number,
	tierCount: number,
): TriggerState {
	if (!plan.slices) {
		const next = advanceReadPosition(state, plan.windows, windowsRead);
		// A whole range read starts every tier's round of re-reading afresh.
		return windowsRead >= plan.windows.length
			? { ...next, sweeps: Array.from({ length: tierCount }, () => ({ clock: now })) }
			: next;
	}
	// A tier's round never ends after now: a clock that went back would stop its re-reading
	// until the clock caught up again (8 days after a jump of 8 days).
	const sweeps: SweepCursor[] = Array.from({ length: tierCount }, (_, index) => {
		const cursor = { ...state.sweeps[index] };
		if (cursor.clock !== undefined && cursor.clock > now) cursor.clock = now;
		return cursor;
	});
	const recentCount =
		plan.windows.length - plan.slices.reduce((sum, slice) => sum + slice.count, 0);
	if (windowsRead < recentCount) {
		const windowSeconds =
			windowsRead === 0 ? narrowedSpan(state.windowSeconds) : state.windowSeconds;
		return { ...state, sweeps, windowSeconds };
	}
	let first = recentCount;
	let readAll = true;
	for (const slice of plan.slices) {
		const sliceRead = Math.max(0, Math.min(slice.count, windowsRead - first));
		if (sliceRead > 0) {
			const lastRead = plan.windows[first + sliceRead - 1];
			const clock = sweeps[slice.tier].clock ?? now;
			const share = (slice.top - lastRead.from + 1) / (slice.top - slice.lowest + 1);
			// Below the tier's oldest, the next slice starts round again at its newest record.
			sweeps[slice.tier] = {
				clock: sliceRead === slice.count ? now : Math.round(clock + (now - clock) * share),
				from: lastRead.from - 1,
			};
		}
		readAll &&= sliceRead === slice.count;
		first += slice.count;
	}
	return {
		...state,
		sweeps,
		windowSeconds: readAll
			? Math.min(MAX_WINDOW_SECONDS, state.windowSeconds * 2)
			: state.windowSeconds,
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
