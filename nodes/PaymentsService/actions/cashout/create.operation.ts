import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { REPORTING_LISTS } from '../../reporting/lists';
import {
	CASHOUT_COLLECTIONS,
	CASHOUT_FIELDS,
	validateCashoutRequest,
} from '../../bodies/cashoutSchema';
import { fieldParameters } from '../../bodies/requestFields';
import type { PaymentsClient } from '../../transport/client';
import { isFailureKind, isServiceCode, type ServiceFailure } from '../../transport/errors';
import {
	creationKey,
	duplicateWindowOption,
	failUnlessUnconfirmedAllowed,
	recordAttempt,
	recordRefusedRepeat,
	repeatOfAnotherExecution,
	unconfirmedRepeatOption,
	unknownCreationOutcome,
	type CreationKey,
} from '../../idempotency/creation';
import {
	createdBeforeAttempt,
	differences,
	findEarlierRecord,
	recoveryNote,
	recoveryPeriod,
	type Recovery,
} from '../../idempotency/recovery';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import { toNodeError } from '../common/nodeError';
import { explainCashoutRefusal, readCashoutStatus } from '../../transport/cashouts';
import { positiveId } from '../../codes/ids';
import { optionsCollection } from '../../parameters/options';

export const properties: INodeProperties[] = [
	...fieldParameters(CASHOUT_FIELDS, CASHOUT_COLLECTIONS),
	optionsCollection([duplicateWindowOption, unconfirmedRepeatOption]),
];

/**
 * Cashout → Create: `POST /v3/cashout`, signed by the cashout credential (service rules §6.2, §2.4).
 *
 * Every field is checked before anything is sent (bodies/cashoutSchema.ts). The external ID is
 * the idempotency key: given (sent exactly as given, or refused), or derived from the workflow,
 * node, run, item, the request and the Duplicate Window (service rules §5.2), so every re-run of the
 * same request sends the same one. The service never creates a second cashout with one external ID:
 * it answers 511, and the operation then reads that cashout instead of paying out again.
 *
 * One item per input item, the same fields on both paths (service rules §6.1 for the status):
 * `{already_created, cashout_id, external_id, cashout_status, cashout_status_description,
 * cashout_status_name, message}`, plus `rejection_code`, `rejection_reason` and
 * `rejection_code_name` when the bank rejected it.
 * - First success: the service's `cashout_id` (a string in this answer) as a number, as the other
 *   cashout operations take it; then the status read by that id (`already_created: false`).
 * - 511 on a retry of this request (an attempt of this execution, or of the failed one n8n's Retry
 *   continues, sent the key before): the cashout is read by external ID and, with a Session
 *   credential, found in the cashout list by external ID alone and compared (amount, currency,
 *   country, document): `already_created: true, matches_request: true`. A field that differs fails
 *   the item, naming it; a given External ID that cannot be compared fails it too, unless Options →
 *   Unconfirmed Repeat says to output it (`matches_request: null`).
 * - 511 on a derived key no attempt of this execution sent: another execution with the same trigger
 *   data made it, and a re-run cannot be told from a second request, so the item fails saying so.
 * - A first attempt in the first hour of a Duplicate Window first reads the status under the
 *   previous window's key (one request): found, it is such a repeat too, and nothing is created.
 *
 * @throws NodeOperationError for a field that breaks its rule (nothing is sent); NodeApiError for a
 *   refusal (300, 303, 508, 514, 533, 540, KYC), with what it means; a lost answer names the
 *   external ID to look up before creating the payout again.
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { request, creation } = checkedRequest.call(this, itemIndex, options);
	await refuseRepeatOfPreviousWindow.call(this, client, creation, itemIndex);
	recordAttempt(this, creation);
	let created: IDataObject;
	try {
		created = await client.request<IDataObject>(
			{
				family: 'cashout',
				method: 'POST',
				path: '/v3/cashout',
				body: request,
				safeToRepeat: false,
			},
			{
				action: `Creating the cashout of item ${itemIndex}`,
				itemIndex,
				explain: explainCreationRefusal(request, itemIndex),
				unknownOutcome: unknownCreationOutcome(creation, 'external ID', 511, 'cashout'),
			},
		);
	} catch (error) {
		if (isFailureKind(error, 'keyAlreadyUsed'))
			return [
				{ json: await alreadyCreated.call(this, client, request, creation, itemIndex, options) },
			];
		throw toNodeError(this.getNode(), error, itemIndex);
	}
	return [{ json: await createdItem(client, created, creation.key, itemIndex) }];
}

/**
 * The request of item `itemIndex`, every field checked, and its key: the External ID given, or one
 * derived from the request (a placeholder stands in for it in the first check, so the derived key
 * names the request exactly as it will be sent).
 * @throws NodeOperationError naming every broken field (nothing is sent).
 */
function checkedRequest(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): { request: IDataObject; creation: CreationKey } {
	const body = bodyFromFields(this, itemIndex, CASHOUT_FIELDS, 'Cashout');
	const { external_id: givenExternalId, ...content } = body;
	const precheck = validateCashoutRequest({
		...content,
		external_id: givenExternalId || 'to-be-derived',
	});
	if (!precheck.ok) throw invalidBodyError(this, itemIndex, 'Cashout', precheck.problems);
	const creation = creationKey(this, itemIndex, {
		given: givenExternalId,
		kind: 'externalId',
		label: 'External ID',
		noun: 'Cashout',
		content: { ...precheck.value, external_id: undefined },
		options,
	});
	const checked = validateCashoutRequest({ ...content, external_id: creation.key });
	if (!checked.ok) throw invalidBodyError(this, itemIndex, 'Cashout', checked.problems);
	return { request: checked.value, creation };
}

/**
 * On a first attempt just after a Duplicate Window boundary, reads the status under the previous
 * window's key (one request): a re-run of a request whose answer was lost before the boundary sent
 * that key, and its cashout must not be paid again.
 * @throws NodeOperationError ({@link repeatOfAnotherExecution}) when that cashout exists.
 */
async function refuseRepeatOfPreviousWindow(
	this: IExecuteFunctions,
	client: PaymentsClient,
	creation: CreationKey,
	itemIndex: number,
): Promise<void> {
	if (!creation.previousWindowKey) return;
	const earlier = await statusIfExists.call(this, client, creation.previousWindowKey, itemIndex);
	if (!earlier) return;
	throw repeatOfAnotherExecution(
		this,
		itemIndex,
		'cashout',
		{ ...creation, key: creation.previousWindowKey },
		'external ID',
		` (${String(earlier.cashout_status_name ?? earlier.cashout_status)}, created in the previous Duplicate Window)`,
		'External ID',
	);
}

/**
 * The item of a first success: the `cashout_id` answered, and the status read by it. The payout
 * exists, so a failed status read is reported in the message, not as an error.
 */
async function createdItem(
	client: PaymentsClient,
	created: IDataObject,
	externalId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const cashoutId = asCashoutId(created?.cashout_id);
	let status: IDataObject | undefined;
	let unread = '';
	try {
		status = await readStatus(
			client,
			cashoutId !== null ? { cashout_id: cashoutId } : { external_id: externalId },
			itemIndex,
		);
	} catch (error) {
		unread = ` Its status could not be read (${(error as Error).message}); read it with Cashout → Get Status.`;
	}
	const described = `Cashout ${cashoutId ?? '(no id in the answer)'} created with external ID ${externalId}${status ? ` (${String(status.cashout_status_name ?? status.cashout_status)})` : ''}.`;
	return output(false, externalId, cashoutId, status, described + unread);
}

/** The service's `cashout_id` as a number (it answers a string on creation, service rules §6.2). */
function asCashoutId(value: unknown): number | null {
	return positiveId(value) ?? null;
}

/** Reads a cashout's status (a safe read, retried on its own) with readable names added. */
async function readStatus(
	client: PaymentsClient,
	by: { cashout_id: number } | { external_id: string },
	itemIndex: number,
): Promise<IDataObject> {
	const named = 'cashout_id' in by ? String(by.cashout_id) : `with external ID "${by.external_id}"`;
	const [item] = await readCashoutStatus(client, by, {
		action: `Reading the status of cashout ${named}`,
		itemIndex,
		explain: explainCashoutRefusal(named, 'read', 'known'),
	});
	return item.json;
}

/**
 * The status of the cashout with external ID `externalId`, or undefined when the service has none
 * (509). A safe read, retried on its own.
 */
async function statusIfExists(
	this: IExecuteFunctions,
	client: PaymentsClient,
	externalId: string,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	try {
		return await readStatus(client, { external_id: externalId }, itemIndex);
	} catch (error) {
		if (isFailureKind(error, 'notFound')) return undefined;
		throw toNodeError(this.getNode(), error, itemIndex);
	}
}

/**
 * The item of a 511 (the external ID is taken; no second payout was made), service rules §5.2, §6.2:
 * - a derived key no attempt of this execution sent: another execution's payout, so the item fails
 *   ({@link repeatOfAnotherExecution});
 * - otherwise the cashout is read by external ID and, with a Session credential on the node, found
 *   in the cashout list by its external ID alone and compared with this request (amount, currency,
 *   country, document). Found and equal, or read under a key derived from these very fields by this
 *   execution's own earlier attempt: `already_created: true, matches_request: true`.
 * @throws NodeOperationError when a field differs (the external ID belongs to another payout), when
 *   the cashout was created before this execution first sent the key, and when a given External ID
 *   cannot be compared (unless Options → Unconfirmed Repeat says to output it).
 */
async function alreadyCreated(
	this: IExecuteFunctions,
	client: PaymentsClient,
	request: IDataObject,
	creation: CreationKey,
	itemIndex: number,
	options: IDataObject,
): Promise<IDataObject> {
	const externalId = creation.key;
	const notOurs = (found: string) => repeatOfOtherExecution(this, creation, itemIndex, found);
	if (creation.derived && creation.earlierAttemptMs === undefined) {
		const existing = await statusIfExists
			.call(this, client, externalId, itemIndex)
			.catch(() => undefined);
		throw notOurs(
			existing ? ` (${String(existing.cashout_status_name ?? existing.cashout_status)})` : '',
		);
	}
	const status = await readStatus(client, { external_id: externalId }, itemIndex);
	const recovery = await findEarlierRecord(
		this,
		itemIndex,
		{
			list: REPORTING_LISTS.cashout,
			filters: { country: request.country, clientDocument: request.document_id },
			match: (record) => record.externalId === externalId,
		},
		recoveryPeriod(creation, Date.now()),
	);
	let cashoutId = asCashoutId(status.cashout_id);
	const statusName = String(status.cashout_status_name ?? status.cashout_status ?? 'unknown');
	let compared: string;
	let matches: true | null = true;
	if (recovery.outcome === 'found') {
		const record = recovery.record;
		refuseAnotherPayout.call(this, request, record, externalId, itemIndex);
		if (creation.derived && createdBeforeAttempt(record, 'creationDate', creation.earlierAttemptMs))
			throw notOurs(` (cashout ${String(record.idCashout)}, ${statusName})`);
		cashoutId = asCashoutId(record.idCashout) ?? cashoutId;
		compared = ` Cashout ${String(cashoutId)} was found and has the same amount, country and document.`;
	} else if (creation.derived) {
		compared =
			' Its external ID was derived from this request’s fields, and this execution sent it before (that answer was lost), so it is this payout.' +
			recoveryNote(recovery, 'cashout', 'cashout');
	} else {
		compared = unconfirmed.call(this, options, itemIndex, externalId, statusName, recovery);
		matches = null;
	}
	const message = `Cashout with external ID ${externalId} already created by an earlier attempt; no second payout was made. It is ${statusName}.${compared}`;
	const { message: text, ...json } = output(true, externalId, cashoutId, status, message);
	return { ...json, matches_request: matches, message: text };
}

/**
 * The error of a 511 on a key that another execution's cashout holds ({@link repeatOfAnotherExecution});
 * later attempts of this execution remember it was not theirs.
 */
function repeatOfOtherExecution(
	context: IExecuteFunctions,
	creation: CreationKey,
	itemIndex: number,
	found: string,
): NodeOperationError {
	recordRefusedRepeat(context, creation);
	return repeatOfAnotherExecution(
		context,
		itemIndex,
		'cashout',
		creation,
		'external ID',
		found,
		'External ID',
	);
}

/**
 * What a 511 on a given External ID says when its cashout cannot be compared (no Session
 * credential, or not in the list): it fails the item unless Options → Unconfirmed Repeat says to
 * output it, and then returns the sentence the output's message ends with.
 * @throws NodeOperationError saying what is known and what to check.
 */
function unconfirmed(
	this: IExecuteFunctions,
	options: IDataObject,
	itemIndex: number,
	externalId: string,
	statusName: string,
	recovery: Recovery,
): string {
	const note = recoveryNote(recovery, 'cashout', 'cashout');
	failUnlessUnconfirmedAllowed(
		this,
		itemIndex,
		options,
		`Cashout in item ${itemIndex}: external ID ${externalId} was already used, and the payout it belongs to could not be confirmed`,
		`The service refused a second cashout with this external ID (511), so no second payout was made. A cashout with it exists (${statusName}), but it could not be compared with this payout.${note} Look it up (Cashout → Get Many, or the merchant panel): if it is this payout, nothing more is needed; if not, give this payout another External ID.`,
	);
	return `${note} It could not be compared with this payout: if it is not this payout, give this one another External ID.`;
}

/**
 * Compares the cashout found under this external ID with the request: amount (the merchant amount
 * when asked in USD), country, document and currency.
 * @throws NodeOperationError naming each field that differs: the external ID belongs to another
 *   payout, and this one needs its own.
 */
function refuseAnotherPayout(
	this: IExecuteFunctions,
	request: IDataObject,
	record: IDataObject,
	externalId: string,
	itemIndex: number,
): void {
	const inUsd = String(request.currency ?? '').toUpperCase() === 'USD';
	const differing = differences(
		[
			{
				field: 'amount',
				asked: request.amount,
				found: inUsd ? record.merchantAmount : record.amount,
			},
			{ field: 'country', asked: request.country, found: record.country },
			{ field: 'document_id', asked: request.document_id, found: record.clientDocument },
			{ field: 'currency', asked: inUsd ? undefined : request.currency, found: record.currency },
		],
		'cashout',
	);
	if (!differing.length) return;
	throw new NodeOperationError(
		this.getNode(),
		`Cashout in item ${itemIndex} was not created: External ID ${externalId} already belongs to another payout`,
		{
			itemIndex,
			description: `The service refused it (511) because cashout ${String(record.idCashout)} already has this external ID, and it differs from this payout (${differing.join('; ')}). No second payout was made. Give this payout its own External ID.`,
		},
	);
}

/** The output of both paths: the same fields, null where not known. */
function output(
	alreadyCreated: boolean,
	externalId: string,
	cashoutId: number | null,
	status: IDataObject | undefined,
	message: string,
): IDataObject {
	const json: IDataObject = {
		already_created: alreadyCreated,
		cashout_id: cashoutId,
		external_id: externalId,
		cashout_status: status?.cashout_status ?? null,
		cashout_status_description: status?.cashout_status_description ?? null,
		cashout_status_name: status?.cashout_status_name ?? null,
	};
	for (const key of ['rejection_code', 'rejection_reason', 'rejection_code_name']) {
		if (status?.[key] !== undefined) json[key] = status[key];
	}
	json.message = message;
	return json;
}

/** Why a creation was refused, in words (service rules §6.2): the refusals that create nothing or a DECLINED cashout. */
function explainCreationRefusal(
	request: IDataObject,
	itemIndex: number,
): (failure: ServiceFailure) => string | undefined {
	const amount = `${String(request.amount)}${request.currency ? ` ${String(request.currency)}` : ''}`;
	return (failure) => {
		if (isFailureKind(failure, 'kycRejected')) {
			return `The beneficiary of the cashout in item ${itemIndex} did not pass the KYC check (USER_REJECTED_KYC_CHECK): no payout was made`;
		}
		if (isServiceCode(failure, 303)) {
			return `Bank code ${String(request.bank_code)} is not a bank of ${String(request.country)} (303): pick the bank from the list, or see Bank → Get Many`;
		}
		if (isServiceCode(failure, 540)) {
			return `Cashouts to ${String(request.country)} need the beneficiary’s e-mail or phone (540): fill Email or Phone under Beneficiary`;
		}
		if (isServiceCode(failure, 533))
			return `The cashout amount ${amount} of item ${itemIndex} is below the minimum (533): no payout was made`;
		if (isServiceCode(failure, 508))
			return `The cashout amount ${amount} of item ${itemIndex} is above the limit (508): no payout was made`;
		if (isServiceCode(failure, 514))
			return `Not enough funds for the cashout of item ${itemIndex} (514): no payout was made`;
		if (isServiceCode(failure, 300))
			return `The cashout of item ${itemIndex} was refused: invalid parameters (300)`;
		return undefined;
	};
}
