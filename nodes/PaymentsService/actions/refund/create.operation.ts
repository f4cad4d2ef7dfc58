import type { IDataObject } from 'n8n-workflow';

import {
	REFUND_COLLECTIONS,
	REFUND_FIELDS,
	validateRefundRequest,
} from '../../bodies/refundSchema';
import { fieldParameters } from '../../bodies/requestFields';
import { createOnceOperation, type Creation } from '../../idempotency/createOnce';
import { sameAmount } from '../../reporting/decimal';
import { isFailureKind, isServiceCode } from '../../transport/errors';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';

/**
 * Refund → Create: `POST /v3/refunds`, signed like deposits, with an `X-Idempotency-Key` given or
 * derived, through the create-once flow (idempotency/createOnce.ts; service rules §7, §5.2). An
 * Amount expression that resolves to nothing is refused: only an Amount left empty is a full
 * refund. One item per input item, the same fields on both paths ({@link refundOutput}); after a
 * 104 the refund is confirmed only as the newest of the same deposit and amount made since this
 * execution first sent the key (refund records carry no key). Refusals (802 amount, 804 bank
 * account, 208 deposit not found, 300 fields) fail the item with what they mean.
 */

/** "deposit 123", or "the deposit with invoice ID inv-7": the deposit the refund is for. */
function depositNamed(request: IDataObject): string {
	return request.deposit_id !== undefined
		? `deposit ${String(request.deposit_id)}`
		: `the deposit with invoice ID ${String(request.invoice_id)}`;
}

const REFUND: Creation = {
	noun: 'refund',
	key: { sentAs: 'idempotencyKey', repeatCode: 104, distinctField: 'Idempotency Key' },
	endpoint: {
		family: 'payments',
		method: 'POST',
		path: '/v3/refunds',
		action: 'Requesting the refund',
	},
	parameters: [
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
	],

	body(context, itemIndex) {
		const checked = validateRefundRequest(
			bodyFromFields(context, itemIndex, REFUND_FIELDS, 'refund'),
		);
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'refund', checked.problems);
		return { value: checked.value as IDataObject, unchecked: [] };
	},

	lookUp: {
		list: 'refund',
		filters: {},
		// Refund records carry no key: the newest refund of the same deposit and amount (a full
		// refund when no amount was asked) since this execution first sent the key. Only by
		// Deposit ID (refund records do not name the invoice), and only for a key this execution
		// sent: nothing else ties a refund to it.
		match(body, { key, requestKey, sinceMs }) {
			const note = ` Refund records carry no key: only a refund of ${depositNamed(body)} and this amount made since this execution first sent the key confirms it.`;
			if (body.deposit_id === undefined || sinceMs === undefined || key !== requestKey)
				return { note };
			const depositId = Number(body.deposit_id);
			const since = sinceMs;
			const sameAmountAsked = (record: IDataObject) =>
				body.amount === undefined
					? record.amountType === 'FULL' || record.amountType === undefined
					: sameAmount(body.amount, record.amount) === true;
			return {
				note,
				matches: (record) =>
					Number(record.idBoleto) === depositId &&
					Date.parse(String(record.date ?? '')) >= since &&
					sameAmountAsked(record),
			};
		},
		newest: true,
	},

	// The look-up matched the deposit and the amount: nothing more to compare.
	compare: () => [],

	refusal(failure, body, itemIndex) {
		const deposit = depositNamed(body);
		if (isServiceCode(failure, 802))
			return `The amount of the refund of ${deposit} cannot be refunded (802)`;
		if (isServiceCode(failure, 804))
			return `The refund of ${deposit} needs the customer’s bank account (804): fill Bank Account with the beneficiary, bank code and account number`;
		if (isFailureKind(failure, 'notFound'))
			return `${deposit.charAt(0).toUpperCase()}${deposit.slice(1)} was not found (${failure.code ?? 404}): check it, and that the credential belongs to the merchant that received it`;
		if (isServiceCode(failure, 300))
			return `The refund of item ${itemIndex} was refused: invalid request (300)`;
		return undefined;
	},

	subject: (body) => `refund of ${depositNamed(body)}`,

	whereToLook: (body) =>
		`the refunds of ${depositNamed(body)}: Refund → Get Many, or the merchant panel`,

	async made(_context, { body, key }, answer) {
		const amount = body.amount !== undefined ? String(body.amount) : 'everything left';
		const message = `Refund ${String(answer.refund_id)} of ${depositNamed(body)} requested (${amount}).`;
		return {
			json: refundOutput(body, key.value, false, answer.refund_id, answer.refund_info, message),
		};
	},

	async found(_context, _client, { body, key }, found) {
		return {
			...refundOutput(
				body,
				key.value,
				found.already,
				found.record?.id ?? null,
				null,
				found.message,
			),
			matches_request: found.record ? true : null,
		};
	},
};

export const { properties, execute, afterRun } = createOnceOperation(REFUND);

/**
 * The item of both paths of Refund → Create: the same fields, null where not known —
 * `{already_requested, refund_id, deposit_id, invoice_id, amount, idempotency_key, refund_info,
 * message}`.
 */
function refundOutput(
	request: IDataObject,
	idempotencyKey: string,
	alreadyRequested: boolean,
	refundId: unknown,
	refundInfo: unknown,
	message: string,
): IDataObject {
	return {
		already_requested: alreadyRequested,
		refund_id: (refundId as IDataObject[string]) ?? null,
		deposit_id: (request.deposit_id as number | undefined) ?? null,
		invoice_id: (request.invoice_id as string | undefined) ?? null,
		amount: (request.amount as string | number | undefined) ?? null,
		idempotency_key: idempotencyKey,
		refund_info: (refundInfo as IDataObject | undefined) ?? null,
		message,
	};
}
