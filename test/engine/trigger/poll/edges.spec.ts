import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { storedSeen } from '../../../harness/pollState';

import { type Fixture } from '../../../harness/fixtures';
import { PollRunner, type PollDatabase, type SavingMode } from '../../../harness/poll';
import { packFormat1, type FormatOneState } from '../../../harness/pollFormat1';
import { iso } from '../../../harness/records';
import {
	TRIGGER_NODE,
	triggerWorkflow as triggerWorkflowOf,
	useTriggerWorld,
	addCashout,
	type SharedClock,
	SECOND,
	MINUTE,
	DAY,
	MID,
	TRIGGER_START,
} from '../../../harness/trigger';

/*
 * The polling trigger at the edges of its stored memory (issue 24): every value a record can bring
 * (a lastChangeDate any number of seconds after its creation, any number of statuses) is read back
 * as it was stored; and a record that leaves the wanted statuses and comes back is reported, also
 * when the poll that saw it leave emitted nothing (so n8n saved nothing) and n8n restarted.
 */

const START = TRIGGER_START;

/**
 * Offsets (seconds from creation to lastChangeDate) that cover every one- and two-digit base-36
 * value (0–1295) and its neighbours, then up to a day and beyond in steps, and the day's edges.
 */
function offsets(): number[] {
	const values = new Set<number>();
	for (let offset = 0; offset <= 1_300; offset++) values.add(offset);
	for (let offset = 1_301; offset <= DAY / SECOND; offset += 613) values.add(offset);
	for (const edge of [46_655, 46_656, 46_657, 86_399, 86_400, 86_401, 100_000, 172_000])
		values.add(edge);
	return [...values];
}

// Version 1; version 2 keeping every record these cases make (its default Max Records Remembered);
// version 2 keeping none one by one (every case by lastChangeDate against its reads).
describe.each([
	['1', 1, undefined],
	['2', 2, undefined],
	['2, Max Records Remembered 0', 2, 0],
])(
	'polling trigger version %s at the edges: stored markers, returns under n8n’s saving rule',
	(_name, version, maxRemembered) => {
		const triggerWorkflow = (parameters: INodeParameters) =>
			triggerWorkflowOf(
				maxRemembered === undefined
					? parameters
					: {
							...parameters,
							options: { ...(parameters.options as INodeParameters), maxRemembered },
						},
				undefined,
				version as number,
			);
		let fx: Fixture;
		let clock: SharedClock;
		useTriggerWorld(START, (world) => ({ fx, clock } = world));

		const cashout = (ageMs = 0) => addCashout({ fx, clock }, ageMs, {}, MID);
		const runner = (parameters: INodeParameters, mode: SavingMode = 'legacy') =>
			new PollRunner(
				fx.engine,
				triggerWorkflow({
					...parameters,
					options: { rereadMinutes: '0', ...(parameters.options as INodeParameters | undefined) },
				}),
				TRIGGER_NODE,
				{ staticData: {} },
				mode,
			);
		const ids = (items: Array<{ json: Record<string, unknown> }> | null, field = 'idCashout') =>
			(items ?? []).map((item) => item.json[field]);
		const setStatus = (id: number, status: string) =>
			fx.sandbox.control.setStatus('cashout', id, status);

		test('Any Change: records changed 0 s to 2 days after creation (23 s included) and in 35 statuses are reported once, then no event while left alone', async () => {
			const trigger = runner({
				resource: 'cashout',
				event: 'anyChange',
				options: { lookBackDays: 3, maxItemsPerPoll: 5_000 },
			});
			expect(await trigger.poll()).toEqual({ items: null });
			clock.advance(MINUTE);
			// The case as a user meets it: created, then held exactly 23 s later.
			const held = cashout();
			clock.advance(23 * SECOND);
			setStatus(held.idCashout, 'ON_HOLD');
			// Every other offset: created that long ago, changed now (lastChangeDate − creationDate = offset).
			const byOffset = offsets().map((offset) => cashout(offset * SECOND));
			// 35 statuses, so the status dictionary has an index 33 (and beyond).
			for (let index = 0; index < 35; index++)
				setStatus(byOffset[index * 10].idCashout, `STATUS_${String(index).padStart(2, '0')}`);
			clock.advance(MINUTE);

			const reported = ids((await trigger.poll()).items);
			const expected = [held, ...byOffset].map((record) => record.idCashout);
			expect(reported).toHaveLength(expected.length);
			expect(new Set(reported)).toEqual(new Set(expected));

			// Nothing changes on the service: nothing is emitted (before: the 23 s records and the
			// record whose status had index 33, on every poll, as PENDING → PENDING or X → X).
			for (let poll = 0; poll < 3; poll++) {
				clock.advance(MINUTE);
				const quiet = await trigger.poll();
				expect([poll, ids(quiet.items)]).toEqual([poll, []]);
			}
			// The next real change of the 23 s record carries the lastChangeDate it had.
			const previous = fx.sandbox.control
				.cashouts(MID)
				.find((record) => record.idCashout === held.idCashout)!.lastChangeDate;
			clock.advance(MINUTE);
			setStatus(held.idCashout, 'PENDING');
			const next = await trigger.poll();
			expect(ids(next.items)).toEqual([held.idCashout]);
			expect(next.items![0].json.event).toMatchObject({
				type: 'changed',
				previousStatus: 'ON_HOLD',
				previousLastChangeDate: previous,
			});
		});

		test('a state saved by format 1 holding a cashout changed 23 s after creation (packed `n`) is read as that: no event while left alone', async () => {
			const record = cashout();
			clock.advance(23 * SECOND);
			setStatus(record.idCashout, 'ON_HOLD');
			const changedAt = fx.sandbox.control
				.cashouts(MID)
				.find((entry) => entry.idCashout === record.idCashout)!.lastChangeDate;
			clock.advance(MINUTE);
			const database: PollDatabase = { staticData: {} };
			const parameters = {
				resource: 'cashout',
				event: 'anyChange',
				options: { rereadMinutes: '0' },
			};
			const trigger = new PollRunner(
				fx.engine,
				triggerWorkflow(parameters),
				TRIGGER_NODE,
				database,
			);
			expect(await trigger.poll()).toEqual({ items: null }); // the starting point, saved
			// n8n's database as the version before held it: the same memory in format 1.
			const node = `node:${TRIGGER_NODE}`;
			const saved = (database.staticData[node] as IDataObject)
				.paymentsServiceTrigger as IDataObject;
			const seen = storedSeen(saved)!;
			expect(Object.keys(seen)).toEqual([String(record.idCashout)]);
			const formatOne = packFormat1({
				...(saved as unknown as FormatOneState),
				v: 1,
				seen: Object.fromEntries(
					Object.entries(seen).map(([key, [status, lastChange, created]]) => [
						key,
						[status, lastChange ?? 0, created],
					]),
				),
			});
			expect(formatOne.packed).toMatch(/\.n$/);
			database.staticData = { [node]: { paymentsServiceTrigger: formatOne } };
			trigger.restart();

			for (let poll = 0; poll < 3; poll++) {
				clock.advance(MINUTE);
				expect([poll, await trigger.poll()]).toEqual([poll, { items: null }]); // before: an event each poll
			}
			clock.advance(MINUTE);
			setStatus(record.idCashout, 'PENDING');
			const next = await trigger.poll();
			expect(ids(next.items)).toEqual([record.idCashout]);
			expect(next.items![0].json.event).toMatchObject({
				previousStatus: 'ON_HOLD',
				previousLastChangeDate: changedAt,
			});
		});

		describe.each<[SavingMode, number]>([
			['legacy', 0],
			['durable', 1],
		])('limit, settlements (no lastChangeDate), %s saving', (mode, reported) => {
			test(`failed (saved), pending (not saved), restart, failed again: ${reported} of 1 reported`, async () => {
				const settlement = fx.sandbox.control.addSettlement({
					idMerchant: MID,
					creationDate: iso(Math.floor(clock.now() / 1000) - 3_600),
				});
				const trigger = runner(
					{ resource: 'settlement', event: 'statusChanged', toStatuses: ['FAILED'] },
					mode,
				);
				expect(await trigger.poll()).toEqual({ items: null });
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('settlement', settlement.id, 'FAILED');
				expect(ids((await trigger.poll()).items, 'id')).toEqual([settlement.id]);
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('settlement', settlement.id, 'PENDING');
				expect(await trigger.poll()).toEqual({ items: null });
				trigger.restart();
				clock.advance(MINUTE);
				fx.sandbox.control.setStatus('settlement', settlement.id, 'FAILED');
				// Legacy saving: nothing n8n saved, and nothing in the record, says it left (README, "Limits").
				// Durable poll cursors committed the poll that saw it leave.
				expect(ids((await trigger.poll()).items, 'id')).toHaveLength(reported);
			});
		});

		describe.each<[string, INodeParameters]>([
			[
				'Status Changed to ON_HOLD (asks for ON_HOLD only)',
				{ resource: 'cashout', event: 'statusChanged', toStatuses: ['ON_HOLD'] },
			],
			[
				'Status Changed to ON_HOLD, every status read (Count New Records as Changes off)',
				{
					resource: 'cashout',
					event: 'statusChanged',
					toStatuses: ['ON_HOLD'],
					options: { includeFirstSightings: false },
				},
			],
		])('%s', (_name, parameters) => {
			test('hold (saved), release (seen by a poll that emits nothing, so not saved), restart, hold again: the second hold is reported once', async () => {
				const record = cashout(DAY);
				const trigger = runner(parameters);
				expect(await trigger.poll()).toEqual({ items: null }); // activation: saved
				clock.advance(MINUTE);
				setStatus(record.idCashout, 'ON_HOLD');
				const first = await trigger.poll(); // emits: saved
				expect(ids(first.items)).toEqual([record.idCashout]);
				const firstHold = first.items![0].json.lastChangeDate;

				clock.advance(MINUTE);
				setStatus(record.idCashout, 'PENDING');
				expect(await trigger.poll()).toEqual({ items: null }); // sees the release; n8n saves nothing
				trigger.restart(); // n8n starts again from the state saved after the first hold

				clock.advance(MINUTE);
				setStatus(record.idCashout, 'ON_HOLD');
				const again = await trigger.poll();
				expect(ids(again.items)).toEqual([record.idCashout]);
				expect(again.items![0].json.event).toMatchObject({
					type: 'statusChanged',
					previousLastChangeDate: firstHold,
				});
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
				trigger.restart();
				clock.advance(MINUTE);
				expect(await trigger.poll()).toEqual({ items: null });
			});
		});
	},
);
