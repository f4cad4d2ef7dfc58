import { SESSION_COOKIE_NAME } from './constants';

/**
 * The session token from a login answer's `Set-Cookie` header(s): the value of the
 * `BEARER_TOKEN` cookie (spec: Authentication, Session token, step 1). Accepts one header string,
 * several cookies in one string, or an array of header values. Undefined when absent or empty.
 */
export function extractSessionToken(setCookie: unknown): string | undefined {
	const values = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
	const pattern = new RegExp(`(?:^|[;,]\\s*)${SESSION_COOKIE_NAME}=([^;,\\s]+)`);
	for (const value of values) {
		const match = pattern.exec(String(value));
		if (match && match[1]) {
			try {
				return decodeURIComponent(match[1]);
			} catch {
				return match[1];
			}
		}
	}
	return undefined;
}

/**
 * Reads the optional merchant ID (MID) of a session credential: empty means the API user's
 * default merchant account.
 * @throws Error when the value is not a positive whole number.
 */
export function parseMerchantId(value: unknown): number | undefined {
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	const text = String(value).trim();
	if (!/^\d+$/.test(text) || Number(text) <= 0) {
		throw new Error(`Merchant ID "${text}" is not a merchant account number; enter digits only (e.g. 1002) or leave it empty`);
	}
	return Number(text);
}

/** Reads a credential's base URL: trimmed, without trailing slashes, http(s) only. */
export function normaliseBaseUrl(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim().replace(/\/+$/, '');
	try {
		const url = new URL(trimmed);
		return url.protocol === 'https:' || url.protocol === 'http:' ? trimmed : undefined;
	} catch {
		return undefined;
	}
}
