import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	CASHOUT_COLLECTIONS,
	CASHOUT_FIELDS,
	validateCashoutRequest,
} from '../../bodies/cashoutSchema';
import { fieldParameters } from '../../bodies/requestFields';
import { statusAtCreation } from '../../codes/cashoutStatus';
import { positiveId } from '../../codes/ids';
import { createOnceOperation, type Creation } from '../../idempotency/createOnce';
import { explainCashoutRefusal, readCashoutStatus } from '../../transport/cashouts';
import type { PaymentsClient } from '../../transport/client';
import { isFailureKind, isServiceCode, type ServiceFailure } from '../../transport/errors';
import { toNodeError } from '../common/nodeError';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';

/**
 * Cashout → Create: `POST /v3/cashout`, signed (service rules §6.2, §2.4), through the create-once
 * flow (idempotency/createOnce.ts); the external ID is the key, given or derived (§5.2). One item
 * per input item, the same fields on both paths ({@link cashoutOutput}): the `cashout_id` as a
 * number and the status it was created in (one request); after a 511, the cashout read by
 * external ID and, with a Session credential, found in the list and compared (`matches_request`).
 * Refusals (300, 303, 508, 514, 533, 540, KYC) fail the item with what they mean.
 */

const CASHOUT: Creation = {
	noun: 'cashout',
	key: { sentAs: 'externalId', repeatCode: 511, distinctField: 'External ID' },
	endpoint: {
		family: 'cashout',
		method: 'POST',
		path: '/v3/cashout',
		action: 'Creating the cashout',
	},
	parameters: fieldParameters(CASHOUT_FIELDS, CASHOUT_COLLECTIONS),

	body(context, itemIndex) {
		const checked = validateCashoutRequest(
			bodyFromFields(context, itemIndex, CASHOUT_FIELDS, 'cashout'),
		);
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'cashout', checked.problems);
		return checked;
	},

	lookUp: {
		list: 'cashout',
		filters: { country: 'country', clientDocument: 'document_id' },
		match: (_body, { key }) => ({ matches: (record) => record.externalId === key }),
		// The status by external ID: one read; 509, none exists, and nothing more is read.
		byKey: {
			read: statusIfExists,
			none: (key) => ` The service has no cashout with external ID ${key} (509).`,
		},
	},

	compare(body, record) {
		// A payout asked in USD is compared by its merchant amount.
		const inUsd = String(body.currency ?? '').toUpperCase() === 'USD';
		return [
			{
				field: 'amount',
				asked: body.amount,
				found: inUsd ? record.merchantAmount : record.amount,
				amount: true,
			},
			{ field: 'country', asked: body.country, found: record.country },
			{ field: 'document_id', asked: body.document_id, found: record.clientDocument },
			{ field: 'currency', asked: inUsd ? undefined : body.currency, found: record.currency },
		];
	},

	refusal: creationRefusal,

	whereToLook: () => 'Cashout → Get Many, or the merchant panel',

	async made(_context, { body, key }, answer) {
		// The answer names the cashout only; a new cashout is PENDING, or ON_HOLD when asked so:
		// a status read now would tell nothing more (service rules §6.2).
		const cashoutId = positiveId(answer.cashout_id) ?? null;
		const status = statusAtCreation(body.on_hold === true);
		const message = `Cashout ${cashoutId ?? '(no id in the answer)'} created with external ID ${key.value} (${status.cashout_status_name}).`;
		return { json: cashoutOutput(false, key.value, cashoutId, status, message) };
	},

	async found(_context, _client, { key }, found) {
		const cashoutId =
			(found.record ? positiveId(found.record.idCashout) : undefined) ??
			positiveId(found.read?.cashout_id) ??
			null;
		const matches = found.confirmation === 'unconfirmed' ? null : true;
		return cashoutOutput(found.already, key.value, cashoutId, found.read, found.message, matches);
	},
};

export const { properties, execute, afterRun } = createOnceOperation(CASHOUT);

/**
 * The status of the cashout with external ID `externalId` (`POST /v3/cashout/status`, service rules
 * §6.1), with readable names added, and its name (`PENDING`, or its number when the name is not
 * known); undefined when the service has none (509). A safe read, retried on its own.
 * @throws NodeApiError when the read fails other than with 509.
 */
async function statusIfExists(
	context: IExecuteFunctions,
	client: PaymentsClient,
	externalId: string,
	itemIndex: number,
): Promise<{ state: IDataObject; status: string } | undefined> {
	const named = `with external ID "${externalId}"`;
	try {
		const [item] = await readCashoutStatus(
			client,
			{ external_id: externalId },
			{
				action: `Reading the status of cashout ${named}`,
				itemIndex,
				explain: explainCashoutRefusal(named, 'read', 'known'),
			},
		);
		const status = item.json.cashout_status_name ?? item.json.cashout_status ?? 'unknown';
		return { state: item.json, status: String(status) };
	} catch (caught) {
		const error = toNodeError(context.getNode(), caught, itemIndex);
		if (isFailureKind(error, 'notFound')) return undefined;
		throw error;
	}
}

/**
 * The item of both paths of Cashout → Create: the same fields, null where not known —
 * `{already_created, cashout_id, external_id, cashout_status, cashout_status_description,
 * cashout_status_name, [rejection_code, rejection_reason, rejection_code_name], [matches_request],
 * message}` (`matches_request` after a 511: true when confirmed, null when output unconfirmed).
 */
function cashoutOutput(
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
function creationRefusal(
	failure: ServiceFailure,
	request: IDataObject,
	itemIndex: number,
): string | undefined {
	const amount = `${String(request.amount)}${request.currency ? ` ${String(request.currency)}` : ''}`;
	if (isFailureKind(failure, 'kycRejected'))
		return `The beneficiary of the cashout in item ${itemIndex} did not pass the KYC check (USER_REJECTED_KYC_CHECK): no payout was made`;
	if (isServiceCode(failure, 303))
		return `Bank code ${String(request.bank_code)} is not a bank of ${String(request.country)} (303): pick the bank from the list, or see Bank → Get Many`;
	if (isServiceCode(failure, 540))
		return `Cashouts to ${String(request.country)} need the beneficiary’s e-mail or phone (540): fill Email or Phone under Beneficiary`;
	if (isServiceCode(failure, 533))
		return `The cashout amount ${amount} of item ${itemIndex} is below the minimum (533): no payout was made`;
	if (isServiceCode(failure, 508))
		return `The cashout amount ${amount} of item ${itemIndex} is above the limit (508): no payout was made`;
	if (isServiceCode(failure, 514))
		return `Not enough funds for the cashout of item ${itemIndex} (514): no payout was made`;
	if (isServiceCode(failure, 300))
		return `The cashout of item ${itemIndex} was refused: invalid parameters (300)`;
	return undefined;
}
