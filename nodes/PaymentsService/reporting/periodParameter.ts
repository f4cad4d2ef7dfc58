import { SECONDS_PER_DAY } from '../codes/service';
import type { TimeWindow } from './read/windows';

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

/**
 * Reads a date parameter as Unix seconds (UTC).
 *
 * Accepts an ISO 8601 string (without an offset it is read as UTC; a bare `yyyy-MM-dd` means the
 * start of that UTC day, or its last second when `edge` is `'end'`), a JavaScript `Date`, a Luxon
 * `DateTime` (what `{{ $now }}` yields), or a number (milliseconds when above 10^11, else seconds).
 *
 * @param field the parameter's name, which then starts the error's message ("Created From").
 * @throws DateInputError when the value is empty or not a date.
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
	let ms: number;
	if (typeof value === 'number') {
		ms = Math.abs(value) > 1e11 ? value : value * 1000;
	} else if (value instanceof Date) {
		ms = value.getTime();
	} else if (
		typeof value === 'object' &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	) {
		ms = (value as { toMillis: () => number }).toMillis();
	} else if (typeof value === 'string') {
		const text = value.trim();
		if (DATE_ONLY.test(text)) {
			ms = Date.parse(`${text}T00:00:00Z`);
			if (!Number.isNaN(ms) && edge === 'end') ms += (SECONDS_PER_DAY - 1) * 1000;
		} else {
			ms = Date.parse(HAS_ZONE.test(text) ? text : `${text}Z`);
		}
	} else {
		throw refuse(`is not a date (${typeof value})`);
	}
	if (!Number.isFinite(ms)) {
		throw refuse(`"${String(value)}" is not a date; use ISO 8601, e.g. 2026-11-01T00:00:00Z`);
	}
	// Date.parse rolls impossible days over (2026-02-30 becomes 2 March); refuse them instead.
	const calendarDay =
		typeof value === 'string' ? /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())?.[1] : undefined;
	if (
		calendarDay &&
		!HAS_ZONE.test(value as string) &&
		new Date(ms).toISOString().slice(0, 10) !== calendarDay
	) {
		throw refuse(`"${String(value)}" is not a calendar date`);
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
				`Period is "${String(preset)}", not one of ${PERIOD_PRESETS.join(', ')}`,
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
