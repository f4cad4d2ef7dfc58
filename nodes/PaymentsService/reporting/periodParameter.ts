import { isoSeconds } from '../codes/dates';
import { SECONDS_PER_DAY } from '../codes/service';
import type { TimeWindow } from './read/windows';
import { showValue } from '../parameters/values';

/** Period choices offered by Get Many (parameter "Period"). All boundaries are UTC. */
export const PERIOD_PRESETS = [
	'today',
	'yesterday',
	'last24Hours',
	'last7Days',
	'last30Days',
	'last90Days',
	'thisMonth',
	'lastMonth',
	'custom',
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** A date the user typed or an expression produced that could not be read. */
export class DateInputError extends Error {}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;
/** ISO 8601 date and time (T or a space between), with or without seconds, fractions and offset. */
const ISO_DATE_TIME =
	/^([+-]\d{6}|\d{4})-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
/** What JavaScript's Date writes: toUTCString(), toString() (with the zone's name or not). */
const JS_DATE_TEXT =
	/^([A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}( \([^()]*\))?)$/;

/**
 * The dates a date parameter takes, in milliseconds: from 0000-01-01T00:00:00Z to the last moment
 * of 9999-12-31 UTC, the years ISO 8601 writes with four digits. Beyond them no calendar date is
 * meant: an expression that gave 1e21, or a Date at JavaScript's limit (year 275760).
 */
export const DATE_RANGE_MS = {
	earliest: Date.parse('0000-01-01T00:00:00Z'),
	latest: Date.UTC(9999, 11, 31, 23, 59, 59, 999),
} as const;

/** Milliseconds of a date parameter's value, NaN when it holds none. @throws DateInputError for a kind that is no date. */
function millisecondsOf(value: unknown, edge: 'start' | 'end', refuse: (problem: string) => Error) {
	if (typeof value === 'number') return Math.abs(value) > 1e11 ? value : value * 1000;
	if (value instanceof Date) return value.getTime();
	if (typeof value === 'object' && value !== null) {
		const toMillis = (value as { toMillis?: unknown }).toMillis;
		if (typeof toMillis === 'function') return Number(toMillis.call(value));
	}
	if (typeof value !== 'string') throw refuse(`is not a date (${typeof value})`);
	const text = value.trim();
	if (DATE_ONLY.test(text)) {
		const ms = Date.parse(`${text}T00:00:00Z`);
		return edge === 'end' ? ms + (SECONDS_PER_DAY - 1) * 1000 : ms;
	}
	if (ISO_DATE_TIME.test(text)) return Date.parse(HAS_ZONE.test(text) ? text : `${text}Z`);
	// Anything else Date.parse would guess at ("3" is 1 March 2001): not a date.
	return JS_DATE_TEXT.test(text) ? Date.parse(text) : Number.NaN;
}

/**
 * Reads a date parameter as Unix seconds (UTC).
 *
 * Accepts an ISO 8601 string (without an offset it is read as UTC; a bare `yyyy-MM-dd` means the
 * start of that UTC day, or its last second when `edge` is `'end'`) or a date as JavaScript writes
 * it (`toUTCString()`, `toString()`), a JavaScript `Date`, a Luxon
 * `DateTime` (what `{{ $now }}` yields), or a number (milliseconds when above 10^11, else seconds).
 * The date must lie in years 0000 to 9999 ({@link DATE_RANGE_MS}).
 *
 * @param field the parameter's name, which then starts the error's message ("Created From").
 * @throws DateInputError when the value is empty, not a date, not a calendar day, or outside
 *   years 0000 to 9999; the message names the field and shows the value (parameters/values.ts).
 */
export function parseDateInput(
	value: unknown,
	edge: 'start' | 'end' = 'start',
	field = '',
): number {
	const refuse = (problem: string) => new DateInputError(field ? `${field} ${problem}` : problem);
	if (value === undefined || value === null || value === '') {
		throw refuse('is empty');
	}
	const ms = millisecondsOf(value, edge, refuse);
	if (!Number.isFinite(ms)) {
		throw refuse(`${showValue(value)} is not a date; use ISO 8601, e.g. 2026-11-01T00:00:00Z`);
	}
	if (ms < DATE_RANGE_MS.earliest || ms > DATE_RANGE_MS.latest) {
		throw refuse(
			`${showValue(value)} is ${ms < DATE_RANGE_MS.earliest ? 'before year 0000' : 'after year 9999'}, a date no calendar holds; use a date such as 2026-11-01T00:00:00Z`,
		);
	}
	// Date.parse rolls impossible days over (2026-02-30 becomes 2 March); refuse them instead.
	const calendarDay =
		typeof value === 'string' ? /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())?.[1] : undefined;
	if (
		calendarDay &&
		!HAS_ZONE.test(value as string) &&
		new Date(ms).toISOString().slice(0, 10) !== calendarDay
	) {
		throw refuse(`${showValue(value)} is not a calendar date`);
	}
	return Math.floor(ms / 1000);
}

function startOfUtcDay(seconds: number): number {
	return seconds - (((seconds % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY);
}

/**
 * Turns a period preset into an inclusive window of creation dates in Unix seconds (UTC).
 * `today` runs from 00:00:00 UTC to now; `yesterday` is the whole previous UTC day;
 * `lastNDays` ends now; months are calendar months in UTC. `custom` uses `customFrom`
 * (required) and `customTo` (now when empty), read by {@link parseDateInput}.
 *
 * @param nowMs the current time in milliseconds.
 * @throws DateInputError for an unreadable custom date; RangeError when from is after to or the
 *   preset is not one of {@link PERIOD_PRESETS}. Each message starts with the parameter it is about
 *   ("Created From", "Created To", "Period").
 */
export function resolvePeriod(
	preset: PeriodPreset,
	nowMs: number,
	customFrom?: unknown,
	customTo?: unknown,
): TimeWindow {
	const now = Math.floor(nowMs / 1000);
	const today = startOfUtcDay(now);
	const nowDate = new Date(nowMs);
	const monthStart = (offset: number) =>
		Math.floor(Date.UTC(nowDate.getUTCFullYear(), nowDate.getUTCMonth() + offset, 1) / 1000);
	let window: TimeWindow;
	switch (preset) {
		case 'today':
			window = { from: today, to: now };
			break;
		case 'yesterday':
			window = { from: today - SECONDS_PER_DAY, to: today - 1 };
			break;
		case 'last24Hours':
			window = { from: now - SECONDS_PER_DAY, to: now };
			break;
		case 'last7Days':
			window = { from: now - 7 * SECONDS_PER_DAY, to: now };
			break;
		case 'last30Days':
			window = { from: now - 30 * SECONDS_PER_DAY, to: now };
			break;
		case 'last90Days':
			window = { from: now - 90 * SECONDS_PER_DAY, to: now };
			break;
		case 'thisMonth':
			window = { from: monthStart(0), to: now };
			break;
		case 'lastMonth':
			window = { from: monthStart(-1), to: monthStart(0) - 1 };
			break;
		case 'custom': {
			const from = parseDateInput(customFrom, 'start', 'Created From');
			const to =
				customTo === undefined || customTo === null || customTo === ''
					? now
					: parseDateInput(customTo, 'end', 'Created To');
			window = { from, to };
			break;
		}
		default:
			throw new RangeError(
				`Period is ${showValue(preset)}, not one of ${PERIOD_PRESETS.join(', ')}`,
			);
	}
	if (window.from > window.to) {
		const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
		throw new RangeError(
			`Created From (${iso(window.from)}) is after ${customTo ? 'Created To' : 'now'} (${iso(window.to)})`,
		);
	}
	return window;
}

/**
 * The first second a creation date can have: 1970-01-01T00:00:00Z, Unix second 0. The service
 * takes and filters creation dates as Unix seconds (service rules §3.2).
 */
export const FIRST_CREATION_SECOND = 0;

/** A period as it is read, and the ends given that lay beyond what can hold records. */
export interface BoundedPeriod {
	/** The period read, within [{@link FIRST_CREATION_SECOND}, now], Unix seconds. */
	window: TimeWindow;
	/** The end given, when it was after now: the period is read up to now. */
	endGiven?: number;
	/** The start given, when it was before 1970: the period is read from 1970-01-01T00:00:00Z. */
	startGiven?: number;
}

/**
 * Bounds a period before anything is read (service rules §3.2): an end after `now` is read as
 * now, since no record is created in the future, and a start before 1970-01-01T00:00:00Z from that
 * second, the first a creation date has ({@link FIRST_CREATION_SECOND}). Neither changes which
 * records are read; both keep the requests and the memory of a read to what the records need: an
 * end of 9999-12-31 costs what an end of now does.
 *
 * @param period inclusive, Unix seconds, `from` ≤ `to` (as {@link resolvePeriod} gives it).
 * @param now Unix seconds.
 * @throws RangeError when the whole period lies after now (its message starts with "Created
 *   From") or before 1970 ("Created To"), naming the date.
 */
export function boundPeriod(period: TimeWindow, now: number): BoundedPeriod {
	const iso = isoSeconds;
	if (period.from > now) {
		throw new RangeError(
			`Created From (${iso(period.from)}) is after now (${iso(now)}): no record is created in the future`,
		);
	}
	if (period.to < FIRST_CREATION_SECOND) {
		throw new RangeError(
			`Created To (${iso(period.to)}) is before ${iso(FIRST_CREATION_SECOND)}, the first date the service holds`,
		);
	}
	const bounded: BoundedPeriod = {
		window: { from: Math.max(period.from, FIRST_CREATION_SECOND), to: Math.min(period.to, now) },
	};
	if (period.to > now) bounded.endGiven = period.to;
	if (period.from < FIRST_CREATION_SECOND) bounded.startGiven = period.from;
	return bounded;
}
