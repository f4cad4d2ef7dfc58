/**
 * Field validation of POST /v3/cashout (service rules §6.2). Each problem becomes one
 * `'<field> <reason>'` entry; the route answers 400 `{code: 300, message: 'Invalid params: ' + problems.join('; ')}`.
 */
import {
	CASHOUT_DOCUMENT_ID_MAX_LENGTH,
	CASHOUT_EXTERNAL_ID_MAX_LENGTH,
	CASHOUT_NAME_MAX_LENGTH,
	CASHOUT_TEXT_MAX_LENGTH,
	PAYER_EMAIL_MAX_LENGTH,
	URL_MAX_LENGTH,
} from './constants';
import { round2 } from './data';
import { EMAIL_PATTERN, PHONE_PATTERN, decimalText, isValidYyyyMmDd } from './depositValidation';
import { COUNTRIES, type CountryInfo } from './reference';

/** A valid create-cashout body, normalised. */
export interface CashoutCreation {
	externalId: string;
	country: CountryInfo;
	/** The request currency: the country's currency (default) or USD. */
	currency: string;
	/** Amount as sent, in `currency`. */
	amount: number;
	/** Amount in the country's currency, 2 decimals. */
	localAmount: number;
	/** Amount in USD, 2 decimals. */
	usdAmount: number;
	/** Amount in USD, unrounded (used for the limit checks). */
	usdExact: number;
	documentId: string;
	documentType?: string;
	beneficiaryName: string;
	notificationUrl: string;
	email?: string;
	phone?: string;
	bankCode?: number;
	comments?: string;
	onHold: boolean;
}

/** Result of {@link validateCashoutBody}: problems, or the normalised creation. */
export type CashoutValidation =
	{ ok: true; creation: CashoutCreation } | { ok: false; problems: string[] };

/** Optional text fields: a string of at most CASHOUT_TEXT_MAX_LENGTH characters when present. */
const OPTIONAL_TEXT_FIELDS = [
	'bank_account',
	'bank_branch',
	'account_type',
	'address',
	'city',
	'postal_code',
	'comments',
	'type',
] as const;

function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * Validates a create-cashout body (login/pass already checked). `null` and `''` count as absent.
 * Required: external_id (1-100 chars), country (upper-case code of a supported country), amount
 * (positive decimal, number or string, at most 2 decimals), document_id (<= 30), beneficiary_name
 * (<= 128), notification_url (absolute http(s) URL, <= 2048). Optional: currency (the country's or
 * USD), document_type (one of the country's), beneficiary_id / beneficiary_lastname (<= 128),
 * email, phone (deposit payer patterns), bank_code (JSON integer; membership is checked by the
 * route, code 303), beneficiary_birthdate (yyyyMMdd or yyyy-MM-dd), on_hold (boolean) and the text
 * fields bank_account, bank_branch, account_type, address, city, postal_code, comments, type (<= 255).
 * Unknown fields are ignored.
 */
export function validateCashoutBody(body: Record<string, unknown>): CashoutValidation {
	const problems: string[] = [];
	const value = (key: string): unknown =>
		body[key] === null || body[key] === '' ? undefined : body[key];
	const text = (key: string, max: number, required: boolean): string | undefined => {
		const v = value(key);
		if (v === undefined) {
			if (required) problems.push(`${key} is required`);
			return undefined;
		}
		if (typeof v !== 'string') {
			problems.push(`${key} must be a string`);
			return undefined;
		}
		if (v.length > max) {
			problems.push(`${key} must be at most ${max} characters`);
			return undefined;
		}
		return v;
	};

	const externalId = text('external_id', CASHOUT_EXTERNAL_ID_MAX_LENGTH, true);
	const countryCode = value('country');
	let country: CountryInfo | undefined;
	if (countryCode === undefined) problems.push('country is required');
	else if (
		typeof countryCode !== 'string' ||
		!/^[A-Z]{2}$/.test(countryCode) ||
		!COUNTRIES[countryCode]
	) {
		problems.push(`country must be one of ${Object.keys(COUNTRIES).join(', ')}`);
	} else country = COUNTRIES[countryCode];

	const amountValue = value('amount');
	const amountText = decimalText(amountValue);
	if (amountValue === undefined) problems.push('amount is required');
	else if (amountText === undefined || Number(amountText) <= 0)
		problems.push('amount must be a positive decimal (number or string) with at most 2 decimals');

	const currencyValue = value('currency');
	let currency = country?.currency;
	if (currencyValue !== undefined) {
		if (typeof currencyValue !== 'string' || !/^[A-Z]{3}$/.test(currencyValue))
			problems.push('currency must be a 3-letter ISO 4217 code');
		else if (country && currencyValue !== country.currency && currencyValue !== 'USD')
			problems.push(`currency must be ${country.currency} or USD for ${country.code}`);
		else currency = currencyValue;
	}

	const documentId = text('document_id', CASHOUT_DOCUMENT_ID_MAX_LENGTH, true);
	const documentType = text('document_type', CASHOUT_TEXT_MAX_LENGTH, false);
	if (documentType !== undefined && country && !country.documentTypes.includes(documentType)) {
		problems.push(
			`document_type must be one of ${country.documentTypes.join(', ')} for ${country.code}`,
		);
	}
	const beneficiaryName = text('beneficiary_name', CASHOUT_NAME_MAX_LENGTH, true);
	text('beneficiary_lastname', CASHOUT_NAME_MAX_LENGTH, false);
	text('beneficiary_id', CASHOUT_NAME_MAX_LENGTH, false);
	const notificationUrl = text('notification_url', URL_MAX_LENGTH, true);
	if (notificationUrl !== undefined && !isHttpUrl(notificationUrl))
		problems.push('notification_url must be an absolute http or https URL');

	const email = text('email', PAYER_EMAIL_MAX_LENGTH, false);
	if (email !== undefined && !EMAIL_PATTERN.test(email))
		problems.push('email must be a valid e-mail address');
	const phone = text('phone', CASHOUT_TEXT_MAX_LENGTH, false);
	if (phone !== undefined && !PHONE_PATTERN.test(phone))
		problems.push(
			'phone must be a phone number (digits, spaces, +, -, parentheses; 6-20 characters)',
		);

	const bankCode = value('bank_code');
	if (bankCode !== undefined && !(typeof bankCode === 'number' && Number.isInteger(bankCode)))
		problems.push('bank_code must be a number (see GET /v3/banks)');

	const birthdate = text('beneficiary_birthdate', 10, false);
	if (
		birthdate !== undefined &&
		!isValidYyyyMmDd(birthdate.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$1$2$3'))
	) {
		problems.push('beneficiary_birthdate must be a date written yyyyMMdd or yyyy-MM-dd');
	}
	const onHold = value('on_hold');
	if (onHold !== undefined && typeof onHold !== 'boolean')
		problems.push('on_hold must be a boolean');
	for (const key of OPTIONAL_TEXT_FIELDS) text(key, CASHOUT_TEXT_MAX_LENGTH, false);

	if (
		problems.length > 0 ||
		!country ||
		!currency ||
		amountText === undefined ||
		externalId === undefined
	)
		return { ok: false, problems };
	const amount = Number(amountText);
	const usdExact = currency === 'USD' ? amount : amount / country.fxRate;
	return {
		ok: true,
		creation: {
			externalId,
			country,
			currency,
			amount,
			localAmount: currency === 'USD' ? round2(amount * country.fxRate) : amount,
			usdAmount: round2(usdExact),
			usdExact,
			documentId: documentId ?? '',
			documentType,
			beneficiaryName: beneficiaryName ?? '',
			notificationUrl: notificationUrl ?? '',
			email,
			phone,
			bankCode: typeof bankCode === 'number' ? bankCode : undefined,
			comments: typeof body.comments === 'string' ? body.comments : undefined,
			onHold: onHold === true,
		},
	};
}
