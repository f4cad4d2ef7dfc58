import { z } from 'zod';

import { EXACT_SIGNIFICANT_DIGITS, significantDigits } from './jsonNumbers';

import {
	bodySchema,
	checkBody,
	textField,
	type FieldCollection,
	type FieldProblem,
	type RequestField,
} from './requestFields';

/**
 * The deposit creation body (service rules §5.1) as one table: each row is a body field, the node
 * parameter that asks for it and its rule. The node's fields, the body built from them and the
 * check made before anything is sent all read this table. The service stays the authority on what
 * it accepts beyond these rules.
 */

/** Up to 18 integer digits and at most 2 decimals, positive; a JSON string or number (service rules §5.1). */
const DECIMAL_18_2 = /^\d{1,18}(\.\d{1,2})?$/;
const INVOICE_ID = /^[A-Za-z0-9\-_]*$/;
const PAYER_ID = /^[A-Za-z0-9]*$/;
const YYYYMMDD = /^(\d{4})(\d{2})(\d{2})$/;

/** Languages the hosted checkout offers (service rules §5.1). */
export const DEPOSIT_LANGUAGES = ['es', 'en', 'pt', 'ja', 'id', 'fr'] as const;

export const decimal = () =>
	z.union([z.string(), z.number()]).superRefine((value, ctx) => {
		const text = typeof value === 'number' ? String(value) : value.trim();
		if (typeof value === 'number' && (!Number.isFinite(value) || /e/i.test(text))) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a plain decimal number, e.g. 100.50' });
			return;
		}
		if (typeof value === 'number' && significantDigits(value) > EXACT_SIGNIFICANT_DIGITS) {
			// A JavaScript number keeps about 15 significant digits: this one may already have been
			// rounded (123456789012345678 arrives as 123456789012345680). Text is carried exactly.
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `is the number ${text}, which has more significant digits than a JavaScript number carries exactly (${EXACT_SIGNIFICANT_DIGITS}): write it as text, e.g. "${text}"`,
			});
			return;
		}
		if (!DECIMAL_18_2.test(text)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be a positive decimal with at most 18 integer digits and 2 decimals, e.g. 100.50',
			});
			return;
		}
		if (Number(text) <= 0) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be greater than 0' });
		}
	});

/** A 2-letter ISO country code in capitals (service rules §5.1, §6.2). */
export const countryCode = () => z.string({ invalid_type_error: 'must be text' }).regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code in capitals, e.g. BR');

export const maxText = (max: number) =>
	z.string({ invalid_type_error: 'must be text' }).max(max, `must be at most ${max} characters`);

/**
 * An absolute web address of at most 2048 characters: HTTPS only, or HTTP too (`allowHttp`, for
 * the cashout notification URL the service also accepts over HTTP; service rules §6.2). The error
 * shows `example`.
 */
export function webAddress(options: { allowHttp: boolean; example: string }) {
	return z
		.string({ invalid_type_error: 'must be text' })
		.max(2048, 'must be at most 2048 characters')
		.superRefine((value, ctx) => {
			let url: URL;
			try {
				url = new URL(value);
			} catch {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a full URL, e.g. ${options.example}` });
				return;
			}
			if (url.protocol === 'https:' || (options.allowHttp && url.protocol === 'http:')) return;
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: options.allowHttp ? 'must be an http or https URL' : 'must be an HTTPS URL (https://...)' });
		});
}

export const httpsUrl = webAddress({ allowHttp: false, example: 'https://shop.example.com/done' });

export const compactDate = z.string({ invalid_type_error: 'must be text' }).superRefine((value, ctx) => {
	const match = YYYYMMDD.exec(value);
	const valid =
		match !== null &&
		(() => {
			const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
			const date = new Date(Date.UTC(year, month - 1, day));
			return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
		})();
	if (!valid) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a date written yyyyMMdd, e.g. 19900131' });
});

const text = textField;
const flag = (path: string, param: string, displayName: string, description: string, defaultValue = false): RequestField => ({
	path,
	param,
	collection: 'additionalFields',
	displayName,
	description,
	input: 'boolean',
	default: defaultValue,
	rule: z.boolean(),
});
const PAYER = 'payer';
const MORE = 'additionalFields';

/** Every field of the deposit creation body (service rules §5.1). */
export const DEPOSIT_FIELDS: readonly RequestField[] = [
	{
		path: 'amount',
		param: 'amount',
		displayName: 'Amount',
		description: 'Amount in the deposit currency: up to 18 integer digits and 2 decimals',
		placeholder: '100.50',
		input: 'text',
		required: true,
		rule: decimal(),
	},
	{
		path: 'currency',
		param: 'currency',
		displayName: 'Currency',
		description: '3-letter ISO currency code of the amount',
		placeholder: 'BRL',
		input: 'text',
		required: true,
		rule: z.string({ invalid_type_error: 'must be text' }).regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO currency code in capitals, e.g. BRL'),
	},
	{
		path: 'country',
		param: 'country',
		displayName: 'Country',
		description: 'Country of the deposit: pick it from the list, or type its 2-letter ISO code',
		input: { picker: 'country' },
		required: true,
		rule: countryCode(),
	},
	{
		path: 'payment_method',
		param: 'paymentMethod',
		displayName: 'Payment Method',
		description:
			'Payment method of the chosen country: pick it from the list (needs a Read-Only API credential), or type its code. With every field the method needs, the answer is ONE_SHOT (payment instructions); otherwise HOSTED (a checkout link).',
		input: { picker: 'paymentMethod' },
		rule: z.string().min(1, 'must not be empty').max(10, 'must be at most 10 characters'),
	},
	text('payer.id', 'payerId', PAYER, 'Payer ID', 'Customer ID on your side, letters and digits only; generated by the service when empty', maxText(128).regex(PAYER_ID, 'may contain only letters and digits')),
	text('payer.document', 'document', PAYER, 'Document', 'Customer document number, up to 30 characters; it must be correct', maxText(30)),
	text('payer.document_type', 'documentType', PAYER, 'Document Type', 'Document type, up to 10 characters', maxText(10), 'CPF'),
	text('payer.email', 'email', PAYER, 'Email', 'Customer e-mail address', maxText(255).email('must be a valid e-mail address'), 'name@email.com'),
	text('payer.first_name', 'firstName', PAYER, 'First Name', 'Up to 128 characters', maxText(128)),
	text('payer.last_name', 'lastName', PAYER, 'Last Name', 'Up to 128 characters', maxText(128)),
	text('payer.birth_date', 'birthDate', PAYER, 'Birth Date', 'Written yyyyMMdd', compactDate, '19900131'),
	text('payer.registration_date', 'registrationDate', PAYER, 'Registration Date', 'Date the customer registered on your site, yyyyMMdd (UTC)', compactDate, '20240115'),
	text('payer.phone', 'phone', PAYER, 'Phone', 'Customer phone number', z.string({ invalid_type_error: 'must be text' })),
	text('payer.address.street', 'street', PAYER, 'Address Street', 'Up to 255 characters', maxText(255)),
	text('payer.address.city', 'city', PAYER, 'Address City', 'Up to 128 characters', maxText(128)),
	text(
		'payer.address.state',
		'state',
		PAYER,
		'Address State',
		'ISO 3166-2 state code, up to 3 characters',
		maxText(3).regex(/^[A-Za-z0-9]{1,3}$/, 'must be an ISO 3166-2 state code of up to 3 characters, e.g. SP'),
		'SP',
	),
	text('payer.address.zip_code', 'zipCode', PAYER, 'Address Zip Code', 'Postal code', z.string({ invalid_type_error: 'must be text' })),
	text('invoice_id', 'invoiceId', MORE, 'Invoice ID', 'Your unique ID for the deposit (letters, digits, - and _). Empty: the idempotency key is used.', maxText(128).regex(INVOICE_ID, 'may contain only letters, digits, "-" and "_"')),
	text('merchant_external_reference', 'merchantExternalReference', MORE, 'Merchant External Reference', 'Internal information, up to 255 characters', maxText(255)),
	flag('request_payer_data_on_validation_failure', 'requestPayerDataOnValidationFailure', 'Request Payer Data On Validation Failure', 'Whether an invalid phone, state or zip code falls back to the hosted checkout instead of a decline'),
	text('payment_type', 'paymentType', MORE, 'Payment Type', 'Type of payment methods to show, e.g. BANK_TRANSFER', z.string({ invalid_type_error: 'must be text' })),
	{
		path: 'payment_types',
		param: 'paymentTypes',
		collection: MORE,
		displayName: 'Payment Types',
		description: 'Several payment types, comma-separated, e.g. BANK_DEPOSIT,BANK_TRANSFER',
		input: 'list',
		rule: z.array(z.string()),
	},
	{
		path: 'sub_merchant_id',
		param: 'subMerchantId',
		collection: MORE,
		displayName: 'Sub-Merchant ID',
		description: 'Sub-merchant the deposit is created for',
		input: 'number',
		rule: z.number().int('must be a whole number'),
	},
	text('reported_info.bank_account_number', 'bankAccountNumber', MORE, 'Bank Account Number (Reported)', 'Reported info used to recognise the payment; up to 45 characters', maxText(45)),
	text('reported_info.bank_branch', 'bankBranch', MORE, 'Bank Branch (Reported)', 'Reported info; up to 45 characters', maxText(45)),
	text('reported_info.bank_beneficiary', 'bankBeneficiary', MORE, 'Bank Beneficiary (Reported)', 'Reported info; up to 255 characters', maxText(255)),
	{
		path: 'bank_account',
		param: 'bankAccount',
		collection: MORE,
		displayName: 'Bank Account (JSON)',
		description: 'Customer bank account details as a JSON object (closed-loop policy)',
		input: 'json',
		rule: z.record(z.unknown()),
	},
	flag('fee_on_payer', 'feeOnPayer', 'Fee on Payer', 'Whether the customer pays the deposit fee'),
	flag('surcharge_on_payer', 'surchargeOnPayer', 'Surcharge on Payer', 'Whether the customer pays the surcharge', true),
	text('bonus_amount', 'bonusAmount', MORE, 'Bonus Amount', 'Bonus shown on the hosted checkout; display only', decimal()),
	flag('bonus_relative', 'bonusRelative', 'Bonus Relative', 'Whether the bonus amount is a percentage of the amount'),
	text('strikethrough_price', 'strikethroughPrice', MORE, 'Strikethrough Price', 'Struck-through amount on the hosted checkout; display only', decimal()),
	text('description', 'description', MORE, 'Description', 'Product description on the hosted checkout, up to 100 characters', maxText(100)),
	text('client_ip', 'clientIp', MORE, 'Client IP', 'IPv4 or IPv6 address of the customer', z.string().ip('must be a valid IPv4 or IPv6 address')),
	text('device_id', 'deviceId', MORE, 'Device ID', 'Customer device ID from the service’s script library, up to 100 characters', maxText(100)),
	{
		path: 'language',
		param: 'language',
		collection: MORE,
		displayName: 'Language',
		description: 'Language of the hosted checkout (ISO 639-1)',
		input: { options: DEPOSIT_LANGUAGES },
		default: 'en',
		rule: z.enum(DEPOSIT_LANGUAGES, { message: `must be one of ${DEPOSIT_LANGUAGES.join(', ')}` }),
	},
	text('back_url', 'backUrl', MORE, 'Back URL', 'HTTPS address the customer returns to after cancelling', httpsUrl),
	text('success_url', 'successUrl', MORE, 'Success URL', 'HTTPS address the customer goes to when the flow completes', httpsUrl),
	text('error_url', 'errorUrl', MORE, 'Error URL', 'HTTPS address for errors while generating the payment', httpsUrl),
	text(
		'notification_url',
		'notificationUrl',
		MORE,
		'Notification URL',
		'HTTPS address that receives status-change notifications, e.g. the Payments Service Notification Trigger’s production URL',
		httpsUrl,
	),
	text('logo', 'logo', MORE, 'Logo URL', 'HTTPS address of the logo on the hosted checkout', httpsUrl),
	flag('test', 'test', 'Test', 'Whether this is a test deposit that does not affect the balance'),
	flag('mobile', 'mobile', 'Mobile', 'Whether the customer uses a mobile device or app'),
	flag('early_release', 'earlyRelease', 'Early Release', 'Whether to release the payment before it completes'),
	{
		path: 'expiration',
		param: 'expiration',
		collection: MORE,
		displayName: 'Expiration (Minutes)',
		description: 'Minutes until the deposit expires; not above the payment method’s default',
		input: 'number',
		default: 60,
		rule: z
			.number({ invalid_type_error: 'must be a whole number of minutes' })
			.int('must be a whole number of minutes')
			.min(1, 'must be at least 1 minute')
			.max(99_999, 'must have at most 5 digits (99999 minutes)'),
		extra: { typeOptions: { minValue: 1, maxValue: 99999 } },
	},
];

/** The collections the deposit fields are grouped in. */
export const DEPOSIT_COLLECTIONS: readonly FieldCollection[] = [
	{ name: PAYER, displayName: 'Payer', placeholder: 'Add Payer Field' },
	{ name: MORE, displayName: 'Additional Fields', placeholder: 'Add Field' },
];

const DEPOSIT_SCHEMA = bodySchema(DEPOSIT_FIELDS);

/** One broken rule: the field's path in the body (`payer.email`) and what is wrong with it. */
export type DepositFieldProblem = FieldProblem;

/**
 * Checks a deposit body against the rules of {@link DEPOSIT_FIELDS}. Returns the body unchanged
 * with the top-level fields the table does not know (`unchecked`: they are sent as they are, since
 * the provider adds fields over time), or every broken rule, field by field.
 */
export function validateDepositRequest(body: unknown): ReturnType<typeof checkBody> {
	return checkBody(DEPOSIT_SCHEMA, body);
}
