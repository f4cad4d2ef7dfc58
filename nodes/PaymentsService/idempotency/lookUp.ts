import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { parseDecimal } from '../reporting/decimal';
import type { ReportingListDefinition } from '../reporting/lists';
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
 * record is looked up in the reporting list with the node's Session credential, when one is
 * selected, found by its key alone and then compared with what this item asks for.
 */

/**
 * The credential a look-up reads the reporting lists with: the Session credential, optional on the
 * creations (the registry offers it to every `keyed` operation).
 */
export const LOOK_UP_CREDENTIAL: CredentialKind = 'session';

/** Most pages one look-up reads (50 records each): a look-up never turns into a long read. */
export const MAX_LOOK_UP_PAGES = 40;

/** How far back a look-up reads for a key the user gave (derived keys: their Duplicate Window). */
export const GIVEN_KEY_LOOKBACK_SECONDS = 7 * 86_400;

/** Slack on both ends of a look-up, for clocks of the service and of n8n that differ. */
export const CLOCK_SLACK_SECONDS = 600;

/** What a look-up in a reporting list found. */
export type ListLookUpResult =
	/** The node has no Session credential: nothing was read. */
	| { outcome: 'no-credential' }
	| { outcome: 'found'; record: IDataObject }
	/** Not in the list after `reads` reads (`pagesRead` pages); `capped` when a read hit the page cap. */
	| { outcome: 'not-found'; pagesRead: number; reads: number; capped: boolean }
	/** The look-up itself failed; the creation's outcome stands, the record is just not shown. */
	| { outcome: 'failed'; message: string };

/** One look-up: a list, its filters, the period to read and the record wanted. */
export interface ListLookUp {
	list: ReportingListDefinition;
	/**
	 * Query filters as the service names them (country, clientDocument, paymentMethod); empty values
	 * dropped. They only make the first read short: when it does not find the record, the list is
	 * read again without them, so a record with the same key and another country or document is
	 * found (and then differs).
	 */
	filters: IDataObject;
	/** Which record is the one (e.g. `externalId` equals the key). */
	match: (record: IDataObject) => boolean;
	/**
	 * When several records match, the one to take (default: the first). Refund records carry no key,
	 * so the newest matching refund is taken.
	 */
	pick?: (matches: IDataObject[]) => IDataObject | undefined;
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

/** Whether the node has the look-up's credential selected (it is optional on the creations). */
export function hasSessionCredential(context: IExecuteFunctions): boolean {
	return Boolean(context.getNode().credentials?.[CREDENTIAL_TYPES[LOOK_UP_CREDENTIAL]]);
}

/**
 * How long a look-up waits before each read again of a list that does not show a record the service
 * said exists (a repeat answer): the lists can lag behind creation (service rules §5.2). 1 s, 2 s
 * and 4 s: three reads more, 7 s of waiting in all at most.
 */
export const REREAD_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000];

/**
 * Looks the record up in `lookup.list` over `period`, with the Session credential: first with
 * `lookup.filters` (a retry of this very request is found in a page or two), then, when they
 * narrowed the read and found nothing, without them, so the record is found by what `match` checks
 * (the key) alone. With `reread` (the service said the record exists), a list that does not show
 * it is read again after each of {@link REREAD_DELAYS_MS} (with the filters only: the record of
 * this request matches them). Each read stops at {@link MAX_LOOK_UP_PAGES} pages (each page a safe,
 * retried read). Never throws: a failed look-up is reported as such.
 */
export async function lookUpInList(
	context: IExecuteFunctions,
	itemIndex: number,
	lookup: ListLookUp,
	period: { from: number; to: number },
	options: { reread?: boolean } = {},
): Promise<ListLookUpResult> {
	if (!hasSessionCredential(context)) return { outcome: 'no-credential' };
	const client = new PaymentsClient(context, LOOK_UP_CREDENTIAL);
	const filters: IDataObject = {};
	for (const [name, value] of Object.entries(lookup.filters))
		if (value !== undefined && value !== null && value !== '') filters[name] = value;
	const firstReads = Object.keys(filters).length ? [filters, {}] : [{}];
	const delays = options.reread ? REREAD_DELAYS_MS : [];
	let pagesRead = 0;
	let reads = 0;
	try {
		for (let round = 0; round <= delays.length; round++) {
			if (round > 0) await SYSTEM_CLOCK.sleep(delays[round - 1]);
			for (const readFilters of round === 0 ? firstReads : [filters]) {
				const found = await readForRecord(client, itemIndex, lookup, readFilters, period);
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

/** One read of the list with `filters`, up to {@link MAX_LOOK_UP_PAGES} pages. */
async function readForRecord(
	client: PaymentsClient,
	itemIndex: number,
	lookup: ListLookUp,
	filters: IDataObject,
	period: { from: number; to: number },
): Promise<{ record?: IDataObject; pagesRead: number }> {
	const matches: IDataObject[] = [];
	let pagesRead = 0;
	// The one reader, one window at a time: no request after the match or the page cap.
	const events = readPeriodPages(
		client,
		{ list: lookup.list, filters },
		splitIntoWindows(period.from, period.to),
		{ concurrency: 1, itemIndex },
	);
	for await (const event of events) {
		if (event.kind !== 'page') continue;
		const page = event.page;
		pagesRead++;
		matches.push(...page.records.filter(lookup.match));
		if ((matches.length && !lookup.pick) || pagesRead >= MAX_LOOK_UP_PAGES) break;
	}
	return { record: lookup.pick ? lookup.pick(matches) : matches[0], pagesRead };
}

/**
 * Whether `record` was created before this execution first sent its key (more than the clock slack
 * before `earlierAttemptMs`): then it is not the record of that attempt but another execution's.
 * False when either time is unknown.
 */
export function createdBeforeAttempt(
	record: IDataObject,
	dateField: string,
	earlierAttemptMs: number | undefined,
): boolean {
	if (earlierAttemptMs === undefined) return false;
	const created = Date.parse(String(record[dateField] ?? ''));
	return Number.isFinite(created) && created < earlierAttemptMs - CLOCK_SLACK_SECONDS * 1000;
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
 * Whether two amounts are the same amount, exactly: decimal texts or JSON numbers read as exact
 * decimals (`250` = `250.00` = `"250.0"`; `250.004` ≠ `250`), never through a double (service
 * rules §3.5). Undefined when either is not an amount.
 */
export function sameAmount(asked: unknown, found: unknown): boolean | undefined {
	const a = parseDecimal(asked);
	const b = parseDecimal(found);
	if (!a || !b) return undefined;
	return a.units === b.units && a.scale === b.scale;
}

/**
 * Whether a field of the request and of the record are the same: an amount exactly
 * ({@link sameAmount}), anything else as text, ignoring case and surrounding spaces (a document
 * `007` is not `7`).
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
