import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	lookUpOfList,
	type LookUp,
	type LookUpTarget,
	type PreparedRequest,
} from '../../idempotency/createOnce';
import { CLOCK_SLACK_SECONDS, lookUpInList, sameAmount } from '../../idempotency/lookUp';
import { REPORTING_LISTS } from '../../reporting/lists';
import { isFailureKind, isServiceCode, type ServiceFailure } from '../../transport/errors';

/**
 * The refund record as Refund → Create sees it (service rules §7): its output, its refusals in
 * words, and the look-up of a refund an earlier attempt requested.
 */

/** "deposit 123", or "the deposit with invoice ID inv-7": the deposit the refund is for. */
export function depositNamed(request: IDataObject): string {
	return request.deposit_id !== undefined
		? `deposit ${String(request.deposit_id)}`
		: `the deposit with invoice ID ${String(request.invoice_id)}`;
}

/**
 * The item of both paths of Refund → Create: the same fields, null where not known —
 * `{already_requested, refund_id, deposit_id, invoice_id, amount, idempotency_key, refund_info,
 * message}`.
 */
export function refundOutput(
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

/** Why a refund was refused, in words (service rules §7). */
export function explainRefusal(
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
 * Looks up the refund an attempt of this execution requested, in the refund list (service rules
 * §7): refund records carry no key, so it is the newest refund of the same deposit and amount (a
 * full refund when no amount was asked) created since this execution first sent the key (less the
 * clock slack). Only by Deposit ID (refund records do not name the invoice), and only when an
 * attempt of this execution sent the key: nothing else ties a refund to it. Never throws.
 */
export async function lookUpRefund(
	context: IExecuteFunctions,
	{ body, key }: PreparedRequest,
	target: LookUpTarget,
	itemIndex: number,
): Promise<LookUp> {
	const why = ` Refund records carry no key: only a refund of ${depositNamed(body)} and this amount made since this execution first sent the key confirms it.`;
	if (
		body.deposit_id === undefined ||
		key.earlierAttemptMs === undefined ||
		target.key !== key.value
	)
		return { exists: false, label: '', note: why, facts: undefined };
	const depositId = Number(body.deposit_id);

	const since = key.earlierAttemptMs - CLOCK_SLACK_SECONDS * 1000;
	const result = await lookUpInList(
		context,
		itemIndex,
		{
			list: REPORTING_LISTS.refund,
			filters: {},
			match: (record) =>
				Number(record.idBoleto) === depositId &&
				Date.parse(String(record.date ?? '')) >= since &&
				(body.amount === undefined
					? record.amountType === 'FULL' || record.amountType === undefined
					: sameAmount(body.amount, record.amount) === true),
			pick: (matches) =>
				[...matches].sort((a, b) => String(b.date ?? '').localeCompare(String(a.date ?? '')))[0],
		},
		target.period,
		{ reread: target.known },
	);
	return lookUpOfList(
		result,
		'refund',
		(record) => `refund ${String(record.id)} (${String(record.status)})`,
		why,
	);
}
