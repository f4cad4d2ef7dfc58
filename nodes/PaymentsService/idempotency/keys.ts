import { createHash } from 'crypto';

import { MAX_EXTERNAL_ID_LENGTH } from '../codes/service';

/**
 * Keys that make a creation (deposit, refund, cashout) happen at most once (service rules §5.2,
 * §6.2, §7): the rule for the keys this package derives, and the rule a key the user gives must
 * meet. Pure functions; the node reads the workflow, node, run and item and calls them.
 */

/**
 * How long a derived key stays the same for the same request: every re-run of the request inside
 * one UTC hour, day or month sends the same key (so the service recognises it), and a repeat in a
 * later window is a new request (next month's payroll is paid). Service rules §5.2.
 */
export type DuplicateWindow = 'hour' | 'day' | 'month';

/** The default window: a re-run on the same UTC day is a retry; on another day, a new request. */
export const DEFAULT_DUPLICATE_WINDOW: DuplicateWindow = 'day';

/** A window's label (part of the key), and where it starts and ends, epoch milliseconds (UTC). */
export interface WindowSpan {
	/** `2026-11-23T19` (hour), `2026-11-23` (day) or `2026-11` (month). */
	label: string;
	startMs: number;
	/** First millisecond of the next window. */
	endMs: number;
}

/** The UTC window of `kind` that holds `nowMs`. */
export function duplicateWindowAt(kind: DuplicateWindow, nowMs: number): WindowSpan {
	const now = new Date(nowMs);
	const year = now.getUTCFullYear();
	const month = now.getUTCMonth();
	const day = now.getUTCDate();
	const iso = now.toISOString();
	if (kind === 'hour') {
		const startMs = Date.UTC(year, month, day, now.getUTCHours());
		return { label: iso.slice(0, 13), startMs, endMs: startMs + 3_600_000 };
	}
	if (kind === 'month')
		return {
			label: iso.slice(0, 7),
			startMs: Date.UTC(year, month, 1),
			endMs: Date.UTC(year, month + 1, 1),
		};
	return {
		label: iso.slice(0, 10),
		startMs: Date.UTC(year, month, day),
		endMs: Date.UTC(year, month, day + 1),
	};
}

/** Whether `value` names a duplicate window. */
export function isDuplicateWindow(value: unknown): value is DuplicateWindow {
	return value === 'hour' || value === 'day' || value === 'month';
}

/**
 * JSON with object keys sorted at every level, so two bodies with the same fields and values give
 * the same text whatever the order they were built in. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** What names one creation request: where in the workflow it is made, what it asks and when. */
export interface RequestIdentity {
	/** The workflow's id; a sub-workflow has its own. */
	workflowId: string | undefined;
	/** The node's id (stable across renames), or its name. */
	nodeId: string;
	/**
	 * How many times the node ran before in this execution (n8n's `$runIndex`): each pass of a
	 * Loop Over Items is a run of its own, and every run sees item index 0.
	 */
	runIndex: number;
	/** The item's index within the run. */
	itemIndex: number;
	/** The request body without the key itself (e.g. a cashout body without `external_id`). */
	content: unknown;
	/**
	 * What started the execution: the trigger's item this item descends from (a webhook call, a
	 * schedule run, a form submission, a polled row), or null when it cannot be reached. n8n's Retry
	 * of a failed execution copies the stored run data, so it finds the same origin; two separate
	 * trigger events give two origins.
	 */
	origin: unknown;
	/** The duplicate window's label ({@link duplicateWindowAt}). */
	window: string;
}

/** Version of the derivation, so a future change never collides with keys derived today. */
const DERIVATION_VERSION = 'request-key-v3';

/**
 * The key derived for a creation when the user gives none (service rules §5.2): `n8n-` + 40
 * lowercase hex characters of SHA-256 over the workflow, node, run index, item index, the
 * execution's origin (the trigger item), the request's canonical content and the duplicate window.
 * Two items, two runs of a loop or two trigger events get two keys; re-running the same request
 * (Retry On Fail, n8n's Retry, a re-run on the same input) gets the same key within the window, and
 * the service answers 104 or 511 instead of creating again. 44 characters of `[a-z0-9-]`: a valid
 * `X-Idempotency-Key`, `invoice_id` and cashout `external_id`.
 */
export function deriveRequestKey(identity: RequestIdentity): string {
	const digest = createHash('sha256')
		.update(
			canonicalJson([
				DERIVATION_VERSION,
				identity.workflowId ?? '',
				identity.nodeId,
				identity.runIndex,
				identity.itemIndex,
				identity.window,
				identity.origin ?? null,
				identity.content,
			]),
		)
		.digest('hex');
	return `n8n-${digest.slice(0, 40)}`;
}

/**
 * The history key of a request with a derived key: its name in the execution's store of request
 * histories (idempotency/history.ts), {@link deriveRequestKey} without the window, so a later
 * attempt of the same request (Retry On Fail, n8n's Retry) finds the key it sent whatever the clock
 * says (service rules §5.2). `slot-` + 24 hex characters: the stored form, kept so an execution
 * saved before is still found. A given key's history key is `given-` + the key.
 */
export function historyKeyOf(identity: Omit<RequestIdentity, 'window'>): string {
	const digest = createHash('sha256')
		.update(
			canonicalJson([
				DERIVATION_VERSION,
				'slot',
				identity.workflowId ?? '',
				identity.nodeId,
				identity.runIndex,
				identity.itemIndex,
				identity.origin ?? null,
				identity.content,
			]),
		)
		.digest('hex');
	return `slot-${digest.slice(0, 24)}`;
}

/**
 * How long after a window starts a first attempt also looks for the previous window's key, one
 * hour in milliseconds: a re-run in a new execution shortly after a lost answer on the other side
 * of the boundary is found instead of paid again (service rules §5.2, our choice). With the hourly
 * window that is every attempt.
 */
const PREVIOUS_WINDOW_GRACE_MS = 3_600_000;

/**
 * The window before the one holding `nowMs`, when `nowMs` is less than
 * {@link PREVIOUS_WINDOW_GRACE_MS} after the start of its own; undefined otherwise.
 */
export function previousWindowInGrace(
	kind: DuplicateWindow,
	nowMs: number,
): WindowSpan | undefined {
	const current = duplicateWindowAt(kind, nowMs);
	if (nowMs - current.startMs >= PREVIOUS_WINDOW_GRACE_MS) return undefined;
	return duplicateWindowAt(kind, current.startMs - 1);
}

/** The kinds of key a user can give, each with the rule the service or HTTP imposes (service rules §5.2, §6.2). */
export type GivenKeyKind = 'idempotencyKey' | 'invoiceId' | 'externalId';

/**
 * Longest idempotency key accepted. The service publishes no limit; 128 matches `invoice_id`, so
 * a key can also serve as the invoice id, and keeps a header far below any server's limit.
 */
const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
/** Longest `invoice_id` (service rules §5.1). */
export const MAX_INVOICE_ID_LENGTH = 128;

/**
 * Why `key` cannot be sent as a `kind`, or undefined when it can be sent exactly as given.
 * - idempotency key: an HTTP header value, so visible ASCII only (`!` to `~`, no spaces or line
 *   breaks: a header cannot carry them, and n8n's HTTP client would strip or mangle them),
 *   1–128 characters;
 * - invoice id: letters, digits, `-` and `_`, 1–128 characters (service rules §5.1);
 * - external id: 1–100 characters, no control characters (CR, LF, tab…) and no leading or
 *   trailing spaces; any other Unicode is carried in the JSON body as is.
 * Nothing is ever stripped: a key is sent as given, or refused.
 */
export function givenKeyProblem(kind: GivenKeyKind, key: string): string | undefined {
	if (key === '') return 'is empty';
	if (kind === 'idempotencyKey') {
		if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
			return `is ${key.length} characters long; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are accepted`;
		const bad = [...key].find((char) => char < '!' || char > '~');
		if (bad !== undefined) {
			return `contains ${describeCharacter(bad)}, which an HTTP header cannot carry: use only visible ASCII characters (letters, digits and punctuation, no spaces)`;
		}
		return undefined;
	}
	if (kind === 'invoiceId') {
		if (key.length > MAX_INVOICE_ID_LENGTH)
			return `is ${key.length} characters long; the service accepts at most ${MAX_INVOICE_ID_LENGTH}`;
		const bad = [...key].find((char) => !/[A-Za-z0-9\-_]/.test(char));
		if (bad !== undefined)
			return `contains ${describeCharacter(bad)}; the service accepts only letters, digits, "-" and "_"`;
		return undefined;
	}
	const length = [...key].length;
	if (length > MAX_EXTERNAL_ID_LENGTH)
		return `is ${length} characters long; the service accepts at most ${MAX_EXTERNAL_ID_LENGTH}`;
	const control = [...key].find(
		(char) => isControl(char) || char === '\u2028' || char === '\u2029',
	);
	if (control !== undefined)
		return `contains ${describeCharacter(control)}; control characters and line breaks cannot be part of an external ID`;
	if (key.trim() !== key)
		return 'starts or ends with a space; remove it, so the ID reads the same everywhere';
	return undefined;
}

/** A character as a reader can spot it: `"Ł" (U+0141)`, `a line break (U+000A)`. */
function describeCharacter(char: string): string {
	const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
	if (char === '\n' || char === '\r') return `a line break (${code})`;
	if (char === ' ') return `a space (${code})`;
	if (char === '\t') return `a tab (${code})`;
	if (isControl(char)) return `a control character (${code})`;
	return `"${char}" (${code})`;
}

/** Whether `char` is a C0 or C1 control character (U+0000–U+001F, U+007F–U+009F). */
function isControl(char: string): boolean {
	const code = char.codePointAt(0) ?? 0;
	return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** The key of one creation request: the one the user gave, or the one derived for the request. */
export interface RequestKey {
	/** The key as it is sent: the cashout's `external_id`, or the `X-Idempotency-Key`. */
	value: string;
	/** True when the key was derived ({@link deriveRequestKey}); false when the user gave it. */
	derived: boolean;
	/** The Duplicate Window a derived key belongs to (undefined for a given key). */
	window?: WindowSpan;
}
