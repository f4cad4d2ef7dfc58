import { NodeOperationError } from 'n8n-workflow';
import type { Failure } from 'n8n-workflow';

import { failureOf, readFailure, type ServiceFailure } from '../../transport/errors';

/*
 * Why a poll failed, declared the way n8n's durable poll scheduler reads it (n8n 2.41 and later:
 * packages/cli/src/workflows/triggers/poll-backoff-policy.ts): the error's `failure`,
 * `{cause, retryAfterMs?}`, found without `instanceof` along the error's `cause` chain. A timed
 * cause (rate-limited, temporarily-unavailable) backs off 5 s doubling to 30 min, at least the wait
 * asked for; an actionable one (credential-invalid, configuration-invalid, node-defect) waits for the
 * user. Versions without that scheduler never read the property.
 */

/**
 * Reporting codes that mean the session's API user cannot log in or lacks the right (service rules
 * §4): 11 wrong keys or locked user, 26 insufficient privileges, 83 login refused from this
 * location, 96 not an API user.
 */
const CREDENTIAL_CODES: ReadonlySet<string> = new Set(['11', '26', '83', '96']);

/**
 * The cause of a failed request (service rules §4, §11): a 429 is `rate-limited` (with the wait the
 * service asked for, in ms); a refused login (its codes, or HTTP 401 or 403) `credential-invalid`;
 * a 5xx or no answer (reset, timeout, refused connection) `temporarily-unavailable`; any other
 * answer (a parameter the service refuses: 400, 404, 412) `configuration-invalid`.
 */
export function failureOfRequest(failure: ServiceFailure): Failure {
	const { httpStatus } = failure;
	if (httpStatus === 429) {
		return failure.retryAfterSeconds === undefined
			? { cause: 'rate-limited' }
			: { cause: 'rate-limited', retryAfterMs: failure.retryAfterSeconds * 1000 };
	}
	if (httpStatus === undefined || httpStatus >= 500) return { cause: 'temporarily-unavailable' };
	if (
		httpStatus === 401 ||
		httpStatus === 403 ||
		(failure.code !== undefined && CREDENTIAL_CODES.has(String(failure.code)))
	)
		return { cause: 'credential-invalid' };
	return { cause: 'configuration-invalid' };
}

/**
 * The {@link Failure} of an error a poll throws: a parameter or credential setting the node refused
 * before sending anything (NodeOperationError) is `configuration-invalid`; a failed request is
 * classed by {@link failureOfRequest}; anything else (a fault of the node itself) is `node-defect`.
 */
export function failureOfPoll(error: unknown): Failure {
	if (error instanceof NodeOperationError) return { cause: 'configuration-invalid' };
	const failure = failureOf(error);
	if (failure) return failureOfRequest(failure);
	const read = readFailure(error);
	if (read.httpStatus !== undefined || read.networkCode !== undefined || read.session)
		return failureOfRequest(read);
	return { cause: 'node-defect' };
}

/**
 * `error` with its {@link Failure} set as `failure` (kept when it already declares one); the same
 * object, so n8n shows the same message.
 */
export function withFailure(error: unknown): unknown {
	if (error && typeof error === 'object' && !(error as { failure?: unknown }).failure)
		(error as { failure?: Failure }).failure = failureOfPoll(error);
	return error;
}
