import { z } from 'zod';

import { EXACT_SIGNIFICANT_DIGITS, significantDigits } from './jsonNumbers';
import { COUNTRY_CODE } from '../reference/countries';

/*
 * The field rules the deposit, cashout and refund bodies share (zod schemas with messages that say
 * the fix): amounts, country codes, bounded text, web addresses, compact dates.
 */

/** Up to 18 integer digits and at most 2 decimals, positive; a JSON string or number (service rules §5.1). */
const DECIMAL_18_2 = /^\d{1,18}(\.\d{1,2})?$/;
const YYYYMMDD = /^(\d{4})(\d{2})(\d{2})$/;

export const decimal = () =>
	z.union([z.string(), z.number()]).superRefine((value, ctx) => {
		const text = typeof value === 'number' ? String(value) : value.trim();
		if (typeof value === 'number' && (!Number.isFinite(value) || /e/i.test(text))) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be a plain decimal number, e.g. 100.50',
			});
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
				message:
					'must be a positive decimal with at most 18 integer digits and 2 decimals, e.g. 100.50',
			});
			return;
		}
		if (Number(text) <= 0) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be greater than 0' });
		}
	});

/** A 2-letter ISO country code in capitals (service rules §5.1, §6.2). */
export const countryCode = () =>
	z
		.string({ invalid_type_error: 'must be text' })
		.regex(COUNTRY_CODE, 'must be a 2-letter ISO country code in capitals, e.g. BR');

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
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					message: `must be a full URL, e.g. ${options.example}`,
				});
				return;
			}
			if (url.protocol === 'https:' || (options.allowHttp && url.protocol === 'http:')) return;
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: options.allowHttp
					? 'must be an http or https URL'
					: 'must be an HTTPS URL (https://...)',
			});
		});
}

export const httpsUrl = webAddress({ allowHttp: false, example: 'https://shop.example.com/done' });

export const compactDate = z
	.string({ invalid_type_error: 'must be text' })
	.superRefine((value, ctx) => {
		const match = YYYYMMDD.exec(value);
		const valid =
			match !== null &&
			(() => {
				const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
				const date = new Date(Date.UTC(year, month - 1, day));
				return (
					date.getUTCFullYear() === year &&
					date.getUTCMonth() === month - 1 &&
					date.getUTCDate() === day
				);
			})();
		if (!valid)
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be a date written yyyyMMdd, e.g. 19900131',
			});
	});
