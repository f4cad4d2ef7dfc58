/**
 * Status-change notifications the service POSTs to a merchant's URL (service rules §10): reading
 * them, and remembering which statuses were already reported so repeats are not emitted twice.
 * Pure: the Notification Trigger asks, then reads the status, answers and saves.
 *
 * A notification carries no status: it is only a hint to read the status (deposits §5.3, cashouts
 * §6.1). A cashout notification is signed (`control`, §10.2) and is refused when the signature does
 * not match; a deposit notification is not signed, so the URL carries a secret (§10.3). Nothing here
 * trusts more of a notification than the id to read.
 */
import { createHash, createHmac, timingSafeEqual } from 'crypto';
import { isoSeconds } from '../../codes/dates';
import { positiveId } from '../../codes/ids';
import { MAX_EXTERNAL_ID_LENGTH } from '../../codes/constants';

/** The two kinds of notification (service rules §10). */
export type NotificationKind = 'deposit' | 'cashout';

/** A notification whose body names something to read. */
export type Notification =
	| {
			kind: 'deposit';
			/** `deposit_id`, a positive whole number. */
			depositId: number;
			/** Every field received, as received (numbers stay numbers, texts stay texts). */
			fields: Record<string, unknown>;
	  }
	| {
			kind: 'cashout';
			/** `cashout_id`, when the body carries one (read by it first). */
			cashoutId?: number;
			/** `external_id`, when the body carries one (read by it when there is no `cashout_id`). */
			externalId?: string;
			/**
			 * Set once `control` matched (service rules §10.2): `external_id` is authenticated, so the
			 * status is read by it alone, and `cashout_id` is checked against it (statusRead.ts).
			 */
			verified?: boolean;
			fields: Record<string, unknown>;
	  };

/** Why a body is not a notification; `problem` is written for the sender and holds no body value. */
export interface MalformedNotification {
	problem: string;
}

/** A field value that is present: not undefined, null or empty (after trimming) text. */
function present(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	return typeof value !== 'string' || value.trim() !== '';
}

/**
 * The body as an object of fields. n8n hands a webhook JSON as an object and a form-urlencoded body
 * as an object of texts; a body it did not parse (another content type) arrives as text or bytes,
 * which is read as JSON, else as a form.
 */
export function bodyFields(body: unknown): Record<string, unknown> | undefined {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return undefined;
		try {
			value = JSON.parse(text) as unknown;
		} catch {
			const form: Record<string, unknown> = {};
			for (const [name, field] of new URLSearchParams(text)) {
				const before = form[name];
				form[name] =
					before === undefined ? field : [...(Array.isArray(before) ? before : [before]), field];
			}
			value = form;
		}
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	// Form bodies come with a null prototype: copy into a plain object.
	return { ...(value as Record<string, unknown>) };
}

/**
 * Reads a notification body (service rules §10): a deposit's `{"deposit_id": N}` or a cashout's
 * form fields (`cashout_id`, else `external_id`, names what to read).
 *
 * @returns the notification, or {@link MalformedNotification} when the body names nothing to read:
 *   no `deposit_id`, `cashout_id` or `external_id`; an id that is not a positive whole number; a
 *   field given twice; both a deposit and a cashout; an `external_id` over 100 characters.
 */
export function parseNotification(body: unknown): Notification | MalformedNotification {
	const fields = bodyFields(body);
	if (!fields)
		return {
			problem:
				'The body is not a JSON object or a form: expected {"deposit_id": N} or the cashout form fields',
		};
	for (const name of ['deposit_id', 'cashout_id', 'external_id']) {
		if (Array.isArray(fields[name])) return { problem: `${name} is given more than once` };
	}
	const isDeposit = present(fields.deposit_id);
	const isCashout = present(fields.cashout_id) || present(fields.external_id);
	if (isDeposit && isCashout) return { problem: 'The body names both a deposit and a cashout' };
	if (isDeposit) {
		const depositId = positiveId(fields.deposit_id);
		if (depositId === undefined) return { problem: 'deposit_id is not a positive whole number' };
		return { kind: 'deposit', depositId, fields };
	}
	if (isCashout) {
		if (present(fields.cashout_id)) {
			const cashoutId = positiveId(fields.cashout_id);
			if (cashoutId === undefined) return { problem: 'cashout_id is not a positive whole number' };
			const externalId = present(fields.external_id)
				? String(fields.external_id).trim()
				: undefined;
			return { kind: 'cashout', cashoutId, externalId, fields };
		}
		if (typeof fields.external_id !== 'string' && typeof fields.external_id !== 'number') {
			return { problem: 'external_id is not a text' };
		}
		const externalId = String(fields.external_id).trim();
		if (externalId.length > MAX_EXTERNAL_ID_LENGTH)
			return { problem: `external_id is longer than ${MAX_EXTERNAL_ID_LENGTH} characters` };
		return { kind: 'cashout', externalId, fields };
	}
	return { problem: 'The body has no deposit_id, cashout_id or external_id' };
}

/** Whether {@link parseNotification} found nothing to read. */
export function isMalformed(
	parsed: Notification | MalformedNotification,
): parsed is MalformedNotification {
	return 'problem' in parsed;
}

/**
 * The record a notification is about, as a key of the memory: `d:<deposit_id>`, `c:<cashout_id>`,
 * or `x:<external_id>` for a cashout notified without its id.
 */
export function memoryKey(notification: Notification): string {
	if (notification.kind === 'deposit') return `d:${notification.depositId}`;
	return notification.cashoutId !== undefined
		? `c:${notification.cashoutId}`
		: `x:${notification.externalId ?? ''}`;
}

/** How long a record's last status is remembered after its last notification: 7 days, in seconds. */
export const MEMORY_MAX_AGE_SECONDS = 7 * 86_400;

/** Most records remembered; beyond it the least recently notified are forgotten first. */
export const MEMORY_MAX_RECORDS = 10_000;

/**
 * What the trigger remembers between notifications (in the node's workflow static data), per record
 * key: `[last status read, Unix seconds of the last notification, Unix seconds of the first read in
 * that status]` (the third is absent in memories saved before it existed). About 50 bytes of JSON a
 * record, so at most about 500 KB.
 */
export interface NotificationMemory {
	version: 1;
	records: Record<string, [string, number] | [string, number, number]>;
}

/** An empty memory. */
export function emptyMemory(): NotificationMemory {
	return { version: 1, records: {} };
}

/**
 * The stored memory, or an empty one when `stored` is absent or not well formed (a broken state
 * must not fail every notification; at worst a repeat is emitted once more).
 */
export function readMemory(stored: unknown): NotificationMemory {
	if (!stored || typeof stored !== 'object') return emptyMemory();
	const { version, records } = stored as { version?: unknown; records?: unknown };
	if (version !== 1 || !records || typeof records !== 'object' || Array.isArray(records))
		return emptyMemory();
	const memory = emptyMemory();
	for (const [key, entry] of Object.entries(records as Record<string, unknown>)) {
		if (
			Array.isArray(entry) &&
			(entry.length === 2 || entry.length === 3) &&
			typeof entry[0] === 'string' &&
			Number.isFinite(entry[1])
		) {
			memory.records[key] =
				entry.length === 3 && Number.isFinite(entry[2])
					? [entry[0], Number(entry[1]), Number(entry[2])]
					: [entry[0], Number(entry[1])];
		}
	}
	return memory;
}

/**
 * Forgets records last notified more than {@link MEMORY_MAX_AGE_SECONDS} before `now`, then the
 * least recently notified beyond {@link MEMORY_MAX_RECORDS}. Changes `memory`.
 * @param now Unix seconds.
 */
export function pruneMemory(
	memory: NotificationMemory,
	now: number,
	limits: { maxAgeSeconds: number; maxRecords: number } = {
		maxAgeSeconds: MEMORY_MAX_AGE_SECONDS,
		maxRecords: MEMORY_MAX_RECORDS,
	},
): void {
	const oldest = now - limits.maxAgeSeconds;
	for (const [key, [, seenAt]] of Object.entries(memory.records)) {
		if (seenAt < oldest) delete memory.records[key];
	}
	const keys = Object.keys(memory.records);
	if (keys.length <= limits.maxRecords) return;
	keys
		.sort((a, b) => memory.records[a][1] - memory.records[b][1])
		.slice(0, keys.length - limits.maxRecords)
		.forEach((key) => delete memory.records[key]);
}

/**
 * A record's current status run, as the trigger saw it: the status last read, when that status was
 * first reported (`since`) and when the record was last notified (`seenAt`), both Unix seconds.
 */
export interface StatusRun {
	status: string;
	since: number;
	seenAt: number;
}

/**
 * The record's status run as the memory remembers it, or undefined. A memory saved before `since`
 * was kept gives the time of the record's last notification as its start.
 */
export function rememberedRun(memory: NotificationMemory, key: string): StatusRun | undefined {
	const entry = memory.records[key];
	if (!entry) return undefined;
	return { status: entry[0], seenAt: entry[1], since: entry.length === 3 ? entry[2] : entry[1] };
}

/**
 * When the status run a read belongs to started, in Unix seconds (the time in the change key,
 * service rules §10.5):
 *
 * - the same status as the run before → that run's start (every delivery of one change, and any
 *   late notification read while nothing changed, names the same change);
 * - another status → a new run, dated by the notification (`dated`: a cashout's `date`), else by
 *   this read (`now`: a deposit, whose notification and status carry no time);
 * - a `dated` not after the previous run's start is a late notification of an older change read
 *   after newer ones: the run read now began after the previous one, so it is dated by this read
 *   (at least one second after the previous start), never by a time an earlier change already used.
 */
export function runStart(
	previous: StatusRun | undefined,
	status: string,
	dated: number | undefined,
	now: number,
): number {
	if (previous && previous.status === status) return previous.since;
	const start = dated ?? now;
	if (!previous || start > previous.since) return start;
	return Math.max(now, previous.since + 1);
}

/**
 * Records that `key` was read in `status` at `now` (Unix seconds), in a run that started at `since`
 * (default: the remembered run's start for a repeat, else `now`; {@link runStart}), and says whether that status is a repeat: the same as the last
 * status read for the record. A record back in an earlier status after another one (ON_HOLD,
 * PENDING, ON_HOLD) is not a repeat. Changes `memory`.
 */
export function rememberStatus(
	memory: NotificationMemory,
	key: string,
	status: string,
	now: number,
	since: number = runStart(rememberedRun(memory, key), status, undefined, now),
): { repeat: boolean; previousStatus: string | null } {
	const previous = memory.records[key];
	// Delete first so the record moves to the end: the key order is the notification order.
	delete memory.records[key];
	memory.records[key] = [status, now, since];
	return { repeat: previous?.[0] === status, previousStatus: previous?.[0] ?? null };
}

/** `date` of a cashout notification: `YYYY-MM-DD HH:MM:SS`, GMT (service rules §10). */
const NOTIFICATION_DATE =
	/^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]00:?00| GMT| UTC)?$/;

/**
 * The time a cashout notification's `date` names, in Unix seconds, or undefined when the field is
 * absent or not a real GMT date-time in the service's form `YYYY-MM-DD HH:MM:SS` (service rules
 * §10; an ISO `T`, a `Z` and fractions of a second are also read). The service sends the same
 * `date` with every delivery of one change. Not authenticated by `control`: it only dates the
 * change key of a status that is read ({@link runStart}).
 */
export function notifiedChangeTime(fields: Record<string, unknown>): number | undefined {
	const { date } = fields;
	if (typeof date !== 'string') return undefined;
	const match = NOTIFICATION_DATE.exec(date.trim());
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const back = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
	if (
		back.getUTCFullYear() !== year ||
		back.getUTCMonth() !== month - 1 ||
		back.getUTCDate() !== day ||
		back.getUTCHours() !== hour ||
		back.getUTCMinutes() !== minute ||
		back.getUTCSeconds() !== second
	)
		return undefined;
	return back.getTime() / 1000;
}

/**
 * The change a notification reports, as one string (service rules §10.5):
 * `<kind>:<id>:<status>:<since>`, e.g. `cashout:4711:ON_HOLD:2026-11-02T12:00:00Z` or
 * `deposit:300123:COMPLETED:2026-11-02T12:00:03Z`.
 *
 * - `id`: the deposit id; the cashout id, or the external ID of a cashout notified without one.
 * - `status`: the status read from the service (never the body's).
 * - `since` (Unix seconds, written ISO 8601 UTC to the second): when the status run began
 *   ({@link runStart}): for a cashout the `date` of the notification that first reported the status,
 *   for a deposit (nothing the service sends or answers dates its change) the time the trigger first
 *   read it in that status.
 *
 * So every delivery of one change gives one key, and a status that comes back later (hold, release,
 * hold) another. Limits: the run's start comes from what the trigger remembers (its static data,
 * and the claims of its process); when a record's memory is lost (another process, a concurrent
 * save, forgotten after 7 days) a deposit change read again, or a late notification of an older
 * cashout change, can get a new key: handled again, never lost.
 */
export function changeKey(
	kind: NotificationKind,
	id: number | string,
	status: string,
	since: number,
): string {
	return `${kind}:${String(id)}:${status}:${isoSeconds(since)}`;
}

/** Largest notification body accepted, in bytes: 16 KiB (a real one is under 1 KiB). Service rules §10.4. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Deepest nesting of objects and arrays accepted in a body (a real one is flat: depth 1). §10.4. */
export const MAX_BODY_DEPTH = 4;

/** Most values (object fields and array elements, all levels) accepted in a body. §10.4. */
export const MAX_BODY_VALUES = 200;

/**
 * Whether a body is within the limits of service rules §10.4, checked without recursion (a body
 * nested thousands deep costs at most {@link MAX_BODY_VALUES} steps).
 *
 * @param rawSize the body's size in bytes as received (`rawBody`), or undefined when unknown.
 * @param body the body as n8n parsed it (object, array, text, bytes or undefined).
 * @returns undefined when within limits, else the HTTP status to answer (413 too large, 400 too
 *   deep or too many values) and a problem written for the sender (it holds no body value).
 */
export function bodyLimitProblem(
	rawSize: number | undefined,
	body: unknown,
): { status: 413 | 400; problem: string } | undefined {
	const size =
		rawSize ??
		(typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0);
	if (size > MAX_BODY_BYTES)
		return { status: 413, problem: `The body is larger than ${MAX_BODY_BYTES} bytes` };
	if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return undefined;
	const stack: Array<[unknown, number]> = [[body, 1]];
	let values = 0;
	while (stack.length) {
		const [value, depth] = stack.pop()!;
		if (depth > MAX_BODY_DEPTH)
			return { status: 400, problem: `The body is nested deeper than ${MAX_BODY_DEPTH} levels` };
		for (const child of Object.values(value as Record<string, unknown>)) {
			if (++values > MAX_BODY_VALUES)
				return { status: 400, problem: `The body has more than ${MAX_BODY_VALUES} values` };
			if (child && typeof child === 'object') stack.push([child, depth + 1]);
		}
	}
	return undefined;
}

/**
 * The `control` of a cashout notification (service rules §10.2): upper-case hex of HMAC-SHA256
 * keyed with the cashout credential's API signature secret (UTF-8) over `"Be4" + external_id +
 * "Bo7"` (UTF-8). 64 characters.
 */
export function cashoutControl(secret: string, externalId: string): string {
	return createHmac('sha256', Buffer.from(secret, 'utf8'))
		.update(Buffer.from(`Be4${externalId}Bo7`, 'utf8'))
		.digest('hex')
		.toUpperCase();
}

/**
 * Compares two texts in constant time whatever their lengths: both are hashed (SHA-256) first, so
 * neither the position of the first difference nor the expected length shows in the time taken.
 */
export function sameSecret(expected: string, given: string): boolean {
	const a = createHash('sha256').update(expected, 'utf8').digest();
	const b = createHash('sha256').update(given, 'utf8').digest();
	return timingSafeEqual(a, b) && expected.length > 0;
}

/**
 * Whether a cashout notification's `control` is the one {@link cashoutControl} gives for its
 * `external_id`, compared in constant time (service rules §10.2). Upper- and lower-case hex are both
 * accepted. False when `control` or `external_id` is missing or not a text.
 */
export function controlMatches(secret: string, fields: Record<string, unknown>): boolean {
	const { control, external_id: externalId } = fields;
	if (
		typeof control !== 'string' ||
		(typeof externalId !== 'string' && typeof externalId !== 'number')
	)
		return false;
	const id = String(externalId).trim();
	if (id === '' || secret === '') return false;
	return sameSecret(cashoutControl(secret, id), control.trim().toUpperCase());
}

/** Characters a URL secret may hold: URL-safe, so it can sit in a path segment unescaped. */
export const URL_SECRET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Statuses a record never leaves, per kind (service rules §5.3, §6.1): a deposit COMPLETED or
 * DECLINED (EXPIRED and CANCELLED can still become COMPLETED); a cashout REJECTED, CANCELLED or
 * DECLINED (a COMPLETED cashout can still be rejected late).
 */
export const FINAL_STATUSES: Readonly<Record<NotificationKind, ReadonlySet<string>>> = {
	deposit: new Set(['COMPLETED', 'DECLINED']),
	cashout: new Set(['REJECTED', 'CANCELLED', 'DECLINED']),
};

/** How long after a read in a final status a notification for the same record skips the read: 10 minutes. §10.4. */
export const REREAD_WINDOW_SECONDS = 600;

/**
 * Whether a notification can be answered from the memory alone (service rules §10.4): its record was
 * read less than {@link REREAD_WINDOW_SECONDS} before `now` (Unix seconds) in a status of
 * {@link FINAL_STATUSES}, which cannot have changed since. Returns that status, else undefined (the
 * status must be read).
 */
export function recentFinalStatus(
	memory: NotificationMemory,
	kind: NotificationKind,
	key: string,
	now: number,
): string | undefined {
	const entry = memory.records[key];
	if (!entry) return undefined;
	const [status, readAt] = entry;
	return FINAL_STATUSES[kind].has(status) &&
		now - readAt >= 0 &&
		now - readAt < REREAD_WINDOW_SECONDS
		? status
		: undefined;
}
