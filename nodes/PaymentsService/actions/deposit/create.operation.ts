import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { IDEMPOTENCY_HEADER } from '../../helpers/constants';
import { DEPOSIT_LANGUAGES, validateDepositRequest } from '../../helpers/depositSchema';
import { deriveIdempotencyKey } from '../../helpers/idempotency';
import type { PaymentsClient } from '../../transport/client';
import { isServiceCode } from '../../transport/errors';

/** Payer fields of the node (camelCase) -> body fields (spec: Payer object). */
const PAYER_FIELDS: Record<string, string> = {
	payerId: 'id',
	document: 'document',
	documentType: 'document_type',
	email: 'email',
	firstName: 'first_name',
	lastName: 'last_name',
	birthDate: 'birth_date',
	registrationDate: 'registration_date',
	phone: 'phone',
};
const ADDRESS_FIELDS: Record<string, string> = {
	street: 'street',
	city: 'city',
	state: 'state',
	zipCode: 'zip_code',
};
const REPORTED_INFO_FIELDS: Record<string, string> = {
	bankAccountNumber: 'bank_account_number',
	bankBranch: 'bank_branch',
	bankBeneficiary: 'bank_beneficiary',
};
/** Additional fields of the node -> body fields (spec: Create deposit, body table). */
const ADDITIONAL_FIELDS: Record<string, string> = {
	backUrl: 'back_url',
	bonusAmount: 'bonus_amount',
	bonusRelative: 'bonus_relative',
	clientIp: 'client_ip',
	description: 'description',
	deviceId: 'device_id',
	earlyRelease: 'early_release',
	errorUrl: 'error_url',
	expiration: 'expiration',
	feeOnPayer: 'fee_on_payer',
	invoiceId: 'invoice_id',
	language: 'language',
	logo: 'logo',
	merchantExternalReference: 'merchant_external_reference',
	mobile: 'mobile',
	notificationUrl: 'notification_url',
	paymentType: 'payment_type',
	paymentTypes: 'payment_types',
	requestPayerDataOnValidationFailure: 'request_payer_data_on_validation_failure',
	strikethroughPrice: 'strikethrough_price',
	subMerchantId: 'sub_merchant_id',
	successUrl: 'success_url',
	surchargeOnPayer: 'surcharge_on_payer',
	test: 'test',
};

const text = (displayName: string, name: string, description: string, placeholder = ''): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	description,
	placeholder,
});
const flag = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: false,
	description,
});

export const properties: INodeProperties[] = [
	{
		displayName: 'Specify Body',
		name: 'specifyBody',
		type: 'options',
		default: 'fields',
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		description: 'Whether to fill in the deposit field by field or to send a whole request body as JSON',
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: '{\n  "amount": "100.00",\n  "currency": "BRL",\n  "country": "BR"\n}',
		required: true,
		displayOptions: { show: { specifyBody: ['json'] } },
		description: 'The deposit request body, with the field names of the API (snake_case). It is validated before sending.',
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		default: '',
		required: true,
		placeholder: '100.50',
		displayOptions: { show: { specifyBody: ['fields'] } },
		description: 'Amount in the deposit currency: up to 18 integer digits and 2 decimals',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'BRL',
		displayOptions: { show: { specifyBody: ['fields'] } },
		description: '3-letter ISO currency code of the amount',
	},
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'BR',
		displayOptions: { show: { specifyBody: ['fields'] } },
		description: '2-letter ISO code of the deposit’s country',
	},
	{
		displayName: 'Payment Method Code',
		name: 'paymentMethod',
		type: 'string',
		default: '',
		placeholder: 'PX',
		displayOptions: { show: { specifyBody: ['fields'] } },
		description:
			'Payment method code. With every field the method needs, the answer is ONE_SHOT (payment instructions); otherwise HOSTED (a checkout link).',
	},
	{
		displayName: 'Payer',
		name: 'payer',
		type: 'collection',
		placeholder: 'Add Payer Field',
		default: {},
		displayOptions: { show: { specifyBody: ['fields'] } },
		options: [
			text('Address City', 'city', 'Up to 128 characters'),
			text('Address State', 'state', 'ISO 3166-2 state code, up to 3 characters', 'SP'),
			text('Address Street', 'street', 'Up to 255 characters'),
			text('Address Zip Code', 'zipCode', 'Postal code'),
			text('Birth Date', 'birthDate', 'Written yyyyMMdd', '19900131'),
			text('Document', 'document', 'Customer document number, up to 30 characters; it must be correct'),
			text('Document Type', 'documentType', 'Document type, up to 10 characters', 'CPF'),
			{ ...text('Email', 'email', 'Customer e-mail address', 'name@email.com'), placeholder: 'name@email.com' },
			text('First Name', 'firstName', 'Up to 128 characters'),
			text('Last Name', 'lastName', 'Up to 128 characters'),
			text('Payer ID', 'payerId', 'Customer ID on your side, letters and digits only; generated by the service when empty'),
			text('Phone', 'phone', 'Customer phone number'),
			text('Registration Date', 'registrationDate', 'Date the customer registered on your site, yyyyMMdd (UTC)', '20240115'),
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { specifyBody: ['fields'] } },
		options: [
			text('Back URL', 'backUrl', 'HTTPS address the customer returns to after cancelling'),
			text('Bank Account (JSON)', 'bankAccount', 'Customer bank account details as a JSON object (closed-loop policy)'),
			text('Bank Account Number (Reported)', 'bankAccountNumber', 'Reported info used to recognise the payment; up to 45 characters'),
			text('Bank Beneficiary (Reported)', 'bankBeneficiary', 'Reported info; up to 255 characters'),
			text('Bank Branch (Reported)', 'bankBranch', 'Reported info; up to 45 characters'),
			text('Bonus Amount', 'bonusAmount', 'Bonus shown on the hosted checkout; display only'),
			flag('Bonus Relative', 'bonusRelative', 'Whether the bonus amount is a percentage of the amount'),
			text('Client IP', 'clientIp', 'IPv4 or IPv6 address of the customer'),
			text('Description', 'description', 'Product description on the hosted checkout, up to 100 characters'),
			text('Device ID', 'deviceId', 'Customer device ID from the service’s script library, up to 100 characters'),
			flag('Early Release', 'earlyRelease', 'Whether to release the payment before it completes'),
			text('Error URL', 'errorUrl', 'HTTPS address for errors while generating the payment'),
			{
				displayName: 'Expiration (Minutes)',
				name: 'expiration',
				type: 'number',
				default: 60,
				typeOptions: { minValue: 1, maxValue: 99999 },
				description: 'Minutes until the deposit expires; not above the payment method’s default',
			},
			flag('Fee on Payer', 'feeOnPayer', 'Whether the customer pays the deposit fee'),
			text('Invoice ID', 'invoiceId', 'Your unique ID for the deposit (letters, digits, - and _). Empty: the idempotency key is used.'),
			{
				displayName: 'Language',
				name: 'language',
				type: 'options',
				default: 'en',
				options: DEPOSIT_LANGUAGES.map((code) => ({ name: code, value: code })),
				description: 'Language of the hosted checkout (ISO 639-1)',
			},
			text('Logo URL', 'logo', 'HTTPS address of the logo on the hosted checkout'),
			text('Merchant External Reference', 'merchantExternalReference', 'Internal information, up to 255 characters'),
			flag('Mobile', 'mobile', 'Whether the customer uses a mobile device or app'),
			text('Notification URL', 'notificationUrl', 'HTTPS address that receives status-change notifications'),
			text('Payment Type', 'paymentType', 'Type of payment methods to show, e.g. BANK_TRANSFER'),
			text('Payment Types', 'paymentTypes', 'Several payment types, comma-separated, e.g. BANK_DEPOSIT,BANK_TRANSFER'),
			flag(
				'Request Payer Data On Validation Failure',
				'requestPayerDataOnValidationFailure',
				'Whether an invalid phone, state or zip code falls back to the hosted checkout instead of a decline',
			),
			text('Strikethrough Price', 'strikethroughPrice', 'Struck-through amount on the hosted checkout; display only'),
			{
				displayName: 'Sub-Merchant ID',
				name: 'subMerchantId',
				type: 'number',
				default: 0,
				description: 'Sub-merchant the deposit is created for',
			},
			text('Success URL', 'successUrl', 'HTTPS address the customer goes to when the flow completes'),
			{ ...flag('Surcharge on Payer', 'surchargeOnPayer', 'Whether the customer pays the surcharge'), default: true },
			flag('Test', 'test', 'Whether this is a test deposit that does not affect the balance'),
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Idempotency Key',
				name: 'idempotencyKey',
				type: 'string',
				default: '',
				description:
					'Key that stops the same deposit being created twice. Empty: one is derived from the execution and the item, so Retry On Fail reuses it.',
			},
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
		],
	},
];

/** Deposit → Create: POST /v3/deposits (spec: Create deposit). */

function pick(source: IDataObject, mapping: Record<string, string>): IDataObject {
	const target: IDataObject = {};
	for (const [param, field] of Object.entries(mapping)) {
		const value = source[param];
		if (value === undefined || value === '') continue;
		target[field] = typeof value === 'string' ? value.trim() : value;
	}
	return target;
}

/**
 * Builds the request body from the node's fields. Bad JSON in "Bank Account (JSON)" is reported by
 * the caller as a field problem.
 */
function bodyFromFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const body: IDataObject = {
		amount: String(context.getNodeParameter('amount', itemIndex, '')).trim(),
		currency: String(context.getNodeParameter('currency', itemIndex, '')).trim(),
		country: String(context.getNodeParameter('country', itemIndex, '')).trim(),
	};
	const paymentMethod = String(context.getNodeParameter('paymentMethod', itemIndex, '')).trim();
	if (paymentMethod) body.payment_method = paymentMethod;
	const payerParams = context.getNodeParameter('payer', itemIndex, {}) as IDataObject;
	const payer = pick(payerParams, PAYER_FIELDS);
	const address = pick(payerParams, ADDRESS_FIELDS);
	if (Object.keys(address).length) payer.address = address;
	if (Object.keys(payer).length) body.payer = payer;
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	Object.assign(body, pick(additional, ADDITIONAL_FIELDS));
	if (typeof body.payment_types === 'string') {
		body.payment_types = body.payment_types
			.split(',')
			.map((entry) => entry.trim())
			.filter(Boolean);
	}
	const reported = pick(additional, REPORTED_INFO_FIELDS);
	if (Object.keys(reported).length) body.reported_info = reported;
	if (typeof additional.bankAccount === 'string' && additional.bankAccount.trim() !== '') {
		try {
			body.bank_account = JSON.parse(additional.bankAccount) as IDataObject;
		} catch {
			throw new NodeOperationError(context.getNode(), `Deposit in item ${itemIndex} is invalid: Bank Account (JSON) is not valid JSON`, {
				itemIndex,
				description: 'Write the bank account as a JSON object, e.g. {"account_number": "123"}.',
			});
		}
	}
	return body;
}

function bodyFromJson(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = context.getNodeParameter('jsonBody', itemIndex) as unknown;
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = JSON.parse(raw);
		} catch (error) {
			throw new NodeOperationError(context.getNode(), `JSON Body of item ${itemIndex} is not valid JSON`, {
				itemIndex,
				description: `${(error as Error).message}. Write the deposit request as a JSON object.`,
			});
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(context.getNode(), `JSON Body of item ${itemIndex} must be a JSON object`, {
			itemIndex,
			description: 'Write the deposit request as an object, e.g. {"amount": "10.00", "currency": "BRL", "country": "BR"}.',
		});
	}
	return parsed as IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const specifyBody = this.getNodeParameter('specifyBody', itemIndex, 'fields') as string;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const body = specifyBody === 'json' ? bodyFromJson(this, itemIndex) : bodyFromFields(this, itemIndex);

	const checked = validateDepositRequest(body);
	if (!checked.ok) {
		const lines = checked.problems.map((problem) => `${problem.field} ${problem.problem}`);
		throw new NodeOperationError(this.getNode(), `Deposit in item ${itemIndex} is invalid: ${lines[0]}`, {
			itemIndex,
			description: `Nothing was sent. Fix ${lines.length === 1 ? 'this field' : `these ${lines.length} fields`}: ${lines.join('; ')}.`,
		});
	}

	const node = this.getNode();
	const userKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
	const idempotencyKey =
		userKey ||
		deriveIdempotencyKey({
			workflowId: this.getWorkflow().id,
			executionId: this.getExecutionId(),
			nodeId: node.id ?? node.name,
			itemIndex,
		});
	const request: IDataObject = { ...checked.value };
	if (request.invoice_id === undefined && /^[A-Za-z0-9\-_]{1,128}$/.test(idempotencyKey)) {
		request.invoice_id = idempotencyKey;
	}
	const invoiceId = request.invoice_id as string | undefined;

	let result: IDataObject;
	try {
		result = await client.request<IDataObject>(
		{ family: 'payments', method: 'POST', path: '/v3/deposits', body: request, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } },
			{ action: `Creating the deposit of item ${itemIndex}`, itemIndex },
		);
	} catch (error) {
		if (isServiceCode(error, 104)) {
			return [
				{
					json: {
						already_created: true,
						merchant_invoice_id: invoiceId ?? null,
						idempotency_key: idempotencyKey,
						message: `Deposit already created by an earlier attempt (idempotency key ${idempotencyKey}${invoiceId ? `, invoice ${invoiceId}` : ''}); no second deposit was made.`,
					},
				},
			];
		}
		throw error instanceof NodeApiError ? error : new NodeOperationError(node, error as Error, { itemIndex });
	}

	const output: INodeExecutionData = { json: { ...result, idempotency_key: idempotencyKey } };
	if (options.qrCodeToBinary === true) {
		const paymentInfo = result.payment_info as IDataObject | undefined;
		const secondary = paymentInfo?.secondary_metadata as IDataObject | undefined;
		const qrCode = secondary?.qr_code;
		if (typeof qrCode === 'string' && qrCode !== '') {
			const property = String(options.qrCodeBinaryProperty || 'qrCode');
			const base64 = qrCode.replace(/^data:image\/png;base64,/, '');
			output.binary = {
				[property]: await this.helpers.prepareBinaryData(
					Buffer.from(base64, 'base64'),
					`deposit-${String(result.deposit_id ?? invoiceId ?? 'qr')}.png`,
					'image/png',
				),
			};
		}
	}
	return [output];
}
