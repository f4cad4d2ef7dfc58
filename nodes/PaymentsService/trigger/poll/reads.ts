import type { IDataObject } from 'n8n-workflow';

import { FIRST_PAGE } from '../../codes/constants';
import { hasNextPage } from '../../reporting/paging';
import { observe } from './detection';
import { TARGET_RECORDS_PER_WINDOW } from './plan';
import type { Observation } from './types';
import type { TimeWindow } from '../../reporting/windows';
import type { PaymentsClient } from '../../transport/client';
import { fetchPage, type ListQuery } from '../../transport/reporting';

/**
 * The polling trigger's reads of its planned windows (service rules §3.1, §3.2).
 *
 * A window is read by peeling: its first page lists the newest records (the service lists newest
 * first); every record on it created after the page's oldest second is complete (a newer one would
 * have been listed before it), so those are kept and the rest of the window, up to and including
 * that second, is read the same way. Each request is a first page: no page depth, no records
 * shifting between pages while the window is read, and a window whose first page is not full
 * costs that one request. After {@link PEELS_BEFORE_CUT} full pages in a row, the rest of a busy
 * window is cut into parts expected to hold about {@link TARGET_RECORDS_PER_WINDOW} records each,
 * and the parts are read side by side, up to `concurrency` requests at once. A second holding more
 * records than a page, or a page not listed newest first, is read page after page instead.
 */

/** What one poll read. */
export interface PollRead {
	/** Each record read once (the newest copy when it arrived twice), from the windows read whole. */
	observations: Observation[];
	/** How many planned windows, from the first, were read whole (in every status asked for). */
	windowsRead: number;
	/** Requests sent. */
	requests: number;
}

/** A piece of work: one window (or a part of one) of a planned window, in one status. */
interface Unit {
	planned: number;
	window: TimeWindow;
	status?: string;
	/** Full first pages peeled from this window in a row. */
	peels: number;
	/** Read page after page (a second busier than a page, or a list not newest first). */
	paged: boolean;
}

/** Full pages peeled in a row before the rest of a window is cut into parts read side by side. */
const PEELS_BEFORE_CUT = 3;

/** Most parts one cut makes (each part is cut again when it proves busy). */
const MAX_PARTS_PER_CUT = 64;

/**
 * Reads `windows` (in plan order) in every status of `statuses` (undefined: every status).
 *
 * @param keep whether an observation may become an event: only those keep their whole record
 *   (the others keep key, status and dates), so memory follows the events, not the look-back.
 * @param outOfTime asked before each request: once true, no new request starts, and the windows
 *   not finished are not counted as read (the next poll reads them again).
 * @throws NodeApiError from the first request that failed (after the client's retries); the other
 *   reads in flight are awaited first, so nothing runs on after the poll ended.
 */
export async function readPlannedWindows(
	client: PaymentsClient,
	query: ListQuery,
	statuses: string[] | undefined,
	windows: TimeWindow[],
	options: ReadOptions,
): Promise<PollRead> {
	const reader = new WindowReader(client, query, statuses, windows, options);
	await reader.readAll();
	return reader.result();
}

/** How {@link readPlannedWindows} reads: see there. */
interface ReadOptions {
	concurrency: number;
	outOfTime: () => boolean;
	keep: (observation: Observation) => boolean;
}

/** One {@link readPlannedWindows} call: the queue of units, the pool that reads them, what they found. */
class WindowReader {
	private readonly queue: Unit[];
	/** Units of each planned window not finished yet. */
	private readonly open: number[];
	/** Whether a planned window had a unit cut short (out of time, or stopped). */
	private readonly cut: boolean[];
	private readonly found: Observation[][];
	private stopped = false;
	private failure: { error: unknown } | undefined;
	private requests = 0;

	constructor(
		private readonly client: PaymentsClient,
		private readonly query: ListQuery,
		statuses: string[] | undefined,
		private readonly windows: TimeWindow[],
		private readonly options: ReadOptions,
	) {
		this.queue = windows.flatMap((window, planned) =>
			(statuses ?? [undefined]).map((status) => ({
				planned,
				window,
				status,
				peels: 0,
				paged: false,
			})),
		);
		this.open = windows.map(() => (statuses ?? [undefined]).length);
		this.cut = windows.map(() => false);
		this.found = windows.map(() => []);
	}

	/** Reads every unit, `concurrency` at a time. @throws the first failure, once none is in flight. */
	async readAll(): Promise<void> {
		// A pool of `concurrency` reads; a unit cut into parts puts them in the queue for the pool.
		const running = new Set<Promise<void>>();
		const pump = () => {
			while (!this.stopped && running.size < this.options.concurrency && this.queue.length) {
				if (this.options.outOfTime()) {
					this.stopped = true;
					return;
				}
				const read: Promise<void> = this.run(this.queue.shift()!).finally(() =>
					running.delete(read),
				);
				running.add(read);
			}
		};
		pump();
		while (running.size) {
			await Promise.race(running);
			pump();
		}
		if (this.failure) throw this.failure.error;
	}

	/** The planned windows read whole, from the first, and each record they listed once. */
	result(): PollRead {
		const { windows, open, cut, found } = this;
		let windowsRead = 0;
		while (windowsRead < windows.length && open[windowsRead] === 0 && !cut[windowsRead])
			windowsRead++;
		const byKey = new Map<string, Observation>();
		for (let planned = 0; planned < windowsRead; planned++) {
			for (const observation of found[planned]) {
				const before = byKey.get(observation.key);
				// A record that moved between pages arrives twice: the newer copy wins (RecordCollector's rule).
				if (!before || (observation.lastChange ?? -Infinity) > (before.lastChange ?? -Infinity))
					byKey.set(observation.key, observation);
			}
			found[planned] = [];
		}
		return { observations: [...byKey.values()], windowsRead, requests: this.requests };
	}

	private async run(unit: Unit): Promise<void> {
		try {
			await this.readUnit(unit);
		} catch (error) {
			this.failure ??= { error };
			this.stopped = true;
		}
	}

	/** Reads a unit's first page, then peels it, splits off its newest second, or pages through it. */
	private async readUnit(unit: Unit): Promise<void> {
		const first = await this.fetch(unit, FIRST_PAGE);
		if (!first.more) {
			this.add(unit, first.records);
			this.open[unit.planned]--;
			return;
		}
		const created = first.records.map(
			(record) => observe(this.query.list, record)?.created ?? Number.NaN,
		);
		const newestFirst = created.every(
			(time, index) => Number.isFinite(time) && (index === 0 || time <= created[index - 1]),
		);
		const oldest = created[created.length - 1];
		if (!unit.paged && newestFirst && created[0] > oldest) {
			this.peel(unit, first.records, oldest);
			return;
		}
		if (!unit.paged && newestFirst && oldest > unit.window.from) {
			// A full page of one second (the newest of the window; nothing newer exists): that second
			// page by page, the older rest peeled.
			this.replace(unit, [
				{ ...unit, window: { from: oldest, to: unit.window.to }, paged: true },
				{ ...unit, window: { from: unit.window.from, to: oldest - 1 }, peels: 0 },
			]);
			return;
		}
		await this.readPaged(unit, first.records);
	}

	/**
	 * Keeps a full first page's records above its `oldest` second (complete: a newer one would have
	 * been listed before them); the rest, that second included, is read next, cut by density after
	 * {@link PEELS_BEFORE_CUT} peels in a row.
	 */
	private peel(unit: Unit, records: IDataObject[], oldest: number): void {
		this.add(unit, records, oldest);
		const rest: TimeWindow = { from: unit.window.from, to: oldest };
		const peels = unit.peels + 1;
		const parts =
			peels >= PEELS_BEFORE_CUT
				? cutByDensity(rest, records.length, unit.window.to - oldest + 1)
				: [rest];
		this.replace(
			unit,
			parts.map((window) => ({ ...unit, window, peels: parts.length > 1 ? 0 : peels })),
		);
	}

	/** Page after page, from the first page already read (`records`), until the last or out of time. */
	private async readPaged(unit: Unit, records: IDataObject[]): Promise<void> {
		this.add(unit, records);
		for (let page = FIRST_PAGE + 1; ; page++) {
			if (this.stopped || this.options.outOfTime()) {
				this.stopped = true;
				this.cut[unit.planned] = true;
				return;
			}
			const next = await this.fetch(unit, page);
			this.add(unit, next.records);
			if (!next.more) {
				this.open[unit.planned]--;
				return;
			}
		}
	}

	private async fetch(unit: Unit, page: number) {
		this.requests++;
		const envelope = await fetchPage(
			this.client,
			{ ...this.query, status: unit.status },
			unit.window,
			page,
			undefined,
			() => this.failure !== undefined,
		);
		return { records: envelope.data ?? [], more: hasNextPage(envelope) };
	}

	/** Adds the observations of `records` created after `after` (Unix seconds) to the unit's window. */
	private add(unit: Unit, records: IDataObject[], after = Number.NEGATIVE_INFINITY): void {
		for (const record of records) {
			const observation = observe(this.query.list, record);
			if (!observation || observation.created <= after) continue;
			if (!this.options.keep(observation)) observation.record = {} as IDataObject;
			this.found[unit.planned].push(observation);
		}
	}

	/** Puts `units` in the queue in place of `unit`. */
	private replace(unit: Unit, units: Unit[]): void {
		this.open[unit.planned] += units.length - 1;
		// Ahead of later windows, so windows finish in plan order as far as possible.
		const at = this.queue.findIndex((waiting) => waiting.planned > unit.planned);
		this.queue.splice(at < 0 ? this.queue.length : at, 0, ...units);
	}
}

/**
 * `window` cut into equal parts expected to hold about {@link TARGET_RECORDS_PER_WINDOW} records
 * each, from a density of `records` in `seconds` (the page just peeled); [window] when it is
 * expected to hold fewer than two parts' worth, or is one second long.
 */
function cutByDensity(window: TimeWindow, records: number, seconds: number): TimeWindow[] {
	const span = window.to - window.from + 1;
	const expected = (records * span) / Math.max(1, seconds);
	const parts = Math.min(Math.ceil(expected / TARGET_RECORDS_PER_WINDOW), MAX_PARTS_PER_CUT, span);
	if (parts < 2) return [window];
	const result: TimeWindow[] = [];
	for (let index = 0; index < parts; index++) {
		const from = window.from + Math.floor((span * index) / parts);
		const to = window.from + Math.floor((span * (index + 1)) / parts) - 1;
		if (to >= from) result.push({ from, to });
	}
	return result;
}
