import { MS_PER_SECOND } from './constants';
import type { SandboxClock } from './types';

/**
 * Manual clock of the sandbox (ms since epoch). Time does not flow by itself: only
 * {@link ManualClock.advance} and {@link ManualClock.set} move it. Session idle expiry, record
 * visibility, creation dates, the flagForReview age check and the notification retry schedule all use it. The X-Date check of the
 * deposit API does NOT (it compares with the system clock, as a client signs with its wall clock).
 */
export class ManualClock implements SandboxClock {
	private current: number;
	private readonly listeners: Array<(now: number) => void> = [];

	/** @param start initial time, ms since epoch. */
	constructor(start: number) {
		this.current = start;
	}

	/** Current sandbox time, ms since epoch. */
	now(): number {
		return this.current;
	}

	/** Moves the clock forward by `ms` (negative values move it back), then calls the listeners. Throws on a non-finite value. */
	advance(ms: number): void {
		if (!Number.isFinite(ms)) throw new Error(`clock.advance: not a finite number: ${ms}`);
		this.current += ms;
		this.changed();
	}

	/** Sets the clock to `ms` since epoch, then calls the listeners. Throws on a non-finite value. */
	set(ms: number): void {
		if (!Number.isFinite(ms)) throw new Error(`clock.set: not a finite number: ${ms}`);
		this.current = ms;
		this.changed();
	}

	/**
	 * Registers `listener`, called synchronously with the new time after every advance/set (the
	 * notification center uses it to send retries that became due). Listeners must not throw.
	 */
	onChange(listener: (now: number) => void): void {
		this.listeners.push(listener);
	}

	private changed(): void {
		for (const listener of this.listeners) listener(this.current);
	}
}

/** Floors ms to the whole second. */
export function floorToSecond(ms: number): number {
	return Math.floor(ms / MS_PER_SECOND) * MS_PER_SECOND;
}

/** Formats ms as the reporting timestamp `yyyy-MM-ddTHH:mm:ssZ` (UTC, service rules §3.4). */
export function toIsoSeconds(ms: number): string {
	const seconds = Math.floor(ms / MS_PER_SECOND);
	const days = Math.floor(seconds / 86_400);
	// Years 1970..9999 are formatted by hand (the sandbox formats tens of thousands of dates when it
	// generates its dataset, and Date#toISOString dominated that); others go through Date.
	if (!(days >= 0 && days < 2_932_897))
		return new Date(seconds * MS_PER_SECOND).toISOString().slice(0, -5) + 'Z';
	const inDay = seconds - days * 86_400;
	return `${civilDate(days)}T${TWO_DIGITS[Math.floor(inDay / 3600)]}:${TWO_DIGITS[Math.floor((inDay % 3600) / 60)]}:${TWO_DIGITS[inDay % 60]}Z`;
}

/** "00" to "59". */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
/** `yyyy-MM-dd` by days since 1970-01-01, as formatted so far (a dataset spans a few hundred days). */
const civilDates = new Map<number, string>();

/** `yyyy-MM-dd` of `days` since 1970-01-01 (H. Hinnant's algorithm; the era starts on 0000-03-01). */
function civilDate(days: number): string {
	let text = civilDates.get(days);
	if (text !== undefined) return text;
	const z = days + 719_468;
	const era = Math.floor(z / 146_097);
	const doe = z - era * 146_097;
	const yoe = Math.floor(
		(doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
	);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
	text = `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`;
	if (civilDates.size >= 100_000) civilDates.clear();
	civilDates.set(days, text);
	return text;
}

/** Formats ms as `yyyy-MM-dd HH:mm:ss` (UTC; service rules §5.1, payment_info dates). */
export function toSpaceDateTime(ms: number): string {
	return toIsoSeconds(ms).replace('T', ' ').replace('Z', '');
}

/** Parses an ISO 8601 timestamp to ms; throws when it is not a valid date. */
export function parseTimestamp(value: string): number {
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) throw new Error(`not a timestamp: ${value}`);
	return ms;
}
