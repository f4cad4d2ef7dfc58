import { REPORTING_LISTS } from '../../../../nodes/PaymentsService/reporting/lists';
import { eventItem, observe } from '../../../../nodes/PaymentsService/trigger/poll/detection';
import {
	initialState,
	type TriggerState,
} from '../../../../nodes/PaymentsService/trigger/poll/memory';
import type { Observation } from '../../../../nodes/PaymentsService/trigger/poll/types';
import {
	HOUR,
	DAY,
	NOW,
	LOOK_BACK,
	START,
	config,
	obs,
	detect,
	afterStartingPoint,
	summary,
	remembered,
} from '../../../harness/pollState';

describe('observe', () => {
	test('a deposit gives its key, status and whole-second dates', () => {
		const record = {
			idDeposit: 12,
			status: 'PENDING',
			creationDate: '2023-11-14T22:13:20.999Z',
			lastChangeDate: '2023-11-14T22:13:21Z',
		};
		expect(observe(REPORTING_LISTS.deposit, record)).toEqual({
			key: '12',
			status: 'PENDING',
			lastChange: NOW + 1,
			created: NOW,
			record,
		});
	});

	test('a record without id or with an unreadable creation date cannot be tracked', () => {
		expect(
			observe(REPORTING_LISTS.deposit, { status: 'PENDING', creationDate: '2023-11-14T22:13:20Z' }),
		).toBeUndefined();
		expect(
			observe(REPORTING_LISTS.deposit, { idDeposit: 1, creationDate: 'yesterday' }),
		).toBeUndefined();
		expect(observe(REPORTING_LISTS.deposit, { idDeposit: 1 })).toBeUndefined();
	});

	test('lists without status or lastChangeDate give null for them', () => {
		const note = observe(REPORTING_LISTS.note, {
			id: 'n1',
			date: '2023-11-14T22:13:20Z',
			status: 'X',
			lastChangeDate: '2023-11-14T22:13:21Z',
		});
		expect(note).toMatchObject({ key: 'n1', status: null, lastChange: null, created: NOW });
		const settlement = observe(REPORTING_LISTS.settlement, {
			id: 's1',
			creationDate: '2023-11-14T22:13:20Z',
			status: 'PENDING',
			lastChangeDate: '2023-11-14T22:13:21Z',
		});
		expect(settlement).toMatchObject({ status: 'PENDING', lastChange: null });
	});
});

describe('detectEvents', () => {
	describe('starting point', () => {
		test('the starting-point poll emits nothing and remembers every record', () => {
			const cfg = config({ event: 'newRecord' });
			const result = detect(initialState(cfg, NOW), cfg, [
				obs('a', 'PENDING', START + 20, START + 10),
				obs('b', null, null, NOW),
			]);
			expect(result.events).toEqual([]);
			expect(result.state.baselineDone).toBe(true);
			expect(remembered(result.state, 'a')).toEqual({
				status: 'PENDING',
				lastChange: START + 20,
				created: START + 10,
			});
			expect(remembered(result.state, 'b')).toEqual({
				status: null,
				lastChange: null,
				created: NOW,
			});
		});

		test('a starting-point poll cut short leaves the starting point pending', () => {
			const cfg = config();
			const result = detect(initialState(cfg, NOW), cfg, [obs('a', 'PENDING', null, START + 10)], {
				complete: false,
			});
			expect(result.events).toEqual([]);
			expect(result.state.baselineDone).toBe(false);
			expect(Object.keys(result.state.seen)).toEqual(['a']);
		});

		test('once the starting point is done, a new record counts', () => {
			const cfg = config({ event: 'newRecord' });
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', null, START + 10)]);
			const result = detect(state, cfg, [
				obs('a', 'PENDING', null, START + 10),
				obs('b', 'PENDING', null, NOW - 5),
			]);
			expect(summary(result.events)).toEqual([['b', 'newRecord', null, 'PENDING']]);
		});

		test('a change of a record remembered by a cut-short starting-point poll is emitted', () => {
			const cfg = config();
			const first = detect(
				initialState(cfg, NOW),
				cfg,
				[obs('a', 'PENDING', START + 10, START + 10)],
				{ complete: false },
			);
			const second = detect(first.state, cfg, [
				obs('a', 'REJECTED', NOW - 5, START + 10),
				obs('b', 'PENDING', null, START + 20),
			]);
			expect(summary(second.events)).toEqual([['a', 'statusChanged', 'PENDING', 'REJECTED']]);
		});

		test('a record created after activation and first seen while a cut-short starting point is pending is a New Record', () => {
			// README: New Record = "created since activation"; every creation is emitted once, "also ... when a
			// poll is cut short". The activation poll read only part of a long look-back.
			const cfg = config({ event: 'newRecord', countNewRecords: false });
			const activatedAt = NOW - HOUR;
			const first = detect(
				initialState(cfg, activatedAt),
				cfg,
				[obs('old', 'PENDING', null, START + 10)],
				{
					complete: false,
					lookBackStart: activatedAt - LOOK_BACK,
				},
			);
			expect(first.state.baselineDone).toBe(false);
			// The next poll reads the rest: an old record (created before activation) and one created since.
			const second = detect(first.state, cfg, [
				obs('old', 'PENDING', null, START + 10),
				obs('older', 'PENDING', null, START + 5),
				obs('fresh', 'PENDING', null, NOW - 60),
			]);
			expect(summary(second.events)).toEqual([['fresh', 'newRecord', null, 'PENDING']]);
		});
	});

	describe('New Record', () => {
		const cfg = config({ event: 'newRecord', countNewRecords: false });

		test('a known record that changes status or lastChangeDate is no new record', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', START + 10, START + 10)]);
			expect(detect(state, cfg, [obs('a', 'COMPLETED', NOW, START + 10)]).events).toEqual([]);
		});

		test('a new record is emitted once', () => {
			const state = afterStartingPoint(cfg, []);
			const first = detect(state, cfg, [obs('a', 'PENDING', NOW - 10, NOW - 10)]);
			expect(summary(first.events)).toEqual([['a', 'newRecord', null, 'PENDING']]);
			expect(first.events[0].previousLastChange).toBeNull();
			expect(detect(first.state, cfg, [obs('a', 'PENDING', NOW - 10, NOW - 10)]).events).toEqual(
				[],
			);
		});

		test('the status filter emits only records currently in that status, case-insensitively', () => {
			const filtered = config({ event: 'newRecord', status: 'completed' });
			const state = afterStartingPoint(filtered, []);
			const result = detect(state, filtered, [
				obs('a', 'PENDING', null, NOW - 10),
				obs('b', 'COMPLETED', null, NOW - 9),
				obs('c', null, null, NOW - 8),
			]);
			expect(summary(result.events)).toEqual([['b', 'newRecord', null, 'COMPLETED']]);
		});

		test('with a status filter, a new record is reported once, when first seen in that status', () => {
			const filtered = config({ event: 'newRecord', status: 'COMPLETED' });
			const first = detect(afterStartingPoint(filtered, []), filtered, [
				obs('a', 'PENDING', null, NOW - 10),
			]);
			expect(first.events).toEqual([]);
			// Not remembered in another status, so reaching COMPLETED later is the first time it is seen.
			expect(remembered(first.state, 'a')).toBeUndefined();
			const completed = detect(first.state, filtered, [obs('a', 'COMPLETED', null, NOW - 10)]);
			expect(summary(completed.events)).toEqual([['a', 'newRecord', null, 'COMPLETED']]);
			expect(
				detect(completed.state, filtered, [obs('a', 'COMPLETED', null, NOW - 10)]).events,
			).toEqual([]);
		});

		test('with a status filter, a record created before activation that reaches the status later is no new record', () => {
			const filtered = config({ event: 'newRecord', status: 'COMPLETED' });
			const state = afterStartingPoint(filtered, [obs('old', 'PENDING', null, START + 10)]);
			expect(detect(state, filtered, [obs('old', 'COMPLETED', null, START + 10)]).events).toEqual(
				[],
			);
		});
	});

	describe('Status Changed', () => {
		const cfg = config({ event: 'statusChanged' });

		test('a different status is a change from the status seen last', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			const result = detect(state, cfg, [obs('a', 'REJECTED', NOW - 10, START + 10)]);
			expect(summary(result.events)).toEqual([['a', 'statusChanged', 'PENDING', 'REJECTED']]);
			expect(result.events[0].previousLastChange).toBe(START + 50);
			expect(remembered(result.state, 'a')).toEqual({
				status: 'REJECTED',
				lastChange: NOW - 10,
				created: START + 10,
			});
			expect(
				detect(result.state, cfg, [obs('a', 'REJECTED', NOW - 10, START + 10)]).events,
			).toEqual([]);
		});

		test('a moved lastChangeDate with the same status is no status change', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			expect(detect(state, cfg, [obs('a', 'PENDING', NOW, START + 10)]).events).toEqual([]);
		});

		test('a change and its undo between two polls cancel out', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			expect(detect(state, cfg, [obs('a', 'PENDING', NOW - 5, START + 10)]).events).toEqual([]);
		});

		test('a status that appears or disappears (null) is a change', () => {
			const state = afterStartingPoint(cfg, [
				obs('a', null, null, START + 10),
				obs('b', 'PENDING', null, START + 10),
			]);
			const result = detect(state, cfg, [
				obs('a', 'PENDING', null, START + 10),
				obs('b', null, null, START + 10),
			]);
			expect(summary(result.events)).toEqual([
				['a', 'statusChanged', null, 'PENDING'],
				['b', 'statusChanged', 'PENDING', null],
			]);
		});

		test('To Statuses emits only changes to those statuses, case-insensitively', () => {
			const wanted = config({ event: 'statusChanged', toStatuses: ['rejected', 'CANCELLED'] });
			const state = afterStartingPoint(wanted, [
				obs('a', 'PENDING', null, START + 1),
				obs('b', 'PENDING', null, START + 2),
				obs('c', 'PENDING', null, START + 3),
			]);
			const result = detect(state, wanted, [
				obs('a', 'REJECTED', null, START + 1),
				obs('b', 'ON_HOLD', null, START + 2),
				obs('c', 'CANCELLED', null, START + 3),
			]);
			expect(summary(result.events)).toEqual([
				['a', 'statusChanged', 'PENDING', 'REJECTED'],
				['c', 'statusChanged', 'PENDING', 'CANCELLED'],
			]);
		});

		test('a change filtered out by To Statuses is consumed: not emitted later, and the next change starts from it', () => {
			const wanted = config({ event: 'statusChanged', toStatuses: ['REJECTED'] });
			const state = afterStartingPoint(wanted, [obs('a', 'PENDING', START + 10, START + 1)]);
			const unwanted = detect(state, wanted, [obs('a', 'ON_HOLD', START + 20, START + 1)]);
			expect(unwanted.events).toEqual([]);
			expect(remembered(unwanted.state, 'a')?.status).toBe('ON_HOLD');
			expect(
				detect(unwanted.state, wanted, [obs('a', 'ON_HOLD', START + 20, START + 1)]).events,
			).toEqual([]);
			const rejected = detect(unwanted.state, wanted, [
				obs('a', 'REJECTED', START + 30, START + 1),
			]);
			expect(summary(rejected.events)).toEqual([['a', 'statusChanged', 'ON_HOLD', 'REJECTED']]);
			expect(rejected.events[0].previousLastChange).toBe(START + 20);
		});

		test('with Count New Records as Changes a record first seen after the starting point is a change to its first status', () => {
			const state = afterStartingPoint(cfg, []);
			const result = detect(state, cfg, [obs('a', 'REJECTED', NOW - 5, NOW - 10)]);
			expect(summary(result.events)).toEqual([['a', 'statusChanged', null, 'REJECTED']]);
		});

		test('a new record must also pass To Statuses', () => {
			const wanted = config({ event: 'statusChanged', toStatuses: ['REJECTED'] });
			const state = afterStartingPoint(wanted, []);
			const result = detect(state, wanted, [
				obs('a', 'PENDING', null, NOW - 10),
				obs('b', 'REJECTED', null, NOW - 9),
			]);
			expect(summary(result.events)).toEqual([['b', 'statusChanged', null, 'REJECTED']]);
			expect(remembered(result.state, 'a')?.status).toBe('PENDING');
		});

		test('without Count New Records as Changes a new record is remembered silently and its later change emitted', () => {
			const quiet = config({ event: 'statusChanged', countNewRecords: false });
			const state = afterStartingPoint(quiet, []);
			const first = detect(state, quiet, [obs('a', 'PENDING', null, NOW - 10)]);
			expect(first.events).toEqual([]);
			expect(remembered(first.state, 'a')?.status).toBe('PENDING');
			expect(
				summary(detect(first.state, quiet, [obs('a', 'REJECTED', null, NOW - 10)]).events),
			).toEqual([['a', 'statusChanged', 'PENDING', 'REJECTED']]);
		});
	});

	describe('Any Change', () => {
		const cfg = config({ event: 'anyChange' });

		test('a moved lastChangeDate is a change, also with the same status', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			const result = detect(state, cfg, [obs('a', 'PENDING', START + 51, START + 10)]);
			expect(summary(result.events)).toEqual([['a', 'changed', 'PENDING', 'PENDING']]);
			expect(result.events[0].previousLastChange).toBe(START + 50);
		});

		test('a status change without lastChangeDate is a change', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', null, START + 10)]);
			expect(summary(detect(state, cfg, [obs('a', 'COMPLETED', null, START + 10)]).events)).toEqual(
				[['a', 'changed', 'PENDING', 'COMPLETED']],
			);
		});

		test('a lastChangeDate that appears is a change', () => {
			const state = afterStartingPoint(cfg, [obs('a', 'PENDING', null, START + 10)]);
			expect(
				summary(detect(state, cfg, [obs('a', 'PENDING', START + 20, START + 10)]).events),
			).toEqual([['a', 'changed', 'PENDING', 'PENDING']]);
		});

		test('an unchanged record, or one whose lastChangeDate went back with the same status, is no change', () => {
			const state = afterStartingPoint(cfg, [
				obs('a', 'PENDING', START + 50, START + 10),
				obs('b', 'PENDING', START + 50, START + 10),
			]);
			expect(
				detect(state, cfg, [
					obs('a', 'PENDING', START + 50, START + 10),
					obs('b', 'PENDING', START + 40, START + 10),
				]).events,
			).toEqual([]);
		});

		test('the status filter emits only records currently in that status, and consumes the others', () => {
			const filtered = config({ event: 'anyChange', status: 'COMPLETED' });
			const state = afterStartingPoint(filtered, [obs('a', 'PENDING', START + 50, START + 10)]);
			const onHold = detect(state, filtered, [obs('a', 'ON_HOLD', START + 60, START + 10)]);
			expect(onHold.events).toEqual([]);
			expect(
				detect(onHold.state, filtered, [obs('a', 'ON_HOLD', START + 60, START + 10)]).events,
			).toEqual([]);
			const completed = detect(onHold.state, filtered, [
				obs('a', 'COMPLETED', START + 70, START + 10),
			]);
			expect(summary(completed.events)).toEqual([['a', 'changed', 'ON_HOLD', 'COMPLETED']]);
		});

		test('new records are changes with Count New Records as Changes; without, only a record changed after its creation is', () => {
			const withFirst = detect(afterStartingPoint(cfg, []), cfg, [
				obs('a', 'PENDING', NOW - 10, NOW - 10),
			]);
			expect(summary(withFirst.events)).toEqual([['a', 'changed', null, 'PENDING']]);
			const quiet = config({ event: 'anyChange', countNewRecords: false });
			const without = detect(afterStartingPoint(quiet, []), quiet, [
				obs('a', 'PENDING', NOW - 10, NOW - 10),
				obs('b', 'REJECTED', NOW - 5, NOW - 10),
			]);
			// b changed after it was created: an event even though no poll saw it before (a restart may
			// have lost the memory of the poll that did).
			expect(summary(without.events)).toEqual([['b', 'changed', null, 'REJECTED']]);
			expect(remembered(without.state, 'a')).toEqual({
				status: 'PENDING',
				lastChange: NOW - 10,
				created: NOW - 10,
			});
		});
	});

	describe('Max Items per Poll', () => {
		const cfg = config({ event: 'statusChanged' });
		const before = [
			obs('e', 'PENDING', START + 100, START + 1),
			obs('d', 'PENDING', START + 100, START + 2),
			obs('c', 'PENDING', START + 100, START + 3),
		];
		const after = [
			obs('e', 'REJECTED', NOW - 10, START + 1),
			obs('d', 'REJECTED', NOW - 30, START + 2),
			obs('c', 'REJECTED', NOW - 30, START + 3),
			obs('b', 'PENDING', null, NOW - 40), // new record, oldest by creation
			obs('a', 'PENDING', null, NOW - 5), // new record, newest
		];

		test('events are emitted oldest change first (lastChangeDate, else creation), ties by key', () => {
			const result = detect(afterStartingPoint(cfg, before), cfg, after);
			expect(result.events.map((event) => event.observation.key)).toEqual([
				'b',
				'c',
				'd',
				'e',
				'a',
			]);
		});

		test('the rest is deferred oldest first and emitted by the next polls, none repeated', () => {
			let state = afterStartingPoint(cfg, before);
			const batches: string[][] = [];
			for (let poll = 0; poll < 4; poll++) {
				const result = detect(state, cfg, after, { maxEvents: 2 });
				batches.push(result.events.map((event) => event.observation.key));
				state = result.state;
			}
			expect(batches).toEqual([['b', 'c'], ['d', 'e'], ['a'], []]);
		});

		test('a deferred record keeps its old entry (or none), so its event still names the status seen before', () => {
			const result = detect(afterStartingPoint(cfg, before), cfg, after, { maxEvents: 2 });
			expect(remembered(result.state, 'c')?.status).toBe('REJECTED');
			expect(remembered(result.state, 'd')).toEqual({
				status: 'PENDING',
				lastChange: START + 100,
				created: START + 2,
			});
			expect(remembered(result.state, 'a')).toBeUndefined();
			expect(remembered(result.state, 'b')?.status).toBe('PENDING');
			const next = detect(result.state, cfg, after, { maxEvents: 1 });
			expect(summary(next.events)).toEqual([['d', 'statusChanged', 'PENDING', 'REJECTED']]);
			expect(next.events[0].previousLastChange).toBe(START + 100);
		});

		test('a deferred change that changes again before the next poll is one event from the status seen before', () => {
			const first = detect(afterStartingPoint(cfg, before), cfg, after, { maxEvents: 1 });
			const moved = after.map((observation) =>
				observation.key === 'e' ? obs('e', 'CANCELLED', NOW - 1, START + 1) : observation,
			);
			const rest = detect(first.state, cfg, moved);
			expect(summary(rest.events).filter(([key]) => key === 'e')).toEqual([
				['e', 'statusChanged', 'PENDING', 'CANCELLED'],
			]);
		});

		test('maxEvents 0 emits nothing and consumes nothing wanted', () => {
			const state = afterStartingPoint(cfg, before);
			const result = detect(state, cfg, after, { maxEvents: 0 });
			expect(result.events).toEqual([]);
			expect(detect(result.state, cfg, after).events).toHaveLength(5);
		});
	});

	describe('pruning', () => {
		test('entries created before lookBackStart are forgotten, observed or not; entries at lookBackStart are kept', () => {
			const cfg = config();
			const state = afterStartingPoint(cfg, [
				obs('old', 'PENDING', null, START),
				obs('edge', 'PENDING', null, START + 100),
				obs('young', 'PENDING', null, START + 200),
			]);
			const result = detect(state, cfg, [obs('young', 'PENDING', null, START + 200)], {
				lookBackStart: START + 100,
			});
			expect(Object.keys(result.state.seen).sort()).toEqual(['edge', 'young']);
		});

		test('an observation created before lookBackStart is not remembered', () => {
			const cfg = config({ event: 'newRecord' });
			const result = detect(afterStartingPoint(cfg, []), cfg, [
				obs('ancient', 'PENDING', null, START - 1),
			]);
			expect(result.state.seen).toEqual({});
		});

		test('entries within the look-back that this poll did not read are kept', () => {
			const cfg = config();
			const state = afterStartingPoint(cfg, [
				obs('a', 'PENDING', null, START + 1),
				obs('b', 'REJECTED', null, START + 2),
			]);
			const result = detect(state, cfg, [obs('b', 'REJECTED', null, START + 2)], {
				complete: false,
			});
			expect(remembered(result.state, 'a')).toEqual({
				status: 'PENDING',
				lastChange: null,
				created: START + 1,
			});
		});
	});

	describe('state', () => {
		test('the input state is not changed (deferral, pruning, new statuses)', () => {
			const cfg = config({ event: 'statusChanged', toStatuses: ['REJECTED', 'CANCELLED'] });
			const state = afterStartingPoint(cfg, [
				obs('gone', 'ON_HOLD', START + 5, START),
				obs('a', 'PENDING', START + 5, START + 10),
				obs('b', 'PENDING', START + 6, START + 11),
				obs('c', 'DELIVERED', START + 7, START + 12),
			]);
			const copy: unknown = JSON.parse(JSON.stringify(state));
			detect(
				state,
				cfg,
				[
					obs('a', 'REJECTED', NOW - 3, START + 10),
					obs('b', 'CANCELLED', NOW - 2, START + 11),
					obs('c', 'COMPLETED', NOW - 1, START + 12),
					obs('new', 'REJECTED', NOW - 1, NOW - 1),
				],
				{ maxEvents: 1, lookBackStart: START + 1 },
			);
			expect(state).toEqual(copy);
		});

		test('the statuses dictionary keeps only statuses still referenced, once each', () => {
			const cfg = config();
			const state = afterStartingPoint(cfg, [
				obs('a', 'PENDING', null, START + 1),
				obs('b', 'ON_HOLD', null, START + 10),
				obs('c', 'DELIVERED', null, START + 10),
				obs('d', null, null, START + 10),
			]);
			expect([...state.statuses].sort()).toEqual(['DELIVERED', 'ON_HOLD', 'PENDING']);
			const result = detect(
				state,
				cfg,
				[
					obs('b', 'COMPLETED', null, START + 10),
					obs('c', 'COMPLETED', null, START + 10),
					obs('d', 'COMPLETED', null, START + 10),
					obs('e', 'DELIVERED', null, START + 10),
				],
				{ lookBackStart: START + 5 },
			);
			expect([...result.state.statuses].sort()).toEqual(['COMPLETED', 'DELIVERED']);
			expect(remembered(result.state, 'b')?.status).toBe('COMPLETED');
			expect(remembered(result.state, 'd')?.status).toBe('COMPLETED');
			expect(remembered(result.state, 'e')?.status).toBe('DELIVERED');
			expect('a' in result.state.seen).toBe(false);
		});

		test('entries not observed keep their status after the dictionary is compacted', () => {
			const cfg = config();
			const state = afterStartingPoint(cfg, [
				obs('a', 'PENDING', null, START + 1),
				obs('b', 'ON_HOLD', null, START + 2),
				obs('c', 'DELIVERED', null, START + 3),
			]);
			const result = detect(state, cfg, [obs('a', 'COMPLETED', null, START + 1)], {
				complete: false,
			});
			expect(remembered(result.state, 'b')?.status).toBe('ON_HOLD');
			expect(remembered(result.state, 'c')?.status).toBe('DELIVERED');
			expect(remembered(result.state, 'a')?.status).toBe('COMPLETED');
			expect(result.state.statuses).toHaveLength(3);
		});

		test('a completed poll marks the starting point done and keeps the other fields', () => {
			const cfg = config();
			const state: TriggerState = {
				...initialState(cfg, NOW - HOUR),
				resumeFrom: START + 5,
				windowSeconds: 2 * DAY,
			};
			const result = detect(state, cfg, []);
			expect(result.state).toEqual({
				...state,
				baselineDone: true,
				knownFrom: START,
				statuses: [],
				seen: {},
			});
		});
	});
});

describe('eventItem', () => {
	test('the item is the record plus the event, with ISO dates without milliseconds', () => {
		const observation: Observation = {
			...obs('a', 'REJECTED', NOW - 5, START),
			record: { idCashout: 'a', status: 'REJECTED', amount: 10 },
		};
		const item = eventItem(
			{
				observation,
				type: 'statusChanged',
				previousStatus: 'PENDING',
				previousLastChange: NOW - 10_000,
			},
			NOW,
		);
		expect(item).toEqual({
			idCashout: 'a',
			status: 'REJECTED',
			amount: 10,
			event: {
				type: 'statusChanged',
				previousStatus: 'PENDING',
				previousLastChangeDate: '2023-11-14T19:26:40Z',
				detectedAt: '2023-11-14T22:13:20Z',
			},
		});
	});

	test('unknown previous values are null', () => {
		const item = eventItem(
			{
				observation: obs('a', 'PENDING', null, NOW),
				type: 'newRecord',
				previousStatus: null,
				previousLastChange: null,
			},
			NOW,
		);
		expect(item.event).toEqual({
			type: 'newRecord',
			previousStatus: null,
			previousLastChangeDate: null,
			detectedAt: '2023-11-14T22:13:20Z',
		});
	});

	test('the record passed in is not changed', () => {
		const observation = obs('a', 'PENDING', null, NOW);
		eventItem(
			{ observation, type: 'newRecord', previousStatus: null, previousLastChange: null },
			NOW,
		);
		expect(observation.record).toEqual({ id: 'a', status: 'PENDING' });
	});
});
