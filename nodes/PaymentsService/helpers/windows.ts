import { MAX_WINDOW_SECONDS } from './constants';

/**
 * A period of creation dates, both ends inclusive, in Unix seconds: the `from`/`to` pair one
 * reporting request carries (spec: List endpoints).
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
 * Spec: List endpoints ("The difference between them is at most 60 days"), Errors (code 18).
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
