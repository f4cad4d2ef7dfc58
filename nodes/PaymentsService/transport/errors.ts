import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { meaningOf, type ApiFamily } from '../helpers/errorCodes';

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
	/** Connection-level failure code (ECONNRESET, ECONNREFUSED, ETIMEDOUT...). */
	networkCode?: string;
}

interface AxiosLikeError {
	code?: string;
	message?: string;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
	cause?: unknown;
	/** Set by the session credential on a refused login (see PaymentsServiceSessionApi). */
	serviceFailure?: { httpStatus?: number; code?: string | number; message?: string };
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
 * Reads a failure from whatever n8n's request helpers threw: a NodeApiError wrapping an axios error,
 * the axios error itself, or a plain error raised while logging in.
 */
export function readFailure(error: unknown): ServiceFailure {
	let current: AxiosLikeError | undefined = error as AxiosLikeError;
	// NodeApiError keeps the original error as `cause`; walk down to the one with an answer.
	for (
		let depth = 0;
		depth < 4 && current && !current.response && !current.serviceFailure && current.cause;
		depth++
	) {
		current = current.cause as AxiosLikeError;
	}
	const failure: ServiceFailure = {};
	if (current?.serviceFailure?.httpStatus) {
		const { httpStatus, code, message } = current.serviceFailure;
		return { httpStatus, code, message: message ?? current.message };
	}
	const response = current?.response;
	if (response?.status) {
		failure.httpStatus = response.status;
		let data = response.data;
		if (typeof data === 'string') {
			const text = data;
			try {
				data = JSON.parse(text);
			} catch {
				failure.message = text.slice(0, 500);
			}
		}
		if (data && typeof data === 'object' && !Array.isArray(data)) {
			const body = data as Record<string, unknown>;
			if (typeof body.code === 'string' || typeof body.code === 'number') failure.code = body.code;
			const text = body.description ?? body.message;
			if (typeof text === 'string') failure.message = text;
			if (typeof body.type === 'string') failure.type = body.type;
			if (Array.isArray(body.details)) failure.details = body.details.map(String);
		}
		const headers = response.headers ?? {};
		const retryAfter = parseRetryAfter(headers['retry-after'] ?? headers['Retry-After']);
		if (retryAfter !== undefined) failure.retryAfterSeconds = retryAfter;
		return failure;
	}
	const network = [current?.code, (error as AxiosLikeError)?.code].find(
		(code) => typeof code === 'string' && /^E[A-Z_]+$/.test(code),
	);
	if (network) failure.networkCode = network;
	const message = (error as AxiosLikeError)?.message;
	if (typeof message === 'string' && message) failure.message = message;
	return failure;
}

/** Where a failure happened and how to explain it; see {@link toNodeApiError}. */
export interface FailureContext {
	family: ApiFamily;
	/** What was being done, e.g. "Put cashout 123 on hold". */
	action: string;
	itemIndex?: number;
	/**
	 * An operation's own explanation for a failure (e.g. 510 on a hold request), written for a
	 * merchant; undefined to use the general one.
	 */
	explain?: (failure: ServiceFailure) => string | undefined;
}

const NETWORK_HINT =
	'No answer came back, so it is unknown whether the service acted on the request. Reads can simply be retried; ' +
	'for cashout changes read the cashout status before retrying; a deposit creation can be retried safely (same idempotency key).';

/**
 * Builds the NodeApiError a user sees for a failed request: message = what failed with the
 * service's code, description = what it means and what to do. Carries the item index, the HTTP
 * status, the service code and, on 429, the wait the service asked for (`context.retryAfterSeconds`).
 * Never includes request headers or bodies.
 */
export function toNodeApiError(node: INode, failure: ServiceFailure, context: FailureContext): NodeApiError {
	const codeText = failure.code !== undefined ? ` (${failure.code})` : '';
	const serviceSays = failure.message ? `: ${failure.message}` : '';
	let message: string;
	let description: string | undefined;
	if (failure.httpStatus === undefined && failure.networkCode === undefined) {
		message = `${context.action} failed${serviceSays}`;
	} else if (failure.httpStatus === undefined) {
		message = `${context.action} failed: the payments service could not be reached (${failure.networkCode})`;
		description = NETWORK_HINT;
	} else if (failure.httpStatus === 429) {
		const wait =
			failure.retryAfterSeconds !== undefined
				? `it asked to wait ${failure.retryAfterSeconds} second${failure.retryAfterSeconds === 1 ? '' : 's'} before the next request`
				: 'it gave no wait time';
		message = `${context.action} was refused: too many requests (429)`;
		description = `The service is rate limiting this merchant; ${wait}. The request was not processed. Enable Retry On Fail with a wait at least that long, or poll less often.`;
	} else {
		const explained = context.explain?.(failure);
		message = explained ?? `${context.action} failed${serviceSays}${codeText || ` (HTTP ${failure.httpStatus})`}`;
		// Logins happen on the reporting API even when a ticket request triggered them.
		const meaning =
			meaningOf(context.family, failure.code) ??
			(context.family === 'tickets' ? meaningOf('reporting', failure.code) : undefined);
		const parts: string[] = [];
		if (explained && failure.message) parts.push(`The service said: ${failure.message}${codeText}.`);
		if (meaning) parts.push(`Meaning: ${meaning}.`);
		if (failure.details?.length) parts.push(`Details: ${failure.details.join('; ')}.`);
		if (failure.httpStatus >= 500) {
			parts.push('The service failed internally (HTTP ' + failure.httpStatus + '); try again later.');
		}
		description = parts.length ? parts.join(' ') : undefined;
	}
	const errorResponse: JsonObject = {
		httpStatus: failure.httpStatus ?? null,
		code: failure.code ?? null,
		message: failure.message ?? null,
	};
	if (failure.type) errorResponse.type = failure.type;
	if (failure.details) errorResponse.details = failure.details;
	if (failure.retryAfterSeconds !== undefined) errorResponse.retryAfterSeconds = failure.retryAfterSeconds;
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: failure.httpStatus !== undefined ? String(failure.httpStatus) : undefined,
		itemIndex: context.itemIndex,
	});
	// Keep our message even where NodeApiError would substitute a generic one for the HTTP code.
	error.message = message;
	if (failure.code !== undefined) error.context.serviceCode = failure.code;
	if (failure.retryAfterSeconds !== undefined) error.context.retryAfterSeconds = failure.retryAfterSeconds;
	return error;
}
