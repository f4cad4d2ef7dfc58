/**
 * When a request is sent again, and after how long (service rules §11). Pure: the client asks by
 * the request's `repeat` (transport/client.ts), then waits. A safe read is retried on HTTP 429, 5xx
 * and a lost connection, and a creation (`keyed`) on a 429 or 503, by {@link nextRetryDelay}; a
 * creation, hold, release or cancel whose answer was lost is sent again by {@link lostAnswerDelay}.
 * Nothing else is ever sent twice.
 */

/**
 * The numbers of automatic retries; all times in milliseconds. After a 429 with `Retry-After` the
 * wait is what the service asked, unless longer than `maxRetryAfterMs` (then it stops: waiting less
 * would only be refused again); otherwise an exponential backoff with full jitter, a random time
 * between 0 and `baseDelayMs × 2^(failures − 1)`, at most `maxDelayMs`.
 */
export interface RetryPolicy {
	/** Attempts in all, the first one included (at least 1). */
	maxAttempts: number;
	/** Backoff ceiling after the first failure. */
	baseDelayMs: number;
	/** Largest backoff between two attempts. */
	maxDelayMs: number;
	/** Longest `Retry-After` honoured; a longer one ends the retries. */
	maxRetryAfterMs: number;
	/** Time from the first attempt after which no further attempt starts. */
	budgetMs: number;
}

/**
 * The default: 4 attempts, backoff ceilings 0.5 s, 1 s, 2 s (at most 8 s), `Retry-After` up to
 * 30 s honoured, no new attempt more than 60 s after the first. A read that meets three faults in a
 * row still completes; a service that stays down fails the read within about a minute.
 */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 8_000,
	maxRetryAfterMs: 30_000,
	budgetMs: 60_000,
};

/** Connection failures worth another attempt (the request may not have reached the service). */
const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** What the retry decision needs to know of a failed attempt. */
export interface AttemptFailure {
	/** HTTP status, when an answer arrived. */
	httpStatus?: number;
	/** Connection-level code (ECONNRESET…), when no answer arrived. */
	networkCode?: string;
	/** Seconds the service asked to wait (`Retry-After`). */
	retryAfterSeconds?: number;
}

/** Whether the retry policy may repeat a failed attempt: HTTP 429, 5xx or a lost connection. */
function isRetryableFailure(failure: AttemptFailure): boolean {
	if (failure.httpStatus !== undefined)
		return failure.httpStatus === 429 || failure.httpStatus >= 500;
	return failure.networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(failure.networkCode);
}

/**
 * How long to wait before the next attempt, in milliseconds, or `undefined` to stop.
 *
 * @param failure the attempt that just failed.
 * @param failures failed attempts so far (1 after the first failure).
 * @param elapsedMs time since the first attempt started.
 * @param random a number in [0, 1) (jitter); `Math.random` in production.
 */
export function nextRetryDelay(
	failure: AttemptFailure,
	failures: number,
	elapsedMs: number,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
	random: () => number = Math.random,
): number | undefined {
	if (!isRetryableFailure(failure) || failures >= policy.maxAttempts) return undefined;
	let delay: number;
	if (failure.httpStatus === 429 && failure.retryAfterSeconds !== undefined) {
		delay = Math.max(0, failure.retryAfterSeconds * 1000);
		if (delay > policy.maxRetryAfterMs) return undefined;
	} else {
		const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
		delay = Math.floor(random() * ceiling);
	}
	return elapsedMs + delay > policy.budgetMs ? undefined : delay;
}

/**
 * How a request that got no answer is sent again when a resend cannot act twice (service rules
 * §11): a creation carries its key (the service answers a key it knows with 104 or 511, and the
 * record is looked up), and a hold, release or cancel names its target status (a repeat is refused
 * with 510 and the status is read back). stripe-node's defaults: 2 resends, after a backoff from
 * 0.5 s doubling to at most 5 s, jittered to between half and all of it and never under 0.5 s.
 * All times in milliseconds.
 */
export interface LostAnswerPolicy {
	/** Resends after the first attempt (0: none). */
	maxResends: number;
	/** The backoff before the first resend, and the least any backoff is. */
	initialDelayMs: number;
	/** The largest backoff. */
	maxDelayMs: number;
}

/** 2 resends, 0.5 s then 0.5 to 1 s (stripe-node's `maxNetworkRetries` 2 and its delays). */
export const LOST_ANSWER_POLICY: Readonly<LostAnswerPolicy> = {
	maxResends: 2,
	initialDelayMs: 500,
	maxDelayMs: 5_000,
};

/**
 * Whether no answer came back: the connection was reset, closed, refused or timed out (a
 * connection-level code, no HTTP status). The service may or may not have acted, except on a
 * refused connection, where nothing was sent.
 */
export function isLostAnswer(failure: AttemptFailure): boolean {
	return (
		failure.httpStatus === undefined &&
		failure.networkCode !== undefined &&
		RETRYABLE_NETWORK_CODES.has(failure.networkCode)
	);
}

/**
 * The backoff before resend number `resend` (1 for the first) of a request that got no answer, in
 * milliseconds ({@link LOST_ANSWER_POLICY}): min(initial × 2^(resend − 1), max), times a random
 * factor between 0.5 and 1, at least the initial delay.
 * @param random a number in [0, 1) (jitter); `Math.random` in production.
 */
export function lostAnswerDelay(
	resend: number,
	policy: LostAnswerPolicy = LOST_ANSWER_POLICY,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.initialDelayMs * 2 ** (resend - 1), policy.maxDelayMs);
	return Math.max(policy.initialDelayMs, Math.floor(ceiling * 0.5 * (1 + random())));
}
