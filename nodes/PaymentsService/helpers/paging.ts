import { MAX_ROWS_PER_PAGE } from './constants';

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
		typeof envelope.maxRows === 'number' && envelope.maxRows > 0 ? envelope.maxRows : MAX_ROWS_PER_PAGE;
	return rows > 0 && rows >= maxRows;
}

function changeTime(record: Record<string, unknown>): number {
	const value = record.lastChangeDate;
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * Collects records from pages and windows, in arrival order, keeping each record once.
 *
 * Records can move between pages while a list is read (new records push older ones to the next
 * page), so the same record may arrive twice. The first arrival fixes its position; a later copy
 * replaces the data only when its `lastChangeDate` is newer. Records without a key are all kept.
 */
export class RecordCollector<T extends Record<string, unknown> = Record<string, unknown>> {
	private readonly order: Array<{ key?: string; record: T }> = [];

	private readonly index = new Map<string, number>();

	constructor(private readonly keyOf: (record: T) => string | undefined) {}

	/** Adds one record; returns true when it was new. */
	add(record: T): boolean {
		const key = this.keyOf(record);
		if (key === undefined) {
			this.order.push({ record });
			return true;
		}
		const at = this.index.get(key);
		if (at === undefined) {
			this.index.set(key, this.order.length);
			this.order.push({ key, record });
			return true;
		}
		if (changeTime(record) > changeTime(this.order[at].record)) {
			this.order[at] = { key, record };
		}
		return false;
	}

	/** Number of distinct records collected. */
	get size(): number {
		return this.order.length;
	}

	/** The distinct records in first-arrival order. */
	records(): T[] {
		return this.order.map((entry) => entry.record);
	}
}
