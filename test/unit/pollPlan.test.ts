/**
 * What the polling trigger runs each poll (PaymentsServiceTrigger.node.ts): which statuses it asks
 * for (narrowedStatuses), which windows it reads (planPoll), and where the next poll goes on
 * (advanceAfterPoll). Results only: the statuses, the windows covered, the state after.
 */
import { SECONDS_PER_DAY } from '../../nodes/PaymentsService/codes/service';
import { REPORTING_LISTS } from '../../nodes/PaymentsService/reporting/lists';
import type { TimeWindow } from '../../nodes/PaymentsService/reporting/windows';
import { initialState, type TriggerState } from '../../nodes/PaymentsService/trigger/poll/memory';
import {
	advanceAfterPoll,
	MIN_TRIGGER_WINDOW_SECONDS,
	narrowedStatuses,
	planPoll,
} from '../../nodes/PaymentsService/trigger/poll/plan';
import type { TriggerConfig } from '../../nodes/PaymentsService/trigger/poll/types';
import { resolveConfig, type TriggerSettings } from '../harness/triggerConfig';

const HOUR = 3_600;
const DAY = SECONDS_PER_DAY;
/** 2023-11-14T22:13:20Z */
const NOW = 1_700_000_000;
const LOOK_BACK_START = NOW - 7 * DAY;

function config(overrides: Partial<TriggerSettings> = {}): TriggerConfig {
	return resolveConfig({
		resource: 'cashout',
		event: 'statusChanged',
		filters: {},
		toStatuses: [],
		status: '',
		lookBackSeconds: 7 * DAY,
		includeFirstSightings: true,
		rereadSeconds: 0,
		...overrides,
	});
}

/** A state whose starting point is complete, with the re-reading clock and position given. */
function settled(cfg: TriggerConfig, sweep: { clock?: number; from?: number } = {}): TriggerState {
	return {
		...initialState(cfg, NOW - 30 * DAY),
		baselineDone: true,
		sweepClock: sweep.clock,
		sweepFrom: sweep.from,
	};
}

/** The seconds the windows cover, as [from, to] ranges merged; throws on a gap or an overlap within a range. */
function covered(windows: TimeWindow[]): Array<[number, number]> {
	const sorted = [...windows].sort((a, b) => a.from - b.from);
	const ranges: Array<[number, number]> = [];
	for (const window of sorted) {
		const last = ranges.at(-1);
		if (last && window.from <= last[1]) throw new Error(`windows overlap at ${window.from}`);
		if (last && window.from === last[1] + 1) last[1] = window.to;
		else ranges.push([window.from, window.to]);
	}
	return ranges;
}

describe('narrowedStatuses: the statuses a poll asks the service for', () => {
	test('Status Changed to REJECTED, first sightings counted: only REJECTED cashouts are read', () => {
		expect(narrowedStatuses(config({ toStatuses: ['rejected'] }))).toEqual(['REJECTED']);
	});

	test('without Include First Sightings every status is read (a record entering REJECTED would be new to a narrowed read)', () => {
		expect(
			narrowedStatuses(config({ toStatuses: ['REJECTED'], includeFirstSightings: false })),
		).toBeUndefined();
	});

	test('New Record with a Status filter reads that status; without one, every status', () => {
		expect(
			narrowedStatuses(
				config({ event: 'newRecord', status: 'pending', includeFirstSightings: false }),
			),
		).toEqual(['PENDING']);
		expect(narrowedStatuses(config({ event: 'newRecord' }))).toBeUndefined();
	});

	test('a status the list filter does not accept, or a list without a status filter, reads every status', () => {
		expect(narrowedStatuses(config({ toStatuses: ['REJECTED', 'NOT_A_STATUS'] }))).toBeUndefined();
		const unfiltered = Object.values(REPORTING_LISTS).find((candidate) => !candidate.statusParam);
		expect(unfiltered).toBeDefined();
		expect(
			narrowedStatuses(config({ resource: unfiltered!.resource, toStatuses: ['PENDING'] })),
		).toBeUndefined();
	});

	test('several wanted statuses are asked for once each, sorted', () => {
		expect(narrowedStatuses(config({ toStatuses: ['REJECTED', 'on_hold', 'ON_HOLD'] }))).toEqual([
			'ON_HOLD',
			'REJECTED',
		]);
	});
});

describe('planPoll: the windows one poll reads', () => {
	test('before the starting point is complete, the whole look-back, once', () => {
		const plan = planPoll(
			initialState(config(), NOW),
			config({ rereadSeconds: DAY }),
			LOOK_BACK_START,
			NOW,
		);
		expect(plan.slice).toBeUndefined();
		expect(covered(plan.windows)).toEqual([[LOOK_BACK_START, NOW]]);
	});

	test('with re-reading off (0), every poll reads the whole look-back', () => {
		const plan = planPoll(settled(config()), config(), LOOK_BACK_START, NOW);
		expect([plan.slice, covered(plan.windows)]).toEqual([undefined, [[LOOK_BACK_START, NOW]]]);
	});

	test('re-reading every day, an hour after the last slice: the last day, then 1/24 of the older records, newest first', () => {
		const cfg = config({ rereadSeconds: DAY });
		const plan = planPoll(settled(cfg, { clock: NOW - HOUR }), cfg, LOOK_BACK_START, NOW);
		const olderEnd = NOW - DAY;
		const sliceLength = Math.ceil((olderEnd - LOOK_BACK_START + 1) / 24);
		expect(plan.slice).toEqual({ count: 1, lowest: olderEnd - sliceLength + 1, top: olderEnd });
		const recent = plan.windows.slice(0, plan.windows.length - plan.slice!.count);
		const slice = plan.windows.slice(plan.windows.length - plan.slice!.count);
		expect(covered(recent)).toEqual([[olderEnd + 1, NOW]]);
		expect(covered(slice)).toEqual([[olderEnd - sliceLength + 1, olderEnd]]);
	});

	test('the next slice starts where the last one stopped (sweepFrom), and a full period since reads all older records', () => {
		const cfg = config({ rereadSeconds: DAY });
		const from = NOW - 3 * DAY;
		const plan = planPoll(settled(cfg, { clock: NOW - 2 * HOUR, from }), cfg, LOOK_BACK_START, NOW);
		expect(plan.slice?.top).toBe(from);
		const whole = planPoll(settled(cfg, { clock: NOW - 2 * DAY }), cfg, LOOK_BACK_START, NOW);
		expect(whole.slice).toMatchObject({ lowest: LOOK_BACK_START, top: NOW - DAY });
		const slice = whole.windows.slice(whole.windows.length - whole.slice!.count);
		// Newest first: a slice cut short by the poll budget still moves on.
		expect(slice.map((window) => window.from)).toEqual(
			[...slice.map((window) => window.from)].sort((a, b) => b - a),
		);
	});

	test('a poll right after a slice reads only the recent records', () => {
		const cfg = config({ rereadSeconds: DAY });
		const plan = planPoll(settled(cfg, { clock: NOW }), cfg, LOOK_BACK_START, NOW);
		expect([plan.slice, covered(plan.windows)]).toEqual([undefined, [[NOW - DAY + 1, NOW]]]);
	});
});

describe('advanceAfterPoll: where the next poll goes on', () => {
	const cfg = config({ rereadSeconds: DAY });

	test('a whole look-back read completely counts as a round of re-reading', () => {
		const state = settled(config(), { clock: NOW - 5 * DAY, from: NOW - 4 * DAY });
		const plan = planPoll(state, config(), LOOK_BACK_START, NOW);
		const next = advanceAfterPoll(state, plan, plan.windows.length, NOW);
		expect([next.sweepClock, next.sweepFrom, next.resumeFrom]).toEqual([NOW, undefined, undefined]);
	});

	test('a slice read whole moves the re-reading to just below it, its clock to now', () => {
		const state = settled(cfg, { clock: NOW - HOUR });
		const plan = planPoll(state, cfg, LOOK_BACK_START, NOW);
		const next = advanceAfterPoll(state, plan, plan.windows.length, NOW);
		expect([next.sweepFrom, next.sweepClock]).toEqual([plan.slice!.lowest - 1, NOW]);
	});

	test('a slice read in part moves on below the last window read, and its clock in proportion', () => {
		// Day-long windows, so the slice of six older days is several windows.
		const state = { ...settled(cfg, { clock: NOW - 2 * DAY }), windowSeconds: DAY };
		const plan = planPoll(state, cfg, LOOK_BACK_START, NOW);
		expect(plan.slice!.count).toBeGreaterThan(1);
		const recentCount = plan.windows.length - plan.slice!.count;
		const next = advanceAfterPoll(state, plan, recentCount + 1, NOW);
		const lastRead = plan.windows[recentCount];
		expect(next.sweepFrom).toBe(lastRead.from - 1);
		const share =
			(plan.slice!.top - lastRead.from + 1) / (plan.slice!.top - plan.slice!.lowest + 1);
		expect(next.sweepClock).toBe(Math.round(NOW - 2 * DAY + 2 * DAY * share));
		expect(next.sweepClock!).toBeLessThan(NOW);
	});

	test('not even the recent records read: the same place next poll, with narrower windows (at least an hour)', () => {
		const state = { ...settled(cfg, { clock: NOW - HOUR }), windowSeconds: 4 * HOUR };
		const plan = planPoll(state, cfg, LOOK_BACK_START, NOW);
		const next = advanceAfterPoll(state, plan, 0, NOW);
		expect([next.sweepClock, next.sweepFrom, next.windowSeconds]).toEqual([
			NOW - HOUR,
			undefined,
			2 * HOUR,
		]);
		const narrowest = advanceAfterPoll(
			{ ...state, windowSeconds: MIN_TRIGGER_WINDOW_SECONDS },
			plan,
			0,
			NOW,
		);
		expect(narrowest.windowSeconds).toBe(MIN_TRIGGER_WINDOW_SECONDS);
	});
});
