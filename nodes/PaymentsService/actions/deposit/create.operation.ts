import { updateDisplayOptions } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	DEPOSIT_COLLECTIONS,
	DEPOSIT_FIELDS,
	validateDepositRequest,
} from '../../bodies/depositSchema';
import { fieldParameters } from '../../bodies/requestFields';
import { IDEMPOTENCY_HEADER } from '../../codes/service';
import { positiveId } from '../../codes/ids';
import {
	duplicateWindowOption,
	idempotencyKeyOption,
	unconfirmedRepeatOption,
} from '../../idempotency/options';
import { idempotencyRequestKey } from '../../idempotency/requestKey';
import { forgetOutcomes } from '../../idempotency/attempts';
import { createOnce, type CreateOnceResource } from '../../idempotency/createOnce';
import { givenKeyProblem } from '../../idempotency/keys';
import { optionsCollection } from '../../parameters/options';
import type { PaymentsClient } from '../../transport/client';
import {
	bodyFromFields,
	bodyFromJson,
	invalidBodyError,
	specifyBodyProperties,
} from '../common/requestBody';
import {
	currentStatus,
	lookUpDeposit,
	qrCodeBinary,
	qrCodeOptions,
	type PreparedDeposit,
} from './record';

export const properties: INodeProperties[] = [
	...specifyBodyProperties(
		'deposit',
		'{\n  "amount": "100.00",\n  "currency": "BRL",\n  "country": "BR"\n}',
	),
	...updateDisplayOptions(
		{ show: { specifyBody: ['fields'] } },
		fieldParameters(DEPOSIT_FIELDS, DEPOSIT_COLLECTIONS),
	),
	optionsCollection([
		duplicateWindowOption,
		idempotencyKeyOption('the same deposit being created twice'),
		unconfirmedRepeatOption,
		...qrCodeOptions,
	]),
];

/** Once the run ended without an error, the outcomes kept for Retry On Fail go. */
export const afterRun = forgetOutcomes;

/**
 * Deposit → Create: `POST /v3/deposits` (service rules §5.1, §5.2), signed, through the create-once
 * flow (idempotency/createOnce.ts) with an `X-Idempotency-Key`, given or derived; without an
 * Invoice ID the key is sent as the invoice ID too, so the deposit can be found again. One item per
 * input item: the service's answer plus `idempotency_key`, or after a 104 the existing deposit
 * (`already_created`, `deposit_id`, `status`, `matches_request`), whose payment instructions came
 * only in the lost answer (`payment_instructions_recovered: false`).
 * @throws NodeOperationError for a bad field (nothing is sent) and the flow's repeat errors;
 *   NodeApiError for a refusal or a failure.
 */
export async function execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
	return await createOnce(this, client, DEPOSIT, itemIndex);
}

/** What a found deposit's output adds: its payment instructions are not read again. */
const INSTRUCTIONS_LOST =
	' Its payment instructions (redirect_url, payment_info) came only in the lost answer and cannot be read again: read the deposit with Deposit → Get Status, and if the customer needs instructions, create a new deposit with its own Invoice ID.';

const DEPOSIT: CreateOnceResource<PreparedDeposit> = {
	noun: 'deposit',
	key: {
		name: 'idempotency key',
		repeatCode: 104,
		field: 'Idempotency Key',
		distinctField: 'Invoice ID',
	},
	endpoint: {
		family: 'payments',
		method: 'POST',
		path: '/v3/deposits',
		action: 'Creating the deposit',
	},
	createdField: 'creationDate',

	prepare(context, itemIndex, options) {
		const fromJson = context.getNodeParameter('specifyBody', itemIndex, 'fields') === 'json';
		const example = '{"amount": "10.00", "currency": "BRL", "country": "BR"}';
		const checked = validateDepositRequest(
			fromJson
				? bodyFromJson(context, itemIndex, 'deposit', example)
				: bodyFromFields(context, itemIndex, DEPOSIT_FIELDS, 'Deposit'),
		);
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'Deposit', checked.problems);
		const body: IDataObject = { ...checked.value };
		const key = idempotencyRequestKey(context, itemIndex, 'Deposit', body, options);
		// A given key that is not a valid invoice ID is not sent as one.
		if (body.invoice_id === undefined && !givenKeyProblem('invoiceId', key.value))
			body.invoice_id = key.value;
		const unchecked = checked.unchecked.length ? { unchecked_fields: checked.unchecked } : {};
		return { body, headers: { [IDEMPOTENCY_HEADER]: key.value }, key, unchecked, options };
	},

	async created(context, prepared, answer) {
		const json = { ...answer, idempotency_key: prepared.key.value, ...prepared.unchecked };
		const binary = await qrCodeBinary(context, answer, prepared.body, prepared.options);
		return binary ? { json, binary } : { json };
	},

	lookUp: async (context, _client, prepared, target, itemIndex) =>
		await lookUpDeposit(context, prepared, target, itemIndex),

	compare({ body }, record) {
		const payer = (body.payer as IDataObject | undefined) ?? {};
		return [
			{ field: 'amount', asked: body.amount, found: record.requestedAmount, amount: true },
			{ field: 'currency', asked: body.currency, found: record.requestedCurrency },
			{ field: 'country', asked: body.country, found: record.country },
			{ field: 'payer.document', asked: payer.document, found: record.clientDocument },
		];
	},

	whereToLook: ({ body }) =>
		`Deposit → Get Many by invoice ${String(body.invoice_id ?? 'ID')}, or the merchant panel`,

	async alreadyMade(_context, client, { body, key, unchecked }, found, outcome) {
		const status = found.record
			? await currentStatus(client, found.record, outcome.itemIndex)
			: null;
		return {
			already_created: true,
			matches_request: found.record ? true : null,
			deposit_id: (found.record && positiveId(found.record.idDeposit)) ?? null,
			status,
			merchant_invoice_id: (body.invoice_id as string | undefined) ?? null,
			idempotency_key: key.value,
			payment_instructions_recovered: false,
			message: `${outcome.message}${INSTRUCTIONS_LOST}`,
			...unchecked,
		};
	},
};
