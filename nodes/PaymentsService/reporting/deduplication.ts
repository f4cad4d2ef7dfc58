/*
 * De-duplication of records read from pages and windows (service rules §3.1: records move between
 * pages while a list is read).
 */

/** A record's `lastChangeDate` in ms; records without one sort oldest. */
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
	// The records themselves, and where each key's record sits: no wrapper object per record.
	private readonly order: T[] = [];

	private readonly index = new Map<string, number>();

	constructor(private readonly keyOf: (record: T) => string | undefined) {}

	/** Adds one record; returns true when it was new. */
	add(record: T): boolean {
		const key = this.keyOf(record);
		if (key === undefined) {
			this.order.push(record);
			return true;
		}
		const at = this.index.get(key);
		if (at === undefined) {
			this.index.set(key, this.order.length);
			this.order.push(record);
			return true;
		}
		if (changeTime(record) > changeTime(this.order[at])) this.order[at] = record;
		return false;
	}

	/** Number of distinct records collected. */
	get size(): number {
		return this.order.length;
	}

	/** The distinct records in first-arrival order: a snapshot, later additions do not change it. */
	records(): T[] {
		return this.order.slice();
	}
}
