import {
	bodyLimitProblem,
	MAX_BODY_BYTES,
	MAX_BODY_VALUES,
} from '../../../../nodes/PaymentsService/trigger/notification/parsing';
import {
	cashoutControl,
	controlMatches,
	sameSecret,
} from '../../../../nodes/PaymentsService/trigger/notification/authenticity';
import {
	emptyMemory,
	recentFinalStatus,
	REREAD_WINDOW_SECONDS,
} from '../../../../nodes/PaymentsService/trigger/notification/memory';

describe('forgery checks (service rules §10.2–§10.4)', () => {
	const secret = 'your_cashout_api_signature';

	test('control: the provider’s vector', () => {
		expect(cashoutControl(secret, 'cashoutID1234')).toBe(
			'DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D',
		);
	});

	test('control matches only for its external_id and secret; lower-case hex accepted; missing refused', () => {
		const control = cashoutControl(secret, 'cashoutID1234');
		expect(controlMatches(secret, { external_id: 'cashoutID1234', control })).toBe(true);
		expect(
			controlMatches(secret, { external_id: ' cashoutID1234 ', control: control.toLowerCase() }),
		).toBe(true);
		expect(controlMatches(secret, { external_id: 'cashoutID1235', control })).toBe(false);
		expect(controlMatches('another secret', { external_id: 'cashoutID1234', control })).toBe(false);
		expect(controlMatches(secret, { external_id: 'cashoutID1234' })).toBe(false);
		expect(controlMatches(secret, { control })).toBe(false);
		expect(
			controlMatches('', {
				external_id: 'cashoutID1234',
				control: cashoutControl('', 'cashoutID1234'),
			}),
		).toBe(false);
		expect(controlMatches(secret, { external_id: 'cashoutID1234', control: [control] })).toBe(
			false,
		);
	});

	test('sameSecret: equal texts only, never an empty expected secret', () => {
		expect(sameSecret('abc-0123456789abcdef', 'abc-0123456789abcdef')).toBe(true);
		expect(sameSecret('abc-0123456789abcdef', 'abc-0123456789abcdeg')).toBe(false);
		expect(sameSecret('abc-0123456789abcdef', 'abc')).toBe(false);
		expect(sameSecret('', '')).toBe(false);
	});

	test('body limits: size, depth and count, walked without recursion', () => {
		expect(bodyLimitProblem(MAX_BODY_BYTES, { deposit_id: 1 })).toBeUndefined();
		expect(bodyLimitProblem(MAX_BODY_BYTES + 1, { deposit_id: 1 })?.status).toBe(413);
		expect(bodyLimitProblem(undefined, 'x'.repeat(MAX_BODY_BYTES + 1))?.status).toBe(413);
		expect(bodyLimitProblem(10, { a: { b: { c: { d: 1 } } } })).toBeUndefined();
		expect(bodyLimitProblem(10, { a: { b: { c: { d: { e: 1 } } } } })).toEqual({
			status: 400,
			problem: 'The body is nested deeper than 4 levels',
		});
		let deep: Record<string, unknown> = {};
		for (let depth = 0; depth < 100_000; depth++) deep = { a: deep };
		expect(bodyLimitProblem(10, deep)?.status).toBe(400);
		expect(
			bodyLimitProblem(10, { list: Array.from({ length: MAX_BODY_VALUES }, () => 1) })?.status,
		).toBe(400);
		expect(
			bodyLimitProblem(10, { list: Array.from({ length: MAX_BODY_VALUES - 1 }, () => 1) }),
		).toBeUndefined();
	});

	test('a final status read less than 10 minutes ago answers from memory; other statuses are always read', () => {
		const memory = emptyMemory();
		memory.records['d:1'] = ['COMPLETED', 1000];
		memory.records['d:2'] = ['EXPIRED', 1000];
		memory.records['c:3'] = ['COMPLETED', 1000];
		memory.records['c:4'] = ['REJECTED', 1000];
		expect(recentFinalStatus(memory, 'deposit', 'd:1', 1000 + REREAD_WINDOW_SECONDS - 1)).toBe(
			'COMPLETED',
		);
		expect(
			recentFinalStatus(memory, 'deposit', 'd:1', 1000 + REREAD_WINDOW_SECONDS),
		).toBeUndefined();
		expect(recentFinalStatus(memory, 'deposit', 'd:1', 999)).toBeUndefined();
		// EXPIRED can still become COMPLETED; a COMPLETED cashout can still be rejected.
		expect(recentFinalStatus(memory, 'deposit', 'd:2', 1001)).toBeUndefined();
		expect(recentFinalStatus(memory, 'cashout', 'c:3', 1001)).toBeUndefined();
		expect(recentFinalStatus(memory, 'cashout', 'c:4', 1001)).toBe('REJECTED');
		expect(recentFinalStatus(memory, 'deposit', 'd:9', 1001)).toBeUndefined();
	});
});
