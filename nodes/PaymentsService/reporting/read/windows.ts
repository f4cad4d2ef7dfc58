import { MAX_WINDOW_SECONDS } from '../../codes/service';

/**
 * A period of creation dates, both ends inclusive, in Unix seconds: the `from`/`to` pair one
 * reporting request carries (service rules §3.2).
 */
export interface TimeWindow {
	from: number;
	to: number;
}

/**
 * Splits the inclusive period [`from`, `to`] (Unix seconds) into consecutive windows that each span
 * at most `maxSpanSeconds` (`to - from`), oldest first. Windows do not overlap and leave no gap: the
 * next window starts one second after the previous one ends, so every second of the period is in
 * exactly one window.
 *
 * Service rules §3.2: every window spans at most 60 days minus one second (code 18 otherwise).
 *
 * @throws RangeError when a bound is not an integer, `from > to`, or `maxSpanSeconds < 0`.
 */
export function splitIntoWindows(
	from: number,
	to: number,
	maxSpanSeconds: number = MAX_WINDOW_SECONDS,
): TimeWindow[] {
	if (!Number.isInteger(from) || !Number.isInteger(to)) {
		throw new RangeError(`Period bounds must be whole Unix seconds, got from=${from} to=${to}`);
	}
	if (from > to) {
		throw new RangeError(`Period start (${from}) is after its end (${to})`);
	}
	if (!Number.isInteger(maxSpanSeconds) || maxSpanSeconds < 0) {
		throw new RangeError(
			`Window span must be a non-negative whole number of seconds, got ${maxSpanSeconds}`,
		);
	}
	const windows: TimeWindow[] = [];
	let start = from;
	while (start <= to) {
		const end = Math.min(start + maxSpanSeconds, to);
		windows.push({ from: start, to: end });
		start = end + 1;
	}
	return windows;
}

/**
 * Splits the inclusive period [`from`, `to`] (Unix seconds) into windows of equal span, oldest
 * first, for reading `concurrency` windows at once (service rules §3.2). A period that fits one
 * window stays one (a busy one is divided as its pages arrive, {@link planSplit}); a longer one gets
 * the fewest windows of at most `maxSpanSeconds`, rounded up to a multiple of `concurrency` so that
 * no worker idles for a whole round.
 * @throws RangeError as {@link splitIntoWindows}, or when `concurrency` is not a whole number ≥ 1.
 */
export function splitIntoBalancedWindows(
	from: number,
	to: number,
	concurrency: number,
	maxSpanSeconds: number = MAX_WINDOW_SECONDS,
): TimeWindow[] {
	if (!Number.isInteger(concurrency) || concurrency < 1) {
		throw new RangeError(`Concurrency must be a whole number of at least 1, got ${concurrency}`);
	}
	const minimal = splitIntoWindows(from, to, maxSpanSeconds);
	if (minimal.length === 1) return minimal;
	return balance(from, to, Math.ceil(minimal.length / concurrency) * concurrency);
}

/** `count` consecutive windows covering [from, to], their lengths differing by at most one second. */
function balance(from: number, to: number, count: number): TimeWindow[] {
	const seconds = to - from + 1;
	const windows: TimeWindow[] = [];
	let start = from;
	for (let index = 0; index < count && start <= to; index++) {
		const length = Math.floor(seconds / count) + (index < seconds % count ? 1 : 0);
		windows.push({ from: start, to: start + length - 1 });
		start += length;
	}
	return windows;
}

/**
 * Splits the inclusive window `window` into `count` consecutive windows of equal span (to the
 * second), **newest first**; fewer when the window has fewer seconds than `count`. Every second of
 * `window` is in exactly one of them (service rules §3.2).
 *
 * @throws RangeError when `count` is not a whole number ≥ 1 or the window is empty.
 */
export function splitEvenly(window: TimeWindow, count: number): TimeWindow[] {
	if (!Number.isInteger(count) || count < 1) {
		throw new RangeError(
			`The number of windows must be a whole number of at least 1, got ${count}`,
		);
	}
	if (!Number.isInteger(window.from) || !Number.isInteger(window.to) || window.from > window.to) {
		throw new RangeError(`Not a window: from=${window.from} to=${window.to}`);
	}
	return balance(window.from, window.to, Math.min(count, window.to - window.from + 1)).reverse();
}

/**
 * What one window's pages read so far tell about the records still to read in it (service rules
 * §3.2). Dates are Unix seconds of the records' creation dates, clamped to the window.
 */
export interface WindowProgress {
	window: TimeWindow;
	/** Full pages read so far, ≥ 1. */
	pagesRead: number;
	/** Oldest creation date over every page read so far. */
	oldest: number;
	/** Oldest and newest creation dates on the last page read. */
	lastPage: { oldest: number; newest: number };
}

/**
 * Estimated number of pages still to read in a window, assuming the service lists newest first
 * (service rules §3.1: its published examples do; nothing else relies on it): the pages read cover
 * [`oldest`, `to`], and the rest of the window, [`from`, `oldest`), holds as many records per second
 * as the denser of the last page and all pages read so far. 0 when the pages read reach `from`.
 */
export function estimateRemainingPages(progress: WindowProgress): number {
	const { window, pagesRead, oldest, lastPage } = progress;
	const left = oldest - window.from;
	if (left <= 0) return 0;
	const lastSpan = Math.max(1, lastPage.newest - lastPage.oldest + 1);
	const readSpan = Math.max(1, window.to - oldest + 1);
	return Math.max(left / lastSpan, (pagesRead * left) / readSpan);
}

/**
 * Pages below which a window is never split while other windows are read at the same time: a split
 * costs the pages already read plus one short page per new window, which would not pay off.
 */
export const MIN_SPLIT_PAGES = 4;

/**
 * How far beyond its fair share a window's estimated remaining pages must go before it is split: a
 * split costs requests (the pages read again, a short last page per part) and the estimate is rough,
 * so a window only a little longer than the others is read to its end.
 */
export const SPLIT_MARGIN = 2;

/**
 * Parts per fair share a split window becomes: each part holds about half a share, so a worker that
 * finishes early takes the next part from the queue, rather than a part being divided again later
 * (which reads its pages again). Costs one short last page per part.
 */
export const PARTS_PER_SHARE = 2;

/** Most parts one split makes; a part that proves busy is divided again (service rules §3.2). */
export const MAX_SPLIT_PARTS = 64;

/** Parts for `pages` pages at about `pagesPerPart` each: ⌈pages ÷ pagesPerPart⌉, at most {@link MAX_SPLIT_PARTS}. */
function partsFor(pages: number, pagesPerPart: number): number {
	return Math.min(MAX_SPLIT_PARTS, Math.ceil(pages / pagesPerPart));
}

/**
 * The one way a window of a read is divided (service rules §3.2): `window`, estimated to hold
 * `pages` pages, as ⌈`pages` ÷ `pagesPerPart`⌉ windows of equal span (at most
 * {@link MAX_SPLIT_PARTS}, at most one per second), newest first, exactly covering it; `[window]`
 * when that is fewer than 2.
 *
 * @param pagesPerPart pages a part should hold, > 0.
 */
export function splitByEstimate(
	window: TimeWindow,
	pages: number,
	pagesPerPart: number,
): TimeWindow[] {
	const parts = partsFor(pages, pagesPerPart);
	return parts < 2 ? [window] : splitEvenly(window, parts);
}

/**
 * Decides whether a window whose last page read was full is divided further (service rules §3.2;
 * docs/reading-lists.md). `fairPages` is each read worker's share of the remaining work. The window
 * is split when its estimated remaining pages exceed `fairPages` × `margin` ({@link SPLIT_MARGIN};
 * 1 while a worker is idle or when reading alone), {@link MIN_SPLIT_PAGES} and the pages already
 * read. It becomes ⌈{@link PARTS_PER_SHARE} × remaining ÷ fairPages⌉ windows (2 to
 * {@link MAX_SPLIT_PARTS}): after the first page, equal spans ({@link splitByEstimate}); later, the
 * span already read, [`oldest`, `to`], and the rest in equal spans, so a peak gets narrower windows.
 * @returns the new windows, newest first, exactly covering `window`; undefined to keep paging it.
 */
export function planSplit(
	progress: WindowProgress,
	fairPages: number,
	options: { margin?: number } = {},
): TimeWindow[] | undefined {
	const { window, pagesRead, oldest } = progress;
	if (window.to <= window.from) return undefined;
	const remaining = estimateRemainingPages(progress);
	const threshold = Math.max(
		fairPages * (options.margin ?? SPLIT_MARGIN),
		MIN_SPLIT_PAGES,
		pagesRead,
	);
	if (!(remaining > threshold)) return undefined;
	const pages = PARTS_PER_SHARE * remaining;
	const perPart = Math.max(1, fairPages);
	if (pagesRead <= 1 || oldest <= window.from || oldest > window.to)
		return splitEvenly(window, Math.max(2, partsFor(pages, perPart)));
	return [
		{ from: oldest, to: window.to },
		...splitEvenly({ from: window.from, to: oldest - 1 }, Math.max(2, partsFor(pages, perPart))),
	];
}

/**
 * Compares two positions in a tree of windows (`PeriodEvent.path` of the reporting transport):
 * lexicographic, so sorting paths gives the windows newest first.
 */
export function comparePaths(a: readonly number[], b: readonly number[]): number {
	const length = Math.min(a.length, b.length);
	for (let index = 0; index < length; index++)
		if (a[index] !== b[index]) return a[index] - b[index];
	return a.length - b.length;
}
