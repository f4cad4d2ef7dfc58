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
 * Many, the reports, the polling trigger and the recovery lookups; an async iterator over pages, so
 * the consumer decides what to keep and when to stop (`for await … break`). De-duplication, status
 * filtering and limits are the consumer's steps ({@link completedWindows} for a streamed read).
 */

/**
 * Reads a period with windows that follow the data (service rules §3.2): reads up to `concurrency`
 * windows at once and, after each full page, may divide the window being read (see `planSplit`),
 * so a busy period, or a peak within it, is spread over the read workers. `windows` (newest first)
 * are the starting windows; each is read from page 0 to its last page, unless it is split: then a
 * `split` event says so, the window is read no further, and its parts are read instead (before the
 * windows still waiting, so one worker reads newest first). A consumer that keeps each window's
 * records apart and drops those of a split window outputs every record of the period once per
 * window it belongs to: every second of the period is in exactly one window that is read to its end.
 *
 * The estimate that guides splitting uses the records' `dateField` (creation dates) and assumes
 * newest first; when the dates are missing or the order differs, windows are simply not split,
 * except at `MAX_PAGES_PER_WINDOW` (codes/defaults.ts) full pages, where a window is halved rather
 * than failed. With `concurrency` 1 a window is split only when it would otherwise near that cap,
 * so a read costs the same requests as reading each window page after page, and a consumer that
 * stops early (a limit) sends no request it did not ask for: a window's next page is requested
 * once the previous one was taken.
 *
 * With `firstPages` (the polling trigger), each request is a first page: a full first page listed newest
 * first is posted as a `split` of the window into the seconds it holds completely, then that part's
 * one page (the records created after the page's oldest second, `last`), and the rest of the window,
 * that second included, is read the same way; after a few such splits in a row the rest is divided by
 * density into parts of about `windowPages` pages. A consumer that keeps windows apart as above
 * needs nothing more.
 *
 * Stops at the first failure: no new request starts, the requests in flight are awaited and their
 * pages discarded, then the failure is thrown (it names the window and the page). A consumer that
 * breaks out of its loop stops the read the same way.
 * @throws NodeApiError when a request fails, or when a one-second window returns
 *   `MAX_PAGES_PER_WINDOW` (codes/defaults.ts) full pages.
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
 * Reads a period as {@link readPeriodPages} does (the windows Get Many reads, up to `concurrency`
 * at once, divided as their pages arrive) and yields each window once it was read to its end, with
 * one value per record (service rules §3.1, §3.2):
 *
 * - a record's copies within a window count once: the copy with the newer `lastChangeDate` wins (a
 *   record that changed while the window was read counts as it was last seen), and `valueOf` is
 *   asked about the winning copy only, so a filter judges the record as it ended;
 * - a window that is divided yields nothing: its parts, read from page 0, hold its records;
 * - nothing of a window is held after it is yielded: no id of the period piles up. What is held is
 *   the windows being read, each capped at about `windowPages` pages
 *   ({@link STREAM_WINDOW_PAGES} by default) when their creation dates allow an estimate, and never
 *   beyond `MAX_PAGES_PER_WINDOW` (codes/defaults.ts).
 *
 * The windows are yielded in the order they end. The consumer takes one window at a time; the next
 * pages are read while it works (no read ahead beyond one page per worker).
 *
 * @throws NodeApiError as {@link readPeriodPages}: the first failed request stops the read, and
 *   nothing after it is yielded (a window that did not end is never yielded).
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
		valueOf: (record: Record<string, unknown>) => V | undefined;
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
			entry = { records: new WindowRecords<V>(options.keyOf, options.valueOf), copies: 0 };
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
