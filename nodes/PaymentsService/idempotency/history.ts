import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { createHash } from 'crypto';

import { canonicalJson, type RequestKey } from './keys';

/**
 * What an execution knows of the creation requests it sent (service rules §5.2): one history per
 * request key, in n8n's node context (`getContext('node')`, saved with the execution), which Retry
 * On Fail and n8n's Retry of a failed execution carry over; a new execution starts with none. The
 * one store, under one name ({@link STORE}); its field names are the stored form.
 */

/** One request's history, under its history key (keys.ts, `historyKeyOf`; `given-` + a given key). */
export interface RequestHistory {
	/** The key sent. */
	key: string;
	/** A derived key's Duplicate Window, epoch milliseconds (UTC), and its label. */
	windowStartMs?: number;
	windowEndMs?: number;
	windowLabel?: string;
	/** When the key was first sent, epoch milliseconds. */
	sentMs: number;
	/** How many times it was sent, over every attempt of the execution. */
	sends?: number;
	/** True once the service refused the key as another execution's (the repeat was not ours). */
	refused?: boolean;
	/** What an item got for it, kept from its answer until the node's run ends without an error. */
	outcome?: Outcome;
	/** True once a run of the node that output its outcome ended without an error. */
	reported?: boolean;
}

/** What an item got for its request: the service's answer (made now), or the item output (found). */
export interface Outcome {
	/** The item that got it, `<run index>:<item index>`. */
	runItem: string;
	/** A digest of the body ({@link requestDigest}): a request whose fields changed is another. */
	request: string;
	answer?: IDataObject;
	json?: IDataObject;
}

/** The name of the store in the node context (kept from when it held only the attempts). */
const STORE = 'paymentsServiceCreationAttempts';

/**
 * The histories of this execution's requests, by history key: the node context's store, or a new
 * one kept nowhere where the running n8n offers no node context (then every attempt is a first).
 */
export function requestHistories(context: IExecuteFunctions): Record<string, RequestHistory> {
	const getContext = (context as { getContext?: IExecuteFunctions['getContext'] }).getContext;
	let store: IDataObject | undefined;
	try {
		store =
			typeof getContext === 'function'
				? (getContext.call(context, 'node') as IDataObject)
				: undefined;
	} catch {
		store = undefined;
	}
	if (!store) return {};
	if (typeof store[STORE] !== 'object' || store[STORE] === null) store[STORE] = {};
	return store[STORE] as unknown as Record<string, RequestHistory>;
}

/**
 * The history of `key` under `name`, started as it is first sent (call it right before sending, so
 * an item in flight when the node stops reads as sent): its key, window and time. A history that
 * exists is returned as it is: a later attempt keeps the first one's.
 */
export function startHistory(
	histories: Record<string, RequestHistory>,
	name: string,
	key: RequestKey,
): RequestHistory {
	histories[name] ??= {
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
	return histories[name];
}

/** When this execution first sent the key of `history`, unless the service refused it as another's. */
export function firstSentMs(history: RequestHistory | undefined): number | undefined {
	return history && !history.refused ? history.sentMs : undefined;
}

/** 16 hex characters of SHA-256 over the request body's canonical JSON (keys sorted). */
function requestDigest(body: unknown): string {
	return createHash('sha256').update(canonicalJson(body)).digest('hex').slice(0, 16);
}

/** What item `runItem` got earlier in this execution for the same `key` and `body`, if anything. */
export function outcomeOf(
	history: RequestHistory | undefined,
	runItem: string,
	key: RequestKey,
	body: unknown,
): Outcome | undefined {
	const outcome = history?.outcome;
	return outcome?.runItem === runItem &&
		history?.key === key.value &&
		outcome.request === requestDigest(body)
		? outcome
		: undefined;
}

/** Keeps what item `runItem` got for the request `body`: the service's answer, or the item output. */
export function keepOutcome(
	history: RequestHistory,
	runItem: string,
	body: unknown,
	got: { answer: IDataObject } | { json: IDataObject },
): void {
	history.outcome = { runItem, request: requestDigest(body), ...got };
}

/**
 * Whether the record of `history`'s key reads as made now on item `runItem`: this execution sent
 * the key, no run of the node has output the record yet, and no other item is outputting it.
 * Otherwise the nodes after this one may have seen it made (docs/money-moves-once.md).
 */
export function madeNow(history: RequestHistory, runItem: string): boolean {
	return (
		!history.refused &&
		!history.reported &&
		(history.outcome === undefined || history.outcome.runItem === runItem)
	);
}

/**
 * Once the node's run ended without an error (nothing runs it again then): every kept outcome was
 * output, so it is marked reported and dropped, and the execution's saved data stays as small as
 * its items.
 */
export function markReported(context: IExecuteFunctions): void {
	for (const history of Object.values(requestHistories(context))) {
		if (!history.outcome) continue;
		delete history.outcome;
		history.reported = true;
	}
}
