import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestKey } from './keys';

/**
 * What a node remembers of the creations it sent within one execution (service rules §5.2): in
 * n8n's node context, which Retry On Fail and n8n's Retry of a failed execution carry over.
 */

/**
 * What a node remembers of its creation attempts within one execution, in n8n's node context
 * (`this.getContext('node')`, saved with the execution's data): the key each request sent and when,
 * by {@link RequestKey.attemptKey}. n8n's Retry of a failed execution carries the context over, and
 * Retry On Fail runs in the same execution, so both find what the first attempt sent, whatever the
 * clock says; a separate execution starts with none (service rules §5.2).
 */
export interface AttemptRecord {
	key: string;
	/** The window of a derived key, epoch milliseconds (UTC). */
	windowStartMs?: number;
	windowEndMs?: number;
	windowLabel?: string;
	/** When the key was first sent, epoch milliseconds. */
	sentMs: number;
	/** True once the service refused the key as another execution's (the repeat was not ours). */
	refused?: boolean;
}

/** The name of the attempt record in the node context. */
const ATTEMPTS = 'paymentsServiceCreationAttempts';

/**
 * The node's attempt records of this execution, or undefined where the running n8n offers no node
 * context (then every attempt is a first one, and a repeat cannot be told from a retry).
 */
export function attemptRecords(
	context: IExecuteFunctions,
): Record<string, AttemptRecord> | undefined {
	const getContext = (context as { getContext?: IExecuteFunctions['getContext'] }).getContext;
	if (typeof getContext !== 'function') return undefined;
	let store: IDataObject;
	try {
		store = getContext.call(context, 'node') as IDataObject;
	} catch {
		return undefined;
	}
	if (typeof store[ATTEMPTS] !== 'object' || store[ATTEMPTS] === null) store[ATTEMPTS] = {};
	return store[ATTEMPTS] as unknown as Record<string, AttemptRecord>;
}

/**
 * Remembers that `key` is about to be sent (call it right before sending): the first attempt
 * of a request records its key, window and time; later attempts keep the first record.
 */
export function recordAttempt(context: IExecuteFunctions, key: RequestKey): void {
	const records = attemptRecords(context);
	if (!records || records[key.attemptKey]) return;
	records[key.attemptKey] = {
		key: key.value,
		sentMs: Date.now(),
		...(key.window
			? {
					windowStartMs: key.window.startMs,
					windowEndMs: key.window.endMs,
					windowLabel: key.window.label,
				}
			: {}),
	};
}

/**
 * `key` as seen by a repeat answer to its own resend (a 503 resent with the same key, service
 * rules §11): the attempt this call recorded ({@link recordAttempt}) sent the key before, so the
 * record may be this request's. Unchanged when an earlier attempt is already known.
 */
export function sentBefore(context: IExecuteFunctions, key: RequestKey): RequestKey {
	if (key.earlierAttemptMs !== undefined) return key;
	const record = attemptRecords(context)?.[key.attemptKey];
	return record && !record.refused ? { ...key, earlierAttemptMs: record.sentMs } : key;
}

/**
 * Remembers that the service refused `key`'s key as already used when this execution had not
 * sent it before: the record belongs to another execution, and later attempts here are not retries
 * of it.
 */
export function recordRefusedRepeat(context: IExecuteFunctions, key: RequestKey): void {
	const record = attemptRecords(context)?.[key.attemptKey];
	if (record) record.refused = true;
}

/** When an attempt of this execution first sent the key of `attemptKey` (not when it was refused as another's). */
export function earlierAttempt(
	records: Record<string, AttemptRecord> | undefined,
	attemptKey: string,
): number | undefined {
	const record = records?.[attemptKey];
	return record && !record.refused ? record.sentMs : undefined;
}
