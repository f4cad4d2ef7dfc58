import { MAX_WINDOW_SECONDS, SECONDS_PER_DAY } from '../../codes/service';
import { splitIntoWindows, type TimeWindow } from '../../reporting/read/windows';
import { creationTimes, type TriggerState } from './memory';
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
 * The windows one poll reads (service rules §3.2). Until the starting point is complete, after a
 * poll cut short, or when `rereadSeconds` is 0 or not shorter than the look-back: the whole
 * look-back ({@link planWindows}). Otherwise the records created within the last `rereadSeconds`,
 * then the next slice of older records, newest first, going back to the start of the look-back and
 * round again; a slice is in proportion to the time since the last one, so each older record is
 * re-read at least once every `rereadSeconds` plus one poll interval.
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
