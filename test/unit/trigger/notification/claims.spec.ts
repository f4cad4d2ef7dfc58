import {
	CLAIM_MAX_AGE_MS,
	claimChange,
	claimCounts,
	forgetAllClaims,
	MAX_CLAIMS,
	releaseChange,
	runSince,
	confirmChange,
} from '../../../../nodes/PaymentsService/trigger/notification/claims';
import {
	changeKey,
	notifiedChangeTime,
} from '../../../../nodes/PaymentsService/trigger/notification/changeKeys';
import {
	runStart,
	type StatusRun,
} from '../../../../nodes/PaymentsService/trigger/notification/memory';
import { cashoutMismatch } from '../../../../nodes/PaymentsService/trigger/notification/statusRead';

const NOW = Date.UTC(2026, 10, 2, 12, 0, 0);
const SECONDS = NOW / 1000;
const scope = { workflowId: 'wf-1', nodeId: 'node-1' };

describe('the in-process claim (service rules §10.5)', () => {
	beforeEach(() => forgetAllClaims());

	test('one claim per change: the first copy gets it, every other copy is told it was handled', () => {
		expect(claimChange(scope, 'cashout:1:ON_HOLD:t1', NOW, true)).toBe('claimed');
		expect(claimChange(scope, 'cashout:1:ON_HOLD:t1', NOW, true)).toBe('handled');
		expect(claimChange(scope, 'cashout:1:ON_HOLD:t1', NOW + 1000, true)).toBe('handled');
		// Another change, another workflow, another node: each its own claim.
		expect(claimChange(scope, 'cashout:1:ON_HOLD:t3', NOW, true)).toBe('claimed');
		expect(claimChange({ ...scope, workflowId: 'wf-2' }, 'cashout:1:ON_HOLD:t1', NOW, true)).toBe(
			'claimed',
		);
		expect(claimChange({ ...scope, nodeId: 'node-2' }, 'cashout:1:ON_HOLD:t1', NOW, true)).toBe(
			'claimed',
		);
	});

	test('an unconfirmed claim is in flight until confirmed (then handled) or released (then claimable again)', () => {
		expect(claimChange(scope, 'k', NOW, false)).toBe('claimed');
		expect(claimChange(scope, 'k', NOW, false)).toBe('in-flight');
		releaseChange(scope, 'k');
		expect(claimChange(scope, 'k', NOW, false)).toBe('claimed');
		confirmChange(scope, 'k');
		expect(claimChange(scope, 'k', NOW, false)).toBe('handled');
		// Settling or releasing what is not held changes nothing.
		confirmChange(scope, 'absent');
		releaseChange(scope, 'absent');
		expect(claimCounts().claims).toBe(1);
	});

	test('bounded by age: a claim older than 24 hours no longer suppresses, and is dropped', () => {
		claimChange(scope, 'old', NOW, true);
		claimChange(scope, 'a', NOW + 1000, true);
		expect(claimChange(scope, 'old', NOW + CLAIM_MAX_AGE_MS - 1, true)).toBe('handled');
		expect(claimChange(scope, 'old', NOW + CLAIM_MAX_AGE_MS + 1, true)).toBe('claimed');
		// Taking 'b' drops 'a' (older than a day by then); the renewed 'old' stays.
		claimChange(scope, 'b', NOW + CLAIM_MAX_AGE_MS + 1001, true);
		expect(claimCounts().claims).toBe(2);
		expect(claimChange(scope, 'a', NOW + CLAIM_MAX_AGE_MS + 1002, true)).toBe('claimed');
	});

	test(`bounded in size: at most ${MAX_CLAIMS} claims, the oldest dropped first`, () => {
		for (let index = 0; index < MAX_CLAIMS + 500; index++)
			claimChange(scope, `k${index}`, NOW + index, true);
		expect(claimCounts().claims).toBe(MAX_CLAIMS);
		expect(claimChange(scope, 'k0', NOW + MAX_CLAIMS + 500, true)).toBe('claimed');
		expect(claimChange(scope, `k${MAX_CLAIMS + 499}`, NOW + MAX_CLAIMS + 500, true)).toBe(
			'handled',
		);
		for (let index = 0; index < MAX_CLAIMS + 10; index++)
			runSince(scope, `d:${index}`, 'PENDING', undefined, undefined, NOW + index);
		expect(claimCounts().runs).toBe(MAX_CLAIMS);
	});
});

describe('the change key (service rules §10.5)', () => {
	test('hold, release, hold: three keys; every delivery of one change, in any order, shares its key', () => {
		// Each notification dated by the service when the change happened (GMT, to the second).
		const changes: Array<[string, number]> = [
			['ON_HOLD', SECONDS + 60],
			['PENDING', SECONDS + 120],
			['ON_HOLD', SECONDS + 180],
		];
		let previous: StatusRun | undefined;
		const keys = changes.map(([status, dated]) => {
			const since = runStart(previous, status, dated, dated + 2);
			previous = { status, since, seenAt: dated + 2 };
			return changeKey('cashout', 4711, status, since);
		});
		expect(keys).toEqual([
			'cashout:4711:ON_HOLD:2026-11-02T12:01:00Z',
			'cashout:4711:PENDING:2026-11-02T12:02:00Z',
			'cashout:4711:ON_HOLD:2026-11-02T12:03:00Z',
		]);
		expect(new Set(keys).size).toBe(3);
		// Late copies of any of them, read while the cashout is ON_HOLD since 12:03: the key of that change.
		for (const [, dated] of changes)
			expect(changeKey('cashout', 4711, 'ON_HOLD', runStart(previous, 'ON_HOLD', dated, 999))).toBe(
				keys[2],
			);
	});

	test('a late notification of an older change, read after newer ones, never takes a key an earlier change used', () => {
		const pending: StatusRun = { status: 'PENDING', since: SECONDS + 120, seenAt: SECONDS + 120 };
		// The hold of 12:01 is delivered late, when the cashout is ON_HOLD again (since 12:03).
		expect(runStart(pending, 'ON_HOLD', SECONDS + 60, SECONDS + 200)).toBe(SECONDS + 200);
		// Same second as the previous run: one second after it at least.
		expect(runStart(pending, 'ON_HOLD', SECONDS + 120, SECONDS + 100)).toBe(SECONDS + 121);
	});

	test('deposits (no date): a run starts when first read; copies in one process share it even across a second', () => {
		const first = runSince(scope, 'd:9', 'PENDING', undefined, undefined, NOW + 999);
		const copy = runSince(scope, 'd:9', 'PENDING', undefined, undefined, NOW + 1001);
		expect([first, copy]).toEqual([SECONDS, SECONDS]);
		// Another status, then back: a new run.
		expect(runSince(scope, 'd:9', 'EXPIRED', undefined, undefined, NOW + 60_000)).toBe(
			SECONDS + 60,
		);
		expect(runSince(scope, 'd:9', 'PENDING', undefined, undefined, NOW + 120_000)).toBe(
			SECONDS + 120,
		);
		// The static data saw the record later (another process moved it to EXPIRED): it wins.
		const elsewhere: StatusRun = { status: 'EXPIRED', since: SECONDS + 150, seenAt: SECONDS + 150 };
		expect(runSince(scope, 'd:9', 'PENDING', elsewhere, undefined, NOW + 180_000)).toBe(
			SECONDS + 180,
		);
	});

	test('the notification date: the service form (GMT), ISO read too; anything else is no date', () => {
		expect(notifiedChangeTime({ date: '2026-11-02 12:00:00' })).toBe(SECONDS);
		expect(notifiedChangeTime({ date: ' 2026-11-02T12:00:00Z ' })).toBe(SECONDS);
		expect(notifiedChangeTime({ date: '2026-11-02 12:00:00.250' })).toBe(SECONDS);
		for (const date of [
			undefined,
			'',
			42,
			'2026-02-30 12:00:00',
			'2026-11-02 24:00:00',
			'02/11/2026 12:00:00',
			'2026-11-02 12:00:00+01:00',
			'2026-11-02',
		])
			expect(notifiedChangeTime({ date })).toBeUndefined();
	});
});

describe('a verified cashout: the ids must name one cashout (service rules §10.2)', () => {
	const state = (status: string, extra: Record<string, unknown> = {}) => ({
		state: { cashout_status_name: status, ...extra },
		status,
		raw: { cashout_status: 0, ...extra },
	});

	test('the pair read agrees: no mismatch; nothing to check without a notified cashout_id', () => {
		expect(cashoutMismatch(7, 'ext-7', state('PENDING'), state('PENDING'))).toBeUndefined();
		expect(cashoutMismatch(undefined, 'ext-7', state('PENDING'), undefined)).toBeUndefined();
	});

	test('the pair is not found, answers another status or rejection, or an answer names other ids: mismatch', () => {
		expect(cashoutMismatch(7, 'ext-7', state('PENDING'), null)).toMatch(/finds no cashout/);
		expect(cashoutMismatch(7, 'ext-7', state('PENDING'), state('REJECTED'))).toMatch(
			/cashout_id 7 is REJECTED/,
		);
		expect(
			cashoutMismatch(
				7,
				'ext-7',
				state('REJECTED', { rejection_code: 801 }),
				state('REJECTED', { rejection_code: 807 }),
			),
		).toBeDefined();
		expect(
			cashoutMismatch(7, 'ext-7', state('PENDING', { cashout_id: 8 }), state('PENDING')),
		).toMatch(/cashout_id 8/);
		expect(
			cashoutMismatch(undefined, 'ext-7', state('PENDING', { external_id: 'ext-8' }), undefined),
		).toMatch(/another external_id/);
	});
});
