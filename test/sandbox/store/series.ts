/**
 * A merchant's cashouts held compactly, for the volume benchmarks (a million a day, seven million
 * in a look-back): the i-th is created at `from + i × every` (floored to the second) with id
 * `firstId + i`, and only its status and `lastChangeDate` are kept, in typed arrays (17 bytes a
 * record). Records are built when a page lists them. Served by GET /v1/cashouts in place of the
 * merchant's ordinary cashouts (service rules §3.1: 50 a page, newest first; §3.2: creation date).
 */
import { toIsoSeconds } from '../clock';
import { MAX_ROWS_PER_PAGE } from '../constants';
import type { CashoutRecord } from '../types';
import { merchantById } from '../reference';

/** Where a series starts and how densely it is created. */
export interface CashoutSeriesSpec {
	idMerchant: number;
	/** Creation of the first cashout, ms since epoch. */
	fromMs: number;
	/** Milliseconds between two creations (under 1000: several in one second). */
	everyMs: number;
	/** Id of the first cashout. */
	firstId: number;
}

/** Status values a series record can take, by index. */
const STATUSES = ['PENDING', 'ON_HOLD', 'DELIVERED', 'COMPLETED', 'REJECTED', 'CANCELLED'];

export class CashoutSeries {
	private created = new Float64Array(1 << 16);
	private lastChange = new Float64Array(1 << 16);
	private status = new Uint8Array(1 << 16);
	/** Records created so far. */
	count = 0;

	constructor(readonly spec: CashoutSeriesSpec) {
		merchantById(spec.idMerchant);
	}

	/** Creation second of the i-th record. */
	private createdAt(index: number): number {
		return Math.floor((this.spec.fromMs + index * this.spec.everyMs) / 1000);
	}

	/** Creates every record of the series due at or before `untilMs`; returns how many were added. */
	extend(untilMs: number): number {
		const due = Math.max(0, Math.floor((untilMs - this.spec.fromMs) / this.spec.everyMs) + 1);
		if (due <= this.count) return 0;
		this.reserve(due);
		for (let index = this.count; index < due; index++) {
			const second = this.createdAt(index);
			this.created[index] = second;
			this.lastChange[index] = second;
			this.status[index] = 0;
		}
		const added = due - this.count;
		this.count = due;
		return added;
	}

	/** Whether `id` is one of the series' records. */
	has(id: number): boolean {
		return id >= this.spec.firstId && id < this.spec.firstId + this.count;
	}

	/**
	 * Sets the status of record `id` at `nowMs`; `moveLastChange` false leaves `lastChangeDate`.
	 * @throws Error for an id outside the series or a status it does not know.
	 */
	setStatus(id: number, status: string, nowMs: number, moveLastChange = true): string {
		if (!this.has(id)) throw new Error(`unknown cashout ${id}`);
		const code = STATUSES.indexOf(status);
		if (code < 0) throw new Error(`a series cashout cannot be ${status}`);
		const index = id - this.spec.firstId;
		this.status[index] = code;
		if (moveLastChange)
			this.lastChange[index] = Math.max(this.created[index], Math.floor(nowMs / 1000));
		return toIsoSeconds(this.lastChange[index] * 1000);
	}

	/**
	 * One page of the records created in [fromS, toS], newest first (creation, then id, descending),
	 * those whose status passes `statusFilter` (upper case; undefined: all).
	 */
	page(fromS: number, toS: number, page: number, statusFilter?: string) {
		// Ascending creation by index: the first index created at or after a second, by search.
		const firstAtLeast = (second: number) => {
			let low = 0;
			let high = this.count;
			while (low < high) {
				const middle = (low + high) >>> 1;
				if (this.created[middle] < second) low = middle + 1;
				else high = middle;
			}
			return low;
		};
		const low = firstAtLeast(fromS);
		const high = firstAtLeast(toS + 1) - 1;
		const data: CashoutRecord[] = [];
		const wanted = statusFilter === undefined ? -1 : STATUSES.indexOf(statusFilter);
		if (statusFilter !== undefined && wanted < 0)
			return { data, page, rows: 0, maxRows: MAX_ROWS_PER_PAGE };
		let skip = page * MAX_ROWS_PER_PAGE;
		for (let index = high; index >= low && data.length < MAX_ROWS_PER_PAGE; index--) {
			if (wanted >= 0 && this.status[index] !== wanted) continue;
			if (skip > 0) {
				skip--;
				continue;
			}
			data.push(this.record(index));
		}
		return { data, page, rows: data.length, maxRows: MAX_ROWS_PER_PAGE };
	}

	private record(index: number): CashoutRecord {
		const merchant = merchantById(this.spec.idMerchant);
		const id = this.spec.firstId + index;
		return {
			idCashout: id,
			externalId: `series-${id}`,
			creationDate: toIsoSeconds(this.created[index] * 1000),
			country: 'BR',
			currency: 'BRL',
			amount: 250,
			creditedCurrency: 'BRL',
			creditedAmount: 250,
			merchantCurrency: 'USD',
			merchantAmount: 50,
			feeCurrency: 'USD',
			fee: 1,
			tax: 0.19,
			lastChangeDate: toIsoSeconds(this.lastChange[index] * 1000),
			status: STATUSES[this.status[index]],
			clientDocument: '52998224725',
			flags: [],
			idMerchant: merchant.id,
			merchantName: merchant.name,
			reason: '',
			existVoucher: false,
		};
	}

	private reserve(size: number): void {
		if (size <= this.created.length) return;
		let capacity = this.created.length;
		while (capacity < size) capacity *= 2;
		const grow = <T extends Float64Array | Uint8Array>(old: T, next: T): T => {
			next.set(old.subarray(0, this.count));
			return next;
		};
		this.created = grow(this.created, new Float64Array(capacity));
		this.lastChange = grow(this.lastChange, new Float64Array(capacity));
		this.status = grow(this.status, new Uint8Array(capacity));
	}
}
