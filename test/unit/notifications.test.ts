import fc from 'fast-check';

import {
	bodyLimitProblem,
	MAX_BODY_BYTES,
	MAX_BODY_VALUES,
	isMalformed,
	parseNotification,
	type Notification,
} from '../../nodes/PaymentsService/trigger/notification/parsing';
import {
	cashoutControl,
	controlMatches,
	sameSecret,
} from '../../nodes/PaymentsService/trigger/notification/authenticity';
import {
	emptyMemory,
	recentFinalStatus,
	REREAD_WINDOW_SECONDS,
	MEMORY_MAX_AGE_SECONDS,
	pruneMemory,
	readMemory,
	memoryKey,
	rememberStatus,
} from '../../nodes/PaymentsService/trigger/notification/memory';

const CASHOUT_FORM =
	'date=2026-11-02+12%3A00%3A00&bank_reference_id=bank-ref-700123&comments=payout+%237&external_id=p-7&control=AB12&cashout_id=700123&status_reason=';

describe('parseNotification (service rules §10)', () => {
	test('a deposit notification, as JSON or as the text of a body n8n did not parse', () => {
		for (const body of [
			{ deposit_id: 3000000001 },
			{ deposit_id: '3000000001' },
			'{"deposit_id": 3000000001}',
			Buffer.from('{"deposit_id":3000000001}'),
		]) {
			expect(parseNotification(body)).toEqual({
				kind: 'deposit',
				depositId: 3000000001,
				fields: {
					deposit_id:
						typeof body === 'object' && !Buffer.isBuffer(body) ? body.deposit_id : 3000000001,
				},
			});
		}
	});

	test('a cashout notification, as n8n parses the form or as raw form text: read by cashout_id, every field kept', () => {
		const form = Object.fromEntries(new URLSearchParams(CASHOUT_FORM));
		for (const body of [form, CASHOUT_FORM]) {
			expect(parseNotification(body)).toEqual({
				kind: 'cashout',
				cashoutId: 700123,
				externalId: 'p-7',
				fields: form,
			});
		}
		// n8n's form parser gives an object without a prototype.
		const bare = Object.assign(Object.create(null) as Record<string, unknown>, form);
		expect(parseNotification(bare)).toMatchObject({ kind: 'cashout', cashoutId: 700123 });
	});

	test('a cashout without its id is read by external_id', () => {
		expect(parseNotification({ cashout_id: '', external_id: ' p-8 ' })).toEqual({
			kind: 'cashout',
			externalId: 'p-8',
			fields: { cashout_id: '', external_id: ' p-8 ' },
		});
	});

	test.each([
		[undefined, /not a JSON object or a form/],
		['', /not a JSON object or a form/],
		[[1, 2], /not a JSON object or a form/],
		[{}, /no deposit_id, cashout_id or external_id/],
		[{ date: '2026-11-02 12:00:00' }, /no deposit_id, cashout_id or external_id/],
		[{ deposit_id: 'abc' }, /deposit_id is not a positive whole number/],
		[{ deposit_id: 0 }, /deposit_id is not a positive whole number/],
		[{ deposit_id: -5 }, /deposit_id is not a positive whole number/],
		[{ deposit_id: 1.5 }, /deposit_id is not a positive whole number/],
		[{ deposit_id: '12345678901234567' }, /deposit_id is not a positive whole number/],
		[{ deposit_id: { $gt: 1 } }, /deposit_id is not a positive whole number/],
		[{ cashout_id: '7x', external_id: 'p-7' }, /cashout_id is not a positive whole number/],
		[{ cashout_id: ['1', '2'] }, /cashout_id is given more than once/],
		[{ deposit_id: 1, cashout_id: 2 }, /both a deposit and a cashout/],
		[{ external_id: 'x'.repeat(101) }, /longer than 100/],
		[{ external_id: { a: 1 } }, /external_id is not a text/],
	])('%j is malformed', (body, problem) => {
		const parsed = parseNotification(body);
		expect(isMalformed(parsed) && parsed.problem).toMatch(problem);
	});

	test('the problem never repeats a value of the body', () => {
		fc.assert(
			fc.property(fc.string({ minLength: 1 }), (value) => {
				const parsed = parseNotification({ deposit_id: `${value}x` });
				return isMalformed(parsed) && !parsed.problem.includes(`${value}x`);
			}),
		);
	});

	test('record keys: d:<deposit_id>, c:<cashout_id>, x:<external_id>', () => {
		const keys = [{ deposit_id: 5 }, { cashout_id: 6, external_id: 'e' }, { external_id: 'e' }].map(
			(body) => memoryKey(parseNotification(body) as Notification),
		);
		expect(keys).toEqual(['d:5', 'c:6', 'x:e']);
	});
});

describe('the notification memory', () => {
	const NOW = 1_790_000_000;

	test('a status is a repeat when it is the last one read for the record; a return to an earlier status is not', () => {
		const memory = emptyMemory();
		const statuses = ['PENDING', 'PENDING', 'ON_HOLD', 'ON_HOLD', 'PENDING', 'ON_HOLD'];
		const seen = statuses.map((status, index) =>
			rememberStatus(memory, 'c:1', status, NOW + index),
		);
		expect(seen.map((entry) => entry.repeat)).toEqual([false, true, false, true, false, false]);
		expect(seen.map((entry) => entry.previousStatus)).toEqual([
			null,
			'PENDING',
			'PENDING',
			'ON_HOLD',
			'ON_HOLD',
			'PENDING',
		]);
		// [last status, last notified, first read in that status]
		expect(memory.records).toEqual({ 'c:1': ['ON_HOLD', NOW + 5, NOW + 5] });
		expect(rememberStatus(memory, 'd:1', 'ON_HOLD', NOW).repeat).toBe(false);
	});

	test('records last notified more than 7 days ago are forgotten, then the oldest beyond the cap', () => {
		const memory = emptyMemory();
		rememberStatus(memory, 'd:old', 'PENDING', NOW - MEMORY_MAX_AGE_SECONDS - 1);
		rememberStatus(memory, 'd:edge', 'PENDING', NOW - MEMORY_MAX_AGE_SECONDS);
		for (let index = 0; index < 5; index++)
			rememberStatus(memory, `d:${index}`, 'PENDING', NOW - index);
		pruneMemory(memory, NOW);
		expect(Object.keys(memory.records)).toEqual(['d:edge', 'd:0', 'd:1', 'd:2', 'd:3', 'd:4']);
		pruneMemory(memory, NOW, { maxAgeSeconds: MEMORY_MAX_AGE_SECONDS, maxRecords: 3 });
		expect(Object.keys(memory.records).sort()).toEqual(['d:0', 'd:1', 'd:2']);
	});

	test('the memory never holds more than the cap, and keeps the most recently notified records', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 200 }), (ids) => {
				const memory = emptyMemory();
				ids.forEach((id, at) => {
					rememberStatus(memory, `d:${id}`, 'PENDING', NOW + at);
					pruneMemory(memory, NOW + at, { maxAgeSeconds: MEMORY_MAX_AGE_SECONDS, maxRecords: 10 });
				});
				const lastTouched = [...new Set([...ids].reverse())].slice(0, 10).map((id) => `d:${id}`);
				expect(Object.keys(memory.records).sort()).toEqual(lastTouched.sort());
			}),
		);
	});

	test('a stored memory that is not well formed reads as empty; bad entries are dropped', () => {
		for (const stored of [
			undefined,
			null,
			'x',
			[],
			{ version: 2, records: {} },
			{ version: 1, records: [] },
		]) {
			expect(readMemory(stored)).toEqual(emptyMemory());
		}
		expect(
			readMemory({
				version: 1,
				records: { 'd:1': ['PENDING', NOW], 'd:2': ['PENDING'], 'd:3': [1, NOW], 'd:4': 'x' },
			}),
		).toEqual({
			version: 1,
			records: { 'd:1': ['PENDING', NOW] },
		});
	});

	test('it survives being saved as JSON', () => {
		const memory = emptyMemory();
		rememberStatus(memory, 'x:p-7', 'REJECTED', NOW);
		expect(readMemory(JSON.parse(JSON.stringify(memory)))).toEqual(memory);
	});
});

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
