import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient, ServiceRequest } from '../transport/client';
import { failureOf, isFailureKind, type ServiceFailure } from '../transport/errors';
import {
	countSend,
	recordAttempt,
	recordedOutcome,
	recordOutcome,
	recordRefusedRepeat,
	sentBefore,
} from './attempts';
import type { RequestKey } from './keys';
import {
	createdBeforeAttempt,
	differences,
	isComparable,
	lookUpPeriod,
	type Comparison,
	type ListLookUpResult,
} from './lookUp';
import {
	alreadyMadeMessage,
	keyOfAnotherRecord,
	listLookUpNote,
	repeatOfAnotherExecution,
	unconfirmedRepeat,
	unknownOutcome,
	type Confirmation,
	type CreationNames,
} from './messages';

/**
 * The create-once flow of Deposit, Cashout and Refund → Create (service rules §5.2,
 * docs/money-moves-once.md), one item at a time:
 * 1. the resource builds and checks the request and its key (nothing is sent on a bad field);
 * 2. in the first hour of a Duplicate Window, the previous window's key is looked up: a record
 *    there is a re-run's, and nothing is sent;
 * 3. the attempt is recorded in the execution before it is sent, so an item in flight when the
 *    node stops reads as sent to Retry On Fail and n8n's Retry;
 * 4. it is sent once: the client resends it with the same key after a 429 or 503 (every request
 *    paused) and after a lost answer (a reset, a hang-up, a timeout), a bounded number of times;
 * 5. a repeat answer (104, 511) is looked up, compared and reported as the record an earlier
 *    attempt made, or the item fails saying why;
 * 6. what the item got is recorded in the execution: Retry On Fail and n8n's Retry of a failed
 *    execution output it again instead of sending the request again.
 * Before 1, an item whose outcome this execution recorded is output from the record.
 * The flow decides; the resource ({@link CreateOnceResource}) says what its record is.
 */

export type { Confirmation } from './messages';

/** A creation request as the resource built it: the body to send, its headers and its key. */
export interface PreparedRequest {
	/** The request body exactly as it is sent (the cashout's key is its `external_id`). */
	body: IDataObject;
	/** Headers beside the credential's (the deposit and refund `X-Idempotency-Key`). */
	headers?: IDataObject;
	key: RequestKey;
}

/** What a resource's look-up of one key found (service rules §5.2). */
export interface LookUp<Facts = undefined> {
	/** Whether a record with this key is known to exist (found in the list, or read by its key). */
	exists: boolean;
	/** The reporting list's record of the key, to compare with the request; undefined when not found. */
	record?: IDataObject;
	/** The record as a noun phrase for messages, "cashout 8405147 (PENDING)"; "" when nothing is known. */
	label: string;
	/** What the look-up could not do, a sentence starting with a space; "" when it found the record. */
	note: string;
	/** What else the resource read for its output (the cashout's status). */
	facts: Facts;
}

/**
 * A look-up of a record found (or not) in its reporting list only: it exists when found there.
 * @param name The found record as a noun phrase: "deposit 3000000001 (PENDING)".
 * @param why What a record not found lacks, said before the list's note (" Refund records carry no key…").
 */
export function lookUpOfList(
	result: ListLookUpResult,
	noun: string,
	name: (record: IDataObject) => string,
	why = '',
): LookUp {
	const record = result.outcome === 'found' ? result.record : undefined;
	return record
		? { exists: true, record, label: name(record), note: '', facts: undefined }
		: { exists: false, label: '', note: `${why}${listLookUpNote(result, noun)}`, facts: undefined };
}

/** What the look-up is for: the key, and the creation dates its record can have. */
export interface LookUpTarget {
	key: string;
	/** Unix seconds. */
	period: { from: number; to: number };
	/**
	 * True when the service said a record with this key exists (a repeat answer to this execution's
	 * own key): a list that does not show it yet is read again (lookUp.ts, `REREAD_DELAYS_MS`).
	 */
	known: boolean;
}

/**
 * What one resource is to the create-once flow: its names, its request, its record in the reporting
 * list and its output. The flow decides when each is used.
 */
export interface CreateOnceResource<
	P extends PreparedRequest,
	Facts = undefined,
> extends CreationNames {
	/** Where the creation goes, and what it does in words ("Creating the cashout"). */
	endpoint: Pick<ServiceRequest, 'family' | 'method' | 'path'> & { action: string };
	/** The record's creation-date field in the reporting list ("creationDate", "date"). */
	createdField: string;
	/**
	 * Builds item `itemIndex`'s request and its key.
	 * @throws NodeOperationError naming every broken field (nothing is sent).
	 */
	prepare(context: IExecuteFunctions, itemIndex: number, options: IDataObject): P;
	/** The service's refusals in the resource's words (514 insufficient funds, 802 amount…). */
	refusals?(prepared: P, itemIndex: number): (failure: ServiceFailure) => string | undefined;
	/** The item of a record made now, from the service's answer. */
	created(
		context: IExecuteFunctions,
		prepared: P,
		answer: IDataObject,
	): Promise<INodeExecutionData>;
	/** Looks up the record of `target.key`; a read that fails throws only where nothing was sent yet. */
	lookUp(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		target: LookUpTarget,
		itemIndex: number,
	): Promise<LookUp<Facts>>;
	/** The request's fields and the found record's, to compare (none: the look-up matched them). */
	compare(prepared: P, record: IDataObject): Comparison[];
	/** Whether the key alone names this request (a cashout's derived external ID). */
	keyNamesRequest?(prepared: P): boolean;
	/** Where the user finds the record: "Cashout → Get Many, or the merchant panel". */
	whereToLook(prepared: P): string;
	/** The item of a record an earlier attempt made, with the flow's message. */
	alreadyMade(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		found: LookUp<Facts>,
		outcome: { confirmation: Confirmation; message: string; itemIndex: number },
	): Promise<IDataObject>;
}

/**
 * Runs one creation through the flow for item `itemIndex` (see the module comment).
 * @returns One item: the record made, or the one an earlier attempt made.
 * @throws NodeOperationError for a bad field (nothing sent), a repeat of another execution's
 *   request, a key that belongs to another record, or an unconfirmed repeat; NodeApiError for a
 *   refusal or a failure, whose description says how to retry safely when the outcome is unknown.
 */
export async function createOnce<P extends PreparedRequest, Facts>(
	context: IExecuteFunctions,
	client: PaymentsClient,
	resource: CreateOnceResource<P, Facts>,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const prepared = resource.prepare(context, itemIndex, options);
	// Retry On Fail or n8n's Retry: what this item already got is output, not sent again.
	const recorded = recordedOutcome(context, prepared.key, prepared.body);
	if (recorded) {
		const item = recorded.answer
			? await resource.created(context, prepared, recorded.answer)
			: { json: { ...recorded.json } };
		return [withTimesSent(item, recorded.timesSent)];
	}
	await refuseMadeInPreviousWindow(context, client, resource, prepared, itemIndex);
	recordAttempt(context, prepared.key);
	let timesSent = 0;
	const counted = () => {
		timesSent = Math.max(timesSent + 1, countSend(context, prepared.key));
	};
	const sent = await send(client, resource, prepared, itemIndex, counted);
	if ('answer' in sent) {
		recordOutcome(context, prepared.key, prepared.body, { answer: sent.answer, timesSent });
		return [withTimesSent(await resource.created(context, prepared, sent.answer), timesSent)];
	}
	// A repeat answer to this attempt's own resend (after a 503 or a lost answer): its record may
	// be this request's.
	const key = sent.ownResend ? sentBefore(context, prepared.key) : prepared.key;
	const json = await confirmRepeat(context, client, resource, { ...prepared, key }, itemIndex);
	const item = withTimesSent({ json }, timesSent);
	recordOutcome(context, prepared.key, prepared.body, { json: { ...item.json }, timesSent });
	return [item];
}

/** `item` with `times_sent` when its request was sent more than once (a lost answer resent). */
function withTimesSent(item: INodeExecutionData, timesSent: number): INodeExecutionData {
	if (timesSent > 1) item.json.times_sent = timesSent;
	return item;
}

/**
 * Sends the request through the client, which resends it with the same key after a 429 or 503
 * (every request paused) and after a lost answer (service rules §11).
 * @returns The service's answer, or a repeat answer (104, 511) and whether it answered a resend
 *   of this very attempt.
 * @throws the client's n8n error for any other failure.
 */
async function send<P extends PreparedRequest, Facts>(
	client: PaymentsClient,
	resource: CreateOnceResource<P, Facts>,
	prepared: P,
	itemIndex: number,
	onSend: () => void,
): Promise<{ answer: IDataObject } | { ownResend: boolean }> {
	const { action, ...endpoint } = resource.endpoint;
	const sent = await client
		.request<IDataObject>(
			{
				...endpoint,
				body: prepared.body,
				...(prepared.headers ? { headers: prepared.headers } : {}),
				repeat: 'keyed',
			},
			{
				action: `${action} of item ${itemIndex}`,
				itemIndex,
				explain: resource.refusals?.(prepared, itemIndex),
				unknownOutcome: unknownOutcome(resource, prepared.key),
			},
			{ onSend },
		)
		.then(
			(answer) => ({ answer: answer ?? {} }),
			(error: unknown) => ({ error }),
		);
	if ('answer' in sent) return sent;
	// The client throws n8n errors only (NodeApiError, NodeOperationError): passed on as they are.
	if (!isFailureKind(sent.error, 'keyAlreadyUsed')) throw sent.error;
	return { ownResend: failureOf(sent.error)?.earlierAttemptMayHaveActed === true };
}

/**
 * On a first attempt just after a Duplicate Window boundary, looks up the previous window's key: a
 * re-run of a request whose answer was lost before the boundary sent that key.
 * @throws NodeOperationError ({@link repeatOfAnotherExecution}) when its record exists.
 */
async function refuseMadeInPreviousWindow<P extends PreparedRequest, Facts>(
	context: IExecuteFunctions,
	client: PaymentsClient,
	resource: CreateOnceResource<P, Facts>,
	prepared: P,
	itemIndex: number,
): Promise<void> {
	const previous = prepared.key.previous;
	if (!previous) return;
	const target = {
		key: previous.value,
		period: lookUpPeriod(previous.window, Date.now()),
		known: false,
	};
	const found = await resource.lookUp(context, client, prepared, target, itemIndex);
	if (!found.exists) return;
	const label = `${found.label || `the ${resource.noun}`}, created in the previous Duplicate Window`;
	throw refuseRepeat(
		context,
		resource,
		{ ...prepared.key, value: previous.value },
		itemIndex,
		label,
	);
}

/** The error of a key another execution's request holds; later attempts here remember it. */
function refuseRepeat(
	context: IExecuteFunctions,
	names: CreationNames,
	key: RequestKey,
	itemIndex: number,
	label: string,
) {
	recordRefusedRepeat(context, key);
	return repeatOfAnotherExecution(context, itemIndex, names, key.value, label);
}

/**
 * The item of a repeat answer (104, 511): nothing new was made (service rules §5.2).
 * - A derived key no attempt of this execution sent: another execution's record; the item fails.
 * - Otherwise the record is looked up and, when found, compared: a field that differs fails the
 *   item (the key belongs to another record), and a derived key's record made before this
 *   execution first sent it is another execution's. Found and equal, or named by its key alone:
 *   confirmed. Neither: the item fails as unconfirmed, unless Options → Unconfirmed Repeat says to
 *   output it.
 */
async function confirmRepeat<P extends PreparedRequest, Facts>(
	context: IExecuteFunctions,
	client: PaymentsClient,
	resource: CreateOnceResource<P, Facts>,
	prepared: P,
	itemIndex: number,
): Promise<IDataObject> {
	const { key } = prepared;
	const target = { key: key.value, period: lookUpPeriod(key.window, Date.now()), known: false };
	if (key.derived && key.earlierAttemptMs === undefined) {
		const found = await resource
			.lookUp(context, client, prepared, target, itemIndex)
			.catch(() => undefined);
		throw refuseRepeat(context, resource, key, itemIndex, found?.label ?? '');
	}
	const found = await resource.lookUp(
		context,
		client,
		prepared,
		{ ...target, known: true },
		itemIndex,
	);
	const compared = found.record ? resource.compare(prepared, found.record) : [];
	if (found.record) {
		const differing = differences(compared, resource.noun);
		if (differing.length)
			throw keyOfAnotherRecord(context, itemIndex, resource, key, found.label, differing);
		if (
			key.derived &&
			createdBeforeAttempt(found.record, resource.createdField, key.earlierAttemptMs)
		)
			throw refuseRepeat(context, resource, key, itemIndex, found.label);
	}
	const confirmation: Confirmation = found.record
		? 'found'
		: found.exists && resource.keyNamesRequest?.(prepared)
			? 'byKey'
			: 'unconfirmed';
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (confirmation === 'unconfirmed' && options.unconfirmedRepeat !== 'output') {
		const where = resource.whereToLook(prepared);
		throw unconfirmedRepeat(context, itemIndex, resource, key, found, where);
	}
	const fields = compared.filter(isComparable).map((comparison) => comparison.field);
	const message = alreadyMadeMessage(resource, key, {
		...found,
		confirmation,
		compared: fields,
	});
	return await resource.alreadyMade(context, client, prepared, found, {
		confirmation,
		message,
		itemIndex,
	});
}
