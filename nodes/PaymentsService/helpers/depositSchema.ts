import { z } from 'zod';

/**
 * Validation of the deposit creation body (spec: Create deposit, body table; Request objects of
 * deposit creation). Everything is checked before a request is sent; the service stays the
 * authority on what it accepts beyond these rules.
 */

/** Up to 18 integer digits and at most 2 decimals, positive; a JSON string or number (spec). */
const DECIMAL_18_2 = /^\d{1,18}(\.\d{1,2})?$/;
const INVOICE_ID = /^[A-Za-z0-9\-_]*$/;
const PAYER_ID = /^[A-Za-z0-9]*$/;
const YYYYMMDD = /^(\d{4})(\d{2})(\d{2})$/;

/** Languages the hosted checkout offers (spec: body field `language`). */
export const DEPOSIT_LANGUAGES = ['es', 'en', 'pt', 'ja', 'id', 'fr'] as const;

const decimal = () =>
	z.union([z.string(), z.number()]).superRefine((value, ctx) => {
		const text = typeof value === 'number' ? String(value) : value.trim();
		if (typeof value === 'number' && (!Number.isFinite(value) || /e/i.test(text))) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a plain decimal number, e.g. 100.50' });
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

const maxText = (max: number) =>
	z.string({ invalid_type_error: 'must be text' }).max(max, `must be at most ${max} characters`);

const httpsUrl = z
	.string({ invalid_type_error: 'must be text' })
	.max(2048, 'must be at most 2048 characters')
	.superRefine((value, ctx) => {
		let url: URL;
		try {
			url = new URL(value);
		} catch {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a full URL, e.g. https://shop.example.com/done' });
			return;
		}
		if (url.protocol !== 'https:') {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an HTTPS URL (https://...)' });
		}
	});

const compactDate = z.string({ invalid_type_error: 'must be text' }).superRefine((value, ctx) => {
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

const payerAddress = z
	.object({
		street: maxText(255),
		city: maxText(128),
		state: maxText(3).regex(/^[A-Za-z0-9]{1,3}$/, 'must be an ISO 3166-2 state code of up to 3 characters, e.g. SP'),
		zip_code: z.string({ invalid_type_error: 'must be text' }),
	})
	.partial()
	.strict();

const payer = z
	.object({
		id: maxText(128).regex(PAYER_ID, 'may contain only letters and digits'),
		document: maxText(30),
		document_type: maxText(10),
		email: maxText(255).email('must be a valid e-mail address'),
		first_name: maxText(128),
		last_name: maxText(128),
		birth_date: compactDate,
		registration_date: compactDate,
		phone: z.string({ invalid_type_error: 'must be text' }),
		address: payerAddress,
	})
	.partial()
	.strict();

const reportedInfo = z
	.object({
		bank_account_number: maxText(45),
		bank_branch: maxText(45),
		bank_beneficiary: maxText(255),
	})
	.partial()
	.strict();

/** The deposit creation body (spec: Create deposit). Unknown top-level fields are refused. */
export const depositRequestSchema = z
	.object({
		invoice_id: maxText(128).regex(INVOICE_ID, 'may contain only letters, digits, "-" and "_"').optional(),
		amount: decimal(),
		country: z
			.string({ required_error: 'is required', invalid_type_error: 'must be text' })
			.regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code in capitals, e.g. BR'),
		currency: z
			.string({ required_error: 'is required', invalid_type_error: 'must be text' })
			.regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO currency code in capitals, e.g. BRL'),
		payment_method: z.string().min(1, 'must not be empty').max(10, 'must be at most 10 characters').optional(),
		payer: payer.optional(),
		merchant_external_reference: maxText(255).optional(),
		request_payer_data_on_validation_failure: z.boolean().optional(),
		payment_type: z.string().optional(),
		payment_types: z.array(z.string()).optional(),
		sub_merchant_id: z.number().int('must be a whole number').optional(),
		reported_info: reportedInfo.optional(),
		bank_account: z.record(z.unknown()).optional(),
		fee_on_payer: z.boolean().optional(),
		surcharge_on_payer: z.boolean().optional(),
		bonus_amount: decimal().optional(),
		bonus_relative: z.boolean().optional(),
		strikethrough_price: decimal().optional(),
		description: maxText(100).optional(),
		client_ip: z.string().ip('must be a valid IPv4 or IPv6 address').optional(),
		device_id: maxText(100).optional(),
		language: z.enum(DEPOSIT_LANGUAGES, { message: `must be one of ${DEPOSIT_LANGUAGES.join(', ')}` }).optional(),
		back_url: httpsUrl.optional(),
		success_url: httpsUrl.optional(),
		error_url: httpsUrl.optional(),
		notification_url: httpsUrl.optional(),
		logo: httpsUrl.optional(),
		test: z.boolean().optional(),
		mobile: z.boolean().optional(),
		early_release: z.boolean().optional(),
		expiration: z
			.number({ invalid_type_error: 'must be a whole number of minutes' })
			.int('must be a whole number of minutes')
			.min(1, 'must be at least 1 minute')
			.max(99_999, 'must have at most 5 digits (99999 minutes)')
			.optional(),
	})
	.strict();

export type DepositRequest = z.infer<typeof depositRequestSchema>;

function valueAt(body: unknown, path: Array<string | number>): unknown {
	let current: unknown = body;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

/** One broken rule: the field's path in the body (`payer.email`) and what is wrong with it. */
export interface DepositFieldProblem {
	field: string;
	problem: string;
}

/**
 * Checks a deposit body against the spec's rules.
 * Returns the body unchanged (`ok: true`) or every broken rule (`ok: false`), field by field.
 */
export function validateDepositRequest(
	body: unknown,
): { ok: true; value: DepositRequest } | { ok: false; problems: DepositFieldProblem[] } {
	const result = depositRequestSchema.safeParse(body);
	if (result.success) return { ok: true, value: result.data };
	const problems = result.error.issues.map((issue) => {
		if (issue.code === z.ZodIssueCode.unrecognized_keys) {
			const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
			return {
				field: issue.keys.map((key) => `${prefix}${key}`).join(', '),
				problem: 'is not a field of the deposit request; check the spelling against the API reference',
			};
		}
		const field = issue.path.join('.') || '(body)';
		let problem = issue.message;
		const value = valueAt(body, issue.path);
		if (value === undefined) problem = 'is required';
		else if (issue.code === z.ZodIssueCode.invalid_type) problem = `must be ${issue.expected}, got ${issue.received}`;
		else if (issue.code === z.ZodIssueCode.invalid_union) problem = `must be a decimal number or text such as "100.50", got ${typeof value}`;
		return { field, problem };
	});
	return { ok: false, problems };
}
