import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	REFUND_COLLECTIONS,
	REFUND_FIELDS,
	validateRefundRequest,
} from '../../bodies/refundSchema';
import { fieldParameters } from '../../bodies/requestFields';
import { IDEMPOTENCY_HEADER } from '../../codes/service';
import {
	duplicateWindowOption,
	idempotencyKeyOption,
	unconfirmedRepeatOption,
} from '../../idempotency/options';
import { idempotencyRequestKey } from '../../idempotency/requestKey';
import {
	createOnce,
	type CreationAdapter,
	type PreparedCreation,
} from '../../idempotency/createOnce';
import { recoveryNote } from '../../idempotency/lookUp';
import { optionsCollection } from '../../parameters/options';
import type { PaymentsClient } from '../../transport/client';
import { concurrencyOption } from '../common/parameters';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import { depositNamed, explainRefusal, findRequestedRefund, refundOutput } from './creation';

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
		concurrencyOption,
		duplicateWindowOption,
		idempotencyKeyOption('the same refund being requested twice'),
		unconfirmedRepeatOption,
	]),
];

/** The items run at once, up to Options → Concurrency. */
export const concurrent = true;

/**
 * Refund → Create: `POST /v3/refunds`, signed like deposits, with an `X-Idempotency-Key` given or
 * derived, through the create-once flow (idempotency/createOnce.ts; service rules §7, §5.2). An
 * Amount expression that resolves to nothing is refused: only an Amount left empty is a full
 * refund. One item per input item, the same fields on both paths (`refundOutput`, creation.ts);
 * after a 104 the refund is confirmed only as the newest of the same deposit and amount made since
 * this execution first sent the key (refund records carry no key).
 * @throws NodeOperationError for a bad field (nothing is sent) and the flow's repeat errors;
 *   NodeApiError for a refusal (802 amount, 804 bank account, 208 deposit not found, 300 fields).
 */
export async function execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
	return await createOnce(this, client, REFUND_CREATION, itemIndex);
}

const REFUND_CREATION: CreationAdapter<PreparedCreation> = {
	noun: 'refund',
	thing: 'refund',
	keyName: 'idempotency key',
	repeatCode: 104,
	distinctField: 'Idempotency Key',
	request: { family: 'payments', method: 'POST', path: '/v3/refunds' },
	action: 'Requesting the refund',
	createdField: 'date',

	prepare(context, itemIndex, options) {
		const checked = validateRefundRequest(
			bodyFromFields(context, itemIndex, REFUND_FIELDS, 'Refund'),
		);
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'Refund', checked.problems);
		const body = checked.value as IDataObject;
		const creation = idempotencyRequestKey(context, itemIndex, 'Refund', body, options);
		return { body, headers: { [IDEMPOTENCY_HEADER]: creation.key }, creation };
	},

	explain: ({ body }, itemIndex) => explainRefusal(depositNamed(body), itemIndex),

	async created(_context, _client, { body, creation }, answer) {
		const amount = body.amount !== undefined ? String(body.amount) : 'everything left';
		const message = `Refund ${String(answer.refund_id)} of ${depositNamed(body)} requested (${amount}).`;
		return {
			json: refundOutput(body, creation.key, false, answer.refund_id, answer.refund_info, message),
		};
	},

	lookUp: async (context, _client, { body, creation }, itemIndex) => ({
		recovery: await findRequestedRefund(context, itemIndex, body, creation),
		facts: undefined,
	}),

	describeRecord: (record) => ` (refund ${String(record.id)}, ${String(record.status)})`,

	unconfirmedDescription: ({ body }, { recovery }) =>
		`The service refused a second refund with this key (104), so no second refund was requested, but refund records carry no key: only a refund of ${depositNamed(body)} and this amount made since this execution first sent the key confirms it.${lookedUp(body, recovery) || ' Without a Deposit ID it cannot be looked up.'} Look at the refunds of ${depositNamed(body)} (Refund → Get Many, or the merchant panel): if one is this refund, nothing more is needed; if not, give this refund its own Idempotency Key.`,

	async alreadyMade(_context, _client, { body, creation }, { lookUp: { recovery } }) {
		const found = recovery.outcome === 'found' ? recovery.record : undefined;
		const compared = found
			? ` It is refund ${String(found.id ?? null)} (${String(found.status)}), of the same deposit and amount, made since this execution first sent the key.`
			: `${lookedUp(body, recovery)} It could not be confirmed: if it is not this refund, give this one its own Idempotency Key.`;
		const message = `Refund of ${depositNamed(body)} already requested by an earlier attempt (idempotency key ${creation.key}); no second refund was made.${compared}`;
		return {
			...refundOutput(body, creation.key, true, found?.id ?? null, null, message),
			matches_request: found ? true : null,
		};
	},
};

/** What the refund look-up could not do, for a refund by Deposit ID (by invoice ID it is not read). */
function lookedUp(body: IDataObject, recovery: Parameters<typeof recoveryNote>[0]): string {
	return body.deposit_id !== undefined ? recoveryNote(recovery, 'refund', 'refund') : '';
}
