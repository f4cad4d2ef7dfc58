import { z } from 'zod';

import { decimal, httpsUrl, maxText } from './fieldRules';
import {
	bodySchema,
	checkBody,
	textField,
	type FieldCollection,
	type FieldProblem,
	type RequestField,
} from './requestFields';
import { positiveId } from '../codes/ids';

/**
 * The refund creation body (service rules §7) as one table: each row is a body field, the node
 * parameter that asks for it and its rule. The node's fields, the body built from them and the
 * check made before anything is sent all read this table. Where §7 gives no limit, the rules follow
 * the matching deposit fields (§5.1); the service stays the authority.
 */

/** A deposit id: digits, typed or mapped as text or a number; sent as a number. */
const depositId = z
	.union([z.string(), z.number()])
	.superRefine((value, ctx) => {
		if (positiveId(value) === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be a positive whole number, the deposit_id of the deposit, e.g. 300012345',
			});
		}
	})
	.transform((value) => Number(value));

const BANK = 'bankAccount';
const MORE = 'additionalFields';
const byDepositId = { displayOptions: { show: { identifyBy: ['depositId'] } } };
const byInvoiceId = { displayOptions: { show: { identifyBy: ['invoiceId'] } } };

const text = textField;

/** Every field of the refund creation body (service rules §7). `deposit_id` or `invoice_id` names the deposit. */
export const REFUND_FIELDS: readonly RequestField[] = [
	{
		...text(
			'deposit_id',
			'depositId',
			undefined,
			'Deposit ID',
			'The deposit_id of the deposit to refund (idDeposit in the reports)',
			depositId,
			'300012345',
		),
		extra: { ...byDepositId, required: true },
	},
	{
		...text(
			'invoice_id',
			'invoiceId',
			undefined,
			'Invoice ID',
			'The invoice_id your system gave the deposit (externalId in the reports)',
			maxText(128).min(1, 'must not be empty'),
		),
		extra: { ...byInvoiceId, required: true },
	},
	{
		...text(
			'amount',
			'amount',
			undefined,
			'Amount',
			'Amount to refund in the deposit’s local currency, at most 2 decimals and not more than what is left to refund. Left empty: everything left (a full refund). An expression that resolves to nothing is refused, never read as a full refund.',
			decimal(),
			'50.00',
		),
		refuseEmptyExpression: true,
		emptyMeaning:
			'An empty Amount refunds everything left, so it is accepted only when the field is left empty in the panel on purpose.',
	},
	text(
		'bank_account.beneficiary',
		'beneficiary',
		BANK,
		'Beneficiary',
		'Name of the account holder, up to 255 characters',
		maxText(255),
	),
	text(
		'bank_account.bank_code',
		'bankCode',
		BANK,
		'Bank Code',
		'Code of the bank, as Bank → Get Many lists it for the deposit’s country',
		maxText(45),
		'341',
	),
	text(
		'bank_account.branch',
		'branch',
		BANK,
		'Branch',
		'Branch of the account, up to 45 characters',
		maxText(45),
	),
	text(
		'bank_account.account_number',
		'accountNumber',
		BANK,
		'Account Number',
		'Account number, up to 45 characters',
		maxText(45),
	),
	text(
		'bank_account.account_type',
		'accountType',
		BANK,
		'Account Type',
		'Type of the account as the country names it, e.g. C (checking) or S (savings)',
		maxText(45),
	),
	text(
		'comments',
		'comments',
		MORE,
		'Comments',
		'Why the deposit is refunded, up to 255 characters',
		maxText(255),
	),
	text(
		'notification_url',
		'notificationUrl',
		MORE,
		'Notification URL',
		'HTTPS address that receives the refund’s status-change notifications',
		httpsUrl,
		'https://shop.example.com/refunds/notify',
	),
];

/** The collections the refund fields are grouped in. */
export const REFUND_COLLECTIONS: readonly FieldCollection[] = [
	{
		name: BANK,
		displayName: 'Bank Account',
		placeholder: 'Add Bank Account Field',
		description:
			'The customer’s bank account, for deposits paid by a method that refunds by bank transfer (the service answers 804 without it): beneficiary, bank code and account number at least',
	},
	{ name: MORE, displayName: 'Additional Fields', placeholder: 'Add Field' },
];

const REFUND_SCHEMA = bodySchema(REFUND_FIELDS);

/**
 * Checks a refund body against the rules of {@link REFUND_FIELDS}, and that it names the deposit
 * (`deposit_id` or `invoice_id`). Returns the body to send (`deposit_id` as a number), or every
 * broken rule, field by field.
 */
export function validateRefundRequest(
	body: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; problems: FieldProblem[] } {
	const checked = checkBody(REFUND_SCHEMA, body);
	const problems = checked.ok ? [] : [...checked.problems];
	const given = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
	if (given.deposit_id === undefined && given.invoice_id === undefined) {
		problems.unshift({
			field: 'deposit_id',
			problem: 'or invoice_id is required: name the deposit to refund',
		});
	}
	if (problems.length) return { ok: false, problems };
	return { ok: true, value: (checked as { value: Record<string, unknown> }).value };
}
