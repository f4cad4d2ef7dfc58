/**
 * What the Notification Trigger remembers between notifications, in the workflow's static data
 * (service rules §10.4, §10.5): the status each record was read in and since when, so repeats are
 * not emitted twice and a record in a final status is not read again at once. Pure: the trigger
 * asks, then reads the status, answers and saves.
 */

import type { Notification, NotificationKind } from './parsing';

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
