import { MAX_WINDOW_SECONDS } from './constants';

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
		throw new RangeError(`Window span must be a non-negative whole number of seconds, got ${maxSpanSeconds}`);
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
 * Splits the inclusive period [`from`, `to`] (Unix seconds) into windows of equal span (to the
 * second), oldest first, for reading `concurrency` windows at once (service rules §3.2).
 *
 * Every window costs one short page, so the count stays minimal: the fewest windows of at most
 * `maxSpanSeconds`, unless that is more than `concurrency`; then it is rounded up to a multiple of
 * `concurrency`, so every slot reads the same share of the period in each round. (Seven windows for
 * four slots would run as four, then three: the last round leaves a slot idle for a whole window.)
 *
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
	if (minimal.length <= concurrency) return balance(from, to, minimal.length);
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
