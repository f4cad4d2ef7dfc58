import fc from 'fast-check';

import {
	DEFAULT_RETRY_POLICY,
	isLostAnswer,
	LOST_ANSWER_POLICY,
	lostAnswerDelay,
	nextRetryDelay,
} from '../../../nodes/PaymentsService/transport/retry';

const policy = DEFAULT_RETRY_POLICY;

describe('nextRetryDelay', () => {
	test('429, 5xx and lost connections are retried; other answers are not', () => {
		const retried = (failure: Parameters<typeof nextRetryDelay>[0]) =>
			nextRetryDelay(failure, 1, 0, policy, () => 0.5) !== undefined;
		for (const failure of [
			{ httpStatus: 429 },
			{ httpStatus: 500 },
			{ httpStatus: 503 },
			{ networkCode: 'ECONNRESET' },
			{ networkCode: 'ETIMEDOUT' },
		])
			expect([failure, retried(failure)]).toEqual([failure, true]);
		for (const failure of [
			...[400, 401, 403, 404, 412].map((httpStatus) => ({ httpStatus })),
			{ networkCode: 'ENOTFOUND' },
			{},
		])
			expect([failure, retried(failure)]).toEqual([failure, false]);
	});

	test('a 429 waits what Retry-After asks, within the cap', () => {
		expect(nextRetryDelay({ httpStatus: 429, retryAfterSeconds: 7 }, 1, 0, policy, () => 0.5)).toBe(
			7_000,
		);
		expect(nextRetryDelay({ httpStatus: 429, retryAfterSeconds: 0 }, 1, 0, policy, () => 0.5)).toBe(
			0,
		);
	});

	test('a 429 asking for more than the cap is not retried (waiting less would be refused again)', () => {
		expect(
			nextRetryDelay({ httpStatus: 429, retryAfterSeconds: 31 }, 1, 0, policy),
		).toBeUndefined();
	});

	test('other failures back off exponentially with full jitter, never above the ceiling (property)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: policy.maxAttempts - 1 }),
				fc.double({ min: 0, max: 0.9999, noNaN: true }),
				(failures, random) => {
					const delay = nextRetryDelay({ httpStatus: 503 }, failures, 0, policy, () => random)!;
					const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
					expect(delay).toBeGreaterThanOrEqual(0);
					expect(delay).toBeLessThan(ceiling);
					expect(delay).toBe(Math.floor(random * ceiling));
				},
			),
		);
	});

	test('stops after maxAttempts attempts in all', () => {
		expect(nextRetryDelay({ httpStatus: 503 }, policy.maxAttempts - 1, 0, policy, () => 0)).toBe(0);
		expect(
			nextRetryDelay({ httpStatus: 503 }, policy.maxAttempts, 0, policy, () => 0),
		).toBeUndefined();
	});

	test('stops when the next attempt would start after the overall budget', () => {
		expect(
			nextRetryDelay(
				{ httpStatus: 429, retryAfterSeconds: 10 },
				1,
				policy.budgetMs - 5_000,
				policy,
			),
		).toBeUndefined();
		expect(
			nextRetryDelay({ httpStatus: 429, retryAfterSeconds: 4 }, 1, policy.budgetMs - 5_000, policy),
		).toBe(4_000);
	});

	test('never retries what may have changed something or cannot succeed', () => {
		expect(nextRetryDelay({ httpStatus: 400 }, 1, 0, policy)).toBeUndefined();
		expect(nextRetryDelay({ httpStatus: 412 }, 1, 0, policy)).toBeUndefined();
	});
});

describe('lost answers (stripe-node’s network retries)', () => {
	test('no HTTP answer and a connection code is a lost answer; any HTTP answer, or an unknown failure, is not', () => {
		for (const networkCode of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE'])
			expect(isLostAnswer({ networkCode })).toBe(true);
		expect(isLostAnswer({ httpStatus: 500 })).toBe(false);
		expect(isLostAnswer({ httpStatus: 503, networkCode: 'ECONNRESET' })).toBe(false);
		expect(isLostAnswer({ networkCode: 'ENOTFOUND' })).toBe(false);
		expect(isLostAnswer({})).toBe(false);
	});

	test('the backoff is 0.5 s before the first resend, then doubles to at most 5 s, jittered between half and all of it, never under 0.5 s', () => {
		expect(LOST_ANSWER_POLICY).toEqual({ maxResends: 2, initialDelayMs: 500, maxDelayMs: 5_000 });
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 12 }),
				fc.double({ min: 0, max: 0.999_999, noNaN: true }),
				(resend, random) => {
					const delay = lostAnswerDelay(resend, LOST_ANSWER_POLICY, () => random);
					const ceiling = Math.min(500 * 2 ** (resend - 1), 5_000);
					expect(delay).toBeGreaterThanOrEqual(Math.max(500, Math.floor(ceiling / 2)));
					expect(delay).toBeLessThanOrEqual(ceiling);
				},
			),
		);
		expect(lostAnswerDelay(1, LOST_ANSWER_POLICY, () => 0.999)).toBe(500);
		expect(lostAnswerDelay(2, LOST_ANSWER_POLICY, () => 0)).toBe(500);
		expect(lostAnswerDelay(2, LOST_ANSWER_POLICY, () => 0.5)).toBe(750);
		expect(lostAnswerDelay(6, LOST_ANSWER_POLICY, () => 0.999)).toBe(4_997);
	});
});
