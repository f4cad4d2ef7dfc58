import { SESSION_COOKIE_NAME } from '../codes/service';
import { positiveId } from '../codes/ids';

/**
 * The session token from a login answer's `Set-Cookie` header(s): the value of the
 * `BEARER_TOKEN` cookie (service rules §2.1). Accepts one header string,
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
	const id = positiveId(text);
	if (id === undefined) {
		throw new Error(
			`Merchant ID "${text}" is not a merchant account number; enter digits only (e.g. 1002) or leave it empty`,
		);
	}
	return id;
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

/** The two steps of opening a session (service rules §2.1). */
export type SessionStep = 'login' | 'switchContext';

/** What the service answered when opening a session failed. */
export interface SessionFailure {
	step: SessionStep;
	/** HTTP status, when an answer arrived. */
	httpStatus?: number;
	/** The service's code (e.g. 26 for a merchant the user does not belong to). */
	code?: string | number;
	/** The service's own text. */
	serviceMessage?: string;
	/** Connection-level code when no answer arrived (ECONNRESET…). */
	networkCode?: string;
}

/**
 * A login or merchant switch that failed, thrown by the session credential's `preAuthentication`.
 * Its message is the full explanation for the user ("Switching the session to merchant ID 9999
 * failed (HTTP 403, code 26): … fix or clear the Merchant ID of the credential.").
 *
 * It deliberately has no axios `response`: n8n would read a 401 there as an expired token and log
 * in a second time with the same wrong keys. n8n wraps it (in a NodeApiError, as `cause`); the
 * node's transport finds it again with {@link findSessionFailure} and shows this message.
 */
export class SessionLoginError extends Error {
	constructor(
		message: string,
		readonly sessionFailure: SessionFailure,
	) {
		super(message);
		this.name = 'SessionLoginError';
	}
}

/**
 * The session failure carried by `error` or by one of its causes (n8n wraps what
 * `preAuthentication` throws), with its message; undefined when the error is of another kind.
 * Compared by shape, not class, so two loaded copies of this module still recognise each other.
 */
export function findSessionFailure(
	error: unknown,
): (SessionFailure & { message: string }) | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const candidate = current as {
			sessionFailure?: SessionFailure;
			message?: unknown;
			cause?: unknown;
		};
		if (candidate.sessionFailure && typeof candidate.sessionFailure.step === 'string') {
			return { ...candidate.sessionFailure, message: String(candidate.message ?? '') };
		}
		current = candidate.cause;
	}
	return undefined;
}
