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
export class RecordCollector<T extends object = Record<string, unknown>> {
	// The records themselves, and where each key's record sits: no wrapper object per record.
	private readonly order: T[] = [];

	private readonly index = new Map<string, number>();

	/**
	 * @param keyOf the record's identity (service rules §3.4); undefined: kept without de-duplication.
	 * @param changeOf when the record last changed, any unit where later is larger; by default its
	 *   `lastChangeDate` (records without one sort oldest).
	 */
	constructor(
		private readonly keyOf: (record: T) => string | undefined,
		private readonly changeOf: (record: T) => number = (record) =>
			changeTime(record as Record<string, unknown>),
	) {}

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
		if (this.changeOf(record) > this.changeOf(this.order[at])) this.order[at] = record;
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

/**
 * Each record of one window once, holding only that window (service rules §3.1, §3.2). A record's
 * creation date never changes and windows never overlap, so all copies of a record arrive within
 * one window: its ids are forgotten once it ends, and what is held is bounded by one window's pages.
 * The caller keeps a value per record (`V`: a row, an entry of a total) made from the winning copy:
 * the newer `lastChangeDate`, the first to arrive on a tie. An `undefined` value (outside a filter)
 * lets a newer copy decide again. Records without a key are each kept.
 */
export class WindowRecords<V> {
	private readonly byKey = new Map<string, { change: number; value: V | undefined }>();

	private readonly unkeyed: V[] = [];

	constructor(
		private readonly keyOf: (record: Record<string, unknown>) => string | undefined,
		private readonly keep: (record: Record<string, unknown>) => V | undefined,
	) {}

	/** Adds one copy of a record read in this window. */
	add(record: Record<string, unknown>): void {
		const key = this.keyOf(record);
		if (key === undefined) {
			const value = this.keep(record);
			if (value !== undefined) this.unkeyed.push(value);
			return;
		}
		const change = changeTime(record);
		const held = this.byKey.get(key);
		if (held && !(change > held.change)) return;
		this.byKey.set(key, { change, value: this.keep(record) });
	}

	/** Records held (each key once, plus the records without a key). */
	get size(): number {
		return this.byKey.size + this.unkeyed.length;
	}

	/** The values of the window's records, each record once, in first-arrival order. */
	values(): V[] {
		const values: V[] = [];
		for (const { value } of this.byKey.values()) if (value !== undefined) values.push(value);
		for (const value of this.unkeyed) values.push(value);
		return values;
	}
}
