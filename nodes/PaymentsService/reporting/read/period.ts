import type { TimeWindow } from './windows';
import type { PaymentsClient } from '../../transport/client';
import { fromProducers } from './channel';
import { WindowReader, type ReadOptions } from './windowReader';
import {
	describeWindow,
	fetchPage,
	type ListPage,
	type ListQuery,
	type PeriodEvent,
} from './pages';
import { WindowRecords } from './deduplication';

export { describeWindow, fetchPage, type ListPage, type ListQuery, type PeriodEvent };

/**
 * Reading the reporting lists (service rules §3): one reader, {@link readPeriodPages}, for Get
 * Many, the reports (and Balance → Reconcile), the polling trigger and the creations' look-ups of the record a key made
 * (idempotency/lookUp.ts); an async iterator over pages, so the consumer decides what to keep and
 * when to stop (`for await … break`). De-duplication, status filtering and limits are the
 * consumer's steps ({@link completedWindows} for a streamed read).
 */

/**
 * Reads a period with windows that follow the data (service rules §3.2; docs/reading-lists.md):
 * up to `concurrency` windows at once, newest first; a window with a full page may be divided
 * (`planSplit`, a `split` event) and its parts read instead, every second in exactly one window
 * read to its end. Without usable creation dates a window is only halved, at `MAX_PAGES_PER_WINDOW` full
 * pages. At `concurrency` 1 a next page is requested only once the previous one was taken (a
 * consumer that stops early sends no extra request); with `firstPages` (the polling trigger) each
 * request is a first page (windowReader.ts).
 * @throws NodeApiError at the first failed request (naming the window and the page; pages in flight
 *   are dropped), or when a one-second window returns `MAX_PAGES_PER_WINDOW` full pages.
 */
export async function* readPeriodPages(
	client: PaymentsClient,
	query: ListQuery,
	windows: readonly TimeWindow[],
	options: ReadOptions,
): AsyncGenerator<PeriodEvent> {
	// The queue, the windows being read, the density estimate and the idle workers: see WindowReader.
	const reader = new WindowReader(client, query, windows, options);
	yield* fromProducers<PeriodEvent>(
		reader.concurrency,
		(channel) => reader.work(channel),
		reader.wakeIdle,
	);
}

/** One window of a period read to its end: its records' values, each record once. */
export interface CompletedWindow<V> {
	window: TimeWindow;
	/** The window's place among the windows read (see `PeriodEvent.path`). */
	path: readonly number[];
	/** The values of its records (see {@link WindowRecords}), in first-arrival order. */
	values: V[];
	/** Copies of records the window's pages held (duplicates included). */
	copies: number;
}

/**
 * Pages a window of a streamed read holds at most, as a goal (service rules §3.2): 40 pages are
 * 2,000 records. A consumer holds one value per record of each window being read until the window
 * ends, so with 8 windows at once at most about 16,000 values are held, however long the period.
 */
export const STREAM_WINDOW_PAGES = 40;

/**
 * Reads a period as {@link readPeriodPages} does and yields each window once it was read to its
 * end, in the order they end, with one value per record (service rules §3.1, §3.2): of a record's
 * copies within a window the newer `lastChangeDate` wins and only it is passed to `keep`; a
 * divided window yields nothing (its parts do). Nothing of a window is held after it is yielded;
 * the windows being read are capped at about `windowPages` pages ({@link STREAM_WINDOW_PAGES}).
 * The next pages are read while the consumer works, one page ahead per worker.
 * @throws NodeApiError as {@link readPeriodPages}; a window that did not end is never yielded.
 */
export async function* completedWindows<V>(
	client: PaymentsClient,
	query: ListQuery,
	windows: readonly TimeWindow[],
	options: {
		concurrency: number;
		itemIndex?: number;
		windowPages?: number;
		keyOf: (record: Record<string, unknown>) => string | undefined;
		keep: (record: Record<string, unknown>) => V | undefined;
	},
): AsyncGenerator<CompletedWindow<V>> {
	const reading = new Map<string, { records: WindowRecords<V>; copies: number }>();
	const events = readPeriodPages(client, query, windows, {
		concurrency: options.concurrency,
		itemIndex: options.itemIndex,
		dateField: query.list.recordDateField,
		windowPages: options.windowPages ?? STREAM_WINDOW_PAGES,
	});
	for await (const event of events) {
		const key = event.path.join('.');
		if (event.kind === 'split') {
			reading.delete(key);
			continue;
		}
		let entry = reading.get(key);
		if (!entry) {
			entry = { records: new WindowRecords<V>(options.keyOf, options.keep), copies: 0 };
			reading.set(key, entry);
		}
		for (const record of event.page.records) entry.records.add(record);
		entry.copies += event.page.records.length;
		if (event.page.last) {
			reading.delete(key);
			yield {
				window: event.page.window,
				path: event.path,
				values: entry.records.values(),
				copies: entry.copies,
			};
		}
	}
}
