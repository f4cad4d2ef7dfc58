import fc from 'fast-check';

import { MAX_EXTERNAL_ID_LENGTH } from '../../../nodes/PaymentsService/codes/service';
import {
	canonicalJson,
	deriveRequestKey,
	duplicateWindowAt,
	givenKeyProblem,
	previousWindowInGrace,
	historyKeyOf,
	type RequestIdentity,
} from '../../../nodes/PaymentsService/idempotency/keys';

const identity: RequestIdentity = {
	workflowId: 'wf-1',
	nodeId: 'node-a',
	runIndex: 0,
	itemIndex: 0,
	origin: { trigger: 'Webhook', item: { body: { withdrawalId: 'W-1001' } } },
	content: { amount: '25.00', country: 'BR', beneficiary_name: 'Ana' },
	window: '2026-11-23',
};

describe('deriveRequestKey (service rules §5.2)', () => {
	test('the same request gives the same key, whatever the order its fields were built in', () => {
		const reordered = {
			...identity,
			content: { beneficiary_name: 'Ana', country: 'BR', amount: '25.00' },
		};
		expect(deriveRequestKey(reordered)).toBe(deriveRequestKey(identity));
	});

	test('the key is n8n- followed by 40 lowercase hex characters', () => {
		expect(deriveRequestKey(identity)).toMatch(/^n8n-[0-9a-f]{40}$/);
	});

	test.each([
		['item', { itemIndex: 1 }],
		['run of a loop (every run sees item 0)', { runIndex: 1 }],
		['node', { nodeId: 'node-b' }],
		['workflow', { workflowId: 'wf-2' }],
		['missing workflow', { workflowId: undefined }],
		['window (another day)', { window: '2026-11-24' }],
		[
			'origin (another trigger event: a second webhook call)',
			{ origin: { trigger: 'Webhook', item: { body: { withdrawalId: 'W-1002' } } } },
		],
		['amount', { content: { ...(identity.content as object), amount: '25.01' } }],
		['beneficiary', { content: { ...(identity.content as object), beneficiary_name: 'Bia' } }],
	])('another %s gives another key', (_what, change) => {
		expect(deriveRequestKey({ ...identity, ...change } as RequestIdentity)).not.toBe(
			deriveRequestKey(identity),
		);
	});

	test('nothing of the execution but its origin enters the key: n8n`s Retry of a failed execution (a new execution id, the same trigger item) gets the same key', () => {
		// The identity has no execution id at all; a property test pins that equal identities give equal keys.
		fc.assert(
			fc.property(fc.nat(50), fc.nat(50), fc.string(), (runIndex, itemIndex, name) => {
				const a = { ...identity, runIndex, itemIndex, content: { name } };
				return (
					deriveRequestKey(a) === deriveRequestKey(JSON.parse(JSON.stringify(a)) as RequestIdentity)
				);
			}),
		);
	});

	const anyIdentity = fc.record({
		workflowId: fc.string(),
		nodeId: fc.string(),
		runIndex: fc.nat(5),
		itemIndex: fc.nat(5),
		origin: fc.option(fc.dictionary(fc.string(), fc.string()), { nil: null }),
		window: fc.constantFrom('2026-11-23', '2026-11-24'),
		content: fc.dictionary(fc.string(), fc.string()),
	});

	test('distinct identities never share a key (fields do not run into each other)', () => {
		fc.assert(
			fc.property(
				anyIdentity,
				anyIdentity,
				(a, b) =>
					(canonicalJson(a) === canonicalJson(b)) === (deriveRequestKey(a) === deriveRequestKey(b)),
			),
		);
	});
});

describe('duplicateWindowAt', () => {
	const at = Date.UTC(2026, 10, 23, 19, 45, 12);
	test.each([
		['hour', '2026-11-23T19', Date.UTC(2026, 10, 23, 19), Date.UTC(2026, 10, 23, 20)],
		['day', '2026-11-23', Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 24)],
		['month', '2026-11', Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)],
	] as const)('a %s window is labelled and bounded in UTC', (kind, label, startMs, endMs) => {
		expect(duplicateWindowAt(kind, at)).toEqual({ label, startMs, endMs });
	});

	test('December rolls over into January', () => {
		expect(duplicateWindowAt('month', Date.UTC(2026, 11, 31, 23, 59)).endMs).toBe(
			Date.UTC(2027, 0, 1),
		);
	});
});

describe('previousWindowInGrace: a first attempt just after a boundary also looks for the previous window’s key', () => {
	test.each([
		['day', Date.UTC(2026, 10, 25, 0, 0, 1), '2026-11-24'],
		['day', Date.UTC(2026, 10, 25, 0, 59, 59), '2026-11-24'],
		['month', Date.UTC(2027, 0, 1, 0, 20), '2026-12'],
		['hour', Date.UTC(2026, 10, 25, 13, 59, 59), '2026-11-25T12'],
	] as const)('%s window at %s: the previous window %s', (kind, now, label) => {
		expect(previousWindowInGrace(kind, now)?.label).toBe(label);
	});

	test('from one hour after the start on, none', () => {
		// The grace is one hour.
		expect(previousWindowInGrace('day', Date.UTC(2026, 10, 25) + 3_600_000)).toBe(undefined);
		expect(previousWindowInGrace('month', Date.UTC(2026, 10, 25, 12))).toBeUndefined();
	});
});

describe('historyKeyOf: the name a request’s history is kept under', () => {
	const attemptIdentity: Omit<RequestIdentity, 'window'> = {
		workflowId: identity.workflowId,
		nodeId: identity.nodeId,
		runIndex: identity.runIndex,
		itemIndex: identity.itemIndex,
		origin: identity.origin,
		content: identity.content,
	};
	test('the same request in another window has the same history key; another item or origin another', () => {
		expect(historyKeyOf(attemptIdentity)).toMatch(/^slot-[0-9a-f]{24}$/);
		expect(historyKeyOf({ ...attemptIdentity })).toBe(historyKeyOf(attemptIdentity));
		expect(historyKeyOf({ ...attemptIdentity, itemIndex: 1 })).not.toBe(
			historyKeyOf(attemptIdentity),
		);
		expect(historyKeyOf({ ...attemptIdentity, origin: { other: true } })).not.toBe(
			historyKeyOf(attemptIdentity),
		);
	});
});

describe('givenKeyProblem: a key is sent as given, or refused with the rule', () => {
	test.each([
		['order-2026-0001', 'idempotencyKey'],
		['a'.repeat(128), 'idempotencyKey'],
		['order-Łukasz-1', 'externalId'],
		['注文-1', 'externalId'],
		['order_1-A', 'invoiceId'],
	] as const)('%s is a valid %s', (key, kind) => {
		expect(givenKeyProblem(kind, key)).toBeUndefined();
	});

	test.each([
		['order-Łukasz-1', 'idempotencyKey', /"Ł" \(U\+0141\), which an HTTP header cannot carry/],
		['order-Żukasz-1', 'idempotencyKey', /"Ż" \(U\+017B\)/],
		['order\r\n1', 'idempotencyKey', /a line break \(U\+000D\)/],
		['order 1', 'idempotencyKey', /a space/],
		['k'.repeat(10_240), 'idempotencyKey', /is 10240 characters long; at most 128/],
		['order-Łukasz-1', 'invoiceId', /"Ł" \(U\+0141\); the service accepts only letters, digits/],
		[
			'x'.repeat(MAX_EXTERNAL_ID_LENGTH + 1),
			'externalId',
			/is 101 characters long; the service accepts at most 100/,
		],
		['payout\n1', 'externalId', /a line break/],
		['', 'externalId', /is empty/],
	] as const)('%j is refused as %s', (key, kind, rule) => {
		expect(givenKeyProblem(kind, key)).toMatch(rule);
	});
});
