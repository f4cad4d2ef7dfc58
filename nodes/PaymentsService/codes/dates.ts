/**
 * The one way dates are written: ISO 8601 in UTC to the second, `2026-11-02T12:00:00Z`, as the
 * service writes its own dates and the deposit API's `X-Date` (service rules §2.3, §3.4).
 * Milliseconds are dropped, not rounded.
 */
export function isoSecondsOf(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** {@link isoSecondsOf} for a time in Unix seconds. */
export function isoSeconds(unixSeconds: number): string {
	return isoSecondsOf(new Date(unixSeconds * 1000));
}
