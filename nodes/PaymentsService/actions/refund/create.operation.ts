import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { IDEMPOTENCY_HEADER } from '../../codes/constants';
import {
	REFUND_COLLECTIONS,
	REFUND_FIELDS,
	validateRefundRequest,
} from '../../bodies/refundSchema';
import { fieldParameters } from '../../bodies/requestFields';
import type { PaymentsClient } from '../../transport/client';
import { isFailureKind, isServiceCode, type ServiceFailure } from '../../transport/errors';
import {
	duplicateWindowOption,
	failUnlessUnconfirmedAllowed,
	idempotencyKeyCreation,
	idempotencyKeyOption,
	recordAttempt,
	recordRefusedRepeat,
	repeatOfAnotherExecution,
	unconfirmedRepeatOption,
	unknownCreationOutcome,
	type CreationKey,
} from '../../idempotency/creation';
import {
	CLOCK_SLACK_SECONDS,
	findEarlierRecord,
	recoveryNote,
	recoveryPeriod,
	type Recovery,
} from '../../idempotency/recovery';
import { REPORTING_LISTS } from '../../reporting/lists';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import { toNodeError } from '../common/nodeError';
import { optionsCollection } from '../../parameters/options';

export const properties: INodeProperties[] = [
	{
		displayName: 'Deposit Identified By',
		name: 'identifyBy',
		type: 'options',
		default: 'depositId',
		options: [
			{
				name: 'Deposit ID',
				value: 'depositId',
				description: 'The ID the service assigned to the deposit',
			},
			{
				name: 'Invoice ID',
				value: 'invoiceId',
				description: 'The invoice ID your system gave the deposit',
			},
		],
	},
	...fieldParameters(REFUND_FIELDS, REFUND_COLLECTIONS),
	optionsCollection([
		duplicateWindowOption,
		idempotencyKeyOption('the same refund being requested twice'),
		unconfirmedRepeatOption,
	]),
];

/**
 * Refund → Create: `POST /v3/refunds`, signed like deposits, with an `X-Idempotency-Key` (service
 * rules §7, §2.3, §5.2).
 *
 * Every field is checked before anything is sent (bodies/refundSchema.ts); an Amount expression
 * that resolves to nothing is refused (only an Amount left empty on purpose is a full refund). The
 * key is given (option Idempotency Key, sent as given or refused) or derived from the workflow,
 * node, run, item, the request and the Duplicate Window, the same on every re-run of the request. One item per input item, the same fields on both paths:
 * `{already_requested, refund_id, deposit_id, invoice_id, amount, idempotency_key, refund_info,
 * message}` — `amount` null for a full refund; `refund_info` the card acquirer's answer of an
 * instant card refund, else null.
 * - First success: the service's `refund_id` (`already_requested: false`).
 * - 104 (key already used): nothing new is requested. Refund records carry no key, so the refund is
 *   confirmed only as the one an attempt of this execution (or of the failed one n8n's Retry
 *   continues) made: with a Session credential and a Deposit ID, the newest refund of that deposit
 *   and amount created since that attempt, from the refund list (`idBoleto` = the deposit):
 *   `already_requested: true, matches_request: true`. Otherwise the item fails as unconfirmed,
 *   unless Options → Unconfirmed Repeat says to output it (`matches_request: null`); a derived key
 *   no attempt of this execution sent is another execution's refund, and the item fails saying so.
 *
 * @throws NodeOperationError for a field that breaks its rule (nothing is sent); NodeApiError for a
 *   refusal (802 amount, 804 bank account, 208 deposit not found, 300 fields), with what it means;
 *   a lost answer names the key Retry On Fail repeats.
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const body = bodyFromFields(this, itemIndex, REFUND_FIELDS, 'Refund');
	const checked = validateRefundRequest(body);
	if (!checked.ok) throw invalidBodyError(this, itemIndex, 'Refund', checked.problems);
	const request = checked.value as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const creation = idempotencyKeyCreation(this, itemIndex, 'Refund', request, options);
	const deposit = depositNamed(request);
	recordAttempt(this, creation);
	let result: IDataObject;
	try {
		result = await client.request<IDataObject>(
			{
				family: 'payments',
				method: 'POST',
				path: '/v3/refunds',
				body: request,
				headers: { [IDEMPOTENCY_HEADER]: creation.key },
			},
			{
				action: `Requesting the refund of item ${itemIndex}`,
				itemIndex,
				explain: explainRefusal(deposit, itemIndex),
				unknownOutcome: unknownCreationOutcome(creation, 'idempotency key', 104, 'refund'),
			},
		);
	} catch (error) {
		if (!isFailureKind(error, 'keyAlreadyUsed'))
			throw toNodeError(this.getNode(), error, itemIndex);
		return [{ json: await alreadyRequested.call(this, request, creation, itemIndex, options) }];
	}
	const refundId = result?.refund_id;
	const amount = request.amount !== undefined ? `${String(request.amount)}` : 'everything left';
	const message = `Refund ${String(refundId)} of ${deposit} requested (${amount}).`;
	return [
		{ json: refundItem(request, creation.key, false, refundId, result?.refund_info, message) },
	];
}

/** "deposit 123", or "the deposit with invoice ID inv-7": the deposit the refund is for. */
function depositNamed(request: IDataObject): string {
	return request.deposit_id !== undefined
		? `deposit ${String(request.deposit_id)}`
		: `the deposit with invoice ID ${String(request.invoice_id)}`;
}

/** The output of both paths: the same fields, null where not known. */
function refundItem(
	request: IDataObject,
	idempotencyKey: string,
	alreadyRequestedBefore: boolean,
	refundId: unknown,
	refundInfo: unknown,
	message: string,
): IDataObject {
	return {
		already_requested: alreadyRequestedBefore,
		refund_id: (refundId as IDataObject[string]) ?? null,
		deposit_id: (request.deposit_id as number | undefined) ?? null,
		invoice_id: (request.invoice_id as string | undefined) ?? null,
		amount: (request.amount as string | number | undefined) ?? null,
		idempotency_key: idempotencyKey,
		refund_info: (refundInfo as IDataObject | undefined) ?? null,
		message,
	};
}

/**
 * The item of a 104 (key already used): nothing new is requested. A derived key no attempt of this
 * execution sent is another execution's refund ({@link repeatOfAnotherExecution}); otherwise the
 * refund this execution's attempt made is looked up ({@link findRequestedRefund}) and, when not
 * found, the item fails as unconfirmed unless Options → Unconfirmed Repeat says to output it.
 * @throws NodeOperationError for another execution's refund, or an unconfirmed one.
 */
async function alreadyRequested(
	this: IExecuteFunctions,
	request: IDataObject,
	creation: CreationKey,
	itemIndex: number,
	options: IDataObject,
): Promise<IDataObject> {
	const key = creation.key;
	const deposit = depositNamed(request);
	if (creation.derived && creation.earlierAttemptMs === undefined) {
		recordRefusedRepeat(this, creation);
		throw repeatOfAnotherExecution(
			this,
			itemIndex,
			'refund',
			creation,
			'idempotency key',
			'',
			'Idempotency Key',
		);
	}
	const found = await findRequestedRefund(this, itemIndex, request, creation);
	const refundId = found.outcome === 'found' ? (found.record.id ?? null) : null;
	const note = request.deposit_id !== undefined ? recoveryNote(found, 'refund', 'refund') : '';
	if (found.outcome !== 'found') {
		failUnlessUnconfirmedAllowed(
			this,
			itemIndex,
			options,
			`Refund in item ${itemIndex}: idempotency key ${key} was already used, and the refund it belongs to could not be confirmed`,
			`The service refused a second refund with this key (104), so no second refund was requested, but refund records carry no key: only a refund of ${deposit} and this amount made since this execution first sent the key confirms it.${note || ' Without a Deposit ID it cannot be looked up.'} Look at the refunds of ${deposit} (Refund → Get Many, or the merchant panel): if one is this refund, nothing more is needed; if not, give this refund its own Idempotency Key.`,
		);
	}
	const compared =
		found.outcome === 'found'
			? ` It is refund ${String(refundId)} (${String(found.record.status)}), of the same deposit and amount, made since this execution first sent the key.`
			: `${note} It could not be confirmed: if it is not this refund, give this one its own Idempotency Key.`;
	const message = `Refund of ${deposit} already requested by an earlier attempt (idempotency key ${key}); no second refund was made.${compared}`;
	return {
		...refundItem(request, key, true, refundId, null, message),
		matches_request: found.outcome === 'found' ? true : null,
	};
}

/** Why a refund was refused, in words (service rules §7). */
function explainRefusal(
	deposit: string,
	itemIndex: number,
): (failure: ServiceFailure) => string | undefined {
	return (failure) => {
		if (isServiceCode(failure, 802))
			return `The amount of the refund of ${deposit} cannot be refunded (802)`;
		if (isServiceCode(failure, 804)) {
			return `The refund of ${deposit} needs the customer’s bank account (804): fill Bank Account with the beneficiary, bank code and account number`;
		}
		if (isFailureKind(failure, 'notFound')) {
			return `${deposit.charAt(0).toUpperCase()}${deposit.slice(1)} was not found (${failure.code ?? 404}): check it, and that the credential belongs to the merchant that received it`;
		}
		if (isServiceCode(failure, 300))
			return `The refund of item ${itemIndex} was refused: invalid request (300)`;
		return undefined;
	};
}

/**
 * The refund an attempt of this execution requested, from the refund list (service rules §7):
 * refund records carry no key, so the newest refund of the same deposit and amount (a full refund
 * when no amount was asked) created since this execution first sent the key (less the clock
 * slack). Only by Deposit ID: refund records do not name the invoice. Not found when no attempt of
 * this execution sent the key (nothing ties a refund to it then).
 */
async function findRequestedRefund(
	context: IExecuteFunctions,
	itemIndex: number,
	request: IDataObject,
	creation: CreationKey,
): Promise<Recovery> {
	if (request.deposit_id === undefined || creation.earlierAttemptMs === undefined)
		return { outcome: 'not-found', pagesRead: 0, capped: false };
	const depositId = Number(request.deposit_id);
	const asked = request.amount === undefined ? undefined : Number(request.amount);
	const since = creation.earlierAttemptMs - CLOCK_SLACK_SECONDS * 1000;
	return await findEarlierRecord(
		context,
		itemIndex,
		{
			list: REPORTING_LISTS.refund,
			filters: {},
			match: (record) =>
				Number(record.idBoleto) === depositId &&
				Date.parse(String(record.date ?? '')) >= since &&
				(asked === undefined
					? record.amountType === 'FULL' || record.amountType === undefined
					: Math.abs(Number(record.amount) - asked) < 0.005),
			pick: (matches) =>
				[...matches].sort((a, b) => String(b.date ?? '').localeCompare(String(a.date ?? '')))[0],
		},
		recoveryPeriod(creation, Date.now()),
	);
}
