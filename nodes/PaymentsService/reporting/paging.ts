import { MAX_ROWS_PER_PAGE } from '../codes/service';

/** One page of a reporting list (service rules §3.1). Every field may be missing from a bad answer. */
export interface PageEnvelope<T = Record<string, unknown>> {
	data?: T[];
	page?: number;
	rows?: number;
	maxRows?: number;
}

/**
 * Whether another page must be requested after `envelope`: the service asks for page + 1 while
 * `rows` equals `maxRows` (service rules §3.1). `rows` falls back to the length of
 * `data`, `maxRows` to 50. An empty page never asks for more.
 */
export function hasNextPage(envelope: PageEnvelope<unknown>): boolean {
	const rows = typeof envelope.rows === 'number' ? envelope.rows : (envelope.data?.length ?? 0);
	const maxRows =
		typeof envelope.maxRows === 'number' && envelope.maxRows > 0
			? envelope.maxRows
			: MAX_ROWS_PER_PAGE;
	return rows > 0 && rows >= maxRows;
}

/**
 * The oldest and newest creation dates on a page, in Unix seconds clamped to `window`, read from
 * each record's `dateField` (ISO 8601). Dates in the service's fixed format (`yyyy-MM-ddTHH:mm:ssZ`)
 * compare as text, so only the two extremes are parsed. Undefined when no record has a readable date.
 * Guides how a read splits its period (service rules §3.2); never decides which records are output.
 */
export function pageDates(
	records: ReadonlyArray<Record<string, unknown>>,
	dateField: string,
	window: { from: number; to: number },
): { oldest: number; newest: number } | undefined {
	let low: string | undefined;
	let high: string | undefined;
	for (const record of records) {
		const value = record[dateField];
		if (typeof value !== 'string') continue;
		if (low === undefined || value.length !== low.length) {
			// First date, or a different format: fall back to parsing every date.
			if (low !== undefined) return parsedDates(records, dateField, window);
			low = high = value;
		} else if (value < low) low = value;
		else if (value > (high as string)) high = value;
	}
	if (low === undefined || high === undefined) return undefined;
	const oldest = Date.parse(low);
	const newest = Date.parse(high);
	if (Number.isNaN(oldest) || Number.isNaN(newest)) return parsedDates(records, dateField, window);
	return clampDates(Math.floor(oldest / 1000), Math.floor(newest / 1000), window);
}

function parsedDates(
	records: ReadonlyArray<Record<string, unknown>>,
	dateField: string,
	window: { from: number; to: number },
) {
	let oldest = Number.POSITIVE_INFINITY;
	let newest = Number.NEGATIVE_INFINITY;
	for (const record of records) {
		const ms =
			typeof record[dateField] === 'string' ? Date.parse(record[dateField] as string) : Number.NaN;
		if (Number.isNaN(ms)) continue;
		oldest = Math.min(oldest, Math.floor(ms / 1000));
		newest = Math.max(newest, Math.floor(ms / 1000));
	}
	return oldest === Number.POSITIVE_INFINITY ? undefined : clampDates(oldest, newest, window);
}

function clampDates(oldest: number, newest: number, window: { from: number; to: number }) {
	const clamp = (seconds: number) => Math.min(window.to, Math.max(window.from, seconds));
	return { oldest: clamp(oldest), newest: clamp(newest) };
}
