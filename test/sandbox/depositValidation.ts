/**
 * Field validation of POST /v3/deposits (service rules §5.1: body fields, payer, payer.address,
 * reported_info and their limits). Each problem becomes one `details` entry `'<path>: <message>'`.
 */
import { isIP } from 'node:net';
import {
	ADDRESS_CITY_MAX_LENGTH,
	ADDRESS_STATE_MAX_LENGTH,
	ADDRESS_STREET_MAX_LENGTH,
	AMOUNT_MAX_DECIMALS,
	AMOUNT_MAX_INTEGER_DIGITS,
	DEPOSIT_LANGUAGES,
	DESCRIPTION_MAX_LENGTH,
	DEVICE_ID_MAX_LENGTH,
	EXPIRATION_MAX_DIGITS,
	INVOICE_ID_MAX_LENGTH,
	MERCHANT_EXTERNAL_REFERENCE_MAX_LENGTH,
	PAYER_DATE_LENGTH,
	PAYER_DOCUMENT_MAX_LENGTH,
	PAYER_DOCUMENT_TYPE_MAX_LENGTH,
	PAYER_EMAIL_MAX_LENGTH,
	PAYER_ID_MAX_LENGTH,
	PAYER_NAME_MAX_LENGTH,
	REPORTED_INFO_BENEFICIARY_MAX_LENGTH,
	REPORTED_INFO_SHORT_MAX_LENGTH,
	URL_MAX_LENGTH,
} from './constants';
import { isPlainObject } from './http';
import { COUNTRIES, findMethod } from './reference';

/** Sandbox choice (format "not shown"): payer.phone = optional '+', then 6-20 digits, spaces, '(', ')' or '-'. */
export const PHONE_PATTERN = /^\+?[0-9 ()-]{6,20}$/;
/** Sandbox choice (format "not shown"): payer.address.zip_code = 3-10 letters, digits, spaces or '-'. */
export const ZIP_CODE_PATTERN = /^[A-Za-z0-9 -]{3,10}$/;
/** Service rules §5.1: address.state is an ISO 3166-2 subdivision code of at most 3 characters. */
export const STATE_PATTERN = new RegExp(`^[A-Za-z0-9]{1,${ADDRESS_STATE_MAX_LENGTH}}$`);
/** Service rules §5.1: invoice_id pattern. */
export const INVOICE_ID_PATTERN = /^[A-Za-z0-9\-_]*$/;
/** Service rules §5.1: payer.id pattern. */
export const PAYER_ID_PATTERN = /^[A-Za-z0-9]*$/;
/** Pragmatic e-mail check. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Service rules §5.1: decimal with up to 18 integer digits and 2 decimals. */
export const DECIMAL_PATTERN = new RegExp(
	`^\\d{1,${AMOUNT_MAX_INTEGER_DIGITS}}(\\.\\d{1,${AMOUNT_MAX_DECIMALS}})?$`,
);

/** Result of {@link validateDepositBody}. */
export interface DepositValidation {
	details: string[];
	/** The body with the values dropped under request_payer_data_on_validation_failure. */
	effective: Record<string, unknown>;
}

/** Decimal as a string when `value` is a JSON string or number in the allowed format, else undefined. */
export function decimalText(value: unknown): string | undefined {
	const text =
		typeof value === 'number'
			? Number.isFinite(value)
				? String(value)
				: ''
			: typeof value === 'string'
				? value
				: '';
	return DECIMAL_PATTERN.test(text) ? text : undefined;
}

/** Whether `text` is a real calendar date written yyyyMMdd. */
export function isValidYyyyMmDd(text: string): boolean {
	if (!/^\d{8}$/.test(text)) return false;
	const y = Number(text.slice(0, 4));
	const m = Number(text.slice(4, 6));
	const d = Number(text.slice(6, 8));
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isHttpsUrl(text: string): boolean {
	try {
		return new URL(text).protocol === 'https:';
	} catch {
		return false;
	}
}

class Checker {
	readonly details: string[] = [];

	constructor(
		private readonly obj: Record<string, unknown>,
		private readonly prefix: string,
	) {}

	private path(key: string): string {
		return this.prefix + key;
	}

	/** Value of `key`; null counts as absent. */
	value(key: string): unknown {
		const v = this.obj[key];
		return v === null ? undefined : v;
	}

	fail(key: string, message: string): void {
		this.details.push(`${this.path(key)}: ${message}`);
	}

	string(key: string, max: number, pattern?: RegExp, patternMessage?: string): string | undefined {
		const v = this.value(key);
		if (v === undefined) return undefined;
		if (typeof v !== 'string') {
			this.fail(key, 'must be a string');
			return undefined;
		}
		if (v.length > max) {
			this.fail(key, `must be at most ${max} characters`);
			return undefined;
		}
		if (pattern && !pattern.test(v)) {
			this.fail(key, patternMessage ?? `must match ${pattern.source}`);
			return undefined;
		}
		return v;
	}

	boolean(key: string): void {
		const v = this.value(key);
		if (v !== undefined && typeof v !== 'boolean') this.fail(key, 'must be a boolean');
	}

	decimal(key: string, required: boolean, positive: boolean): void {
		const v = this.value(key);
		if (v === undefined) {
			if (required) this.fail(key, 'is required');
			return;
		}
		const text = decimalText(v);
		if (text === undefined) {
			this.fail(
				key,
				`must be a decimal (string or number) with at most ${AMOUNT_MAX_INTEGER_DIGITS} integer digits and ${AMOUNT_MAX_DECIMALS} decimals`,
			);
			return;
		}
		if (positive && Number(text) <= 0) this.fail(key, 'must be greater than 0');
	}

	url(key: string): void {
		const v = this.string(key, URL_MAX_LENGTH);
		if (v !== undefined && !isHttpsUrl(v)) this.fail(key, 'must be a valid HTTPS URL');
	}

	object(key: string): Record<string, unknown> | undefined {
		const v = this.value(key);
		if (v === undefined) return undefined;
		if (!isPlainObject(v)) {
			this.fail(key, 'must be an object');
			return undefined;
		}
		return v;
	}
}

/**
 * Validates a create-deposit body. amount, country and currency are required; currency must be the
 * country's currency or USD; payment_method (when sent) must exist in the country; expiration is an
 * integer of at most 5 digits, >= 1 and not above the method's default.
 */
export function validateDepositBody(body: Record<string, unknown>): DepositValidation {
	const effective: Record<string, unknown> = structuredClone(body);
	const top = new Checker(effective, '');
	const lenient = effective.request_payer_data_on_validation_failure === true;

	top.string(
		'invoice_id',
		INVOICE_ID_MAX_LENGTH,
		INVOICE_ID_PATTERN,
		'may only contain letters, digits, - and _',
	);
	top.decimal('amount', true, true);
	const countryCode = top.value('country');
	let country = undefined as (typeof COUNTRIES)[string] | undefined;
	if (countryCode === undefined) top.fail('country', 'is required');
	else if (typeof countryCode !== 'string' || !COUNTRIES[countryCode])
		top.fail('country', `must be one of ${Object.keys(COUNTRIES).join(', ')}`);
	else country = COUNTRIES[countryCode];
	const currency = top.value('currency');
	if (currency === undefined) top.fail('currency', 'is required');
	else if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
		top.fail('currency', 'must be a 3-letter ISO 4217 code');
	else if (country && currency !== country.currency && currency !== 'USD')
		top.fail('currency', `must be ${country.currency} or USD for ${country.code}`);
	const methodCode = top.string('payment_method', 3);
	const method =
		country && methodCode !== undefined ? findMethod(country.code, methodCode) : undefined;
	if (country && methodCode !== undefined && !method) {
		top.fail(
			'payment_method',
			`is not available in ${country.code} (${country.methods.map((m) => m.code).join(', ')})`,
		);
	}
	top.string('merchant_external_reference', MERCHANT_EXTERNAL_REFERENCE_MAX_LENGTH);
	top.boolean('request_payer_data_on_validation_failure');
	top.string('payment_type', 64);
	const types = top.value('payment_types');
	if (types !== undefined && (!Array.isArray(types) || !types.every((t) => typeof t === 'string')))
		top.fail('payment_types', 'must be an array of strings');
	const sub = top.value('sub_merchant_id');
	if (sub !== undefined && !Number.isInteger(sub))
		top.fail('sub_merchant_id', 'must be an integer');
	for (const key of [
		'fee_on_payer',
		'surcharge_on_payer',
		'bonus_relative',
		'test',
		'mobile',
		'early_release',
	])
		top.boolean(key);
	top.decimal('bonus_amount', false, false);
	top.decimal('strikethrough_price', false, false);
	top.string('description', DESCRIPTION_MAX_LENGTH);
	const ip = top.string('client_ip', 45);
	if (ip !== undefined && isIP(ip) === 0)
		top.fail('client_ip', 'must be a valid IPv4 or IPv6 address');
	top.string('device_id', DEVICE_ID_MAX_LENGTH);
	const language = top.value('language');
	if (
		language !== undefined &&
		(typeof language !== 'string' || !DEPOSIT_LANGUAGES.includes(language))
	) {
		top.fail('language', `must be one of ${DEPOSIT_LANGUAGES.join(', ')}`);
	}
	for (const key of ['back_url', 'success_url', 'error_url', 'notification_url', 'logo'])
		top.url(key);
	const expiration = top.value('expiration');
	if (expiration !== undefined) {
		const text =
			typeof expiration === 'number'
				? String(expiration)
				: typeof expiration === 'string'
					? expiration
					: '';
		if (!new RegExp(`^\\d{1,${EXPIRATION_MAX_DIGITS}}$`).test(text) || Number(text) < 1) {
			top.fail(
				'expiration',
				`must be an integer number of minutes of at most ${EXPIRATION_MAX_DIGITS} digits`,
			);
		} else if (method && Number(text) > method.defaultExpirationMinutes) {
			top.fail(
				'expiration',
				`must not exceed the default of ${method.name} (${method.defaultExpirationMinutes} minutes)`,
			);
		}
	}

	const reported = top.object('reported_info');
	const details = [...top.details];
	if (reported) {
		const r = new Checker(reported, 'reported_info.');
		r.string('bank_account_number', REPORTED_INFO_SHORT_MAX_LENGTH);
		r.string('bank_branch', REPORTED_INFO_SHORT_MAX_LENGTH);
		r.string('bank_beneficiary', REPORTED_INFO_BENEFICIARY_MAX_LENGTH);
		details.push(...r.details);
	}
	const bankAccount = top.value('bank_account');
	if (bankAccount !== undefined && !isPlainObject(bankAccount))
		details.push('bank_account: must be an object');

	const payerValue = top.value('payer');
	if (payerValue !== undefined && !isPlainObject(payerValue))
		details.push('payer: must be an object');
	if (isPlainObject(payerValue)) {
		const p = new Checker(payerValue, 'payer.');
		p.string('id', PAYER_ID_MAX_LENGTH, PAYER_ID_PATTERN, 'may only contain letters and digits');
		p.string('document', PAYER_DOCUMENT_MAX_LENGTH);
		const docType = p.string('document_type', PAYER_DOCUMENT_TYPE_MAX_LENGTH);
		if (docType !== undefined && country && !country.documentTypes.includes(docType)) {
			p.fail(
				'document_type',
				`must be a valid document type for ${country.code} (${country.documentTypes.join(', ')})`,
			);
		}
		p.string('email', PAYER_EMAIL_MAX_LENGTH, EMAIL_PATTERN, 'must be a valid e-mail');
		p.string('first_name', PAYER_NAME_MAX_LENGTH);
		p.string('last_name', PAYER_NAME_MAX_LENGTH);
		for (const key of ['birth_date', 'registration_date']) {
			const v = p.string(key, PAYER_DATE_LENGTH);
			if (v !== undefined && !isValidYyyyMmDd(v))
				p.fail(key, 'must be a date of the form yyyyMMdd');
		}
		const phone = p.value('phone');
		if (phone !== undefined && (typeof phone !== 'string' || !PHONE_PATTERN.test(phone))) {
			if (lenient) delete payerValue.phone;
			else
				p.fail(
					'phone',
					'must be a phone number (digits, spaces, +, -, parentheses; 6-20 characters)',
				);
		}
		const address = p.object('address');
		details.push(...p.details);
		if (address) {
			const a = new Checker(address, 'payer.address.');
			a.string('street', ADDRESS_STREET_MAX_LENGTH);
			a.string('city', ADDRESS_CITY_MAX_LENGTH);
			const state = a.value('state');
			if (state !== undefined && (typeof state !== 'string' || !STATE_PATTERN.test(state))) {
				if (lenient) delete address.state;
				else
					a.fail(
						'state',
						`must be an ISO 3166-2 state code of at most ${ADDRESS_STATE_MAX_LENGTH} characters`,
					);
			}
			const zip = a.value('zip_code');
			if (zip !== undefined && (typeof zip !== 'string' || !ZIP_CODE_PATTERN.test(zip))) {
				if (lenient) delete address.zip_code;
				else a.fail('zip_code', 'must be 3-10 letters, digits, spaces or -');
			}
			details.push(...a.details);
		}
	}
	return { details, effective };
}

/** Whether the dotted `path` holds a non-empty string or a number in `body`. */
export function hasValue(body: Record<string, unknown>, path: string): boolean {
	let current: unknown = body;
	for (const key of path.split('.')) {
		if (!isPlainObject(current)) return false;
		current = current[key];
	}
	return (typeof current === 'string' && current.trim() !== '') || typeof current === 'number';
}
