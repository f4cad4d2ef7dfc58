import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { isoSeconds } from '../../codes/dates';
import { MAX_ROWS_PER_PAGE } from '../../codes/service';
import type { ReportingListDefinition } from '../lists';
import type { TimeWindow } from './windows';
import type { PaymentsClient } from '../../transport/client';

/**
 * One page of a reporting list (service rules §3.1, §3.2): what to list, the request for one page of
 * one window, and what the period readers report. Shared by period.ts and windowReader.ts.
 */

/** What to list: a reporting list, its filters (query names as the service spells them) and statuses. */
export interface ListQuery {
	list: ReportingListDefinition;
	/** Extra query parameters: country, paymentMethod, clientDocument, type. Empty values are dropped. */
	filters?: IDataObject;
	/**
	 * Status to ask the service for, under the list's own parameter name (service rules §3.3). The
	 * service may ignore it, so a consumer that needs the status checks the records too.
	 */
	status?: string;
}

/** One page of one window, as it arrived. */
export interface ListPage {
	window: TimeWindow;
	/** Position of `window` in the windows being read. */
	windowIndex: number;
	/** Page number, from 0. */
	page: number;
	records: IDataObject[];
	/** True for the window's last page (a short one): every record of the window was read. */
	last: boolean;
}

/** "2026-01-01T00:00:00Z – 2026-02-28T23:59:59Z": a window as a merchant reads it. */
export function describeWindow(window: TimeWindow): string {
	return `${isoSeconds(window.from)} – ${isoSeconds(window.to)}`;
}

/**
 * Requests one page of a reporting list for one window (service rules §3.1, §3.2). A safe read:
 * the client retries it on 429, 5xx and lost connections.
 * @throws NodeApiError naming the list, the window and the page, on a failed request or an answer
 *   that is not a page envelope.
 */
export async function fetchPage(
	client: PaymentsClient,
	query: ListQuery,
	window: TimeWindow,
	page: number,
	itemIndex?: number,
	stop?: () => boolean,
): Promise<PageEnvelope<IDataObject>> {
	const { list } = query;
	const qs: IDataObject = { from: window.from, to: window.to, page };
	for (const [name, value] of Object.entries(query.filters ?? {})) {
		if (value !== undefined && value !== null && value !== '') qs[name] = value;
	}
	if (query.status && list.statusParam) qs[list.statusParam] = query.status;
	const action = `Listing ${list.label} records created ${describeWindow(window)} (page ${page})`;
	const envelope = await client.request<PageEnvelope<IDataObject>>(
		{ family: 'reporting', method: 'GET', path: list.path, qs },
		{
			action,
			itemIndex,
			explain: (failure) =>
				failure.httpStatus === 404 && list.alternativePath
					? `${action} failed: the service has no ${list.path} (404). Newer versions of the API serve this list at ${list.alternativePath}; check the credential's Base URL and the service version`
					: undefined,
		},
		{ stop },
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

/** Something `readPeriodPages` (period.ts) reports: a page of a window, or a window divided further. */
export type PeriodEvent =
	| {
			kind: 'page';
			/**
			 * Where the window sits among the windows read, newest first: `[i]` for the i-th window
			 * given, `[...parent, j]` for the j-th (newest first) of a split window's parts. Sorting
			 * paths (`comparePaths`) gives the windows newest first.
			 */
			path: readonly number[];
			page: ListPage;
	  }
	| {
			kind: 'split';
			/** The window that was divided: the records of its pages read so far are read again in `into`. */
			path: readonly number[];
			window: TimeWindow;
			/** Its parts, newest first, exactly covering it; part j has path `[...path, j]`. */
			into: TimeWindow[];
	  };

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
