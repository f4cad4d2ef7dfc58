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
import { forgetOutcomes } from '../../idempotency/attempts';
import {
	createOnce,
	type CreateOnceResource,
	type PreparedRequest,
} from '../../idempotency/createOnce';
import { optionsCollection } from '../../parameters/options';
import type { PaymentsClient } from '../../transport/client';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import { depositNamed, explainRefusal, lookUpRefund, refundOutput } from './record';

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

/** Once the run ended without an error, the outcomes kept for Retry On Fail go. */
export const afterRun = forgetOutcomes;

/**
 * Refund → Create: `POST /v3/refunds`, signed like deposits, with an `X-Idempotency-Key` given or
 * derived, through the create-once flow (idempotency/createOnce.ts; service rules §7, §5.2). An
 * Amount expression that resolves to nothing is refused: only an Amount left empty is a full
 * refund. One item per input item, the same fields on both paths (`refundOutput`, record.ts);
 * after a 104 the refund is confirmed only as the newest of the same deposit and amount made since
 * this execution first sent the key (refund records carry no key).
 * @throws NodeOperationError for a bad field (nothing is sent) and the flow's repeat errors;
 *   NodeApiError for a refusal (802 amount, 804 bank account, 208 deposit not found, 300 fields).
 */
export async function execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
	return await createOnce(this, client, REFUND, itemIndex);
}

const REFUND: CreateOnceResource<PreparedRequest> = {
	noun: 'refund',
	key: {
		name: 'idempotency key',
		repeatCode: 104,
		field: 'Idempotency Key',
		distinctField: 'Idempotency Key',
	},
	endpoint: {
		family: 'payments',
		method: 'POST',
		path: '/v3/refunds',
		action: 'Requesting the refund',
	},
	createdField: 'date',

	prepare(context, itemIndex, options) {
		const checked = validateRefundRequest(
			bodyFromFields(context, itemIndex, REFUND_FIELDS, 'Refund'),
		);
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'Refund', checked.problems);
		const body = checked.value as IDataObject;
		const key = idempotencyRequestKey(context, itemIndex, 'Refund', body, options);
		return { body, headers: { [IDEMPOTENCY_HEADER]: key.value }, key };
	},

	refusals: ({ body }, itemIndex) => explainRefusal(depositNamed(body), itemIndex),

	async created(_context, { body, key }, answer) {
		const amount = body.amount !== undefined ? String(body.amount) : 'everything left';
		const message = `Refund ${String(answer.refund_id)} of ${depositNamed(body)} requested (${amount}).`;
		return {
			json: refundOutput(body, key.value, false, answer.refund_id, answer.refund_info, message),
		};
	},

	lookUp: async (context, _client, prepared, target, itemIndex) =>
		await lookUpRefund(context, prepared, target, itemIndex),

	// The look-up matched the deposit and the amount: nothing more to compare.
	compare: () => [],

	whereToLook: ({ body }) =>
		`the refunds of ${depositNamed(body)}: Refund → Get Many, or the merchant panel`,

	async alreadyMade(_context, _client, { body, key }, found, { message }) {
		return {
			...refundOutput(body, key.value, true, found.record?.id ?? null, null, message),
			matches_request: found.record ? true : null,
		};
	},
};
