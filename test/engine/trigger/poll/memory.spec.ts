import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { setDate } from '../../../harness/clock';
import { storedSeen } from '../../../harness/pollState';
import { CREDENTIAL_IDS, storeSandboxCredentials, type Fixture } from '../../../harness/fixtures';
import { PollRunner, type PollDatabase } from '../../../harness/poll';
import { iso } from '../../../harness/records';
import {
	TRIGGER_NODE,
	triggerWorkflow,
	useTriggerWorld,
	type SharedClock,
	SECOND,
	MINUTE,
	HOUR,
	MID,
	TRIGGER_START,
} from '../../../harness/trigger';

/*
 * Version 2 of the polling trigger (docs/polling-trigger.md, "Memory" and "Cost"): the newest
 * records remembered one by one, the others judged by their lastChangeDate against when their part
 * of the look-back was read; older records re-read less often; the fallback to a full memory when
 * the service leaves lastChangeDate alone; a version 1 state carried over; and the poll failure
 * classes n8n's durable scheduler backs off by. Polled through n8n-core's PollContext with n8n's
 * saving rule (test/harness/poll.ts).
 */

const START = TRIGGER_START;

describe('Payments Service Trigger, version 2: a memory that does not grow with the look-back', () => {
	let fx: Fixture;
	let clock: SharedClock;
	useTriggerWorld(START, (world) => ({ fx, clock } = world));

	/**
	 * A cashout created `ageMs` ago and not changed since: added on the sandbox's clock at its
	 * creation, so its lastChangeDate is its creation date.
	 */
	const cashout = (ageMs: number) => {
		const now = fx.sandbox.clock.now();
		fx.sandbox.clock.set(now - ageMs);
		const record = fx.sandbox.control.addCashout({ idMerchant: MID });
		fx.sandbox.clock.set(now);
		return record;
	};
	const runner = (
		parameters: INodeParameters,
		database: PollDatabase = { staticData: {} },
		typeVersion = 2,
	) =>
		new PollRunner(
			fx.engine,
			triggerWorkflow(parameters, undefined, typeVersion),
			TRIGGER_NODE,
			database,
		);
	const state = (trigger: PollRunner) => trigger.staticData().paymentsServiceTrigger as IDataObject;
	const remembered = (trigger: PollRunner) => Object.keys(storedSeen(state(trigger)) ?? {});
	const listed = () => fx.sandbox.log.find('GET', '/v1/cashouts');
	const events = (items: Array<{ json: IDataObject }> | null) =>
		(items ?? []).map((item) => ({
			id: item.json.idCashout,
			status: item.json.status,
			previousStatus: (item.json.event as IDataObject).previousStatus,
		}));
	/** Polls every `everyMs` until `untilMs` has passed, gathering what was emitted. */
	const pollFor = async (trigger: PollRunner, untilMs: number, everyMs: number) => {
		const emitted: ReturnType<typeof events> = [];
		for (let waited = 0; waited < untilMs; waited += everyMs) {
			clock.advance(everyMs);
			const outcome = await trigger.poll();
			expect(outcome.error).toBeUndefined();
			emitted.push(...events(outcome.items));
		}
		return emitted;
	};

	test('the starting point reads the last 10 minutes only; a change to a record days old is reported once, by the re-reading of older records, with previousStatus null', async () => {
		// A week of cashouts, one every 30 minutes.
		const records = Array.from({ length: 336 }, (_, index) =>
			cashout(index * 30 * MINUTE + MINUTE),
		);
		const trigger = runner({ resource: 'cashout', event: 'anyChange' });
		expect(await trigger.poll()).toEqual({ items: null });
		const now = Math.floor(clock.now() / SECOND);
		const froms = listed().map((entry) => Number(entry.query.from));
		expect(Math.min(...froms)).toBeGreaterThanOrEqual(now - 600);

		const old = records[200]; // 100 hours old
		const young = records[0];
		clock.advance(MINUTE);
		fx.sandbox.control.setStatus('cashout', old.idCashout, 'CANCELLED');
		fx.sandbox.control.setStatus('cashout', young.idCashout, 'ON_HOLD');
		const emitted = await pollFor(trigger, 6 * HOUR + 10 * MINUTE, 10 * MINUTE);
		expect(emitted).toEqual(
			expect.arrayContaining([
				{ id: young.idCashout, status: 'ON_HOLD', previousStatus: 'PENDING' },
				{ id: old.idCashout, status: 'CANCELLED', previousStatus: null },
			]),
		);
		expect(emitted).toHaveLength(2);
	});

	test('records are re-read less often the older they are (Re-Read Older Records Every: 1 hour): 12 hours old every hour, 4 days every 6 hours', async () => {
		for (let index = 0; index < 7 * 24; index++) cashout(index * HOUR + MINUTE);
		const trigger = runner({ resource: 'cashout', event: 'anyChange' });
		await trigger.poll();
		fx.sandbox.log.clear();
		await pollFor(trigger, 6 * HOUR, 10 * MINUTE);
		// Each creation second read again, by age: count how often the newest hour, a record 12
		// hours old and one 4 days old were in a window read.
		const now = Math.floor(clock.now() / SECOND);
		const readsOf = (second: number) =>
			listed().filter(
				(entry) => Number(entry.query.from) <= second && second <= Number(entry.query.to),
			).length;
		expect(readsOf(now - 4 * 24 * 3_600)).toBeGreaterThanOrEqual(1);
		expect(readsOf(now - 4 * 24 * 3_600)).toBeLessThanOrEqual(2);
		expect(readsOf(now - 12 * 3_600)).toBeGreaterThanOrEqual(5);
		expect(readsOf(now - 12 * 3_600)).toBeLessThanOrEqual(8);
	});

	test('Max Records Remembered bounds what is stored; a change to a record it no longer holds is still reported once', async () => {
		const records = Array.from({ length: 40 }, (_, index) => cashout(index * HOUR + MINUTE));
		const trigger = runner({
			resource: 'cashout',
			event: 'anyChange',
			options: { rereadMinutes: '0', maxRemembered: 5 },
		});
		await trigger.poll();
		clock.advance(MINUTE);
		await trigger.poll();
		expect(remembered(trigger).length).toBeLessThanOrEqual(5);

		clock.advance(20 * MINUTE);
		const far = records[30];
		fx.sandbox.control.setStatus('cashout', far.idCashout, 'REJECTED');
		const first = await pollFor(trigger, MINUTE, MINUTE);
		expect(first).toEqual([{ id: far.idCashout, status: 'REJECTED', previousStatus: null }]);
		// Remembered while it is within the margin of the reads, then forgotten again.
		expect(remembered(trigger)).toContain(String(far.idCashout));
		expect(await pollFor(trigger, 30 * MINUTE, 5 * MINUTE)).toEqual([]);
		expect(remembered(trigger).length).toBeLessThanOrEqual(5);
	});

	test('a record the list shows only minutes after its creation is still new, beyond the remembered records', async () => {
		for (let index = 0; index < 20; index++) cashout(index * HOUR + MINUTE);
		const trigger = runner({
			resource: 'cashout',
			event: 'newRecord',
			options: { rereadMinutes: '0', maxRemembered: 0 },
		});
		await trigger.poll();
		const late = fx.sandbox.control.addCashout({
			idMerchant: MID,
			creationDate: iso(Math.floor(clock.now() / SECOND) - 60),
			visibleAt: clock.now() + 10 * MINUTE,
		});
		const emitted = await pollFor(trigger, 15 * MINUTE, MINUTE);
		expect(emitted.map((event) => event.id)).toEqual([late.idCashout]);
	});

	test('a status change that leaves lastChangeDate alone turns the memory full: logged, and from then on every record read is remembered', async () => {
		const records = Array.from({ length: 30 }, (_, index) => cashout(index * HOUR + MINUTE));
		const trigger = runner({
			resource: 'cashout',
			event: 'anyChange',
			options: { rereadMinutes: '0', maxRemembered: 5 },
		});
		await trigger.poll();
		await pollFor(trigger, MINUTE, MINUTE);
		fx.sandbox.control.setLastChangeMoves(false);
		clock.advance(MINUTE);
		fx.sandbox.control.setStatus('cashout', records[0].idCashout, 'ON_HOLD');
		const seen = await pollFor(trigger, MINUTE, MINUTE);
		expect(seen).toEqual([
			{ id: records[0].idCashout, status: 'ON_HOLD', previousStatus: 'PENDING' },
		]);
		expect(
			trigger.logs.filter((line) => line.level === 'warn').map((line) => line.message),
		).toEqual([expect.stringContaining('while its lastChangeDate stayed the same')]);
		expect(state(trigger).fullMemorySince).toBe(Math.floor(clock.now() / SECOND));
		await pollFor(trigger, MINUTE, MINUTE);
		expect(remembered(trigger)).toHaveLength(30);
		// A status change of a record beyond the old limit, with lastChangeDate still where it was.
		clock.advance(MINUTE);
		fx.sandbox.control.setStatus('cashout', records[20].idCashout, 'CANCELLED');
		expect(await pollFor(trigger, MINUTE, MINUTE)).toEqual([
			{ id: records[20].idCashout, status: 'CANCELLED', previousStatus: 'PENDING' },
		]);
	});

	test('polls a minute apart, the host clock 8 days ahead for one and back: nothing is emitted again, a cashout created afterwards alone, and older records are re-read from then on (as n8n ran it under libfaketime)', async () => {
		// A week of cashouts; New Record with the default ages (Automatic: records under 10 minutes
		// old every poll, older ones in tiers).
		const records = Array.from({ length: 7 * 48 }, (_, index) =>
			cashout(index * 30 * MINUTE + MINUTE),
		);
		const trigger = runner({ resource: 'cashout', event: 'newRecord' });
		expect(await trigger.poll()).toEqual({ items: null });
		const real = clock.now();
		// Only n8n's clock moves; the service's stays right (its Date header too).
		setDate(real + 8 * 24 * HOUR + MINUTE);
		fx.sandbox.clock.set(real + MINUTE);
		expect(await trigger.poll()).toEqual({ items: null });
		clock.set(real + 2 * MINUTE);
		expect(await trigger.poll()).toEqual({ items: null });
		fx.sandbox.log.clear();
		const emitted = await pollFor(trigger, 30 * MINUTE, MINUTE);
		expect(emitted).toEqual([]);
		// The re-reading of records over a day old goes on at once, not 8 days later.
		const dayOld = Math.floor(clock.now() / SECOND) - 24 * 3_600;
		expect(listed().some((entry) => Number(entry.query.to) < dayOld)).toBe(true);
		expect(records).toHaveLength(336);
		const fresh = cashout(0);
		expect(await pollFor(trigger, MINUTE, MINUTE)).toEqual([
			{ id: fresh.idCashout, status: 'PENDING', previousStatus: null },
		]);
	});

	test('a version 1 state is carried over when the node becomes version 2: nothing is emitted again, the next change once', async () => {
		const records = Array.from({ length: 50 }, (_, index) => cashout(index * HOUR + MINUTE));
		const database: PollDatabase = { staticData: {} };
		const before = runner({ resource: 'cashout', event: 'anyChange' }, database, 1);
		await before.poll();
		clock.advance(MINUTE);
		fx.sandbox.control.setStatus('cashout', records[3].idCashout, 'ON_HOLD');
		expect(events((await before.poll()).items)).toHaveLength(1);
		const after = runner(
			{ resource: 'cashout', event: 'anyChange', options: { maxRemembered: 10 } },
			database,
		);
		expect(await pollFor(after, 2 * HOUR, 10 * MINUTE)).toEqual([]);
		fx.sandbox.control.setStatus('cashout', records[40].idCashout, 'REJECTED');
		const emitted = await pollFor(after, 7 * HOUR, 10 * MINUTE);
		expect(emitted.map((event) => [event.id, event.status])).toEqual([
			[records[40].idCashout, 'REJECTED'],
		]);
	});
});

describe('Payments Service Trigger: a failed poll says what failed, for n8n’s durable poll scheduler', () => {
	let fx: Fixture;
	useTriggerWorld(START, (world) => ({ fx } = world), { once: true });
	beforeEach(() => {
		storeSandboxCredentials(fx.engine, fx.sandbox, String(MID));
		fx.sandbox.faults.clear();
		fx.sandbox.log.clear();
	});

	const failure = async (parameters: INodeParameters = {}) => {
		const trigger = new PollRunner(
			fx.engine,
			triggerWorkflow(
				{
					resource: 'cashout',
					event: 'anyChange',
					...parameters,
					options: { retryReads: false, ...(parameters.options as INodeParameters) },
				},
				undefined,
				2,
			),
			TRIGGER_NODE,
		);
		const outcome = await trigger.poll();
		expect(outcome.error).toBeDefined();
		return (outcome.error as unknown as { failure?: unknown }).failure;
	};

	test.each([
		[
			'a 429 is rate-limited, with the wait the service asked for',
			{ kind: 'status', status: 429, retryAfterSeconds: 120 },
			{ cause: 'rate-limited', retryAfterMs: 120_000 },
		],
		[
			'a 503 is temporarily-unavailable',
			{ kind: 'status', status: 503 },
			{ cause: 'temporarily-unavailable' },
		],
		[
			'a lost connection is temporarily-unavailable',
			{ kind: 'reset' },
			{ cause: 'temporarily-unavailable' },
		],
		[
			'a parameter the service refuses is configuration-invalid',
			{ kind: 'status', status: 412, body: { code: 18, description: 'period too long' } },
			{ cause: 'configuration-invalid' },
		],
	] as const)('%s', async (_name, fault, expected) => {
		fx.sandbox.faults.add({ method: 'GET', path: '/v1/cashouts', ...fault, times: 5 });
		expect(await failure()).toEqual(expected);
	});

	test('a refused login is credential-invalid', async () => {
		fx.engine.addCredential({
			id: CREDENTIAL_IDS.paymentsServiceSessionApi,
			name: 'Sandbox session, wrong secret',
			type: 'paymentsServiceSessionApi',
			data: {
				baseUrl: fx.sandbox.baseUrl,
				accessKey: fx.sandbox.credentials.session.accessKey,
				secretKey: 'not-the-secret',
				merchantId: String(MID),
			},
		});
		expect(await failure()).toEqual({ cause: 'credential-invalid' });
	});

	test('a parameter the node refuses before sending anything is configuration-invalid', async () => {
		expect(await failure({ options: { lookBackDays: -1 } })).toEqual({
			cause: 'configuration-invalid',
		});
		expect(fx.sandbox.log.find('GET', '/v1/cashouts')).toHaveLength(0);
	});
});
