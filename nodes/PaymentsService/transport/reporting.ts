import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { FIRST_PAGE, MAX_PAGES_PER_WINDOW } from '../helpers/constants';
import { mapWithConcurrency } from '../helpers/concurrency';
import { recordKey, type ReportingListDefinition } from '../helpers/lists';
import { hasNextPage, RecordCollector, type PageEnvelope } from '../helpers/paging';
import { splitIntoWindows, type TimeWindow } from '../helpers/windows';
import type { PaymentsClient } from './client';

/** What to list: a reporting list, its filters (query names as the spec spells them) and a status. */
export interface ListQuery {
	list: ReportingListDefinition;
	/** Extra query parameters: country, paymentMethod, clientDocument, type. Empty values are dropped. */
	filters?: IDataObject;
	/** Status filter; sent under the list's own parameter name and also applied to the records. */
	status?: string;
}

const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** "2026-01-01T00:00:00Z – 2026-02-28T23:59:59Z": a window as a merchant reads it. */
export function describeWindow(window: TimeWindow): string {
	return `${isoSeconds(window.from)} – ${isoSeconds(window.to)}`;
}

/** Whether `record` passes the status filter (case-insensitive); no filter passes everything. */
export function matchesStatus(record: IDataObject, status: string | undefined): boolean {
	if (!status) return true;
	return typeof record.status === 'string' && record.status.toUpperCase() === status.toUpperCase();
}

/**
 * Requests one page of a reporting list for one window (spec: List endpoints (reporting)).
 * @throws NodeApiError on a failed request or an answer that is not a page envelope.
 */
export async function fetchPage(
	client: PaymentsClient,
	query: ListQuery,
	window: TimeWindow,
	page: number,
	itemIndex?: number,
): Promise<PageEnvelope<IDataObject>> {
	const { list } = query;
	const qs: IDataObject = { from: window.from, to: window.to, page };
	for (const [name, value] of Object.entries(query.filters ?? {})) {
		if (value !== undefined && value !== null && value !== '') qs[name] = value;
	}
	if (query.status && list.statusParam) qs[list.statusParam] = query.status;
	const action = `Listing ${list.label} records created ${describeWindow(window)} (page ${page})`;
	const envelope = await client.request<PageEnvelope<IDataObject>>(
		'session',
		{ method: 'GET', path: list.path, qs },
		{
			action,
			itemIndex,
			explain: (failure) =>
				failure.httpStatus === 404 && list.alternativePath
					? `${action} failed: the service has no ${list.path} (404). Newer versions of the API serve this list at ${list.alternativePath}; check the credential's Base URL and the service version`
					: undefined,
		},
	);
	if (!envelope || typeof envelope !== 'object' || !Array.isArray(envelope.data)) {
		throw new NodeApiError(
			client.context.getNode(),
			{ message: 'unexpected answer' },
			{
				message: `${action}: the service's answer is not a page of records`,
				description: `Expected {data, page, rows, maxRows}; check that the credential's Base URL points at the reporting API (paths /v1).`,
				itemIndex,
			},
		);
	}
	return envelope;
}

/** Result of reading one window. */
export interface WindowRead {
	window: TimeWindow;
	records: IDataObject[];
	/** Pages requested. */
	pages: number;
	/** True when the last page was short (every record of the window was read). */
	complete: boolean;
}

/**
 * Reads every page of one window, from page 0 until a page has fewer rows than `maxRows`.
 * `onPage` sees each page's records as they arrive. Stops early, with `complete: false`, when
 * `shouldStop()` says so between pages. The first page may be supplied when it was already fetched.
 *
 * @throws NodeApiError when a request fails, or after {@link MAX_PAGES_PER_WINDOW} full pages.
 */
export async function readWindow(
	client: PaymentsClient,
	query: ListQuery,
	window: TimeWindow,
	options: {
		itemIndex?: number;
		onPage?: (records: IDataObject[]) => void;
		shouldStop?: () => boolean;
		firstPage?: PageEnvelope<IDataObject>;
	} = {},
): Promise<WindowRead> {
	const records: IDataObject[] = [];
	let page = FIRST_PAGE;
	let pages = 0;
	for (;;) {
		const envelope =
			page === FIRST_PAGE && options.firstPage
				? options.firstPage
				: await fetchPage(client, query, window, page, options.itemIndex);
		pages++;
		const data = envelope.data ?? [];
		records.push(...data);
		options.onPage?.(data);
		if (!hasNextPage(envelope)) return { window, records, pages, complete: true };
		if (options.shouldStop?.()) return { window, records, pages, complete: false };
		if (pages >= MAX_PAGES_PER_WINDOW) {
			throw new NodeApiError(
				client.context.getNode(),
				{ message: 'too many pages' },
				{
					message: `Listing ${query.list.label} records created ${describeWindow(window)} did not end after ${MAX_PAGES_PER_WINDOW} full pages`,
					description: 'Narrow the period or add filters; the service kept answering full pages.',
					itemIndex: options.itemIndex,
				},
			);
		}
		page++;
	}
}

/** How Get Many reads a period. */
export interface FetchListOptions {
	/** Maximum records to return; undefined = Return All. */
	limit?: number;
	/** Windows read at once when returning all (at least 1). */
	concurrency: number;
	itemIndex?: number;
}

/**
 * Lists the records created in `period` (inclusive Unix seconds): splits it into windows strictly
 * shorter than 60 days, reads each window page by page, keeps each record once (records move
 * between pages while a list is read), and keeps only records matching the status filter even if
 * the service ignored it (API-NOTES: Conflicts).
 *
 * Order: newest window first, records in the service's order within a window; stable whatever
 * order concurrent windows finish in. Returning all, the first page is read alone (so one login
 * serves the run) and then up to `concurrency` windows are read at once; with a limit, windows are
 * read one after the other until the limit is reached, and no further request is made.
 */
export async function fetchReportingList(
	client: PaymentsClient,
	query: ListQuery,
	period: TimeWindow,
	options: FetchListOptions,
): Promise<IDataObject[]> {
	const windows = splitIntoWindows(period.from, period.to).reverse();
	const collector = new RecordCollector<IDataObject>((record) => recordKey(query.list, record));
	const accept = (records: IDataObject[]) => {
		for (const record of records) {
			if (matchesStatus(record, query.status)) collector.add(record);
		}
	};
	if (options.limit !== undefined) {
		const limit = options.limit;
		for (const window of windows) {
			if (collector.size >= limit) break;
			await readWindow(client, query, window, {
				itemIndex: options.itemIndex,
				onPage: accept,
				shouldStop: () => collector.size >= limit,
			});
		}
		return collector.records().slice(0, options.limit);
	}
	const firstPage = await fetchPage(client, query, windows[0], FIRST_PAGE, options.itemIndex);
	const reads = await mapWithConcurrency(windows, options.concurrency, async (window, index) =>
		await readWindow(client, query, window, {
			itemIndex: options.itemIndex,
			firstPage: index === 0 ? firstPage : undefined,
		}),
	);
	for (const read of reads) accept(read.records);
	return collector.records();
}
