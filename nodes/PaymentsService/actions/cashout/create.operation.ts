import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	CASHOUT_COLLECTIONS,
	CASHOUT_FIELDS,
	validateCashoutRequest,
} from '../../bodies/cashoutSchema';
import { fieldParameters } from '../../bodies/requestFields';
import { statusAtCreation } from '../../codes/cashoutStatus';
import { positiveId } from '../../codes/ids';
import { duplicateWindowOption, unconfirmedRepeatOption } from '../../idempotency/options';
import { requestKey } from '../../idempotency/requestKey';
import { forgetOutcomes } from '../../idempotency/attempts';
import {
	createOnce,
	type CreateOnceResource,
	type PreparedRequest,
} from '../../idempotency/createOnce';
import { optionsCollection } from '../../parameters/options';
import type { PaymentsClient } from '../../transport/client';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import { cashoutOutput, creationRefusals, lookUpCashout, type CashoutFacts } from './record';

export const properties: INodeProperties[] = [
	...fieldParameters(CASHOUT_FIELDS, CASHOUT_COLLECTIONS),
	optionsCollection([duplicateWindowOption, unconfirmedRepeatOption]),
];

/** Once the run ended without an error, the outcomes kept for Retry On Fail go. */
export const afterRun = forgetOutcomes;

/**
 * Cashout → Create: `POST /v3/cashout`, signed (service rules §6.2, §2.4), through the create-once
 * flow (idempotency/createOnce.ts); the external ID is the key, given or derived (§5.2). One item
 * per input item, the same fields on both paths (`cashoutOutput`, record.ts): the `cashout_id`
 * as a number and the status it was created in (one request); after a 511, the cashout read by
 * external ID and, with a Session credential, found in the list and compared (`matches_request`).
 * @throws NodeOperationError for a bad field (nothing is sent) and the flow's repeat errors;
 *   NodeApiError for a refusal (300, 303, 508, 514, 533, 540, KYC), with what it means.
 */
export async function execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
	return await createOnce(this, client, CASHOUT, itemIndex);
}

const CASHOUT: CreateOnceResource<PreparedRequest, CashoutFacts> = {
	noun: 'cashout',
	key: { name: 'external ID', repeatCode: 511, field: 'External ID', distinctField: 'External ID' },
	endpoint: {
		family: 'cashout',
		method: 'POST',
		path: '/v3/cashout',
		action: 'Creating the cashout',
	},
	createdField: 'creationDate',

	prepare(context, itemIndex, options) {
		const body = bodyFromFields(context, itemIndex, CASHOUT_FIELDS, 'Cashout');
		const { external_id: given, ...content } = body;
		// A placeholder stands in for a key still to derive, so the key names the checked request.
		const precheck = validateCashoutRequest({ ...content, external_id: given || 'to-be-derived' });
		if (!precheck.ok) throw invalidBodyError(context, itemIndex, 'Cashout', precheck.problems);
		const key = requestKey(context, itemIndex, {
			given,
			kind: 'externalId',
			label: 'External ID',
			noun: 'Cashout',
			content: { ...precheck.value, external_id: undefined },
			options,
		});
		const checked = validateCashoutRequest({ ...content, external_id: key.value });
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'Cashout', checked.problems);
		return { body: checked.value, key };
	},

	refusals: ({ body }, itemIndex) => creationRefusals(body, itemIndex),

	async created(_context, { body, key }, answer) {
		// The answer names the cashout only; a new cashout is PENDING, or ON_HOLD when asked so:
		// a status read now would tell nothing more (service rules §6.2).
		const cashoutId = positiveId(answer.cashout_id) ?? null;
		const status = statusAtCreation(body.on_hold === true);
		const message = `Cashout ${cashoutId ?? '(no id in the answer)'} created with external ID ${key.value} (${status.cashout_status_name}).`;
		return { json: cashoutOutput(false, key.value, cashoutId, status, message) };
	},

	lookUp: async (context, client, { body }, target, itemIndex) =>
		await lookUpCashout(context, client, body, target, itemIndex),

	compare({ body }, record) {
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

	// A derived external ID is a digest of the request's fields: its cashout is this request's.
	keyNamesRequest: ({ key }) => key.derived,

	whereToLook: () => 'Cashout → Get Many, or the merchant panel',

	async alreadyMade(_context, _client, { key }, found, { confirmation, message }) {
		const cashoutId =
			(found.record ? positiveId(found.record.idCashout) : undefined) ??
			positiveId(found.facts.status?.cashout_id) ??
			null;
		const matches = confirmation === 'unconfirmed' ? null : true;
		return cashoutOutput(true, key.value, cashoutId, found.facts.status, message, matches);
	},
};
