import type { INodeParameters } from 'n8n-workflow';

import { storedSeen } from '../../../harness/pollState';
import { fakeDate, setDate } from '../../../harness/clock';
import { createEngine } from '../../../harness/engine';
import { storeSandboxCredentials, type Fixture } from '../../../harness/fixtures';
import { PollRunner } from '../../../harness/poll';
import { iso } from '../../../harness/records';
import {
	TRIGGER_NODE,
	triggerWorkflow as triggerWorkflowOf,
	useTriggerWorld,
	addCashout,
	type SharedClock,
	MINUTE,
	HOUR,
	DAY,
	MID,
	TRIGGER_START,
} from '../../../harness/trigger';

const START = TRIGGER_START;

// Both versions pass every case: version 2 differs only where a case says so (a memory bounded
// below the records a case makes, the re-reading by age), and its own cases are in ./memory.spec.ts.
describe.each([
	['1', 1, undefined],
	['2', 2, undefined],
	['2, Max Records Remembered 0', 2, 0],
])(
	'Payments Service Trigger version %s, polled through n8n-core’s PollContext',
	(_name, version, maxRemembered) => {
		const triggerWorkflow = (parameters: INodeParameters, credentialId?: string) =>
			triggerWorkflowOf(
				maxRemembered === undefined
					? parameters
					: {
							...parameters,
							options: { ...(parameters.options as INodeParameters), maxRemembered },
						},
				credentialId,
				version as number,
			);
		let fx: Fixture;
		let clock: SharedClock;
		// Merchant 1002 is empty; the generated history of the other merchants is not needed here
		// (generating it took a fifth of this file's time).
		useTriggerWorld(START, (world) => ({ fx, clock } = world));

		const cashout = (ageMs = 0, extra: Record<string, unknown> = {}) =>
			addCashout({ fx, clock }, ageMs, extra, MID);
		// These tests read the whole look-back on every poll unless they say otherwise; the re-reading
		// in turn has tests of its own below.
		const runner = (parameters: INodeParameters) =>
			new PollRunner(
				fx.engine,
				triggerWorkflow({
					...parameters,
					options: { rereadMinutes: '0', ...(parameters.options as INodeParameters | undefined) },
				}),
				TRIGGER_NODE,
			);
		const listed = (path = '/v1/cashouts') => fx.sandbox.log.find('GET', path);
		const ids = (items: Array<{ json: Record<string, unknown> }> | null, field = 'idCashout') =>
			(items ?? []).map((item) => item.json[field]);

		test('a Status filter the list does not have fails the poll before any request, naming the statuses; another case is that status', async () => {
			const bad = await runner({
				resource: 'cashout',
				event: 'newRecord',
				filters: { status: 'PAID' },
			}).poll();
			expect(bad.items).toBeNull();
			expect(bad.error?.message).toMatch(/Status.*status of cashouts.*"PAID"/);
			expect(fx.sandbox.log.entries()).toHaveLength(0);

			const ok = await runner({
				resource: 'cashout',
				event: 'newRecord',
				filters: { status: 'rejected' },
			}).poll();
			expect(ok.error).toBeUndefined();
			expect(listed().length).toBeGreaterThan(0);
			expect(listed().every((entry) => entry.query.Status === 'REJECTED')).toBe(true);
		});

		test('the first poll records a starting point and emits nothing; Fetch Test Event returns the newest match and saves nothing', async () => {
			for (let index = 0; index < 120; index++) cashout(index * 30 * MINUTE);
			const rejected = cashout(5 * MINUTE);
			fx.sandbox.control.setStatus('cashout', rejected.idCashout, 'REJECTED', {
				rejectionCode: 807,
				rejectionReason: 'Rejected by bank',
			});
			const trigger = runner({
				resource: 'cashout',
				event: 'statusChanged',
				toStatuses: ['REJECTED'],
			});

			const test = await trigger.poll({ mode: 'manual' });
			expect(test.error).toBeUndefined();
			expect(ids(test.items)).toEqual([rejected.idCashout]);
			expect(test.items![0].json.event).toMatchObject({
				type: 'statusChanged',
				previousStatus: null,
			});
			expect(trigger.staticData()).toEqual({});

			fx.sandbox.log.clear();
			const first = await trigger.poll();
			expect(first).toEqual({ items: null });
			// To Status REJECTED: the service is asked for REJECTED cashouts only, and only those are remembered.
			expect(fx.sandbox.log.find('GET', '/v1/cashouts').map((entry) => entry.query.Status)).toEqual(
				['REJECTED'],
			);
			const state = trigger.staticData().paymentsServiceTrigger as { baselineDone: boolean };
			expect(Object.keys(storedSeen(state)!)).toEqual([String(rejected.idCashout)]);
			expect(state.baselineDone).toBe(true);
			clock.advance(MINUTE);
			expect(await trigger.poll()).toEqual({ items: null });
		});

		test('Status Changed: one event per change seen, with the previous status; two changes between polls are one event', async () => {
			const a = cashout(HOUR);
			const b = cashout(HOUR);
			const c = cashout(HOUR);
			const trigger = runner({ resource: 'cashout', event: 'statusChanged', toStatuses: [] });
			await trigger.poll();

			clock.advance(5 * MINUTE);
			fx.sandbox.control.advanceCashout(a.idCashout, 'DELIVERED');
			fx.sandbox.control.advanceCashout(a.idCashout, 'REJECTED', {
				code: 801,
				reason: 'Account closed',
			}); // twice between polls
			fx.sandbox.control.setStatus('cashout', b.idCashout, 'ON_HOLD');
			fx.sandbox.control.setStatus('cashout', b.idCashout, 'PENDING'); // and back: no net change
			fx.sandbox.control.setStatus('cashout', c.idCashout, 'ON_HOLD');
			const late = cashout(30 * MINUTE, { status: 'DECLINED' }); // created before the poll, first seen now
			clock.advance(5 * MINUTE);
			const second = await trigger.poll();
			expect(second.error).toBeUndefined();
			const events = (second.items ?? []).map((item) => [
				item.json.idCashout,
				item.json.status,
				(item.json.event as { previousStatus: unknown }).previousStatus,
			]);
			expect(events).toEqual(
				expect.arrayContaining([
					[a.idCashout, 'REJECTED', 'PENDING'],
					[c.idCashout, 'ON_HOLD', 'PENDING'],
					[late.idCashout, 'DECLINED', null],
				]),
			);
			expect(events).toHaveLength(3);
			expect(second.items![0].json.event).toMatchObject({
				detectedAt: iso(Math.floor(clock.now() / 1000)),
			});

			clock.advance(5 * MINUTE);
			expect(await trigger.poll()).toEqual({ items: null });
		});

		test('To Status filters what is emitted; new records can be left out', async () => {
			const a = cashout(HOUR);
			const trigger = runner({
				resource: 'cashout',
				event: 'statusChanged',
				toStatuses: ['REJECTED'],
				options: { includeFirstSightings: false },
			});
			await trigger.poll();
			clock.advance(MINUTE);
			fx.sandbox.control.setStatus('cashout', a.idCashout, 'ON_HOLD');
			cashout(0, { status: 'REJECTED' });
			expect(await trigger.poll()).toEqual({ items: null });
			clock.advance(MINUTE);
			fx.sandbox.control.setStatus('cashout', a.idCashout, 'REJECTED');
			const rejected = await trigger.poll();
			expect(ids(rejected.items)).toEqual([a.idCashout]);
			expect(rejected.items![0].json.event).toMatchObject({
				type: 'statusChanged',
				previousStatus: 'ON_HOLD',
			});
		});

		test('New Record: created after activation, including a late arrival, each once', async () => {
			cashout(2 * HOUR);
			const trigger = runner({ resource: 'deposit', event: 'newRecord' });
			fx.sandbox.control.addDeposit({
				idMerchant: MID,
				creationDate: iso(Math.floor((clock.now() - HOUR) / 1000)),
			});
			await trigger.poll();
			clock.advance(10 * MINUTE);
			const fresh = fx.sandbox.control.addDeposit({ idMerchant: MID });
			// Created 20 minutes ago (before the last poll), visible only in 5 minutes.
			const late = fx.sandbox.control.addDeposit({
				idMerchant: MID,
				creationDate: iso(Math.floor((clock.now() - 20 * MINUTE) / 1000)),
				visibleAt: clock.now() + 5 * MINUTE,
			});
			const second = await trigger.poll();
			expect(ids(second.items, 'idDeposit')).toEqual([fresh.idDeposit]);
			clock.advance(10 * MINUTE);
			const third = await trigger.poll();
			if (maxRemembered === 0) {
				// The limit of a memory that holds no record one by one: listed 25 minutes after its
				// creation, more than the 15-minute read margin, it is taken as one read before.
				expect(third).toEqual({ items: null });
				return;
			}
			expect(ids(third.items, 'idDeposit')).toEqual([late.idDeposit]);
			expect(third.items![0].json.event).toMatchObject({
				type: 'newRecord',
				previousStatus: null,
				previousLastChangeDate: null,
			});
			clock.advance(10 * MINUTE);
			expect(await trigger.poll()).toEqual({ items: null });
		});

		test('Any Change: a moved lastChangeDate is an event carrying the previous one', async () => {
			const a = cashout(HOUR);
			const trigger = runner({ resource: 'cashout', event: 'anyChange' });
			await trigger.poll();
			const before = fx.sandbox.control
				.cashouts(MID)
				.find((record) => record.idCashout === a.idCashout)!.lastChangeDate;
			clock.advance(3 * MINUTE);
			fx.sandbox.control.advanceCashout(a.idCashout, 'DELIVERED');
			const polled = await trigger.poll();
			expect(ids(polled.items)).toEqual([a.idCashout]);
			expect(polled.items![0].json.event).toMatchObject({
				type: 'changed',
				previousStatus: 'PENDING',
				previousLastChangeDate: before,
			});
		});

		test('a failed poll throws, keeps the state as it was, and the next poll catches up', async () => {
			for (let index = 0; index < 80; index++) cashout(index * MINUTE + HOUR);
			const trigger = runner({ resource: 'cashout', event: 'statusChanged' });
			await trigger.poll();
			const stateBefore = trigger.staticData();
			clock.advance(MINUTE);
			const victims = fx.sandbox.control.cashouts(MID).slice(0, 3);
			for (const victim of victims)
				fx.sandbox.control.setStatus('cashout', victim.idCashout, 'ON_HOLD');
			// Page 1 keeps failing: the automatic retries (4 attempts) give up and the poll fails.
			fx.sandbox.faults.add({
				method: 'GET',
				path: '/v1/cashouts',
				kind: 'status',
				status: 503,
				skip: 1,
				times: 4,
			});
			const failed = await trigger.poll();
			expect(failed.items).toBeNull();
			expect(failed.error).toMatchObject({
				name: 'NodeApiError',
				message: expect.stringMatching(/records created .* \(page \d+\)/),
				description: expect.stringMatching(/Tried 4 times/),
			});
			expect(trigger.staticData()).toEqual(stateBefore);

			fx.sandbox.faults.add({ method: 'GET', path: '/v1/cashouts', kind: 'reset', times: 4 });
			expect((await trigger.poll()).error?.message).toMatch(/could not be reached/);
			expect(trigger.staticData()).toEqual(stateBefore);

			const recovered = await trigger.poll();
			expect(ids(recovered.items).sort()).toEqual(victims.map((victim) => victim.idCashout).sort());
			expect(await trigger.poll()).toEqual({ items: null });
		});

		test('a 429 asking for a longer wait than the retries honour fails the poll and carries the wait', async () => {
			const trigger = runner({ resource: 'cashout', event: 'statusChanged' });
			fx.sandbox.faults.add({
				path: '/v1/cashouts',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 45,
			});
			const polled = await trigger.poll();
			expect(polled.error).toMatchObject({
				message: expect.stringMatching(/too many requests \(429\)/),
				description: expect.stringMatching(/asked to wait 45 seconds/),
				context: expect.objectContaining({ retryAfterSeconds: 45 }),
			});
			expect(fx.sandbox.log.find('GET', '/v1/cashouts')).toHaveLength(1);
			expect(trigger.staticData()).toEqual({});
		});

		test('a 429 and a 503 are retried within the poll, which then succeeds', async () => {
			for (let index = 0; index < 60; index++) cashout(index * MINUTE + HOUR);
			const trigger = runner({ resource: 'cashout', event: 'statusChanged' });
			fx.sandbox.faults.add({
				path: '/v1/cashouts',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 0,
			});
			fx.sandbox.faults.add({ path: '/v1/cashouts', kind: 'status', status: 503, skip: 1 });
			const polled = await trigger.poll();
			expect(polled.error).toBeUndefined();
			expect(fx.sandbox.log.find('GET', '/v1/cashouts').map((entry) => entry.status)).toEqual([
				429, 200, 503, 200,
			]);
			const state = trigger.staticData().paymentsServiceTrigger as { baselineDone: boolean };
			expect(state.baselineDone).toBe(true);
			expect(Object.keys(storedSeen(state)!)).toHaveLength(60);
		});

		test('Max Items per Poll defers the rest, oldest change first, to the next poll', async () => {
			const records = [cashout(3 * HOUR), cashout(3 * HOUR), cashout(3 * HOUR)];
			const trigger = runner({
				resource: 'cashout',
				event: 'statusChanged',
				options: { maxItemsPerPoll: 2 },
			});
			await trigger.poll();
			for (const record of records) {
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
			}
			const first = await trigger.poll();
			expect(ids(first.items)).toEqual([records[0].idCashout, records[1].idCashout]);
			const second = await trigger.poll();
			expect(ids(second.items)).toEqual([records[2].idCashout]);
			expect(await trigger.poll()).toEqual({ items: null });
		});

		test('a poll budget too small for the look-back reads part of it, saves that, and continues next poll', async () => {
			// 30 days of cashouts, watched over 30 days in windows the budget cannot all cover.
			const all = Array.from({ length: 300 }, (_, index) => cashout(index * 2 * HOUR + HOUR));
			const trigger = runner({
				resource: 'cashout',
				event: 'statusChanged',
				options: { lookBackDays: 30 },
			});
			expect((await trigger.poll()).items).toBeNull();
			clock.advance(MINUTE);
			const changed = [all[0], all[150], all[299]];
			for (const record of changed)
				fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
			fx.sandbox.setLatency(40);
			clock.flow(); // the budget is measured on the node's clock, which must now run
			const emitted: unknown[] = [];
			let polls = 0;
			let partial = false;
			while (emitted.length < changed.length && polls < 40) {
				polls++;
				const outcome = await trigger.poll({ budgetMs: 150 });
				expect(outcome.error).toBeUndefined();
				emitted.push(...ids(outcome.items));
				partial =
					partial ||
					(trigger.staticData().paymentsServiceTrigger as { resumeFrom?: number }).resumeFrom !==
						undefined;
			}
			fx.sandbox.setLatency(0);
			expect(partial).toBe(true);
			expect(polls).toBeGreaterThan(1);
			expect([...emitted].sort()).toEqual(changed.map((record) => record.idCashout).sort());
			expect((await trigger.poll()).items).toBeNull();
		});

		test('changing the resource, event or a filter starts over from a new starting point', async () => {
			const a = cashout(HOUR);
			const database = { staticData: {} };
			const before = new PollRunner(
				fx.engine,
				triggerWorkflow({ resource: 'cashout', event: 'statusChanged' }),
				TRIGGER_NODE,
				database,
			);
			await before.poll();
			clock.advance(MINUTE);
			fx.sandbox.control.setStatus('cashout', a.idCashout, 'ON_HOLD');
			// The user edits the node of the active workflow: same stored static data, new parameters.
			const edited = triggerWorkflow({
				resource: 'cashout',
				event: 'statusChanged',
				filters: { country: 'BR' },
			});
			const after = new PollRunner(fx.engine, edited, TRIGGER_NODE, database);
			expect(await after.poll()).toEqual({ items: null });
			const state = after.staticData().paymentsServiceTrigger as {
				config: string;
				activatedAt: number;
			};
			expect(state.config).toContain('"country","BR"');
			expect(state.activatedAt).toBe(Math.floor(clock.now() / 1000));
		});

		test('polls moving between two processes (leadership changes) share nothing but the stored static data', async () => {
			// Worker A runs the TypeScript sources, worker B the built package: two separate module graphs.
			const workerB = await createEngine({ source: 'dist' });
			storeSandboxCredentials(workerB, fx.sandbox, String(MID));
			const database = { staticData: {} };
			const parameters = {
				resource: 'cashout',
				event: 'statusChanged',
				options: { rereadMinutes: '0' },
			};
			const a = new PollRunner(fx.engine, triggerWorkflow(parameters), TRIGGER_NODE, database);
			const b = new PollRunner(workerB, triggerWorkflow(parameters), TRIGGER_NODE, database);
			const records = [cashout(HOUR), cashout(HOUR), cashout(HOUR)];
			expect(await a.poll()).toEqual({ items: null });
			const steps: Array<[PollRunner, number]> = [
				[b, 0],
				[a, 1],
				[b, 2],
			];
			for (const [worker, index] of steps) {
				// The new leader activates the workflow from the database; the old one stops polling it.
				worker.restart();
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', records[index].idCashout, 'ON_HOLD');
				expect(ids((await worker.poll()).items)).toEqual([records[index].idCashout]);
			}
			clock.advance(MINUTE);
			a.restart();
			expect(await a.poll()).toEqual({ items: null });
			b.restart();
			expect(await b.poll()).toEqual({ items: null });
		});

		test('state stays bounded: records older than the look-back are forgotten', async () => {
			for (let index = 0; index < 50; index++) cashout(index * HOUR);
			const trigger = runner({
				resource: 'cashout',
				event: 'statusChanged',
				options: { lookBackDays: 1 },
			});
			await trigger.poll();
			const seen = () =>
				Object.keys(storedSeen(trigger.staticData().paymentsServiceTrigger)!).length;
			expect(seen()).toBe(25);
			clock.advance(12 * HOUR);
			await trigger.poll();
			expect(seen()).toBe(13);
			clock.advance(2 * DAY);
			await trigger.poll();
			expect(seen()).toBe(0);
		});
		describe('under n8n’s saving rule: static data saved only at activation and after a poll that emits', () => {
			const statusOf = (id: number) =>
				fx.sandbox.control.cashouts(MID).find((record) => record.idCashout === id)!.status;

			test('a change to a record first seen by a poll whose memory a restart lost is still emitted (Count New Records as Changes off)', async () => {
				const trigger = runner({
					resource: 'cashout',
					event: 'statusChanged',
					options: { includeFirstSightings: false },
				});
				expect(await trigger.poll()).toEqual({ items: null }); // activation: saved
				clock.advance(MINUTE);
				const fresh = cashout(0);
				expect(await trigger.poll()).toEqual({ items: null }); // sees it PENDING; emits nothing, saves nothing
				expect(Object.keys(storedSeen(trigger.savedStaticData().paymentsServiceTrigger)!)).toEqual(
					[],
				);
				trigger.restart();
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', fresh.idCashout, 'REJECTED');
				const after = await trigger.poll();
				expect(ids(after.items)).toEqual([fresh.idCashout]);
				expect(after.items![0].json.event).toMatchObject({ type: 'statusChanged' });
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
				// A record created and left in its first status is still no event.
				cashout(0);
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			});

			test('a lost save repeats nothing while the process lives; the next save carries it', async () => {
				const records = Array.from({ length: 6 }, () => cashout(HOUR));
				const trigger = runner({ resource: 'cashout', event: 'statusChanged' });
				await trigger.poll();
				clock.advance(MINUTE);
				for (const record of records)
					fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
				trigger.loseNextSave();
				expect(ids((await trigger.poll()).items)).toHaveLength(6);
				expect(trigger.counters.savesLost).toBe(1);
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', records[0].idCashout, 'CANCELLED');
				expect(ids((await trigger.poll()).items)).toEqual([records[0].idCashout]); // saved, with the six
				trigger.restart();
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			});

			test('limit of legacy saving: a lost save followed by a restart before the next save emits that poll’s events again', async () => {
				const records = Array.from({ length: 6 }, () => cashout(HOUR));
				const trigger = runner({ resource: 'cashout', event: 'statusChanged' });
				await trigger.poll();
				clock.advance(MINUTE);
				for (const record of records)
					fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
				trigger.loseNextSave();
				expect(ids((await trigger.poll()).items)).toHaveLength(6);
				trigger.restart();
				clock.advance(MINUTE);
				// The database holds nothing that says they were emitted (README, "Limits").
				expect(ids((await trigger.poll()).items)).toHaveLength(6);
			});

			test('durable cursors: a lost commit loses the execution with the cursor, so the next poll emits the events once', async () => {
				const records = Array.from({ length: 6 }, () => cashout(HOUR));
				const database = { staticData: {} };
				const trigger = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'cashout',
						event: 'statusChanged',
						options: { includeFirstSightings: false, rereadMinutes: '0' },
					}),
					TRIGGER_NODE,
					database,
					'durable',
				);
				expect(await trigger.poll()).toEqual({ items: null });
				clock.advance(MINUTE);
				const fresh = cashout(0);
				expect(await trigger.poll()).toEqual({ items: null }); // committed without an execution
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', fresh.idCashout, 'REJECTED');
				for (const record of records)
					fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
				trigger.loseNextSave();
				expect(await trigger.poll()).toEqual({ items: null }); // the transaction failed: no execution
				clock.advance(MINUTE);
				const again = await trigger.poll();
				expect(ids(again.items).sort()).toEqual(
					[fresh, ...records].map((record) => record.idCashout).sort(),
				);
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			});

			test('a Look-Back edit keeps the memory: changes pending at the edit are emitted, older records join the starting point', async () => {
				const records = Array.from({ length: 10 }, (_, index) => cashout(index * HOUR + HOUR));
				const older = cashout(9 * DAY); // outside 7 days, inside 10
				const database = { staticData: {} };
				const before = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'cashout',
						event: 'statusChanged',
						options: { rereadMinutes: '0' },
					}),
					TRIGGER_NODE,
					database,
				);
				await before.poll();
				clock.advance(MINUTE);
				for (const record of records)
					fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
				fx.sandbox.control.setStatus('cashout', older.idCashout, 'ON_HOLD');
				// Edited and saved: n8n re-activates the workflow from the database with the new parameters.
				const after = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'cashout',
						event: 'statusChanged',
						options: { rereadMinutes: '0', lookBackDays: 10 },
					}),
					TRIGGER_NODE,
					database,
				);
				const edited = await after.poll();
				expect(ids(edited.items).sort()).toEqual(records.map((record) => record.idCashout).sort());
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', older.idCashout, 'CANCELLED');
				expect(ids((await after.poll()).items)).toEqual([older.idCashout]);
				expect(statusOf(older.idCashout)).toBe('CANCELLED');
			});

			test('a start-over (another list filter) says in the log how many remembered records it dropped and since when changes are not reported', async () => {
				const records = Array.from({ length: 4 }, () => cashout(HOUR));
				const database = { staticData: {} };
				const before = new PollRunner(
					fx.engine,
					triggerWorkflow({ resource: 'cashout', event: 'statusChanged' }),
					TRIGGER_NODE,
					database,
				);
				await before.poll();
				clock.advance(MINUTE);
				for (const record of records)
					fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
				const after = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'cashout',
						event: 'statusChanged',
						filters: { country: 'BR' },
					}),
					TRIGGER_NODE,
					database,
				);
				expect(await after.poll()).toEqual({ items: null });
				const warning = after.logs.find((line) => line.level === 'warn');
				expect(warning?.message).toMatch(/starts over.*4 records/i);
				expect(warning?.metadata).toMatchObject({ droppedRecords: 4 });
			});

			test.each([
				['8 days', 'newRecord', 8 * DAY],
				['8 days', 'statusChanged', 8 * DAY],
				['1 day', 'newRecord', DAY],
				['1 day', 'statusChanged', DAY],
			])(
				'a host clock moved %s ahead and back re-emits nothing (%s), and the jump is logged',
				async (_, event, jump) => {
					// 7 days of cashouts, 20 a day, some changed before activation.
					const records = Array.from({ length: 140 }, (_, index) =>
						cashout(index * (DAY / 20) + MINUTE),
					);
					for (const record of records.slice(0, 30))
						fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
					const trigger = runner({ resource: 'cashout', event });
					expect(await trigger.poll()).toEqual({ items: null });
					const real = clock.now();
					clock.set(real + (jump as number));
					const ahead = await trigger.poll();
					clock.set(real + MINUTE);
					const back = await trigger.poll();
					expect([ids(ahead.items), ids(back.items)]).toEqual([[], []]);
					expect(
						trigger.logs.filter((line) => line.level === 'warn').map((line) => line.message),
					).toEqual([expect.stringMatching(/clock moved back/i)]);
					// Still watching: a change and a new record after the jump are each emitted once.
					clock.set(real + 2 * MINUTE);
					fx.sandbox.control.setStatus('cashout', records[5].idCashout, 'CANCELLED');
					const fresh = cashout(0);
					const next = await trigger.poll();
					expect(ids(next.items)).toEqual(
						event === 'newRecord' ? [fresh.idCashout] : [records[5].idCashout, fresh.idCashout],
					);
					clock.set(real + 3 * MINUTE);
					expect(await trigger.poll()).toEqual({ items: null });
				},
			);
		});

		test.each(['newRecord', 'statusChanged'])(
			'a record created while the host clock was ahead, or before the first poll that succeeds after it came back, is emitted once (%s)',
			async (event) => {
				// The service's clock stays right; only n8n's moves (the node's Date).
				const serviceAt = (ms: number) => fx.sandbox.clock.set(ms);
				const hostAt = (ms: number) => setDate(ms);
				for (let index = 0; index < 40; index++) cashout(index * (DAY / 20) + MINUTE);
				const trigger = runner({ resource: 'cashout', event });
				expect(await trigger.poll()).toEqual({ items: null });
				const real = clock.now();
				hostAt(real + 8 * DAY + MINUTE);
				serviceAt(real + MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
				serviceAt(real + 90_000);
				const whileAhead = cashout(0);
				// Back, and the first poll after it fails: nothing it read is kept.
				hostAt(real + 2 * MINUTE);
				serviceAt(real + 2 * MINUTE);
				fx.sandbox.faults.add({ path: '/v1/cashouts', kind: 'status', status: 400 });
				expect((await trigger.poll()).error).toBeDefined();
				hostAt(real + 150_000);
				serviceAt(real + 150_000);
				const beforeSuccess = cashout(0);
				hostAt(real + 3 * MINUTE);
				serviceAt(real + 3 * MINUTE);
				expect(ids((await trigger.poll()).items)).toEqual([
					whileAhead.idCashout,
					beforeSuccess.idCashout,
				]);
				hostAt(real + 4 * MINUTE);
				serviceAt(real + 4 * MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			},
		);

		test('a starting point cut short by the host clock jumping ahead: back, records created before the activation stay in it, one created after is emitted once', async () => {
			// 120 cashouts in one second an hour before activation (more than a page), and 40 over 2 days.
			const busy = Array.from({ length: 120 }, () => cashout(HOUR));
			for (let index = 0; index < 40; index++) cashout(index * (DAY / 20) + 2 * HOUR);
			const trigger = runner({ resource: 'cashout', event: 'newRecord' });
			const real = clock.now();
			// The first poll runs out of time after its first request: no window of it is read whole.
			fakeDate(real, { flowing: true });
			fx.sandbox.setLatency(5);
			expect(await trigger.poll({ budgetMs: 1 })).toEqual({ items: null });
			fx.sandbox.setLatency(0);
			const cut = trigger.staticData().paymentsServiceTrigger as { baselineDone: boolean };
			expect(cut.baselineDone).toBe(false);
			fakeDate(real + 8 * DAY + MINUTE);
			expect(await trigger.poll()).toEqual({ items: null });
			fx.sandbox.clock.set(real + 90_000);
			const whileAhead = cashout(0);
			setDate(real + 2 * MINUTE);
			fx.sandbox.clock.set(real + 2 * MINUTE);
			const back = await trigger.poll();
			expect(ids(back.items)).toEqual([whileAhead.idCashout]);
			expect(ids(back.items)).not.toContain(busy[0].idCashout);
			setDate(real + 3 * MINUTE);
			fx.sandbox.clock.set(real + 3 * MINUTE);
			expect(await trigger.poll()).toEqual({ items: null });
		});

		test('a second busier than a page is read page after page; the rest is peeled; every change once', async () => {
			const burst = Array.from({ length: 120 }, () => cashout(2 * HOUR)); // 120 cashouts in one second
			const around = Array.from({ length: 130 }, (_, index) => cashout(index * MINUTE + 3 * HOUR));
			const trigger = runner({ resource: 'cashout', event: 'statusChanged' });
			fx.sandbox.log.clear();
			expect(await trigger.poll()).toEqual({ items: null });
			const second = String(Math.floor((clock.now() - 2 * HOUR) / 1000));
			// From the busy second on (nothing is newer), pages 0, 1 and 2; everything else by first pages.
			expect(
				listed()
					.filter((entry) => entry.query.from === second)
					.map((entry) => entry.query.page),
			).toEqual(['0', '1', '2']);
			expect(
				listed()
					.filter((entry) => entry.query.page !== '0')
					.every((entry) => entry.query.from === second),
			).toBe(true);
			clock.advance(MINUTE);
			const changed = [burst[0], burst[77], burst[119], around[0], around[129]];
			for (const record of changed)
				fx.sandbox.control.setStatus('cashout', record.idCashout, 'ON_HOLD');
			expect(ids((await trigger.poll()).items).sort()).toEqual(
				changed.map((record) => record.idCashout).sort(),
			);
			clock.advance(MINUTE);
			expect(await trigger.poll()).toEqual({ items: null });
		});

		describe('polls whose cost follows the changes', () => {
			test('Status Changed to a status asks the service for that status only; previousStatus is null when never seen in another', async () => {
				const old = cashout(2 * DAY);
				const trigger = new PollRunner(
					fx.engine,
					triggerWorkflow({ resource: 'cashout', event: 'statusChanged', toStatuses: ['ON_HOLD'] }),
					TRIGGER_NODE,
				);
				await trigger.poll();
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', old.idCashout, 'ON_HOLD');
				fx.sandbox.log.clear();
				const held = await trigger.poll();
				expect(listed().every((entry) => entry.query.Status === 'ON_HOLD')).toBe(true);
				expect(ids(held.items)).toEqual([old.idCashout]);
				expect(held.items![0].json.event).toMatchObject({
					type: 'statusChanged',
					previousStatus: null,
				});

				// It leaves ON_HOLD (no longer listed) and comes back: a change again, reported once.
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', old.idCashout, 'PENDING');
				expect(await trigger.poll()).toEqual({ items: null });
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', old.idCashout, 'ON_HOLD');
				expect(ids((await trigger.poll()).items)).toEqual([old.idCashout]);
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			});

			test('several To Statuses: one read per status; each change reported once', async () => {
				const [a, b] = [cashout(3 * HOUR), cashout(3 * HOUR)];
				const trigger = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'cashout',
						event: 'statusChanged',
						toStatuses: ['REJECTED', 'CANCELLED'],
					}),
					TRIGGER_NODE,
				);
				await trigger.poll();
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('cashout', a.idCashout, 'CANCELLED');
				fx.sandbox.control.advanceCashout(b.idCashout, 'DELIVERED');
				fx.sandbox.control.advanceCashout(b.idCashout, 'REJECTED', { code: 801, reason: '' });
				fx.sandbox.log.clear();
				const polled = await trigger.poll();
				expect(new Set(listed().map((entry) => entry.query.Status))).toEqual(
					new Set(['CANCELLED', 'REJECTED']),
				);
				expect(ids(polled.items).sort()).toEqual([a.idCashout, b.idCashout].sort());
			});

			test('settings that would make narrowing unsound read every status', async () => {
				// Without new records a record entering the status would be new to a narrowed read.
				const noFirst = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'cashout',
						event: 'statusChanged',
						toStatuses: ['REJECTED'],
						options: { includeFirstSightings: false },
					}),
					TRIGGER_NODE,
				);
				fx.sandbox.log.clear();
				await noFirst.poll();
				expect(listed().every((entry) => entry.query.Status === undefined)).toBe(true);
				// CREATED is carried by records but not accepted by the deposit list's filter.
				const created = new PollRunner(
					fx.engine,
					triggerWorkflow({ resource: 'deposit', event: 'statusChanged', toStatuses: ['CREATED'] }),
					TRIGGER_NODE,
				);
				fx.sandbox.log.clear();
				await created.poll();
				expect(listed('/v1/deposits').every((entry) => entry.query.status === undefined)).toBe(
					true,
				);
			});

			test('New Record with a Status: a deposit created since activation, reported when first seen in that status', async () => {
				const before = fx.sandbox.control.addDeposit({
					idMerchant: MID,
					creationDate: iso(Math.floor((clock.now() - HOUR) / 1000)),
					status: 'PENDING',
				});
				const trigger = new PollRunner(
					fx.engine,
					triggerWorkflow({
						resource: 'deposit',
						event: 'newRecord',
						filters: { status: 'COMPLETED' },
					}),
					TRIGGER_NODE,
				);
				await trigger.poll();
				clock.advance(MINUTE);
				const fresh = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
				fx.sandbox.log.clear();
				expect(await trigger.poll()).toEqual({ items: null });
				expect(listed('/v1/deposits').every((entry) => entry.query.status === 'COMPLETED')).toBe(
					true,
				);
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('deposit', fresh.idDeposit, 'COMPLETED');
				fx.sandbox.control.setStatus('deposit', before.idDeposit, 'COMPLETED');
				expect(ids((await trigger.poll()).items, 'idDeposit')).toEqual([fresh.idDeposit]);
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			});

			// Version 2 re-reads by age: ./memory.spec.ts.
			if (version === 1)
				test('Any Change re-reads older records in turn: few requests a poll, each change seen once within the re-read period', async () => {
					// 7 days of cashouts, 150 a day.
					for (let index = 0; index < 7 * 150; index++) cashout(index * (DAY / 150) + MINUTE);
					const trigger = new PollRunner(
						fx.engine,
						triggerWorkflow({ resource: 'cashout', event: 'anyChange' }) /* Automatic: 1 hour */,
						TRIGGER_NODE,
					);
					fx.sandbox.log.clear();
					await trigger.poll();
					const startingPointRequests = listed().length;
					expect(startingPointRequests).toBeGreaterThan(20);

					const victims = fx.sandbox.control.cashouts(MID).filter((_, index) => index % 97 === 5);
					const changedAt = new Map<number, number>();
					const detected = new Map<number, number>();
					let requests = 0;
					for (let minute = 1; minute <= 75; minute++) {
						clock.advance(MINUTE);
						if (minute === 3) {
							for (const victim of victims) {
								fx.sandbox.control.setStatus('cashout', victim.idCashout, 'ON_HOLD');
								changedAt.set(victim.idCashout, minute);
							}
						}
						fx.sandbox.log.clear();
						const polled = await trigger.poll();
						expect(polled.error).toBeUndefined();
						requests += listed().length;
						for (const id of ids(polled.items) as number[]) {
							expect(detected.has(id)).toBe(false);
							detected.set(id, minute);
						}
					}
					// Every change seen once, none later than the re-read period plus one poll.
					expect([...detected.keys()].sort()).toEqual([...changedAt.keys()].sort());
					for (const [id, minute] of detected)
						expect(minute - changedAt.get(id)!).toBeLessThanOrEqual(61);
					expect(requests / 75).toBeLessThan(startingPointRequests / 4);
				});
		});
	},
);
