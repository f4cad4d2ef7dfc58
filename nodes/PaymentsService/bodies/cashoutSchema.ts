import { z } from 'zod';

import { compactDate, countryCode, decimal, maxText, webAddress } from './fieldRules';
import {
	bodySchema,
	checkBody,
	textField,
	type FieldCollection,
	type RequestField,
} from './requestFields';
import { CURRENCY_CODE } from '../reference/countries';
import { MAX_EXTERNAL_ID_LENGTH } from '../codes/service';

/**
 * The cashout creation body (service rules §6.2) as one table: each row is a body field, the node
 * parameter that asks for it and its rule. The node's fields, the body built from them and the
 * check made before anything is sent all read this table. Where §6.2 gives no limit, the rules
 * follow the matching deposit fields (§5.1) and say so; the service stays the authority.
 */

/** The notification URL: http or https (service rules §6.2). */
const notificationUrl = webAddress({
	allowHttp: true,
	example: 'https://shop.example.com/payouts/notify',
});

/** A date written yyyyMMdd (as the deposit payer dates) or yyyy-MM-dd. */
const birthdate = z.string({ invalid_type_error: 'must be text' }).superRefine((value, ctx) => {
	const compact = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value.replace(/-/g, '') : value;
	if (!compactDate.safeParse(compact).success) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: 'must be a date written yyyyMMdd or yyyy-MM-dd, e.g. 19900131',
		});
	}
});

/** A bank code from `GET /v3/banks`: digits, typed or picked as text; sent as a number (service rules §6.2, §9). */
const bankCode = z
	.union([z.string(), z.number()])
	.superRefine((value, ctx) => {
		const text = typeof value === 'number' ? String(value) : value.trim();
		if (!/^\d{1,9}$/.test(text) || Number(text) <= 0) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be a bank code made of digits, e.g. 341 (Bank → Get Many lists them)',
			});
		}
	})
	.transform((value) => Number(value));

const BENEFICIARY = 'beneficiary';
const BANK = 'bankAccount';
const MORE = 'additionalFields';

const text = textField;
/** A field the body must have (service rules §6.2). */
const required = (field: RequestField): RequestField => ({ ...field, required: true });

/** Every field of the cashout creation body (service rules §6.2). */
export const CASHOUT_FIELDS: readonly RequestField[] = [
	{
		path: 'external_id',
		param: 'externalId',
		displayName: 'External ID',
		description:
			'Your unique ID of this payout, up to 100 characters; it is the idempotency key: a repeat with the same ID creates nothing and reads the cashout instead. Empty: one is derived from the workflow, node, run, item, the payout and the Duplicate Window, so every re-run of the same payout (Retry On Fail, Retry of the execution) sends the same one. Give your own to pay the same payout twice on purpose.',
		placeholder: 'payout-2026-0001',
		input: 'text',
		// Optional here: the create-once flow sends the one given, or one it derives (always valid).
		rule: z
			.string({ invalid_type_error: 'must be text' })
			.min(1, 'must not be empty')
			.max(MAX_EXTERNAL_ID_LENGTH, `must be at most ${MAX_EXTERNAL_ID_LENGTH} characters`),
		extra: { required: false },
	},
	{
		path: 'country',
		param: 'country',
		displayName: 'Country',
		description: 'Country of the payout: pick it from the list, or type its 2-letter ISO code',
		input: { picker: 'country' },
		required: true,
		rule: countryCode(),
	},
	{
		path: 'amount',
		param: 'amount',
		displayName: 'Amount',
		description:
			'Amount to pay out, in the currency (the country’s own unless Currency says USD): at most 2 decimals',
		placeholder: '250.00',
		input: 'text',
		required: true,
		rule: decimal(),
	},
	required(
		text(
			'document_id',
			'documentId',
			undefined,
			'Document ID',
			'Beneficiary’s document number, up to 30 characters (as the deposit payer’s)',
			maxText(30),
			'84932495016',
		),
	),
	required(
		text(
			'beneficiary_name',
			'beneficiaryName',
			undefined,
			'Beneficiary Name',
			'Beneficiary’s first name (or full name), up to 128 characters',
			maxText(128),
		),
	),
	required(
		text(
			'notification_url',
			'notificationUrl',
			undefined,
			'Notification URL',
			'Address that receives the cashout’s status-change notifications, e.g. the Payments Service Notification Trigger’s production URL',
			notificationUrl,
			'https://shop.example.com/payouts/notify',
		),
	),
	{
		path: 'on_hold',
		param: 'onHold',
		displayName: 'On Hold',
		description:
			'Whether to create the cashout ON_HOLD: it is not processed until you release it (Cashout → Release Hold)',
		input: 'boolean',
		default: false,
		rule: z.boolean({ invalid_type_error: 'must be true or false' }),
	},
	text(
		'document_type',
		'documentType',
		BENEFICIARY,
		'Document Type',
		'Type of the document, up to 10 characters, e.g. CPF',
		maxText(10),
		'CPF',
	),
	text(
		'beneficiary_lastname',
		'beneficiaryLastName',
		BENEFICIARY,
		'Last Name',
		'Beneficiary’s last name, up to 128 characters',
		maxText(128),
	),
	text(
		'beneficiary_id',
		'beneficiaryId',
		BENEFICIARY,
		'Beneficiary ID',
		'Your ID of the beneficiary, up to 128 characters',
		maxText(128),
	),
	text(
		'email',
		'email',
		BENEFICIARY,
		'Email',
		'Beneficiary’s e-mail address; some countries need an e-mail or a phone (code 540)',
		maxText(255).email('must be a valid e-mail address'),
		'name@email.com',
	),
	text(
		'phone',
		'phone',
		BENEFICIARY,
		'Phone',
		'Beneficiary’s phone number; some countries need an e-mail or a phone (code 540)',
		maxText(255),
		'+5511999999999',
	),
	text(
		'address',
		'address',
		BENEFICIARY,
		'Address',
		'Beneficiary’s address, up to 255 characters',
		maxText(255),
	),
	text('city', 'city', BENEFICIARY, 'City', 'Up to 255 characters', maxText(255)),
	text(
		'postal_code',
		'postalCode',
		BENEFICIARY,
		'Postal Code',
		'Up to 255 characters',
		maxText(255),
	),
	text(
		'beneficiary_birthdate',
		'birthdate',
		BENEFICIARY,
		'Birthdate',
		'Written yyyyMMdd or yyyy-MM-dd',
		birthdate,
		'19900131',
	),
	{
		path: 'bank_code',
		param: 'bankCode',
		collection: BANK,
		displayName: 'Bank',
		description:
			'Beneficiary’s bank: pick it from the banks of the chosen country (needs a Read-Only API credential), or type its code',
		input: { picker: 'bank' },
		rule: bankCode,
	},
	text(
		'bank_account',
		'bankAccount',
		BANK,
		'Account Number',
		'Beneficiary’s bank account (or Pix key), up to 255 characters',
		maxText(255),
	),
	text(
		'bank_branch',
		'bankBranch',
		BANK,
		'Branch',
		'Branch of the bank account, up to 255 characters',
		maxText(255),
	),
	text(
		'account_type',
		'accountType',
		BANK,
		'Account Type',
		'Type of the bank account as the country names it, e.g. C (checking) or S (savings)',
		maxText(255),
	),
	text(
		'currency',
		'currency',
		MORE,
		'Currency',
		'Currency of the amount: the country’s own (the default when empty) or USD',
		z
			.string({ invalid_type_error: 'must be text' })
			.regex(CURRENCY_CODE, 'must be a 3-letter ISO currency code in capitals, e.g. USD'),
		'USD',
	),
	text(
		'comments',
		'comments',
		MORE,
		'Comments',
		'Comments about the cashout, up to 255 characters; sent back in its notifications',
		maxText(255),
	),
	text('type', 'type', MORE, 'Type', 'Cashout type, where the provider asks for one', maxText(255)),
];

/** The collections the cashout fields are grouped in. */
export const CASHOUT_COLLECTIONS: readonly FieldCollection[] = [
	{ name: BENEFICIARY, displayName: 'Beneficiary', placeholder: 'Add Beneficiary Field' },
	{ name: BANK, displayName: 'Bank Account', placeholder: 'Add Bank Account Field' },
	{ name: MORE, displayName: 'Additional Fields', placeholder: 'Add Field' },
];

const CASHOUT_SCHEMA = bodySchema(CASHOUT_FIELDS);

/**
 * Checks a cashout body against the rules of {@link CASHOUT_FIELDS}. Returns the body to send
 * (the bank code as a number), or every broken rule, field by field (`email must be a valid e-mail
 * address`).
 */
export function validateCashoutRequest(body: unknown): ReturnType<typeof checkBody> {
	return checkBody(CASHOUT_SCHEMA, body);
}
