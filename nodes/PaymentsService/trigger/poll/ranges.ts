import type { TimeWindow } from '../../reporting/read/windows';

/*
 * When each part of the look-back was last read: the polling trigger's memory of the records it
 * does not remember one by one (version 2, docs/polling-trigger.md "Memory"). The lists filter by
 * creation date only (service rules §3.2), but every change moves a record's `lastChangeDate`
 * forward (§3.4), so a record read again in a part of the look-back read up to time T changed
 * since that read exactly when its `lastChangeDate` is after T. A part of the look-back is a
 * creation-time range; its `readTo` is the service's clock when it was last read, less a margin
 * for records that reach the list late and clocks that differ ({@link READ_MARGIN_SECONDS}).
 * Pure; the ranges are stored packed (./storage.ts).
 */

/**
 * Seconds subtracted from the service's clock (its `Date` header) when a read stamps what it saw:
 * a change whose `lastChangeDate` is at or before `readTo` was in the list when it was read. Covers
 * a record or a change that the list shows up to 15 minutes after its date, and a `Date` header up
 * to that much ahead of the clock that writes `lastChangeDate`. The records changed within the
 * margin are remembered one by one, so none is reported twice.
 */
export const READ_MARGIN_SECONDS = 900;

/** A part of the look-back read whole at one time. Unix seconds. */
export interface ReadRange {
	/** First creation second of the range. */
	from: number;
	/** Last creation second of the range (inclusive). */
	to: number;
	/**
	 * Every change with a `lastChangeDate` at or before this time was in the list when the range
	 * was last read (or, never read, is part of the starting point).
	 */
	readTo: number;
	/** Records the last read found in it; undefined when never read. Guides the plan's windows. */
	count?: number;
}

/** Index of the range holding `second` in `ranges` (sorted, disjoint), or -1. */
function indexAt(ranges: readonly ReadRange[], second: number): number {
	let low = 0;
	let high = ranges.length - 1;
	while (low <= high) {
		const middle = (low + high) >>> 1;
		const range = ranges[middle];
		if (second < range.from) high = middle - 1;
		else if (second > range.to) low = middle + 1;
		else return middle;
	}
	return -1;
}

/** `readTo` of the range holding the creation second `created`; undefined where nothing is known. */
export function readToAt(ranges: readonly ReadRange[], created: number): number | undefined {
	const index = indexAt(ranges, created);
	return index < 0 ? undefined : ranges[index].readTo;
}

/** The part of `range` within [from, to], its count in proportion to its length. */
function clip(range: ReadRange, from: number, to: number): ReadRange | undefined {
	const low = Math.max(range.from, from);
	const high = Math.min(range.to, to);
	if (low > high) return undefined;
	const part: ReadRange = { from: low, to: high, readTo: range.readTo };
	if (range.count !== undefined)
		part.count = Math.round((range.count * (high - low + 1)) / (range.to - range.from + 1));
	return part;
}

/**
 * `ranges` with `read` laid over them: each new range replaces what it covers. Sorted, disjoint,
 * adjacent ranges with the same `readTo` merged (their counts added). Copies.
 */
export function overlay(ranges: readonly ReadRange[], read: readonly ReadRange[]): ReadRange[] {
	const pieces: ReadRange[] = [];
	const fresh = [...read].sort((a, b) => a.from - b.from);
	for (const range of ranges) {
		let rest: ReadRange | undefined = { ...range };
		for (const cover of fresh) {
			if (!rest || cover.to < rest.from || cover.from > rest.to) continue;
			const before = clip(rest, rest.from, cover.from - 1);
			if (before) pieces.push(before);
			rest = clip(rest, cover.to + 1, rest.to);
		}
		if (rest) pieces.push(rest);
	}
	pieces.push(...fresh.map((range) => ({ ...range })));
	pieces.sort((a, b) => a.from - b.from);
	const merged: ReadRange[] = [];
	for (const piece of pieces) {
		const last = merged[merged.length - 1];
		if (last && last.readTo === piece.readTo && last.to + 1 === piece.from) {
			last.to = piece.to;
			last.count =
				last.count === undefined || piece.count === undefined
					? undefined
					: last.count + piece.count;
			if (last.count === undefined) delete last.count;
		} else merged.push(piece);
	}
	return merged;
}

/** `ranges` within [from, to] (Unix seconds), cut at both ends. Copies. */
export function within(ranges: readonly ReadRange[], from: number, to: number): ReadRange[] {
	return ranges.flatMap((range) => clip(range, from, to) ?? []);
}

/**
 * Splits each window into consecutive windows of about `target` records by the counts of the
 * ranges it overlaps (taken as evenly spread within a range); a window no range counts is kept
 * whole. Every second of a window stays in exactly one part.
 */
export function splitByCounts(
	windows: readonly TimeWindow[],
	ranges: readonly ReadRange[],
	target: number,
): TimeWindow[] {
	const result: TimeWindow[] = [];
	for (const window of windows) {
		let from = window.from;
		let held = 0;
		for (const range of within(ranges, window.from, window.to)) {
			if (range.count === undefined || range.count <= 0) continue;
			const seconds = range.to - range.from + 1;
			const perSecond = range.count / seconds;
			let second = range.from;
			while (held + perSecond * (range.to - second + 1) > target) {
				const cut = Math.max(from + 1, second + Math.ceil((target - held) / perSecond));
				if (cut > window.to) break;
				result.push({ from, to: cut - 1 });
				from = cut;
				second = Math.max(second, cut);
				held = 0;
			}
			held += perSecond * Math.max(0, range.to - second + 1);
		}
		result.push({ from, to: window.to });
	}
	return result;
}
