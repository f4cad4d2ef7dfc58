import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { createHash } from 'crypto';

import { canonicalJson, type RequestKey } from './keys';

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
	/** How many times the request was sent, over every attempt of this execution. */
	sends?: number;
}

/** n8n's node context of this execution, or undefined where the running n8n offers none. */
function nodeContext(context: IExecuteFunctions): IDataObject | undefined {
	const getContext = (context as { getContext?: IExecuteFunctions['getContext'] }).getContext;
	if (typeof getContext !== 'function') return undefined;
	try {
		return getContext.call(context, 'node') as IDataObject;
	} catch {
		return undefined;
	}
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
	const store = nodeContext(context);
	if (!store) return undefined;
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

/**
 * Counts one sending of the request of `key` (each resend too) and returns how many times it was
 * sent in this execution; 1 where the running n8n offers no node context.
 */
export function countSend(context: IExecuteFunctions, key: RequestKey): number {
	const record = attemptRecords(context)?.[key.attemptKey];
	if (!record) return 1;
	record.sends = (record.sends ?? 0) + 1;
	return record.sends;
}

/**
 * What an item of this execution got from the service, recorded as its answer arrives, so that
 * Retry On Fail and n8n's Retry of a failed execution output it instead of sending the request
 * again (service rules §5.2). Kept in the node context until the node's run ends without an error
 * ({@link forgetOutcomes}).
 */
export interface RecordedOutcome {
	/** The key the request was sent with; an item whose key changed is not the same request. */
	key: string;
	/**
	 * A digest of the request's body ({@link requestDigest}): an item whose fields changed (a
	 * workflow edited before n8n's Retry) is not the same request, whatever its key.
	 */
	request: string;
	/** The service's answer, when the record was made now. */
	answer?: IDataObject;
	/** The item output, when the record was one an earlier attempt made. */
	json?: IDataObject;
	/** How many times the request was sent. */
	timesSent: number;
}

/** The name of the recorded outcomes in the node context. */
const OUTCOMES = 'paymentsServiceCreationOutcomes';

/** The node's recorded outcomes by item slot, or undefined without a node context. */
function outcomes(
	context: IExecuteFunctions,
	create: boolean,
): Record<string, RecordedOutcome> | undefined {
	const store = nodeContext(context);
	if (!store) return undefined;
	if (typeof store[OUTCOMES] !== 'object' || store[OUTCOMES] === null) {
		if (!create) return undefined;
		store[OUTCOMES] = {};
	}
	return store[OUTCOMES] as unknown as Record<string, RecordedOutcome>;
}

/** 16 hex characters of SHA-256 over the request body's canonical JSON (keys sorted). */
export function requestDigest(body: unknown): string {
	return createHash('sha256').update(canonicalJson(body)).digest('hex').slice(0, 16);
}

/** Records what item `key.slot` got for the request `body` (see {@link RecordedOutcome}). */
export function recordOutcome(
	context: IExecuteFunctions,
	key: RequestKey,
	body: unknown,
	outcome: Pick<RecordedOutcome, 'answer' | 'json' | 'timesSent'>,
): void {
	const recorded = outcomes(context, true);
	if (recorded) recorded[key.slot] = { key: key.value, request: requestDigest(body), ...outcome };
}

/** What item `key.slot` got earlier in this execution for the same request `body` and key, if anything. */
export function recordedOutcome(
	context: IExecuteFunctions,
	key: RequestKey,
	body: unknown,
): RecordedOutcome | undefined {
	const recorded = outcomes(context, false)?.[key.slot];
	return recorded?.key === key.value && recorded.request === requestDigest(body)
		? recorded
		: undefined;
}

/**
 * Forgets the recorded outcomes once the node's run ended without an error: nothing runs it again
 * then, and the execution's saved data stays as small as its items.
 */
export function forgetOutcomes(context: IExecuteFunctions): void {
	const store = nodeContext(context);
	if (store && OUTCOMES in store) delete store[OUTCOMES];
}
