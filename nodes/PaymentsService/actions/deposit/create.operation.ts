import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	DEPOSIT_COLLECTIONS,
	DEPOSIT_FIELDS,
	validateDepositRequest,
} from '../../bodies/depositSchema';
import { fieldParameters } from '../../bodies/requestFields';
import { positiveId } from '../../codes/ids';
import { createOnceOperation, type Creation } from '../../idempotency/createOnce';
import type { PaymentsClient } from '../../transport/client';
import { readDeposit } from '../../transport/deposits';
import {
	bodyFromFields,
	bodyFromJson,
	invalidBodyError,
	specifyBodyProperties,
} from '../common/requestBody';

/**
 * Deposit → Create: `POST /v3/deposits` (service rules §5.1, §5.2), signed, through the create-once
 * flow (idempotency/createOnce.ts) with an `X-Idempotency-Key`, given or derived; without an
 * Invoice ID the key is sent as the invoice ID too, so the deposit can be found again. One item per
 * input item: the service's answer plus `already_created: false` and `idempotency_key`, or after a
 * 104 the existing deposit (`already_created`, `deposit_id`, `status`, `matches_request`), whose
 * payment instructions came only in the lost answer (`payment_instructions_recovered: false`); a
 * ONE_SHOT answer's QR code as a file on request.
 */

/** The options that put a ONE_SHOT deposit's QR code into binary data. */
const QR_CODE_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Put QR Code in Binary Property',
		name: 'qrCodeToBinary',
		type: 'boolean',
		default: false,
		description: 'Whether to output the QR code of a ONE_SHOT deposit as a PNG file',
	},
	{
		displayName: 'QR Code Binary Property',
		name: 'qrCodeBinaryProperty',
		type: 'string',
		default: 'qrCode',
		displayOptions: { show: { qrCodeToBinary: [true] } },
		description: 'Name of the binary property the PNG is written to',
	},
];

/** What a found deposit's output adds: its payment instructions are not read again. */
const INSTRUCTIONS_LOST =
	' Its payment instructions (redirect_url, payment_info) came only in the lost answer and cannot be read again: read the deposit with Deposit → Get Status, and if the customer needs instructions, create a new deposit with its own Invoice ID.';

const DEPOSIT: Creation = {
	noun: 'deposit',
	key: {
		sentAs: 'idempotencyKey',
		repeatCode: 104,
		distinctField: 'Invoice ID',
		asInvoiceId: true,
	},
	endpoint: {
		family: 'payments',
		method: 'POST',
		path: '/v3/deposits',
		action: 'Creating the deposit',
	},
	parameters: [
		...specifyBodyProperties(
			'deposit',
			'{\n  "amount": "100.00",\n  "currency": "BRL",\n  "country": "BR"\n}',
		),
		...updateDisplayOptions(
			{ show: { specifyBody: ['fields'] } },
			fieldParameters(DEPOSIT_FIELDS, DEPOSIT_COLLECTIONS),
		),
	],
	options: QR_CODE_OPTIONS,

	body(context, itemIndex) {
		const fromJson = context.getNodeParameter('specifyBody', itemIndex, 'fields') === 'json';
		const example = '{"amount": "10.00", "currency": "BRL", "country": "BR"}';
		const checked = validateDepositRequest(
			fromJson
				? bodyFromJson(context, itemIndex, 'deposit', example)
				: bodyFromFields(context, itemIndex, DEPOSIT_FIELDS, 'deposit'),
		);
		if (!checked.ok) throw invalidBodyError(context, itemIndex, 'deposit', checked.problems);
		return checked;
	},

	lookUp: {
		list: 'deposit',
		filters: {
			country: 'country',
			clientDocument: 'payer.document',
			paymentMethod: 'payment_method',
		},
		// Found by its invoice ID: only where the invoice ID is the key (derived, or given as the
		// Idempotency Key without an Invoice ID) is another window's key looked up.
		match(body, { key, requestKey }) {
			const invoiceId =
				body.invoice_id === requestKey ? key : key === requestKey ? body.invoice_id : undefined;
			return typeof invoiceId === 'string'
				? { matches: (record) => record.externalId === invoiceId }
				: { note: ' Without an Invoice ID it cannot be looked up.' };
		},
	},

	compare(body, record) {
		const payer = (body.payer as IDataObject | undefined) ?? {};
		return [
			{ field: 'amount', asked: body.amount, found: record.requestedAmount, amount: true },
			{ field: 'currency', asked: body.currency, found: record.requestedCurrency },
			{ field: 'country', asked: body.country, found: record.country },
			{ field: 'payer.document', asked: payer.document, found: record.clientDocument },
		];
	},

	whereToLook: (body) =>
		`Deposit → Get Many by invoice ${String(body.invoice_id ?? 'ID')}, or the merchant panel`,

	async made(context, { body, key, options }, answer) {
		const json = { already_created: false, ...answer, idempotency_key: key.value };
		const binary = await qrCodeBinary(context, answer, body, options);
		return binary ? { json, binary } : { json };
	},

	async found(_context, client, { body, key, itemIndex }, found) {
		const status = found.record ? await currentStatus(client, found.record, itemIndex) : null;
		return {
			already_created: found.already,
			matches_request: found.record ? true : null,
			deposit_id: (found.record && positiveId(found.record.idDeposit)) ?? null,
			status,
			merchant_invoice_id: (body.invoice_id as string | undefined) ?? null,
			idempotency_key: key.value,
			payment_instructions_recovered: false,
			message: `${found.message}${INSTRUCTIONS_LOST}`,
		};
	},
};

export const { properties, execute, afterRun } = createOnceOperation(DEPOSIT);

/**
 * The ONE_SHOT answer's QR code (`payment_info.secondary_metadata.qr_code`, base64 PNG) as binary
 * data, when Options → Put QR Code in Binary Property is on and the answer has one; undefined
 * otherwise.
 */
async function qrCodeBinary(
	context: IExecuteFunctions,
	result: IDataObject,
	request: IDataObject,
	options: IDataObject,
): Promise<INodeExecutionData['binary']> {
	if (options.qrCodeToBinary !== true) return undefined;
	const paymentInfo = result.payment_info as IDataObject | undefined;
	const secondary = paymentInfo?.secondary_metadata as IDataObject | undefined;
	const qrCode = secondary?.qr_code;
	if (typeof qrCode !== 'string' || qrCode === '') return undefined;
	const property = String(options.qrCodeBinaryProperty || 'qrCode');
	const base64 = qrCode.replace(/^data:image\/png;base64,/, '');
	return {
		[property]: await context.helpers.prepareBinaryData(
			Buffer.from(base64, 'base64'),
			`deposit-${String(result.deposit_id ?? request.invoice_id ?? 'qr')}.png`,
			'image/png',
		),
	};
}

/**
 * The current status of a deposit found in the list (`GET /v3/deposits/{id}`), or the list's
 * status when that read fails: the deposit exists either way.
 */
async function currentStatus(
	client: PaymentsClient,
	record: IDataObject,
	itemIndex: number,
): Promise<string | null> {
	const listed = typeof record.status === 'string' ? record.status : null;
	const depositId = positiveId(record.idDeposit);
	if (depositId === undefined) return listed;
	try {
		const current = await readDeposit(client, depositId, {
			action: `Reading the status of deposit ${depositId}`,
			itemIndex,
		});
		return typeof current.status === 'string' ? current.status : listed;
	} catch {
		return listed;
	}
}
