import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { IDEMPOTENCY_HEADER } from '../codes/service';
import { REPORTING_LISTS } from '../reporting/lists';
import { optionsCollection } from '../parameters/options';
import type { PaymentsClient, ServiceRequest } from '../transport/client';
import { failureOf, isFailureKind, type ServiceFailure } from '../transport/errors';
import {
	firstSentMs,
	keepOutcome,
	madeNow,
	markReported,
	outcomeOf,
	requestHistories,
	startHistory,
	type RequestHistory,
} from './history';
import { givenKeyProblem, type RequestKey } from './keys';
import {
	CLOCK_SLACK_SECONDS,
	createdBeforeSent,
	differences,
	isComparable,
	lookUpPeriod,
	lookUpRecord,
	type Comparison,
	type CreationLookUp,
	type LookUpResult,
} from './lookUp';
import {
	keyOfAnotherRecord,
	repeatMessage,
	repeatOfAnotherExecution,
	unconfirmedRepeat,
	unknownOutcome,
	type Confirmation,
	type CreationNames,
} from './messages';
import { duplicateWindowOption, idempotencyKeyOption, unconfirmedRepeatOption } from './options';
import { requestKey, type ItemKey } from './requestKey';

/**
 * The create-once flow of Deposit, Cashout and Refund → Create (service rules §5.2,
 * docs/money-moves-once.md). Each operation declares its creation ({@link Creation}: its request,
 * its key, how its record is looked up and compared, its items) and is built from it
 * ({@link createOnceOperation}), the way the reporting lists' operations are built from their
 * entries. The flow decides, one item at a time: the body is checked and the key taken; an item
 * this execution already made is output again; in the first hour of a Duplicate Window the previous
 * window's key is looked up; the request is sent, its history started first (idempotency/history.ts);
 * a repeat answer (104, 511) is looked up and compared; what the item got is kept for Retry On Fail.
 */

/** One creation, as its operation declares it. */
export interface Creation {
	/** The record: "cashout", "deposit" or "refund". */
	noun: 'cashout' | 'deposit' | 'refund';
	key: {
		/**
		 * `externalId`: the body's `external_id`, given in the External ID field or derived
		 * (cashouts); `idempotencyKey`: the `X-Idempotency-Key` header, given in Options →
		 * Idempotency Key or derived (deposits, refunds).
		 */
		sentAs: 'externalId' | 'idempotencyKey';
		/** The service's answer to a key sent again: 511 (cashouts) or 104 (deposits, refunds). */
		repeatCode: 511 | 104;
		/** The field that makes two requests with derived keys distinct ("External ID", "Invoice ID"). */
		distinctField: string;
		/**
		 * Without an `invoice_id` in the body, the key is sent as it too, when it is a valid one
		 * (deposits: every deposit can then be found again by its key).
		 */
		asInvoiceId?: true;
	};
	/** Where the creation goes, and what it does in words ("Creating the cashout"). */
	endpoint: Pick<ServiceRequest, 'family' | 'method' | 'path'> & { action: string };
	/** Its parameters before the Options collection, and its own options after the flow's. */
	parameters: INodeProperties[];
	options?: INodeProperties[];
	/**
	 * Item `itemIndex`'s body, read from its parameters and checked once; a key to derive is not in
	 * it yet. `unchecked`: fields of a JSON body the node does not know, sent as they are.
	 * @throws NodeOperationError naming every broken field (nothing is sent).
	 */
	body(context: IExecuteFunctions, itemIndex: number): { value: IDataObject; unchecked: string[] };
	lookUp: CreationLookUp;
	/** The request's fields and the found record's, to compare (none: the look-up matched them). */
	compare(body: IDataObject, record: IDataObject): Comparison[];
	/** A refusal in the creation's words (514 insufficient funds, 802 amount…). */
	refusal?(failure: ServiceFailure, body: IDataObject, itemIndex: number): string | undefined;
	/** The record asked for, in the unknown-outcome message: "refund of deposit 123". */
	subject?(body: IDataObject): string;
	/** Where the user finds the record: "Cashout → Get Many, or the merchant panel". */
	whereToLook(body: IDataObject): string;
	/** The item of a record made now, from the service's answer. */
	made(
		context: IExecuteFunctions,
		request: CreationRequest,
		answer: IDataObject,
	): Promise<INodeExecutionData>;
	/** The item of a record the service already had (a repeat answer), found or confirmed. */
	found(
		context: IExecuteFunctions,
		client: PaymentsClient,
		request: CreationRequest,
		found: FoundRecord,
	): Promise<IDataObject>;
}

/** One item's request, as sent. */
export interface CreationRequest {
	itemIndex: number;
	/** The body exactly as it is sent, its key in it where it carries one. */
	body: IDataObject;
	key: RequestKey;
	options: IDataObject;
}

/** A record the service already had, as the flow confirmed it. */
export interface FoundRecord extends LookUpResult {
	confirmation: Confirmation;
	/**
	 * What `already_created` (`already_requested`) says: false when this execution's own request
	 * made it and no run of the node has output it yet (docs/money-moves-once.md).
	 */
	already: boolean;
	/** The flow's message for the item. */
	message: string;
}

/** What an operation module of a creation is (actions/types.ts, OperationModule). */
export interface CreationOperation {
	properties: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		client: PaymentsClient,
		itemIndex: number,
	): Promise<INodeExecutionData[]>;
	/** Once the node's run ended without an error: the kept outcomes were output. */
	afterRun(context: IExecuteFunctions): void;
}

/**
 * The operation of `creation`: its parameters with the flow's options (Duplicate Window, the
 * Idempotency Key where the key is a header, Unconfirmed Repeat), and one item per input item
 * through the flow ({@link createOnce}).
 */
export function createOnceOperation(creation: Creation): CreationOperation {
	const keyOption =
		creation.key.sentAs === 'idempotencyKey'
			? [
					idempotencyKeyOption(
						`the same ${creation.noun} being ${creation.noun === 'refund' ? 'requested' : 'created'} twice`,
					),
				]
			: [];
	return {
		properties: [
			...creation.parameters,
			optionsCollection([
				duplicateWindowOption,
				...keyOption,
				unconfirmedRepeatOption,
				...(creation.options ?? []),
			]),
		],
		async execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
			return [await createOnce(this, client, creation, itemIndex)];
		},
		afterRun: markReported,
	};
}

/** The names messages give a creation's record and key. */
function namesOf(creation: Creation): CreationNames {
	const external = creation.key.sentAs === 'externalId';
	return {
		noun: creation.noun,
		key: {
			name: external ? 'external ID' : 'idempotency key',
			field: external ? 'External ID' : 'Idempotency Key',
			repeatCode: creation.key.repeatCode,
			distinctField: creation.key.distinctField,
		},
	};
}

/** One item on its way through the flow: its request, its key's place and its history. */
interface ItemState {
	request: CreationRequest;
	place: ItemKey;
	histories: Record<string, RequestHistory>;
	/** Fields of a JSON body sent unchecked (`unchecked_fields` on the item). */
	unchecked: string[];
}

/**
 * Runs one creation through the flow for item `itemIndex` (see the module comment).
 * @returns The item: the record made, or the one the service already had.
 * @throws NodeOperationError for a bad field (nothing sent), a repeat of another execution's
 *   request, a key that belongs to another record, or an unconfirmed repeat; NodeApiError for a
 *   refusal or a failure, whose description says how to retry safely when the outcome is unknown.
 */
async function createOnce(
	context: IExecuteFunctions,
	client: PaymentsClient,
	creation: Creation,
	itemIndex: number,
): Promise<INodeExecutionData> {
	const item = prepare(context, creation, itemIndex);
	const { request, place, histories } = item;
	// Retry On Fail or n8n's Retry: what this item already got is output, not sent again.
	const kept = outcomeOf(histories[place.historyKey], place.runItem, request.key, request.body);
	if (kept) {
		const output = kept.answer
			? await creation.made(context, request, kept.answer)
			: { json: { ...kept.json } };
		return finished(item, output, histories[place.historyKey]);
	}
	const sentBefore = firstSentMs(histories[place.historyKey]);
	if (place.previous && sentBefore === undefined)
		await refuseMadeInPreviousWindow(context, client, creation, item, place.previous);
	const history = startHistory(histories, place.historyKey, request.key);
	const sent = await send(client, creation, request, history);
	if ('answer' in sent) {
		keepOutcome(history, place.runItem, request.body, { answer: sent.answer });
		return finished(item, await creation.made(context, request, sent.answer), history);
	}
	// A repeat answer names this execution's request when it sent the key before, or when it
	// answered the request's own resend (after a lost answer or a 503).
	const sentMs = sentBefore ?? (sent.ownResend ? firstSentMs(history) : undefined);
	const json = await confirmRepeat(context, client, creation, item, { history, sentMs });
	keepOutcome(history, place.runItem, request.body, { json: { ...json } });
	return finished(item, { json }, history);
}

/**
 * Item `itemIndex`'s request: its body checked once, its key (given, or derived from the checked
 * body), the body with the key in it.
 * @throws NodeOperationError for a bad field or a key that cannot be sent as given.
 */
function prepare(context: IExecuteFunctions, creation: Creation, itemIndex: number): ItemState {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { value, unchecked } = creation.body(context, itemIndex);
	const external = creation.key.sentAs === 'externalId';
	const { external_id: givenId, ...withoutId } = value;
	const givenKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
	const histories = requestHistories(context);
	const place = requestKey(
		context,
		itemIndex,
		{
			given: external ? givenId : givenKey,
			kind: creation.key.sentAs,
			label: external ? 'External ID' : 'Idempotency Key',
			noun: creation.noun,
			content: external ? withoutId : value,
			options,
		},
		histories,
	);
	// The cashout's external ID stands first, where the body's table has it.
	const body: IDataObject = external
		? { external_id: place.key.value, ...withoutId }
		: { ...value };
	// A given key that is not a valid invoice ID is not sent as one.
	if (
		creation.key.asInvoiceId &&
		body.invoice_id === undefined &&
		!givenKeyProblem('invoiceId', place.key.value)
	)
		body.invoice_id = place.key.value;
	return { request: { itemIndex, body, key: place.key, options }, place, histories, unchecked };
}

/** `output` with `unchecked_fields`, and `times_sent` when the key was sent more than once. */
function finished(
	item: ItemState,
	output: INodeExecutionData,
	history: RequestHistory | undefined,
): INodeExecutionData {
	if (item.unchecked.length) output.json.unchecked_fields = item.unchecked;
	const sends = history?.sends ?? 1;
	if (sends > 1) output.json.times_sent = sends;
	return output;
}

/**
 * Sends the request through the client, which sends it again as `repeat: 'keyed'` allows (service
 * rules §11), each sending counted in the request's history.
 * @returns The service's answer, or a repeat answer (104, 511) and whether it answered a resend of
 *   this very request.
 * @throws the client's n8n error for any other failure.
 */
async function send(
	client: PaymentsClient,
	creation: Creation,
	request: CreationRequest,
	history: RequestHistory,
): Promise<{ answer: IDataObject } | { ownResend: boolean }> {
	const { action, ...endpoint } = creation.endpoint;
	const { body, itemIndex } = request;
	const headers =
		creation.key.sentAs === 'idempotencyKey'
			? { [IDEMPOTENCY_HEADER]: request.key.value }
			: undefined;
	const refusal = creation.refusal;
	const sent = await client
		.request<IDataObject>(
			{ ...endpoint, body, ...(headers ? { headers } : {}), repeat: 'keyed' },
			{
				action: `${action} of item ${itemIndex}`,
				itemIndex,
				explain: refusal ? (failure) => refusal(failure, body, itemIndex) : undefined,
				unknownOutcome: unknownOutcome(namesOf(creation), request.key, creation.subject?.(body)),
			},
			{ onSend: () => void (history.sends = (history.sends ?? 0) + 1) },
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

/** What the look-up of `key` needs besides the creation: the body, the period, whether it is known to exist. */
function target(item: ItemState, key: RequestKey, sentMs: number | undefined, known: boolean) {
	return {
		key: key.value,
		requestKey: item.request.key.value,
		...(sentMs !== undefined ? { sinceMs: sentMs - CLOCK_SLACK_SECONDS * 1000 } : {}),
		period: lookUpPeriod(key.window, Date.now()),
		known,
	};
}

/**
 * On a first attempt just after a Duplicate Window boundary, looks up the previous window's key: a
 * re-run of a request whose answer was lost before the boundary sent that key.
 * @throws NodeOperationError ({@link repeatOfAnotherExecution}) when its record exists.
 */
async function refuseMadeInPreviousWindow(
	context: IExecuteFunctions,
	client: PaymentsClient,
	creation: Creation,
	item: ItemState,
	previous: RequestKey,
): Promise<void> {
	const { body, itemIndex } = item.request;
	const request = { body, noun: creation.noun, itemIndex };
	const found = await lookUpRecord(
		context,
		client,
		creation.lookUp,
		request,
		target(item, previous, undefined, false),
	);
	if (!found.exists) return;
	const label = `${found.label || `the ${creation.noun}`}, created in the previous Duplicate Window`;
	throw repeatOfAnotherExecution(context, itemIndex, namesOf(creation), previous.value, label);
}

/**
 * The item of a repeat answer (104, 511): nothing new was made (service rules §5.2).
 * - A derived key this execution never sent: another execution's record; the item fails, and the
 *   key is remembered as refused.
 * - Otherwise the record is looked up and, when found, compared: a field that differs fails the
 *   item (the key belongs to another record), and a derived key's record made before this
 *   execution first sent it is another execution's. Found and equal, or a derived key the service
 *   has a record of: confirmed. Neither: the item fails as unconfirmed, unless Options →
 *   Unconfirmed Repeat says to output it.
 */
async function confirmRepeat(
	context: IExecuteFunctions,
	client: PaymentsClient,
	creation: Creation,
	item: ItemState,
	sent: { history: RequestHistory; sentMs: number | undefined },
): Promise<IDataObject> {
	const { request, place } = item;
	const { key, body, itemIndex } = request;
	const names = namesOf(creation);
	const lookUp = { body, noun: creation.noun, itemIndex };
	const refuse = (label: string) => {
		sent.history.refused = true;
		return repeatOfAnotherExecution(context, itemIndex, names, key.value, label);
	};
	if (key.derived && sent.sentMs === undefined) {
		const found = await lookUpRecord(
			context,
			client,
			creation.lookUp,
			lookUp,
			target(item, key, undefined, false),
		).catch(() => undefined);
		throw refuse(found?.label ?? '');
	}
	const found = await lookUpRecord(
		context,
		client,
		creation.lookUp,
		lookUp,
		target(item, key, sent.sentMs, true),
	);
	const compared = found.record ? creation.compare(body, found.record) : [];
	if (found.record) {
		const differing = differences(compared, creation.noun);
		if (differing.length)
			throw keyOfAnotherRecord(context, itemIndex, names, key, found.label, differing);
		const dateField = REPORTING_LISTS[creation.lookUp.list].recordDateField;
		if (key.derived && createdBeforeSent(found.record, dateField, sent.sentMs))
			throw refuse(found.label);
	}
	const confirmation: Confirmation = found.record
		? 'found'
		: found.exists && key.derived
			? 'byKey'
			: 'unconfirmed';
	if (confirmation === 'unconfirmed' && request.options.unconfirmedRepeat !== 'output')
		throw unconfirmedRepeat(context, itemIndex, names, key, found, creation.whereToLook(body));
	// Made now when this execution's own request made it and no run of the node has output it.
	const already = sent.sentMs === undefined || !madeNow(sent.history, place.runItem);
	const fields = compared.filter(isComparable).map((comparison) => comparison.field);
	const message = repeatMessage(names, key, { ...found, confirmation, compared: fields }, !already);
	return await creation.found(context, client, request, {
		...found,
		confirmation,
		already,
		message,
	});
}
