import { NodeOperationError } from 'n8n-workflow';

import { failureOf, readFailure, type ServiceFailure } from '../../transport/errors';

/*
 * What kind of failure ended a poll, in the terms of n8n's durable poll scheduler (n8n PR #36531):
 * an error a poll throws may carry `pollFailure: { failureClass, retryAfterMs?, resetsAt? }`, which
 * the scheduler reads without `instanceof` (and through `cause` chains) to choose its backoff
 * (5 s doubling to 30 min; a credential or configuration failure waits for the user). n8n versions
 * without that scheduler never read the property, so it changes nothing there.
 */

/** n8n's poll failure classes (PR #36531). */
export type PollFailureClass =
	| 'rate-limited'
	| 'quota-exhausted'
	| 'credential-invalid'
	| 'configuration-invalid'
	| 'node-defect'
	| 'temporarily-unavailable';

/** The `pollFailure` property of an error a poll throws. */
export interface PollFailure {
	failureClass: PollFailureClass;
	/** How long the service asked to wait before the next request (a 429's Retry-After), ms. */
	retryAfterMs?: number;
}

/**
 * Reporting codes that mean the session's API user cannot log in or lacks the right (service rules
 * §4): 11 wrong keys or locked user, 26 insufficient privileges, 83 login refused from this
 * location, 96 not an API user.
 */
const CREDENTIAL_CODES: ReadonlySet<string> = new Set(['11', '26', '83', '96']);

/**
 * The class of a failed request (service rules §4, §11): a 429 is `rate-limited` (with the wait the
 * service asked for); a refused login (its codes, or HTTP 401 or 403) `credential-invalid`; a 5xx
 * or no answer (reset, timeout, refused connection) `temporarily-unavailable`; any other answer
 * (a parameter the service refuses: 400, 404, 412) `configuration-invalid`.
 */
export function classifyServiceFailure(failure: ServiceFailure): PollFailure {
	const { httpStatus } = failure;
	if (httpStatus === 429) {
		return failure.retryAfterSeconds === undefined
			? { failureClass: 'rate-limited' }
			: { failureClass: 'rate-limited', retryAfterMs: failure.retryAfterSeconds * 1000 };
	}
	if (httpStatus === undefined || httpStatus >= 500)
		return { failureClass: 'temporarily-unavailable' };
	if (
		httpStatus === 401 ||
		httpStatus === 403 ||
		(failure.code !== undefined && CREDENTIAL_CODES.has(String(failure.code)))
	)
		return { failureClass: 'credential-invalid' };
	return { failureClass: 'configuration-invalid' };
}

/**
 * The {@link PollFailure} of an error a poll throws: a parameter or credential setting the node
 * refused before sending anything (NodeOperationError) is `configuration-invalid`; a failed request
 * is classed by {@link classifyServiceFailure}; anything else (a fault of the node itself) is
 * `node-defect`.
 */
export function pollFailureOf(error: unknown): PollFailure {
	if (error instanceof NodeOperationError) return { failureClass: 'configuration-invalid' };
	const failure = failureOf(error);
	if (failure) return classifyServiceFailure(failure);
	const read = readFailure(error);
	if (read.httpStatus !== undefined || read.networkCode !== undefined || read.session)
		return classifyServiceFailure(read);
	return { failureClass: 'node-defect' };
}

/**
 * `error` with its {@link PollFailure} set as `pollFailure` (kept when it already has one); the
 * same object, so n8n shows the same message.
 */
export function withPollFailure(error: unknown): unknown {
	if (error && typeof error === 'object' && !('pollFailure' in error))
		Object.defineProperty(error, 'pollFailure', {
			value: pollFailureOf(error),
			enumerable: true,
			configurable: true,
			writable: true,
		});
	return error;
}
