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
	return new Date(floorToSecond(ms)).toISOString().replace(/\.\d{3}Z$/, 'Z');
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
