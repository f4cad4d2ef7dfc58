/**
 * Calendar days and hours in a time zone, for the reports' periods and groups (service rules §3.5):
 * the local date and hour of a Unix second, the start of a local day, and the calendar periods
 * (Today, Yesterday, This Month, Last Month) of a time zone. Pure; n8n's own Intl, no library.
 */

/** A time zone's local day and hour of an instant. */
export interface LocalTime {
	day: string;
	/** ISO 8601 local hour with its offset, "2026-11-01T01:00-05:00". */
	hour: string;
	/** Unix seconds at which that local hour began. */
	hourStart: number;
}

/** Reads the local calendar of a time zone, remembering a few quarter-hours (offsets are multiples of 15 minutes). */
export class ZoneCalendar {
	private readonly format: Intl.DateTimeFormat;

	private readonly quarters = new Map<number, LocalTime>();

	constructor(readonly timeZone: string) {
		this.format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
	}

	/** Local wall time of `seconds` as if it were UTC, in seconds. */
	private wall(seconds: number): { wall: number; parts: Record<string, string> } {
		const parts: Record<string, string> = {};
		for (const part of this.format.formatToParts(seconds * 1000)) parts[part.type] = part.value;
		const wall =
			Date.UTC(
				Number(parts.year),
				Number(parts.month) - 1,
				Number(parts.day),
				Number(parts.hour),
				Number(parts.minute),
				Number(parts.second),
			) / 1000;
		return { wall, parts };
	}

	at(seconds: number): LocalTime {
		const quarter = Math.floor(seconds / 900);
		const known = this.quarters.get(quarter);
		if (known) return known;
		const { wall, parts } = this.wall(quarter * 900);
		const offset = wall - quarter * 900;
		const sign = offset < 0 ? '-' : '+';
		const minutes = Math.abs(offset) / 60;
		const zone = `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
		const day = `${parts.year}-${parts.month}-${parts.day}`;
		const wallHour = wall - (((wall % 3600) + 3600) % 3600);
		const local: LocalTime = {
			day,
			hour: `${day}T${parts.hour}:00${zone}`,
			hourStart: wallHour - offset,
		};
		if (this.quarters.size >= 4096) this.quarters.clear();
		this.quarters.set(quarter, local);
		return local;
	}
}

/**
 * Whether `timeZone` is an IANA time zone name this runtime knows ("America/Sao_Paulo", "UTC").
 */
export function isTimeZone(timeZone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return true;
	} catch {
		return false;
	}
}

/** The local calendar date (`yyyy-MM-dd`) of Unix second `seconds` in `timeZone`. */
export function localDate(timeZone: string, seconds: number): string {
	const parts: Record<string, string> = {};
	const format = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	});
	for (const part of format.formatToParts(seconds * 1000)) parts[part.type] = part.value;
	return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The first Unix second of local day `day` (`yyyy-MM-dd`) in `timeZone`: its midnight, or the first
 * second after it where clocks skipped midnight (São Paulo, 4 November 2018: 01:00).
 */
export function localDayStart(timeZone: string, day: string): number {
	// Local dates only ever move forward with time, so the first second of the day is found by
	// bisection around its UTC midnight (offsets stay within ±18 hours).
	const midnight = Date.parse(`${day}T00:00:00Z`) / 1000;
	let low = midnight - 18 * 3600;
	let high = midnight + 18 * 3600;
	while (low < high) {
		const middle = Math.floor((low + high) / 2);
		if (localDate(timeZone, middle) < day) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The local day `days` after `day` (`yyyy-MM-dd`, may be negative). */
export function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The calendar periods of a report in a time zone (service rules §3.5): `today` from the local
 * midnight to now, `yesterday` the whole local day before, `thisMonth` from the local 1st to now,
 * `lastMonth` the whole local month before; inclusive Unix seconds. Undefined for the other presets
 * (the last 24 hours and the last N days end now wherever one is).
 */
export function localCalendarPeriod(
	preset: string,
	timeZone: string,
	nowSeconds: number,
): { from: number; to: number } | undefined {
	const today = localDate(timeZone, nowSeconds);
	const monthStart = `${today.slice(0, 8)}01`;
	switch (preset) {
		case 'today':
			return { from: localDayStart(timeZone, today), to: nowSeconds };
		case 'yesterday':
			return {
				from: localDayStart(timeZone, addDays(today, -1)),
				to: localDayStart(timeZone, today) - 1,
			};
		case 'thisMonth':
			return { from: localDayStart(timeZone, monthStart), to: nowSeconds };
		case 'lastMonth': {
			const previous = `${addDays(monthStart, -1).slice(0, 8)}01`;
			return {
				from: localDayStart(timeZone, previous),
				to: localDayStart(timeZone, monthStart) - 1,
			};
		}
		default:
			return undefined;
	}
}
