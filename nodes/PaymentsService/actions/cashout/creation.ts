import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { explainCashoutRefusal, readCashoutStatus } from '../../transport/cashouts';
import type { PaymentsClient } from '../../transport/client';
import { isFailureKind, isServiceCode, type ServiceFailure } from '../../transport/errors';
import { toNodeError } from '../common/nodeError';

/**
 * What Cashout → Create reports (service rules §6.1, §6.2): its output, the status it reads and its
 * refusals in words.
 */

/** A cashout status result's name (`PENDING`), or its number when the name is not known. */
export function statusName(status: IDataObject): string {
	return String(status.cashout_status_name ?? status.cashout_status ?? 'unknown');
}

/**
 * The status of the cashout with external ID `externalId`, or undefined when the service has none
 * (509). A safe read, retried on its own.
 */
export async function statusIfExists(
	context: IExecuteFunctions,
	client: PaymentsClient,
	externalId: string,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	try {
		return await readStatus(client, { external_id: externalId }, itemIndex);
	} catch (caught) {
		const error = toNodeError(context.getNode(), caught, itemIndex);
		if (isFailureKind(error, 'notFound')) return undefined;
		throw error;
	}
}

/** Reads a cashout's status (a safe read, retried on its own), with readable names added. */
export async function readStatus(
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
 * The item of both paths of Cashout → Create: the same fields, null where not known —
 * `{already_created, cashout_id, external_id, cashout_status, cashout_status_description,
 * cashout_status_name, [rejection_code, rejection_reason, rejection_code_name], [matches_request],
 * message}` (`matches_request` after a 511: true when confirmed, null when output unconfirmed).
 */
export function creationOutput(
	alreadyCreated: boolean,
	externalId: string,
	cashoutId: number | null,
	status: IDataObject | undefined,
	message: string,
	matchesRequest?: true | null,
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
	if (matchesRequest !== undefined) json.matches_request = matchesRequest;
	json.message = message;
	return json;
}

/** Why a creation was refused, in words (service rules §6.2): the refusals that create nothing or a DECLINED cashout. */
export function explainCreationRefusal(
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
