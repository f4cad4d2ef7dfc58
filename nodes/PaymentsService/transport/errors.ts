import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';

import { meaningOf, type ApiFamily } from '../codes/errorCodes';
import { findSessionFailure } from '../auth/session';

/**
 * What went wrong with one request, read from the service's answer or the connection, with
 * nothing of the request itself (no headers, no body: they hold secrets).
 */
export interface ServiceFailure {
	/** HTTP status, when an answer arrived. */
	httpStatus?: number;
	/** The service's own code: a number on most APIs, a string on the ticket API. */
	code?: string | number;
	/** The service's message (`description` or `message` in its body). */
	message?: string;
	/** The service's `type` (e.g. EXCEEDED_DATE_PERIOD). */
	type?: string;
	/** Field problems sent with a deposit validation failure. */
	details?: string[];
	/** Seconds the service asked to wait (Retry-After on 429/503). */
	retryAfterSeconds?: number;
	/** Where a redirect answer (3xx) pointed (`Location`); changes never follow one. */
	redirectTo?: string;
	/** Connection-level failure code (ECONNRESET, ECONNREFUSED, ETIMEDOUT...). */
	networkCode?: string;
	/** Set when the failure happened while opening the session (login or merchant switch). */
	session?: SessionFailureInfo;
	/** Attempts made, when the request was retried (service rules §11). */
	attempts?: number;
	/**
	 * True when an earlier attempt of the same request was sent again after a 503 or a lost answer:
	 * that attempt may have been acted on, so a repeat answer (104, 511) to the resend may name this
	 * request's own record (service rules §11).
	 */
	earlierAttemptMayHaveActed?: boolean;
	/** What kind of failure it is ({@link classifyFailure}); set when the error is built. */
	kind?: FailureKind;
}

/** The failure of a session's login or merchant switch, with the message written for the user. */
export interface SessionFailureInfo {
	step: 'login' | 'switchContext';
	/** The credential's own explanation, e.g. "Switching the session to merchant ID 9999 failed …". */
	message: string;
}

interface AxiosLikeError {
	code?: string;
	message?: string;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
	cause?: unknown;
}

function parseRetryAfter(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^\d+$/.test(text)) return Number(text);
	const at = Date.parse(text);
	if (Number.isNaN(at)) return undefined;
	return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * Reads an answer that is not a success: HTTP status, the service's code, text, type and details
 * from its body (JSON, or text), and `Retry-After` (seconds or an HTTP date) from its headers.
 * Each API family names its fields differently (service rules §4); all are read.
 */
export function readAnswer(
	status: number,
	headers: Record<string, unknown> | undefined,
	body: unknown,
): ServiceFailure {
	const failure: ServiceFailure = { httpStatus: status };
	let data = body;
	if (Buffer.isBuffer(data)) data = data.toString('utf8');
	if (typeof data === 'string') {
		const text = data;
		try {
			data = JSON.parse(text);
		} catch {
			if (text.trim() !== '') failure.message = text.slice(0, 500);
		}
	}
	if (data && typeof data === 'object' && !Array.isArray(data)) {
		const fields = data as Record<string, unknown>;
		if (typeof fields.code === 'string' || typeof fields.code === 'number')
			failure.code = fields.code;
		const text = fields.description ?? fields.message;
		if (typeof text === 'string') failure.message = text;
		if (typeof fields.type === 'string') failure.type = fields.type;
		if (Array.isArray(fields.details)) failure.details = fields.details.map(String);
	}
	const lowerCased: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(headers ?? {})) lowerCased[name.toLowerCase()] = value;
	const retryAfter = parseRetryAfter(lowerCased['retry-after']);
	if (retryAfter !== undefined) failure.retryAfterSeconds = retryAfter;
	if (status >= 300 && status < 400 && typeof lowerCased.location === 'string')
		failure.redirectTo = lowerCased.location;
	return failure;
}

/**
 * Reads a failure from whatever n8n's request helpers threw: a NodeApiError wrapping an axios error
 * (n8n 2.x keeps it as `cause`; n8n 1.x keeps only its code, as `httpCode`), the axios error itself, or the session credential's login error (then `session` carries the
 * credential's own message, and the status and code are the login's).
 */
export function readFailure(error: unknown): ServiceFailure {
	const session = findSessionFailure(error);
	if (session) {
		return {
			httpStatus: session.httpStatus,
			code: session.code,
			message: session.serviceMessage,
			networkCode: session.networkCode,
			session: { step: session.step, message: session.message },
		};
	}
	let current: AxiosLikeError | undefined = error as AxiosLikeError;
	// NodeApiError keeps the original error as `cause`; walk down to the one with an answer.
	for (let depth = 0; depth < 4 && current && !current.response && current.cause; depth++) {
		current = current.cause as AxiosLikeError;
	}
	const response = current?.response;
	if (response?.status) return readAnswer(response.status, response.headers, response.data);
	const failure: ServiceFailure = {};
	// n8n 1.x's NodeApiError loses its cause (a class field declared after super() resets it) and
	// keeps only the code it found on the axios error, in httpCode ('ECONNRESET' for a lost answer).
	const wrappedCode = (error as { httpCode?: unknown } | undefined)?.httpCode;
	const network = [current?.code, (error as AxiosLikeError)?.code, wrappedCode].find(
		(code): code is string => typeof code === 'string' && /^E[A-Z_]+$/.test(code),
	);
	if (network) failure.networkCode = network;
	const message = (error as AxiosLikeError)?.message;
	if (typeof message === 'string' && message) failure.message = message;
	return failure;
}

/** Where a failure happened and how to explain it; see {@link toNodeApiError}. */
export interface FailureContext {
	/** What was being done, e.g. "Putting cashout 123 on hold". */
	action: string;
	itemIndex?: number;
	/**
	 * An operation's own explanation for a failure (e.g. 510 on a hold request), written for a
	 * merchant; undefined to use the general one.
	 */
	explain?: (failure: ServiceFailure) => string | undefined;
	/**
	 * For a request that changes something: what to tell the user when its outcome is unknown (no
	 * answer came back, or the service answered 5xx), e.g. the creation's key and how to retry it
	 * safely. It replaces the general network hint and leads the description of a 5xx.
	 */
	unknownOutcome?: (failure: ServiceFailure) => string;
}

const NETWORK_HINT =
	'No answer came back, so it is unknown whether the service acted on the request. Reads can simply be retried; ' +
	'a hold, release or cancel can be retried too (a repeat that finds the cashout already changed reports it); ' +
	'deposit, refund and cashout creation say how to retry them safely.';

function retriedText(failure: ServiceFailure): string {
	return failure.attempts && failure.attempts > 1 ? ` Tried ${failure.attempts} times.` : '';
}

/**
 * Builds the NodeApiError a user sees for a failed request: message = what failed with the
 * service's code, description = what it means and what to do. A failure while opening the
 * session shows the credential's own message (login or merchant switch), with what was being done
 * in the description. Carries the item index, the HTTP status, the service code (`context.serviceCode`)
 * and, on 429, the wait the service asked for (`context.retryAfterSeconds`).
 * Never includes request headers or bodies (they hold secrets).
 *
 * @param family the API the request went to: it decides what the service's code means (service rules §4).
 */
export function toNodeApiError(
	node: INode,
	failure: ServiceFailure,
	family: ApiFamily,
	context: FailureContext,
): NodeApiError {
	failure = { ...failure, kind: classifyFailure(failure, family) };
	const { message, description } = describeFailure(failure, family, context);
	const errorResponse: JsonObject = {
		httpStatus: failure.httpStatus ?? null,
		code: failure.code ?? null,
		message: failure.message ?? null,
	};
	if (failure.type) errorResponse.type = failure.type;
	if (failure.details) errorResponse.details = failure.details;
	if (failure.retryAfterSeconds !== undefined)
		errorResponse.retryAfterSeconds = failure.retryAfterSeconds;
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: failure.httpStatus !== undefined ? String(failure.httpStatus) : undefined,
		itemIndex: context.itemIndex,
	});
	// Keep our message even where NodeApiError would substitute a generic one for the HTTP code.
	error.message = message;
	if (failure.code !== undefined) error.context.serviceCode = failure.code;
	if (failure.retryAfterSeconds !== undefined)
		error.context.retryAfterSeconds = failure.retryAfterSeconds;
	if (failure.session) error.context.sessionStep = failure.session.step;
	// The failure as read, so a caller can decide on it (and build another error from it) by type.
	error.context.failure = { ...failure, session: undefined } as unknown as IDataObject;
	return error;
}

/** The message and description of a failure, by what failed: the session, the network, a 429, an answer. */
function describeFailure(
	failure: ServiceFailure,
	family: ApiFamily,
	context: FailureContext,
): { message: string; description?: string } {
	const serviceSays = failure.message ? `: ${failure.message}` : '';
	if (failure.session) {
		// Logins and merchant switches answer in the reporting API's code space (service rules §4).
		const meaning = meaningOf('reporting', failure.code);
		return {
			message: failure.session.message,
			description:
				`This happened while opening the session for: ${context.action}.` +
				(meaning ? ` Meaning of code ${failure.code}: ${meaning}.` : '') +
				retriedText(failure),
		};
	}
	if (failure.httpStatus === undefined && failure.networkCode === undefined)
		return { message: `${context.action} failed${serviceSays}` };
	if (failure.httpStatus === undefined) {
		return {
			message: `${context.action} failed: the payments service could not be reached (${failure.networkCode})`,
			description: (context.unknownOutcome?.(failure) ?? NETWORK_HINT) + retriedText(failure),
		};
	}
	if (failure.httpStatus === 429) {
		const wait =
			failure.retryAfterSeconds !== undefined
				? `it asked to wait ${failure.retryAfterSeconds} second${failure.retryAfterSeconds === 1 ? '' : 's'} before the next request`
				: 'it gave no wait time';
		return {
			message: `${context.action} was refused: too many requests (429)`,
			description: `The service is rate limiting this merchant; ${wait}. The request was not processed.${retriedText(failure)} Enable Retry On Fail with a wait at least that long, or poll less often.`,
		};
	}
	return describeAnswer(failure, family, context, failure.httpStatus);
}

/** The message and description of an HTTP answer other than 429: the refusal explained, its meaning, its details. */
function describeAnswer(
	failure: ServiceFailure,
	family: ApiFamily,
	context: FailureContext,
	httpStatus: number,
): { message: string; description?: string } {
	const codeText = failure.code !== undefined ? ` (${failure.code})` : '';
	const serviceSays = failure.message ? `: ${failure.message}` : '';
	const explained = context.explain?.(failure);
	const message =
		explained ?? `${context.action} failed${serviceSays}${codeText || ` (HTTP ${httpStatus})`}`;
	// A session expiring during a ticket call is answered in the reporting code space.
	const meaning =
		meaningOf(family, failure.code) ??
		(family === 'tickets' ? meaningOf('reporting', failure.code) : undefined);
	const parts: string[] = [];
	if (httpStatus >= 300 && httpStatus < 400)
		parts.push(
			`The service answered with a redirect${failure.redirectTo ? ` to ${failure.redirectTo}` : ''} instead of acting on the request. A request that changes something is never sent on to another address, so nothing was sent there. If the service moved (for example from http:// to https://), set the credential's Base URL to the new address.`,
		);
	if (httpStatus >= 500 && context.unknownOutcome) parts.push(context.unknownOutcome(failure));
	if (explained && failure.message) parts.push(`The service said: ${failure.message}${codeText}.`);
	if (meaning) parts.push(`Meaning: ${meaning}.`);
	if (failure.details?.length) parts.push(`Details: ${failure.details.join('; ')}.`);
	if (httpStatus >= 500 && !context.unknownOutcome)
		parts.push(`The service failed internally (HTTP ${httpStatus}); try again later.`);
	const retried = retriedText(failure).trim();
	if (retried) parts.push(retried);
	return { message, description: parts.length ? parts.join(' ') : undefined };
}

/**
 * The {@link ServiceFailure} a NodeApiError of {@link toNodeApiError} was built from, or undefined
 * for any other error.
 */
export function failureOf(error: unknown): ServiceFailure | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const failure = error.context.failure;
	return failure && typeof failure === 'object' ? (failure as ServiceFailure) : undefined;
}

/**
 * What kind of failure an answer is, whatever the API family (service rules §4): the one place
 * answers are classified, so operations decide on a kind, never on a message's text.
 * - `unreachable`: no answer came back (the outcome of a change is unknown);
 * - `rateLimited`: 429; `serverError`: 5xx (the outcome of a change is unknown);
 * - `keyAlreadyUsed`: a creation's key was used before (104 payments, 511 cashouts): nothing new made;
 * - `invalidTransition`: a cashout change refused from the current status (510);
 * - `notFound`: 404, 208 (payments), 509 (cashouts), `NOT_FOUND` (tickets);
 * - `kycRejected`: a cashout refused by the beneficiary's KYC check (the service sends no code, only
 *   `USER_REJECTED_KYC_CHECK` in its message);
 * - `refused`: any other answer.
 */
export type FailureKind =
	| 'unreachable'
	| 'rateLimited'
	| 'serverError'
	| 'keyAlreadyUsed'
	| 'invalidTransition'
	| 'notFound'
	| 'kycRejected'
	| 'refused';

const KIND_BY_CODE: Readonly<Record<ApiFamily, Readonly<Record<string, FailureKind>>>> = {
	reporting: {},
	tickets: { NOT_FOUND: 'notFound' },
	payments: { '104': 'keyAlreadyUsed', '208': 'notFound' },
	cashout: { '511': 'keyAlreadyUsed', '510': 'invalidTransition', '509': 'notFound' },
};

/** The {@link FailureKind} of `failure`, an answer of `family`. */
export function classifyFailure(failure: ServiceFailure, family: ApiFamily): FailureKind {
	if (failure.httpStatus === undefined) return 'unreachable';
	if (failure.httpStatus === 429) return 'rateLimited';
	if (failure.httpStatus >= 500) return 'serverError';
	const byCode =
		failure.code !== undefined ? KIND_BY_CODE[family][String(failure.code)] : undefined;
	if (byCode) return byCode;
	if (family === 'cashout' && /\bUSER_REJECTED_KYC_CHECK\b/.test(failure.message ?? ''))
		return 'kycRejected';
	if (failure.httpStatus === 404) return 'notFound';
	return 'refused';
}

/**
 * Whether `failure` — a NodeApiError built by {@link toNodeApiError}, or a {@link ServiceFailure} as
 * the `explain` callbacks receive it — is of one of `kinds`.
 */
export function isFailureKind(failure: unknown, ...kinds: FailureKind[]): boolean {
	const read =
		failure instanceof NodeApiError
			? failureOf(failure)
			: failure && typeof failure === 'object' && !(failure instanceof Error)
				? (failure as ServiceFailure)
				: undefined;
	return read?.kind !== undefined && kinds.includes(read.kind);
}

/**
 * Whether a failure carries one of the service's `codes` (compared as text, so 104 and "104" match;
 * service rules §4): a NodeApiError built by {@link toNodeApiError}, or a {@link ServiceFailure} as
 * the `explain` callbacks receive it. The one place service codes are compared.
 */
export function isServiceCode(failure: unknown, ...codes: Array<string | number>): boolean {
	let code: unknown;
	if (failure instanceof NodeApiError) code = failure.context.serviceCode;
	else if (failure && typeof failure === 'object' && !(failure instanceof Error))
		code = (failure as ServiceFailure).code;
	if (code === undefined || code === null) return false;
	return codes.some((wanted) => String(wanted) === String(code));
}
