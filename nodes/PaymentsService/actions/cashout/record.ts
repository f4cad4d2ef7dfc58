import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { LookUp, LookUpTarget } from '../../idempotency/createOnce';
import { lookUpInList } from '../../idempotency/lookUp';
import { listLookUpNote } from '../../idempotency/messages';
import { REPORTING_LISTS } from '../../reporting/lists';
import { explainCashoutRefusal, readCashoutStatus } from '../../transport/cashouts';
import type { PaymentsClient } from '../../transport/client';
import { isFailureKind, isServiceCode, type ServiceFailure } from '../../transport/errors';
import { toNodeError } from '../common/nodeError';

/**
 * The cashout record as Cashout → Create sees it (service rules §6.1, §6.2): its output, its
 * status read, its look-up by external ID, and the service's refusals in words.
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
export function cashoutOutput(
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
export function creationRefusals(
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

/** What the cashout look-up read beside the list: the cashout's status, when it exists. */
export interface CashoutFacts {
	status?: IDataObject;
}

/**
 * Looks up the cashout of `target.key` (service rules §5.2, §6.1): its status by external ID (one
 * read; 509: none exists, and nothing more is read), then, with a Session credential, its record
 * in the cashout list (narrowed first by the request's country and document) to compare.
 * @throws NodeApiError when the status read fails other than with 509.
 */
export async function lookUpCashout(
	context: IExecuteFunctions,
	client: PaymentsClient,
	request: IDataObject,
	target: LookUpTarget,
	itemIndex: number,
): Promise<LookUp<CashoutFacts>> {
	const status = await statusIfExists(context, client, target.key, itemIndex);
	if (!status) {
		const note = ` The service has no cashout with external ID ${target.key} (509).`;
		return { exists: false, label: '', note, facts: {} };
	}
	const result = await lookUpInList(
		context,
		itemIndex,
		{
			list: REPORTING_LISTS.cashout,
			filters: { country: request.country, clientDocument: request.document_id },
			match: (record) => record.externalId === target.key,
		},
		target.period,
		{ reread: target.known },
	);
	const record = result.outcome === 'found' ? result.record : undefined;
	const label = record
		? `cashout ${String(record.idCashout)} (${statusName(status)})`
		: `a cashout in status ${statusName(status)}`;
	return {
		exists: true,
		record,
		label,
		note: listLookUpNote(result, 'cashout'),
		facts: { status },
	};
}
