/**
 * The Notification Trigger's in-process claims: once per change within one n8n process, without a
 * database (service rules §10.5). **The one documented exception to "no module-level mutable
 * state"**: n8n saves a webhook's static data whole after each answer, last write wins, so two
 * copies handled at the same moment would both start the workflow; within one process a check and a
 * set with no `await` between them cannot interleave ({@link claimChange}). Safe because it only
 * ever suppresses a duplicate (a change it has not seen is handled as without it), holds nothing
 * another process needs, and is bounded ({@link MAX_CLAIMS} entries, {@link CLAIM_MAX_AGE_MS}),
 * keyed by workflow and node. Nothing here awaits, reads the clock (callers pass it) or throws.
 */
import { runStart, type StatusRun } from './memory';

/** Most claims (and most record runs) kept per process; beyond it the oldest are dropped. */
export const MAX_CLAIMS = 10_000;

/** How long a claim (or a record run) is kept: 24 hours, in milliseconds. */
export const CLAIM_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Whose claims: one workflow's one node. */
export interface ClaimScope {
	workflowId: string;
	nodeId: string;
}

/** What a claim answers: yours now, held by a copy still running, or already handled. */
export type ClaimResult = 'claimed' | 'in-flight' | 'handled';

interface Claim {
	/** When it was taken, ms since the epoch. */
	at: number;
	/** false while its workflow may still fail (Respond: When Workflow Finished), else true. */
	final: boolean;
}

interface Run {
	at: number;
	status: string;
	/** When the trigger first read the record in `status`, Unix seconds. */
	since: number;
}

/** Claimed changes, keyed by {@link scopedKey}; Map order is the order they were taken. */
const CLAIMS = new Map<string, Claim>();

/** The status run last claimed per record (deposits: nothing dates a change; see {@link runSince}). */
const RUNS = new Map<string, Run>();

function scopedKey(scope: ClaimScope, key: string): string {
	return `${scope.workflowId}\u0000${scope.nodeId}\u0000${key}`;
}

/** Drops entries older than the age bound, then the oldest beyond `room` free places. */
function prune<T extends { at: number }>(map: Map<string, T>, now: number, room: number): void {
	const oldest = now - CLAIM_MAX_AGE_MS;
	for (const [key, entry] of map) {
		if (entry.at >= oldest && map.size + room <= MAX_CLAIMS) break;
		map.delete(key);
	}
}

/**
 * Claims `changeKey` for `scope`, atomically within this process (no `await` between the check and
 * the set). Service rules §10.5.
 *
 * @param now ms since the epoch (bounds: {@link CLAIM_MAX_AGE_MS}, {@link MAX_CLAIMS}).
 * @param final true when nothing can undo the handling any more (Respond: When Received); false
 *   while the workflow may still fail: then confirm it with {@link confirmChange} or give it back
 *   with {@link releaseChange}.
 * @returns `claimed` (emit the item), `in-flight` (a copy holds an unconfirmed claim: its outcome is
 *   not known yet) or `handled` (a copy was handled: suppress this one).
 */
export function claimChange(
	scope: ClaimScope,
	changeKey: string,
	now: number,
	final: boolean,
): ClaimResult {
	const key = scopedKey(scope, changeKey);
	const held = CLAIMS.get(key);
	if (held && held.at >= now - CLAIM_MAX_AGE_MS) return held.final ? 'handled' : 'in-flight';
	CLAIMS.delete(key);
	prune(CLAIMS, now, 1);
	CLAIMS.set(key, { at: now, final });
	return 'claimed';
}

/** Marks a claim taken unconfirmed as handled (its workflow succeeded). No-op when absent. */
export function confirmChange(scope: ClaimScope, changeKey: string): void {
	const claim = CLAIMS.get(scopedKey(scope, changeKey));
	if (claim) claim.final = true;
}

/**
 * Gives a claim back (its workflow failed, or the sender never got a 2xx): the service's next
 * delivery of the change is handled again. No-op when absent.
 */
export function releaseChange(scope: ClaimScope, changeKey: string): void {
	CLAIMS.delete(scopedKey(scope, changeKey));
}

/**
 * When the record's current status run began (Unix seconds), the time in its change key (service
 * rules §10.5, {@link runStart}), then remembered in this process. The previous run is the one this
 * process last saw for the record, unless `remembered` (the static data memory) saw the record
 * later: copies handled at the same moment in one process share the run of the first (even when
 * their reads end in different seconds, and though each loaded the memory before the other saved),
 * and a change handled by another process is not mistaken for the run this process saw before it.
 * Atomic like {@link claimChange}.
 *
 * @param recordKey the record, e.g. `d:300123` (memory.ts, `memoryKey`).
 * @param dated the notification's date (Unix seconds), if it has one. @param now ms since the epoch.
 */
export function runSince(
	scope: ClaimScope,
	recordKey: string,
	status: string,
	remembered: StatusRun | undefined,
	dated: number | undefined,
	now: number,
): number {
	const key = scopedKey(scope, recordKey);
	const run = RUNS.get(key);
	const here: StatusRun | undefined =
		run && run.at >= now - CLAIM_MAX_AGE_MS
			? { status: run.status, since: run.since, seenAt: Math.floor(run.at / 1000) }
			: undefined;
	const previous = remembered && (!here || remembered.seenAt > here.seenAt) ? remembered : here;
	const since = runStart(previous, status, dated, Math.floor(now / 1000));
	RUNS.delete(key);
	prune(RUNS, now, 1);
	RUNS.set(key, { at: now, status, since });
	return since;
}

/** How many claims and record runs this process holds (for tests of the bounds). */
export function claimCounts(): { claims: number; runs: number } {
	return { claims: CLAIMS.size, runs: RUNS.size };
}

/** Forgets every claim and run: for tests only (each test starts as a new process would). */
export function forgetAllClaims(): void {
	CLAIMS.clear();
	RUNS.clear();
}
