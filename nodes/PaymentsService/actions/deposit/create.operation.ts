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
import { createOnce, type CreationAdapter } from '../../idempotency/createOnce';
import { givenKeyProblem } from '../../idempotency/keys';
import { optionsCollection } from '../../parameters/options';
import type { PaymentsClient } from '../../transport/client';
import { concurrencyOption } from '../common/parameters';
import {
	bodyFromFields,
	bodyFromJson,
	invalidBodyError,
	specifyBodyProperties,
} from '../common/requestBody';
import {
	currentStatus,
	findDeposit,
	named,
	qrCodeBinary,
	qrCodeOptions,
	unfound,
	type PreparedDeposit,
} from './creation';

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
		concurrencyOption,
		duplicateWindowOption,
		idempotencyKeyOption('the same deposit being created twice'),
		unconfirmedRepeatOption,
		...qrCodeOptions,
	]),
];

/** The items run at once, up to Options → Concurrency. */
export const concurrent = true;

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
	return await createOnce(this, client, DEPOSIT_CREATION, itemIndex);
}

const DEPOSIT_CREATION: CreationAdapter<PreparedDeposit> = {
	noun: 'deposit',
	thing: 'deposit',
	keyName: 'idempotency key',
	repeatCode: 104,
	distinctField: 'Invoice ID',
	request: { family: 'payments', method: 'POST', path: '/v3/deposits' },
	action: 'Creating the deposit',
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
		const creation = idempotencyRequestKey(context, itemIndex, 'Deposit', body, options);
		// A given key that is not a valid invoice ID is not sent as one.
		if (body.invoice_id === undefined && !givenKeyProblem('invoiceId', creation.key))
			body.invoice_id = creation.key;
		const unchecked = checked.unchecked.length ? { unchecked_fields: checked.unchecked } : {};
		return { body, headers: { [IDEMPOTENCY_HEADER]: creation.key }, creation, unchecked, options };
	},

	async inPreviousWindow(context, _client, prepared, previousKey, itemIndex) {
		// Only a derived invoice ID names the previous window's deposit.
		if (prepared.body.invoice_id !== prepared.creation.key) return undefined;
		const earlier = await findDeposit(context, prepared, previousKey, itemIndex, previousKey);
		if (earlier.outcome !== 'found') return undefined;
		const { idDeposit, status } = earlier.record;
		return ` (deposit ${String(idDeposit)}, ${String(status)}, created in the previous Duplicate Window)`;
	},

	async created(context, _client, prepared, answer) {
		const json = { ...answer, idempotency_key: prepared.creation.key, ...prepared.unchecked };
		const binary = await qrCodeBinary(context, answer, prepared.body, prepared.options);
		return binary ? { json, binary } : { json };
	},

	async describeRepeat(context, _client, prepared, itemIndex) {
		const found = await findDeposit(context, prepared, prepared.body.invoice_id, itemIndex);
		return found.outcome === 'found' ? named(found.record) : '';
	},

	lookUp: async (context, _client, prepared, itemIndex) => ({
		recovery: await findDeposit(context, prepared, prepared.body.invoice_id, itemIndex),
		facts: undefined,
	}),

	compare({ body }, record) {
		const payer = (body.payer as IDataObject | undefined) ?? {};
		return [
			{ field: 'amount', asked: body.amount, found: record.requestedAmount },
			{ field: 'currency', asked: body.currency, found: record.requestedCurrency },
			{ field: 'country', asked: body.country, found: record.country },
			{ field: 'payer.document', asked: payer.document, found: record.clientDocument },
		];
	},

	describeRecord: (record) => named(record),

	anotherRecord: ({ body, creation }, record, differing, itemIndex) => ({
		message: `Deposit in item ${itemIndex} was not created: idempotency key ${creation.key} was already used for another deposit`,
		description: `The service refused it (104): deposit ${String(record.idDeposit)} (invoice ${String(body.invoice_id)}) was created with this key and differs from this request (${differing.join('; ')}). No second deposit was made. Give this deposit its own Idempotency Key or Invoice ID.`,
	}),

	unconfirmedDescription: ({ body }, { recovery }) =>
		`The service refused a second deposit with this key (104), so no second deposit was made, but the deposit it belongs to could not be found and compared with this request.${unfound(body, recovery)} Look it up (Deposit → Get Many by invoice ${String(body.invoice_id ?? 'ID')}, or the merchant panel): if it is this deposit, read it with Deposit → Get Status; its payment instructions came only in the lost answer, so a customer who needs them needs a new deposit with its own Invoice ID.`,

	async alreadyMade(_context, client, { body, creation, unchecked }, { lookUp, itemIndex }) {
		const { key } = creation;
		const invoiceId = body.invoice_id as string | undefined;
		const found = lookUp.recovery.outcome === 'found' ? lookUp.recovery.record : undefined;
		const status = found ? await currentStatus(client, found, itemIndex) : null;
		const compared = found
			? ` It is deposit ${String(found.idDeposit)} (${String(status)}), with the same amount, currency, country and payer. Its payment instructions (redirect_url, payment_info) came only in the lost answer and cannot be read again: read the deposit with Deposit → Get Status, and if the customer needs instructions, create a new deposit with its own Invoice ID.`
			: `${unfound(body, lookUp.recovery)} It could not be compared with this request: if it is not this deposit, give this one its own Idempotency Key.`;
		return {
			already_created: true,
			matches_request: found ? true : null,
			deposit_id: (found && positiveId(found.idDeposit)) ?? null,
			status,
			merchant_invoice_id: invoiceId ?? null,
			idempotency_key: key,
			payment_instructions_recovered: false,
			message: `Deposit already created by an earlier attempt (idempotency key ${key}${invoiceId ? `, invoice ${invoiceId}` : ''}); no second deposit was made.${compared}`,
			...unchecked,
		};
	},
};
