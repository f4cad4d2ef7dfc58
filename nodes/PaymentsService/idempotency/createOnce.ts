import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient, ServiceRequest } from '../transport/client';
import { failureOf, isFailureKind, type ServiceFailure } from '../transport/errors';
import { recordAttempt, recordRefusedRepeat, sentBefore } from './attempts';
import type { RequestKey } from './keys';
import {
	failUnlessUnconfirmedAllowed,
	repeatOfAnotherExecution,
	unknownCreationOutcome,
} from './messages';
import { createdBeforeAttempt, differences, type Comparison, type Recovery } from './lookUp';

/**
 * The create-once flow of Deposit, Cashout and Refund → Create (service rules §5.2,
 * docs/money-moves-once.md): build and check the request and its key; look for the previous
 * Duplicate Window's record; record the attempt before sending (so an item in flight when the node
 * stops reads as sent to n8n's Retry); send once (a 429 or 503 is resent with the same key, every
 * request paused: transport/client.ts); on a repeat answer (104, 511), find, compare and report the
 * earlier record, or fail the item.
 */

/** A creation request as the adapter built it: the body to send, its headers and its key. */
export interface PreparedCreation {
	/** The request body exactly as it is sent (the cashout's key is its `external_id`). */
	body: IDataObject;
	/** Headers beside the credential's (the deposit and refund `X-Idempotency-Key`). */
	headers?: IDataObject;
	creation: RequestKey;
}

/** What a look-up after a repeat answer found: the record (Recovery), and facts of the adapter's own. */
export interface LookUp<Facts = undefined> {
	recovery: Recovery;
	facts: Facts;
}

/** How a repeat answer was confirmed as this request's record. */
export type Confirmation =
	/** Found in the reporting list and compared. */
	| 'found'
	/** Not found, but the key itself names this request (a key derived from its fields and sent by this execution). */
	| 'byKey'
	/** Neither: output only because Options → Unconfirmed Repeat says so. */
	| 'unconfirmed';

/**
 * What one resource supplies to the flow: how to build, send, find, compare and report its record.
 * Messages stay the adapter's, in its own words.
 */
export interface CreationAdapter<P extends PreparedCreation, Facts = undefined> {
	/** "cashout", "deposit" or "refund": the record, in messages. */
	noun: string;
	/** What the record is to the merchant in the repeat errors: "payout", "deposit", "refund". */
	thing: string;
	/** What the key is sent as: "external ID" or "idempotency key". */
	keyName: string;
	/** The service's answer to a key sent again: 511 or 104. */
	repeatCode: number;
	/** The field that makes two requests distinct, named in the repeat error ("External ID"…). */
	distinctField: string;
	/** Where the request goes. */
	request: Pick<ServiceRequest, 'family' | 'method' | 'path'>;
	/** What is being done, for the error message: "Creating the cashout". */
	action: string;
	/**
	 * Builds item `itemIndex`'s request and its key.
	 * @throws NodeOperationError naming every broken field (nothing is sent).
	 */
	prepare(context: IExecuteFunctions, itemIndex: number, options: IDataObject): P;
	/** The refusals the adapter explains in its own words (e.g. 514, 802). */
	explain?(prepared: P, itemIndex: number): (failure: ServiceFailure) => string | undefined;
	/**
	 * Looks for the record of `previousKey` (the same request in the previous Duplicate Window):
	 * what is known of it (" (PENDING, created in the previous Duplicate Window)"), or undefined
	 * when there is none. Without it, no previous window is read.
	 */
	inPreviousWindow?(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		previousKey: string,
		itemIndex: number,
	): Promise<string | undefined>;
	/** The item of a first success, from the service's answer. */
	created(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		answer: IDataObject,
		itemIndex: number,
	): Promise<INodeExecutionData>;
	/**
	 * What is known of the record another execution made under this derived key, for the repeat
	 * error (" (PENDING)"), or "" when nothing is read.
	 */
	describeRepeat?(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		itemIndex: number,
	): Promise<string>;
	/** Finds the record an earlier attempt made (and reads what the adapter reports of it). */
	lookUp(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		itemIndex: number,
	): Promise<LookUp<Facts>>;
	/** The fields of the found record to compare with the request; none: the look-up matched them. */
	compare?(prepared: P, record: IDataObject): Comparison[];
	/** The record's creation-date field, to tell another execution's record from this one's. */
	createdField: string;
	/** A found record in a message: " (cashout 8405147, PENDING)". */
	describeRecord(record: IDataObject, facts: Facts): string;
	/**
	 * The error of a found record that differs from the request: the key belongs to another one.
	 * @param differing "amount: 300.00 asked, 250 on the existing cashout", one per field.
	 */
	anotherRecord?(
		prepared: P,
		record: IDataObject,
		differing: string[],
		itemIndex: number,
	): { message: string; description: string };
	/** True when the key alone names this request (a cashout's derived external ID). */
	confirmedByKey?(prepared: P): boolean;
	/**
	 * What the item's failure says when the record could not be found and compared (before the
	 * flow adds how to output it anyway).
	 */
	unconfirmedDescription(prepared: P, lookUp: LookUp<Facts>): string;
	/** The item of a repeat answer, confirmed (or output unconfirmed). */
	alreadyMade(
		context: IExecuteFunctions,
		client: PaymentsClient,
		prepared: P,
		outcome: { lookUp: LookUp<Facts>; confirmation: Confirmation; itemIndex: number },
	): Promise<IDataObject>;
}

/**
 * Runs one creation through the flow for item `itemIndex` (see the module comment).
 * @returns One item: the record made, or the one an earlier attempt made.
 * @throws NodeOperationError for a bad field (nothing sent), a repeat of another execution's
 *   request, a key that belongs to another record, or an unconfirmed repeat; NodeApiError for a
 *   refusal or a failure, whose description says how to retry safely when the outcome is unknown.
 */
export async function createOnce<P extends PreparedCreation, Facts>(
	context: IExecuteFunctions,
	client: PaymentsClient,
	adapter: CreationAdapter<P, Facts>,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const prepared = adapter.prepare(context, itemIndex, options);
	await refusePreviousWindow(context, client, adapter, prepared, itemIndex);
	recordAttempt(context, prepared.creation);
	const sent = await client
		.request<IDataObject>(
			{
				...adapter.request,
				body: prepared.body,
				...(prepared.headers ? { headers: prepared.headers } : {}),
				safeToRepeat: false,
				resendWhenBusy: true,
			},
			{
				action: `${adapter.action} of item ${itemIndex}`,
				itemIndex,
				explain: adapter.explain?.(prepared, itemIndex),
				unknownOutcome: unknownCreationOutcome(
					prepared.creation,
					adapter.keyName,
					adapter.repeatCode,
					adapter.noun,
				),
			},
		)
		.then(
			(answer) => ({ answer }),
			(error: unknown) => ({ error }),
		);
	if ('error' in sent) {
		// The client throws n8n errors only (NodeApiError, NodeOperationError): passed on as they are.
		if (!isFailureKind(sent.error, 'keyAlreadyUsed')) throw sent.error;
		// A repeat answer to a resend after a 503: this very attempt may have made the record.
		const creation = failureOf(sent.error)?.earlierAttemptMayHaveActed
			? sentBefore(context, prepared.creation)
			: prepared.creation;
		const json = await alreadyMade(
			context,
			client,
			adapter,
			{ ...prepared, creation },
			itemIndex,
			options,
		);
		return [{ json }];
	}
	return [await adapter.created(context, client, prepared, sent.answer ?? {}, itemIndex)];
}

/**
 * On a first attempt just after a Duplicate Window boundary, looks for the previous window's
 * record: a re-run of a request whose answer was lost before the boundary sent that key.
 * @throws NodeOperationError ({@link repeatOfAnotherExecution}) when it exists.
 */
async function refusePreviousWindow<P extends PreparedCreation, Facts>(
	context: IExecuteFunctions,
	client: PaymentsClient,
	adapter: CreationAdapter<P, Facts>,
	prepared: P,
	itemIndex: number,
): Promise<void> {
	const previousKey = prepared.creation.previousWindowKey;
	if (!previousKey || !adapter.inPreviousWindow) return;
	const found = await adapter.inPreviousWindow(context, client, prepared, previousKey, itemIndex);
	if (found === undefined) return;
	throw repeat(context, adapter, { ...prepared.creation, key: previousKey }, itemIndex, found);
}

/** The error of a key that another execution's request holds; later attempts here remember it. */
function repeat<P extends PreparedCreation, Facts>(
	context: IExecuteFunctions,
	adapter: CreationAdapter<P, Facts>,
	creation: RequestKey,
	itemIndex: number,
	found: string,
): NodeOperationError {
	recordRefusedRepeat(context, creation);
	return repeatOfAnotherExecution(
		context,
		itemIndex,
		adapter.noun,
		creation,
		adapter.keyName,
		found,
		adapter.distinctField,
	);
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
async function alreadyMade<P extends PreparedCreation, Facts>(
	context: IExecuteFunctions,
	client: PaymentsClient,
	adapter: CreationAdapter<P, Facts>,
	prepared: P,
	itemIndex: number,
	options: IDataObject,
): Promise<IDataObject> {
	const { creation } = prepared;
	if (creation.derived && creation.earlierAttemptMs === undefined) {
		const found = (await adapter.describeRepeat?.(context, client, prepared, itemIndex)) ?? '';
		throw repeat(context, adapter, creation, itemIndex, found);
	}
	const lookUp = await adapter.lookUp(context, client, prepared, itemIndex);
	const record = lookUp.recovery.outcome === 'found' ? lookUp.recovery.record : undefined;
	if (record) {
		const differing = differences(adapter.compare?.(prepared, record) ?? [], adapter.noun);
		if (differing.length && adapter.anotherRecord) {
			const { message, description } = adapter.anotherRecord(
				prepared,
				record,
				differing,
				itemIndex,
			);
			throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
		}
		if (
			creation.derived &&
			createdBeforeAttempt(record, adapter.createdField, creation.earlierAttemptMs)
		) {
			const found = adapter.describeRecord(record, lookUp.facts);
			throw repeat(context, adapter, creation, itemIndex, found);
		}
	}
	let confirmation: Confirmation = record
		? 'found'
		: adapter.confirmedByKey?.(prepared)
			? 'byKey'
			: 'unconfirmed';
	if (confirmation === 'unconfirmed') {
		const noun = adapter.noun.charAt(0).toUpperCase() + adapter.noun.slice(1);
		failUnlessUnconfirmedAllowed(
			context,
			itemIndex,
			options,
			`${noun} in item ${itemIndex}: ${adapter.keyName} ${creation.key} was already used, and the ${adapter.thing} it belongs to could not be confirmed`,
			adapter.unconfirmedDescription(prepared, lookUp),
		);
		confirmation = 'unconfirmed';
	}
	return await adapter.alreadyMade(context, client, prepared, { lookUp, confirmation, itemIndex });
}
