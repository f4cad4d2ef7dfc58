import { createHmac } from 'crypto';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { isoSecondsOf } from '../codes/dates';

/**
 * Lower-case hex HMAC-SHA256 of `message` keyed with `secret`, both UTF-8
 * (service rules §2.3, §2.4).
 */
export function hmacSha256Hex(secret: string, message: string): string {
	return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

/**
 * The deposit API's `X-Date`: UTC, `yyyy-MM-dd'T'HH:mm:ss'Z'`, no milliseconds (service rules §2.3).
 */
export function formatXDate(date: Date): string {
	return isoSecondsOf(date);
}

/**
 * The deposit API's `Authorization` value: `scheme` followed by the lower-case hex HMAC-SHA256 of
 * `xDate + xLogin + body` (no separators) keyed with the deposit API signature secret.
 * A request without a body signs `""` as the body (service rules §2.3).
 */
export function depositAuthorization(
	scheme: string,
	secret: string,
	xDate: string,
	xLogin: string,
	body: string,
): string {
	return `${scheme}${hmacSha256Hex(secret, `${xDate}${xLogin}${body}`)}`;
}

/** Returns `headers` without the named headers, compared case-insensitively. */
export function withoutHeaders(headers: IDataObject | undefined, names: string[]): IDataObject {
	const drop = new Set(names.map((name) => name.toLowerCase()));
	const kept: IDataObject = {};
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (!drop.has(key.toLowerCase())) kept[key] = value;
	}
	return kept;
}

/**
 * The body as the exact string that will be sent: objects are serialised once with
 * `JSON.stringify`; a string is kept byte for byte; no body (or an empty object) is `""`.
 */
export function serialiseBody(body: IHttpRequestOptions['body']): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (typeof body === 'object' && Object.keys(body as object).length === 0) return '';
	return JSON.stringify(body);
}

export interface DepositSigningKeys {
	apiKey: string;
	apiSignature: string;
	scheme: string;
}

/**
 * Signs a deposit API request (POST /v3/deposits, GET /v3/deposits/{id}): serialises the body once,
 * then sets `X-Date` (from `now`), `X-Login` and `Authorization` over those exact bytes.
 * Idempotent: applied to already-signed options it replaces the three headers and re-signs the
 * same body with the new date; it never wraps twice. Returns new options; the input is not changed.
 */
export function signDepositRequest(
	options: IHttpRequestOptions,
	keys: DepositSigningKeys,
	now: Date,
): IHttpRequestOptions {
	const body = serialiseBody(options.body);
	const xDate = formatXDate(now);
	const headers: IDataObject = {
		...withoutHeaders(options.headers, ['x-date', 'x-login', 'authorization']),
		'X-Date': xDate,
		'X-Login': keys.apiKey,
		Authorization: depositAuthorization(keys.scheme, keys.apiSignature, xDate, keys.apiKey, body),
	};
	if (body !== '' && !Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
		headers['Content-Type'] = 'application/json';
	}
	const signed: IHttpRequestOptions = { ...options, headers };
	if (body === '') delete signed.body;
	else signed.body = body;
	return signed;
}

export interface CashoutSigningKeys {
	login: string;
	pass: string;
	apiSignature: string;
}

/**
 * Signs a cashout API request (all /v3/cashout/* calls): puts `login` and `pass` first in the JSON
 * body, serialises it once and sets `Payload-Signature` to the lower-case hex HMAC-SHA256 of those
 * exact bytes (service rules §2.3). Idempotent: a body that is already a signed string is parsed,
 * its login/pass replaced, and re-signed. Returns new options; the input is not changed.
 *
 * @throws SyntaxError when the body is a string that is not a JSON object.
 */
export function signCashoutRequest(
	options: IHttpRequestOptions,
	keys: CashoutSigningKeys,
): IHttpRequestOptions {
	let fields: IDataObject;
	if (typeof options.body === 'string') {
		const parsed: unknown = options.body === '' ? {} : JSON.parse(options.body);
		if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
			throw new SyntaxError('The cashout request body must be a JSON object');
		}
		fields = parsed as IDataObject;
	} else {
		fields = { ...((options.body as IDataObject | undefined) ?? {}) };
	}
	const rest: IDataObject = { ...fields };
	delete rest.login;
	delete rest.pass;
	const body = JSON.stringify({ login: keys.login, pass: keys.pass, ...rest });
	return {
		...options,
		body,
		headers: {
			...withoutHeaders(options.headers, ['payload-signature', 'content-type']),
			'Content-Type': 'application/json',
			'Payload-Signature': hmacSha256Hex(keys.apiSignature, body),
		},
	};
}
