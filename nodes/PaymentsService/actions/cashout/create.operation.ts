import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
import {
	createOnce,
	type CreationAdapter,
	type PreparedCreation,
} from '../../idempotency/createOnce';
import { lookUpInList, recoveryNote, lookUpPeriod } from '../../idempotency/lookUp';
import { optionsCollection } from '../../parameters/options';
import { REPORTING_LISTS } from '../../reporting/lists';
import type { PaymentsClient } from '../../transport/client';
import { concurrencyOption } from '../common/parameters';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import {
	creationOutput,
	explainCreationRefusal,
	readStatus,
	statusIfExists,
	statusName,
} from './creation';

export const properties: INodeProperties[] = [
	...fieldParameters(CASHOUT_FIELDS, CASHOUT_COLLECTIONS),
	optionsCollection([concurrencyOption, duplicateWindowOption, unconfirmedRepeatOption]),
];

/** The items run at once, up to Options → Concurrency. */
export const concurrent = true;

/**
 * Cashout → Create: `POST /v3/cashout`, signed (service rules §6.2, §2.4), through the create-once
 * flow (idempotency/createOnce.ts); the external ID is the key, given or derived (§5.2). One item
 * per input item, the same fields on both paths (`creationOutput`, creation.ts): the `cashout_id`
 * as a number and the status it was created in (one request); after a 511, the cashout read by
 * external ID and, with a Session credential, found in the list and compared (`matches_request`).
 * @throws NodeOperationError for a bad field (nothing is sent) and the flow's repeat errors;
 *   NodeApiError for a refusal (300, 303, 508, 514, 533, 540, KYC), with what it means.
 */
export async function execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
	return await createOnce(this, client, CASHOUT_CREATION, itemIndex);
}

/** The cashout status read after a 511 (by external ID), kept for the item. */
type Facts = { status: IDataObject };

const CASHOUT_CREATION: CreationAdapter<PreparedCreation, Facts> = {
	noun: 'cashout',
	thing: 'payout',
	keyName: 'external ID',
	repeatCode: 511,
	distinctField: 'External ID',
	request: { family: 'cashout', method: 'POST', path: '/v3/cashout' },
	action: 'Creating the cashout',
	createdField: 'creationDate',

	prepare(context, itemIndex, options) {
		const body = bodyFromFields(context, itemIndex, CASHOUT_FIELDS, 'Cashout');
		const { external_id: given, ...content } = body;
		// A placeholder stands in for a key still to derive, so the key names the checked request.
		const precheck = validateCashoutRequest({ ...content, external_id: given || 'to-be-derived' });
		if (!precheck.ok) throw invalidBodyError(context, itemIndex, 'Cashout', precheck.problems);
		const creation = requestKey(context, itemIndex, {
			given,
			kind: 'externalId',
			label: 'External ID',
			noun: 'Cashout',
			content: { ...precheck.value, external_id: undefined },
			options,
		});
		const checked = validateCashoutRequest({ ...content, external_id: creation.key });
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'Cashout', checked.problems);
		return { body: checked.value, creation };
	},

	explain: (prepared, itemIndex) => explainCreationRefusal(prepared.body, itemIndex),

	async inPreviousWindow(context, client, _prepared, previousKey, itemIndex) {
		const earlier = await statusIfExists(context, client, previousKey, itemIndex);
		return earlier && ` (${statusName(earlier)}, created in the previous Duplicate Window)`;
	},

	async created(_context, _client, { body, creation }, answer) {
		// The answer names the cashout only; a new cashout is PENDING, or ON_HOLD when asked so:
		// a status read now would tell nothing more (service rules §6.2).
		const cashoutId = positiveId(answer.cashout_id) ?? null;
		const status = statusAtCreation(body.on_hold === true);
		const message = `Cashout ${cashoutId ?? '(no id in the answer)'} created with external ID ${creation.key} (${status.cashout_status_name}).`;
		return { json: creationOutput(false, creation.key, cashoutId, status, message) };
	},

	async describeRepeat(context, client, prepared, itemIndex) {
		const existing = await statusIfExists(context, client, prepared.creation.key, itemIndex).catch(
			() => undefined,
		);
		return existing ? ` (${statusName(existing)})` : '';
	},

	async lookUp(context, client, prepared, itemIndex) {
		const key = prepared.creation.key;
		const status = await readStatus(client, { external_id: key }, itemIndex);
		const recovery = await lookUpInList(
			context,
			itemIndex,
			{
				list: REPORTING_LISTS.cashout,
				filters: { country: prepared.body.country, clientDocument: prepared.body.document_id },
				match: (record) => record.externalId === key,
			},
			lookUpPeriod(prepared.creation, Date.now()),
		);
		return { recovery, facts: { status } };
	},

	compare({ body }, record) {
		// A payout asked in USD is compared by its merchant amount.
		const inUsd = String(body.currency ?? '').toUpperCase() === 'USD';
		return [
			{ field: 'amount', asked: body.amount, found: inUsd ? record.merchantAmount : record.amount },
			{ field: 'country', asked: body.country, found: record.country },
			{ field: 'document_id', asked: body.document_id, found: record.clientDocument },
			{ field: 'currency', asked: inUsd ? undefined : body.currency, found: record.currency },
		];
	},

	describeRecord: (record, { status }) =>
		` (cashout ${String(record.idCashout)}, ${statusName(status)})`,

	anotherRecord: (prepared, record, differing, itemIndex) => ({
		message: `Cashout in item ${itemIndex} was not created: External ID ${prepared.creation.key} already belongs to another payout`,
		description: `The service refused it (511) because cashout ${String(record.idCashout)} already has this external ID, and it differs from this payout (${differing.join('; ')}). No second payout was made. Give this payout its own External ID.`,
	}),

	confirmedByKey: (prepared) => prepared.creation.derived,

	unconfirmedDescription: (_prepared, { recovery, facts }) =>
		`The service refused a second cashout with this external ID (511), so no second payout was made. A cashout with it exists (${statusName(facts.status)}), but it could not be compared with this payout.${recoveryNote(recovery, 'cashout', 'cashout')} Look it up (Cashout → Get Many, or the merchant panel): if it is this payout, nothing more is needed; if not, give this payout another External ID.`,

	async alreadyMade(_context, _client, prepared, { lookUp, confirmation }) {
		const key = prepared.creation.key;
		const { recovery, facts } = lookUp;
		const note = recoveryNote(recovery, 'cashout', 'cashout');
		const found = recovery.outcome === 'found' ? recovery.record : undefined;
		const cashoutId =
			(found ? positiveId(found.idCashout) : undefined) ??
			positiveId(facts.status.cashout_id) ??
			null;
		const compared =
			confirmation === 'found'
				? ` Cashout ${String(cashoutId)} was found and has the same amount, country and document.`
				: confirmation === 'byKey'
					? ` Its external ID was derived from this request’s fields, and this execution sent it before (that answer was lost), so it is this payout.${note}`
					: `${note} It could not be compared with this payout: if it is not this payout, give this one another External ID.`;
		const message = `Cashout with external ID ${key} already created by an earlier attempt; no second payout was made. It is ${statusName(facts.status)}.${compared}`;
		const matches = confirmation === 'unconfirmed' ? null : true;
		return creationOutput(true, key, cashoutId, facts.status, message, matches);
	},
};
