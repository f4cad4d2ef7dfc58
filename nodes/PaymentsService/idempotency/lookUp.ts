import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { sameAmount } from '../reporting/decimal';
import { REPORTING_LISTS, type ListFilter } from '../reporting/lists';
import { splitIntoWindows } from '../reporting/read/windows';
import {
	CREDENTIAL_TYPES,
	PaymentsClient,
	SYSTEM_CLOCK,
	type CredentialKind,
} from '../transport/client';
import { readPeriodPages } from '../reporting/read/period';
import type { WindowSpan } from './keys';

/**
 * The look-up of the record a key made, after the service answered "key already used" (104 for
 * deposits and refunds, 511 for cashouts; service rules §5.2): the answer names no record, so the
 * record is read by its key where the service offers that (a cashout's status), and looked up in
 * the reporting list with the node's Session credential, when one is selected, found by its key
 * alone and then compared with what the item asks for. A creation declares how
 * ({@link CreationLookUp}); the look-up does the reading.
 */

/**
 * The credential a look-up reads the reporting lists with: the Session credential, optional on the
 * creations (the registry offers it to every `keyed` operation).
 */
export const LOOK_UP_CREDENTIAL: CredentialKind = 'session';

/** Most pages one read of a look-up reads (50 records each): a look-up never turns into a long read. */
export const MAX_LOOK_UP_PAGES = 40;

/** How far back a look-up reads for a key the user gave (derived keys: their Duplicate Window). */
const GIVEN_KEY_LOOKBACK_SECONDS = 7 * 86_400;

/** Slack on both ends of a look-up, for clocks of the service and of n8n that differ. */
export const CLOCK_SLACK_SECONDS = 600;

/**
 * How long a look-up waits before each read again of a list that does not show a record the service
 * said exists (a repeat answer): the lists can lag behind creation (service rules §5.2). 1 s, 2 s
 * and 4 s: three reads more, 7 s of waiting in all at most.
 */
const REREAD_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000];

/** What is looked up: a key, and what this execution knows of it. */
export interface LookUpTarget {
	/** The key looked up: the request's own, or the previous Duplicate Window's. */
	key: string;
	/** The request's own key. */
	requestKey: string;
	/**
	 * The earliest creation date the request's own record can have, epoch ms: when this execution
	 * first sent its key, less the clock slack; undefined when it did not send it.
	 */
	sinceMs?: number;
}

/** Which records of the list are the one looked up, and what to say when none is found. */
export interface RecordMatch {
	/** Whether a record is the one; absent when nothing tells it apart (the list is not read). */
	matches?: (record: IDataObject) => boolean;
	/** Said when it is not found, before the list's own note (a sentence starting with a space). */
	note?: string;
}

/** How a creation's record is looked up, as the creation declares it (idempotency/createOnce.ts). */
export interface CreationLookUp {
	/** The reporting list its records are in. */
	list: 'cashout' | 'deposit' | 'refund';
	/** The list filters that narrow the first read, each read from a path of the body ("payer.document"). */
	filters: Partial<Record<ListFilter, string>>;
	/** Which records are the one of `target.key` (by their key; refunds by deposit and amount). */
	match(body: IDataObject, target: LookUpTarget): RecordMatch;
	/** When several records match, the newest is taken (refunds, which carry no key); else the first. */
	newest?: boolean;
	/** A read of the record by its key, made before the list (the cashout's status by external ID). */
	byKey?: {
		/** What the service has of the key and its status, or undefined when it has no record of it. */
		read(
			context: IExecuteFunctions,
			client: PaymentsClient,
			key: string,
			itemIndex: number,
		): Promise<{ state: IDataObject; status: string } | undefined>;
		/** Says the service has none: " The service has no cashout with external ID X (509)." */
		none(key: string): string;
	};
}

/** What a look-up found (service rules §5.2). */
export interface LookUpResult {
	/** Whether a record with this key is known to exist (found in the list, or read by its key). */
	exists: boolean;
	/** The reporting list's record of the key, to compare with the request; undefined when not found. */
	record?: IDataObject;
	/** What the read by key returned (the cashout's status), when the creation has one. */
	read?: IDataObject;
	/**
	 * The record as a noun phrase for messages, "cashout 8405147 (PENDING)" (its id in the list,
	 * its status read by key or listed), "a cashout in status PENDING" (read by key only); "" when
	 * nothing is known.
	 */
	label: string;
	/** What the look-up could not do, a sentence starting with a space; "" when it found the record. */
	note: string;
}

/** What a read of a reporting list found. */
export type ListRead =
	/** The node has no Session credential: nothing was read. */
	| { outcome: 'no-credential' }
	| { outcome: 'found'; record: IDataObject }
	/** Not in the list after `reads` reads (`pagesRead` pages); `capped` when a read hit the page cap. */
	| { outcome: 'not-found'; pagesRead: number; reads: number; capped: boolean }
	/** The read itself failed; the creation's outcome stands, the record is just not shown. */
	| { outcome: 'failed'; message: string };

/**
 * Looks up the record of `target.key`, as `lookUp` declares: read by its key first where it can
 * be (none there: nothing more is read), then in the reporting list over `period` (Unix seconds),
 * read again while it does not show a record the service said exists (`known`).
 * @param noun The record, for the notes ("cashout").
 * @throws what `lookUp.byKey.read` throws (a failed read by key); a list read never throws.
 */
export async function lookUpRecord(
	context: IExecuteFunctions,
	client: PaymentsClient,
	lookUp: CreationLookUp,
	request: { body: IDataObject; noun: string; itemIndex: number },
	target: LookUpTarget & { period: { from: number; to: number }; known: boolean },
): Promise<LookUpResult> {
	const { noun } = request;
	const read = await lookUp.byKey?.read(context, client, target.key, request.itemIndex);
	if (lookUp.byKey && !read)
		return { exists: false, label: '', note: lookUp.byKey.none(target.key) };
	const match = lookUp.match(request.body, target);
	const found = match.matches
		? await readList(context, request.itemIndex, lookUp, request.body, match.matches, target)
		: undefined;
	const record = found?.outcome === 'found' ? found.record : undefined;
	const state = read ? { read: read.state } : {};
	if (record) {
		const id = record[REPORTING_LISTS[lookUp.list].idFields[0]];
		const label = `${noun} ${String(id)} (${read?.status ?? String(record.status)})`;
		return { exists: true, record, ...state, label, note: '' };
	}
	const note = `${match.note ?? ''}${found ? listReadNote(found, noun) : ''}`;
	return read
		? { exists: true, ...state, label: `a ${noun} in status ${read.status}`, note }
		: { exists: false, label: '', note };
}

/**
 * The creation dates a look-up reads (Unix seconds): from the start of the key's Duplicate Window
 * (a derived key), or the last 7 days (a key the user gave), to now, with the clock slack on both
 * ends.
 */
export function lookUpPeriod(
	window: WindowSpan | undefined,
	nowMs: number,
): { from: number; to: number } {
	const now = Math.floor(nowMs / 1000);
	const from = window ? Math.floor(window.startMs / 1000) : now - GIVEN_KEY_LOOKBACK_SECONDS;
	return { from: from - CLOCK_SLACK_SECONDS, to: now + CLOCK_SLACK_SECONDS };
}

/**
 * Reads the list for the record, with the Session credential: first with the declared filters (a
 * retry of this very request is found in a page or two), then, when they narrowed the read and
 * found nothing, without them, so the record is found by `matches` (its key) alone. With `known`,
 * a list that does not show it is read again after each of {@link REREAD_DELAYS_MS} (with the
 * filters only: the record of this request matches them). Each read stops at
 * {@link MAX_LOOK_UP_PAGES} pages (each page a safe, retried read). Never throws.
 */
async function readList(
	context: IExecuteFunctions,
	itemIndex: number,
	lookUp: CreationLookUp,
	body: IDataObject,
	matches: (record: IDataObject) => boolean,
	target: { period: { from: number; to: number }; known: boolean },
): Promise<ListRead> {
	if (!context.getNode().credentials?.[CREDENTIAL_TYPES[LOOK_UP_CREDENTIAL]])
		return { outcome: 'no-credential' };
	const client = new PaymentsClient(context, LOOK_UP_CREDENTIAL);
	const filters = filtersOf(lookUp, body);
	const firstReads = Object.keys(filters).length ? [filters, {}] : [{}];
	const delays = target.known ? REREAD_DELAYS_MS : [];
	const read = { client, itemIndex, lookUp, matches, period: target.period };
	let pagesRead = 0;
	let reads = 0;
	try {
		for (let round = 0; round <= delays.length; round++) {
			if (round > 0) await SYSTEM_CLOCK.sleep(delays[round - 1]);
			for (const readFilters of round === 0 ? firstReads : [filters]) {
				const found = await readForRecord(read, readFilters);
				pagesRead += found.pagesRead;
				reads++;
				if (found.record) return { outcome: 'found', record: found.record };
				// A read cut at the page cap would be cut again: no read more.
				if (found.pagesRead >= MAX_LOOK_UP_PAGES)
					return { outcome: 'not-found', pagesRead, reads, capped: true };
			}
		}
	} catch (error) {
		return { outcome: 'failed', message: (error as Error).message };
	}
	return { outcome: 'not-found', pagesRead, reads, capped: false };
}

/** The declared filters' values in `body`, empty ones dropped. */
function filtersOf(lookUp: CreationLookUp, body: IDataObject): IDataObject {
	const filters: IDataObject = {};
	for (const [filter, path] of Object.entries(lookUp.filters)) {
		let value: unknown = body;
		for (const step of path.split('.'))
			value = value && typeof value === 'object' ? (value as IDataObject)[step] : undefined;
		if (value !== undefined && value !== null && value !== '') filters[filter] = value as string;
	}
	return filters;
}

/** One read of the list with `filters`, up to {@link MAX_LOOK_UP_PAGES} pages. */
async function readForRecord(
	read: {
		client: PaymentsClient;
		itemIndex: number;
		lookUp: CreationLookUp;
		matches: (record: IDataObject) => boolean;
		period: { from: number; to: number };
	},
	filters: IDataObject,
): Promise<{ record?: IDataObject; pagesRead: number }> {
	const { lookUp } = read;
	const list = REPORTING_LISTS[lookUp.list];
	const found: IDataObject[] = [];
	let pagesRead = 0;
	// The one reader, one window at a time: no request after the match or the page cap.
	const events = readPeriodPages(
		read.client,
		{ list, filters },
		splitIntoWindows(read.period.from, read.period.to),
		{ concurrency: 1, itemIndex: read.itemIndex },
	);
	for await (const event of events) {
		if (event.kind !== 'page') continue;
		pagesRead++;
		found.push(...event.page.records.filter(read.matches));
		if ((found.length && !lookUp.newest) || pagesRead >= MAX_LOOK_UP_PAGES) break;
	}
	const date = (record: IDataObject) => String(record[list.recordDateField] ?? '');
	const record = lookUp.newest
		? [...found].sort((a, b) => date(b).localeCompare(date(a)))[0]
		: found[0];
	return { record, pagesRead };
}

/** A sentence on what a list read could not do, starting with a space; "" when it found the record. */
function listReadNote(result: ListRead, noun: string): string {
	switch (result.outcome) {
		case 'no-credential':
			return ` Select a Session credential on this node to have the existing ${noun} looked up and compared.`;
		case 'not-found': {
			const pages = `${result.pagesRead} page${result.pagesRead === 1 ? '' : 's'} read`;
			const reads = result.reads > 2 ? ` in ${result.reads} reads` : '';
			const cap = result.capped ? ', the most a look-up reads' : '';
			return ` It was not found in the ${noun} list (${pages}${reads}${cap}); the list may show it a little later.`;
		}
		case 'failed':
			return ` Looking it up failed (${result.message}).`;
		default:
			return '';
	}
}

/**
 * Whether `record` was created before this execution first sent its key (more than the clock slack
 * before `sentMs`): then it is not the record of that request but another execution's. False when
 * either time is unknown.
 */
export function createdBeforeSent(
	record: IDataObject,
	dateField: string,
	sentMs: number | undefined,
): boolean {
	if (sentMs === undefined) return false;
	const created = Date.parse(String(record[dateField] ?? ''));
	return Number.isFinite(created) && created < sentMs - CLOCK_SLACK_SECONDS * 1000;
}

/** One field compared: its name in the request, what was asked and what the record holds. */
export interface Comparison {
	field: string;
	asked: unknown;
	found: unknown;
	/** True for an amount: compared as an exact decimal (`250` = `250.00`). */
	amount?: boolean;
}

/**
 * Whether a field of the request and of the record are the same: an amount exactly (as decimals,
 * never through a double: service rules §3.5), anything else as text, ignoring case and surrounding
 * spaces (a document `007` is not `7`).
 */
function same({ asked, found, amount }: Comparison): boolean {
	const asAmounts = amount ? sameAmount(asked, found) : undefined;
	return asAmounts ?? String(asked).trim().toUpperCase() === String(found).trim().toUpperCase();
}

/** Whether both sides of a comparison are present: the record may not carry every field (service rules §3.4). */
export function isComparable({ asked, found }: Comparison): boolean {
	return (
		asked !== undefined &&
		asked !== null &&
		asked !== '' &&
		found !== undefined &&
		found !== null &&
		found !== ''
	);
}

/**
 * The comparisons that differ, skipping those where either side is absent ({@link isComparable}),
 * as "amount: 300.00 asked, 250 on the existing cashout".
 */
export function differences(comparisons: Comparison[], noun: string): string[] {
	return comparisons
		.filter(isComparable)
		.filter((comparison) => !same(comparison))
		.map(
			({ field, asked, found }) =>
				`${field}: ${String(asked)} asked, ${String(found)} on the existing ${noun}`,
		);
}
