/**
 * The plan of each poll (trigger/poll/plan.ts): which statuses it asks for (narrowedStatuses), which
 * windows it reads (planPoll, planWindows, splitByDensity), and where the next poll goes on
 * (advanceAfterPoll, advanceReadPosition). Results only: the statuses, the windows covered, the
 * state after.
 */
import { MAX_WINDOW_SECONDS } from '../../../../nodes/PaymentsService/codes/service';
import { REPORTING_LISTS } from '../../../../nodes/PaymentsService/reporting/lists';
import type { TimeWindow } from '../../../../nodes/PaymentsService/reporting/read/windows';
import {
	initialState,
	type TriggerState,
} from '../../../../nodes/PaymentsService/trigger/poll/memory';
import {
	advanceAfterPoll,
	advanceReadPosition,
	MIN_TRIGGER_WINDOW_SECONDS,
	narrowedStatuses,
	planPoll,
	planWindows,
	splitByDensity,
} from '../../../../nodes/PaymentsService/trigger/poll/plan';
import { rereadTiers } from '../../../../nodes/PaymentsService/trigger/poll/config';
import type { TriggerConfig } from '../../../../nodes/PaymentsService/trigger/poll/types';
import { HOUR, DAY, NOW, START, config, expectExactCover } from '../../../harness/pollState';

/** A state whose starting point is complete, with the re-reading clock and position given. */
function afterStartingPoint(
	cfg: TriggerConfig,
	reread: { clock?: number; from?: number } = {},
): TriggerState {
	return {
		...initialState(cfg, NOW - 30 * DAY),
		baselineDone: true,
		sweeps: [{ clock: reread.clock, from: reread.from }],
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
	test('Status Changed to REJECTED, new records counted: only REJECTED cashouts are read', () => {
		expect(narrowedStatuses(config({ toStatuses: ['rejected'] }))).toEqual(['REJECTED']);
	});

	test('without Count New Records as Changes every status is read (a record entering REJECTED would be new to a narrowed read)', () => {
		expect(
			narrowedStatuses(config({ toStatuses: ['REJECTED'], countNewRecords: false })),
		).toBeUndefined();
	});

	test('New Record with a Status filter reads that status; without one, every status', () => {
		expect(
			narrowedStatuses(config({ event: 'newRecord', status: 'pending', countNewRecords: false })),
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
		const plan = planPoll(initialState(config(), NOW), config({ rereadSeconds: DAY }), START, NOW);
		expect(plan.slices).toBeUndefined();
		expect(covered(plan.windows)).toEqual([[START, NOW]]);
	});

	test('with re-reading off (0), every poll reads the whole look-back', () => {
		const plan = planPoll(afterStartingPoint(config()), config(), START, NOW);
		expect([plan.slices, covered(plan.windows)]).toEqual([undefined, [[START, NOW]]]);
	});

	test('re-reading every day, an hour after the last slice: the last day, then 1/24 of the older records, newest first', () => {
		const cfg = config({ rereadSeconds: DAY });
		const plan = planPoll(afterStartingPoint(cfg, { clock: NOW - HOUR }), cfg, START, NOW);
		const olderEnd = NOW - DAY;
		const sliceLength = Math.ceil((olderEnd - START + 1) / 24);
		expect(plan.slices).toEqual([
			{ tier: 0, count: 1, lowest: olderEnd - sliceLength + 1, top: olderEnd },
		]);
		const recent = plan.windows.slice(0, plan.windows.length - plan.slices![0].count);
		const slice = plan.windows.slice(plan.windows.length - plan.slices![0].count);
		expect(covered(recent)).toEqual([[olderEnd + 1, NOW]]);
		expect(covered(slice)).toEqual([[olderEnd - sliceLength + 1, olderEnd]]);
	});

	test('the next slice starts where the last one stopped (sweepFrom), and a full period since reads all older records', () => {
		const cfg = config({ rereadSeconds: DAY });
		const from = NOW - 3 * DAY;
		const plan = planPoll(
			afterStartingPoint(cfg, { clock: NOW - 2 * HOUR, from }),
			cfg,
			START,
			NOW,
		);
		expect(plan.slices?.[0].top).toBe(from);
		const whole = planPoll(afterStartingPoint(cfg, { clock: NOW - 2 * DAY }), cfg, START, NOW);
		expect(whole.slices?.[0]).toMatchObject({ lowest: START, top: NOW - DAY });
		const slice = whole.windows.slice(whole.windows.length - whole.slices![0].count);
		// Newest first: a slice cut short by the poll budget still moves on.
		expect(slice.map((window) => window.from)).toEqual(
			[...slice.map((window) => window.from)].sort((a, b) => b - a),
		);
	});

	test('a poll right after a slice reads only the recent records, and is no read of the whole look-back', () => {
		const cfg = config({ rereadSeconds: DAY });
		const plan = planPoll(afterStartingPoint(cfg, { clock: NOW }), cfg, START, NOW);
		// In tiers still (none due): the recent records alone are not a read of the look-back.
		expect([plan.slices, covered(plan.windows)]).toEqual([[], [[NOW - DAY + 1, NOW]]]);
	});
});

describe('advanceAfterPoll: where the next poll goes on', () => {
	const cfg = config({ rereadSeconds: DAY });

	test('a whole look-back read completely counts as a round of re-reading', () => {
		const state = afterStartingPoint(config(), { clock: NOW - 5 * DAY, from: NOW - 4 * DAY });
		const plan = planPoll(state, config(), START, NOW);
		const next = advanceAfterPoll(state, plan, plan.windows.length, NOW, 1);
		expect([next.sweeps, next.resumeFrom]).toEqual([[{ clock: NOW }], undefined]);
	});

	test('a slice read whole moves the re-reading to just below it, its clock to now', () => {
		const state = afterStartingPoint(cfg, { clock: NOW - HOUR });
		const plan = planPoll(state, cfg, START, NOW);
		const next = advanceAfterPoll(state, plan, plan.windows.length, NOW, 1);
		expect(next.sweeps).toEqual([{ from: plan.slices![0].lowest - 1, clock: NOW }]);
	});

	test('a slice read in part moves on below the last window read, and its clock in proportion', () => {
		// Day-long windows, so the slice of six older days is several windows.
		const state = { ...afterStartingPoint(cfg, { clock: NOW - 2 * DAY }), windowSeconds: DAY };
		const plan = planPoll(state, cfg, START, NOW);
		const [slice] = plan.slices!;
		expect(slice.count).toBeGreaterThan(1);
		const recentCount = plan.windows.length - slice.count;
		const next = advanceAfterPoll(state, plan, recentCount + 1, NOW, 1);
		const lastRead = plan.windows[recentCount];
		expect(next.sweeps[0].from).toBe(lastRead.from - 1);
		const share = (slice.top - lastRead.from + 1) / (slice.top - slice.lowest + 1);
		expect(next.sweeps[0].clock).toBe(Math.round(NOW - 2 * DAY + 2 * DAY * share));
		expect(next.sweeps[0].clock!).toBeLessThan(NOW);
	});

	test('a round whose clock is ahead of now (the host clock went back) is due from now on, not after the clock catches up', () => {
		const cfg = config({ rereadSeconds: DAY });
		const state = afterStartingPoint(cfg, { clock: NOW + 8 * DAY, from: NOW + 7 * DAY });
		const plan = planPoll(state, cfg, START, NOW);
		expect(plan.slices).toEqual([]);
		const next = advanceAfterPoll(state, plan, plan.windows.length, NOW, 1);
		expect(next.sweeps[0].clock).toBe(NOW);
		const later = planPoll(next, cfg, START + HOUR, NOW + HOUR);
		expect(later.slices?.[0]).toMatchObject({ tier: 0, top: NOW + HOUR - DAY });
	});

	test('not even the recent records read: the same place next poll, with narrower windows (at least an hour)', () => {
		const state = { ...afterStartingPoint(cfg, { clock: NOW - HOUR }), windowSeconds: 4 * HOUR };
		const plan = planPoll(state, cfg, START, NOW);
		const next = advanceAfterPoll(state, plan, 0, NOW, 1);
		expect([next.sweeps, next.windowSeconds]).toEqual([[{ clock: NOW - HOUR }], 2 * HOUR]);
		const narrowest = advanceAfterPoll(
			{ ...state, windowSeconds: MIN_TRIGGER_WINDOW_SECONDS },
			plan,
			0,
			NOW,
			1,
		);
		expect(narrowest.windowSeconds).toBe(MIN_TRIGGER_WINDOW_SECONDS);
	});
});

describe('planWindows', () => {
	const cfg = config({ lookBackSeconds: 5 * DAY });
	const from = NOW - 5 * DAY;
	const withSpan = (windowSeconds: number, resumeFrom?: number): TriggerState => {
		const state: TriggerState = { ...initialState(cfg, NOW), windowSeconds };
		if (resumeFrom !== undefined) state.resumeFrom = resumeFrom;
		return state;
	};

	test('without resumeFrom the look-back is read oldest first in windows of the state span', () => {
		expect(planWindows(withSpan(2 * DAY), from, NOW)).toEqual([
			{ from, to: from + 2 * DAY },
			{ from: from + 2 * DAY + 1, to: from + 4 * DAY + 1 },
			{ from: from + 4 * DAY + 2, to: NOW },
		]);
	});

	test('with resumeFrom it reads [resumeFrom..now] first, then [lookBackStart..resumeFrom-1]', () => {
		const resume = from + 3 * DAY;
		const windows = planWindows(withSpan(2 * DAY, resume), from, NOW);
		expect(windows).toEqual([
			{ from: resume, to: NOW },
			{ from, to: from + 2 * DAY },
			{ from: from + 2 * DAY + 1, to: resume - 1 },
		]);
		expectExactCover(windows, from, NOW);
	});

	test('each range is split oldest first when it is longer than the span', () => {
		const resume = from + DAY;
		const windows = planWindows(withSpan(DAY + 100, resume), from, NOW);
		expect(windows.map((window) => window.from)).toEqual([
			resume,
			resume + DAY + 101,
			resume + 2 * DAY + 202,
			resume + 3 * DAY + 303,
			from,
		]);
		expect(windows[4]).toEqual({ from, to: resume - 1 });
		for (const window of windows) expect(window.to - window.from).toBeLessThanOrEqual(DAY + 100);
		expectExactCover(windows, from, NOW);
	});

	test.each<[string, number]>([
		['at the start of the look-back', from],
		['before the start of the look-back', from - DAY],
		['after now', NOW + 1],
	])('a resumeFrom %s is ignored', (_where, resume) => {
		expect(planWindows(withSpan(2 * DAY, resume), from, NOW)).toEqual(
			planWindows(withSpan(2 * DAY), from, NOW),
		);
	});

	test('a resumeFrom equal to now reads that second first, then the rest', () => {
		expect(planWindows(withSpan(MAX_WINDOW_SECONDS, NOW), from, NOW)).toEqual([
			{ from: NOW, to: NOW },
			{ from, to: NOW - 1 },
		]);
	});

	test('windows never span less than MIN_TRIGGER_WINDOW_SECONDS, even when the state span is smaller', () => {
		const start = NOW - 3 * HOUR;
		const windows = planWindows(withSpan(60), start, NOW);
		expect(MIN_TRIGGER_WINDOW_SECONDS).toBe(HOUR);
		expect(windows).toEqual([
			{ from: start, to: start + HOUR },
			{ from: start + HOUR + 1, to: start + 2 * HOUR + 1 },
			{ from: start + 2 * HOUR + 2, to: NOW },
		]);
	});

	test('windows never span more than MAX_WINDOW_SECONDS, even when the state span is larger', () => {
		const start = NOW - 100 * DAY;
		expect(planWindows(withSpan(10 * MAX_WINDOW_SECONDS), start, NOW)).toEqual([
			{ from: start, to: start + MAX_WINDOW_SECONDS },
			{ from: start + MAX_WINDOW_SECONDS + 1, to: NOW },
		]);
	});

	test('a fresh state reads a 7-day look-back in one window', () => {
		expect(planWindows(initialState(cfg, NOW), START, NOW)).toEqual([{ from: START, to: NOW }]);
	});
});

describe('advanceReadPosition', () => {
	const cfg = config({ lookBackSeconds: 5 * DAY });
	const from = NOW - 5 * DAY;
	const state: TriggerState = { ...initialState(cfg, NOW), windowSeconds: 2 * DAY };
	const planned = planWindows(state, from, NOW);

	test('the plan used here has three windows', () => {
		expect(planned).toHaveLength(3);
	});

	test('all windows read: resumeFrom is removed and the span doubles', () => {
		const next = advanceReadPosition({ ...state, resumeFrom: from + DAY }, planned, planned.length);
		expect('resumeFrom' in next).toBe(false);
		expect(next.windowSeconds).toBe(4 * DAY);
	});

	test('all windows read: the span grows back no further than MAX_WINDOW_SECONDS', () => {
		expect(
			advanceReadPosition({ ...state, windowSeconds: MAX_WINDOW_SECONDS - 10 }, planned, 3)
				.windowSeconds,
		).toBe(MAX_WINDOW_SECONDS);
		expect(
			advanceReadPosition({ ...state, windowSeconds: MAX_WINDOW_SECONDS }, planned, 3)
				.windowSeconds,
		).toBe(MAX_WINDOW_SECONDS);
	});

	test('cut short: resumeFrom is the start of the first unread window and the span stays', () => {
		const next = advanceReadPosition(state, planned, 1);
		expect(next.resumeFrom).toBe(planned[1].from);
		expect(next.windowSeconds).toBe(2 * DAY);
		expect(advanceReadPosition(state, planned, 2).resumeFrom).toBe(planned[2].from);
	});

	test('zero windows read: same place, half the span', () => {
		const next = advanceReadPosition(state, planned, 0);
		expect(next.resumeFrom).toBe(planned[0].from);
		expect(next.windowSeconds).toBe(DAY);
	});

	test('zero windows read from a wide span: at most a day next, so a busy starting point keeps its progress a day at a time', () => {
		expect(
			advanceReadPosition({ ...state, windowSeconds: MAX_WINDOW_SECONDS }, planned, 0)
				.windowSeconds,
		).toBe(DAY);
	});

	test('zero windows read: the span never goes below one hour', () => {
		expect(advanceReadPosition({ ...state, windowSeconds: 5_000 }, planned, 0).windowSeconds).toBe(
			HOUR,
		);
		expect(advanceReadPosition({ ...state, windowSeconds: HOUR }, planned, 0).windowSeconds).toBe(
			HOUR,
		);
	});

	test('the input state is not changed', () => {
		const input: TriggerState = { ...state, resumeFrom: from + DAY };
		const copy: unknown = JSON.parse(JSON.stringify(input));
		advanceReadPosition(input, planned, 3);
		advanceReadPosition(input, planned, 0);
		expect(input).toEqual(copy);
	});

	test('the next poll after a cut-short poll starts at the first unread window and still covers the look-back', () => {
		const next = advanceReadPosition(state, planned, 1);
		const later = NOW + 600;
		const windows = planWindows(next, from + 600, later);
		expect(windows[0].from).toBe(planned[1].from);
		expectExactCover(windows, from + 600, later);
	});
});

describe('splitByDensity', () => {
	const sorted = (times: number[]) => Float64Array.from(times).sort();

	test('a window with at most the target stays whole; a busier one is cut so each part holds at most the target, covering every second once', () => {
		const window = { from: START, to: NOW };
		expect(splitByDensity([window], sorted([START + 1, START + 2]), 2)).toEqual([window]);
		const times = [
			...Array.from({ length: 10 }, (_, index) => START + index),
			...Array.from({ length: 5 }, (_, index) => NOW - index * HOUR),
		];
		const parts = splitByDensity([window], sorted(times), 3);
		expectExactCover(parts, START, NOW);
		for (const part of parts)
			expect(
				times.filter((time) => time >= part.from && time <= part.to).length,
			).toBeLessThanOrEqual(3);
		// The busy first seconds are cut finer than the quiet rest.
		expect(parts[0].to - parts[0].from).toBeLessThan(10);
		expect(parts[parts.length - 1].to - parts[parts.length - 1].from).toBeGreaterThan(HOUR);
	});

	test('more records in one second than the target stay in a one-second window', () => {
		const times = [START + 5, START + 5, START + 5, START + 5, START + 9];
		const parts = splitByDensity([{ from: START, to: START + 20 }], sorted(times), 2);
		expectExactCover(parts, START, START + 20);
		expect(parts).toContainEqual({ from: START + 5, to: START + 5 });
	});
});

describe('version 2: records re-read by age (rereadTiers, planPoll, advanceAfterPoll)', () => {
	test('the tiers: each step of age six times less often (a sixth of the period, the period, a day at most); one tier for version 1, none for every poll', () => {
		expect(rereadTiers(HOUR, 2)).toEqual([
			{ olderThan: 10 * 60, every: 10 * 60 },
			{ olderThan: HOUR, every: HOUR },
			{ olderThan: DAY, every: 6 * HOUR },
		]);
		expect(rereadTiers(6 * HOUR, 2)).toEqual([
			{ olderThan: HOUR, every: HOUR },
			{ olderThan: 6 * HOUR, every: 6 * HOUR },
			{ olderThan: DAY, every: DAY },
		]);
		expect(rereadTiers(DAY, 2)).toEqual([
			{ olderThan: 4 * HOUR, every: 4 * HOUR },
			{ olderThan: DAY, every: DAY },
		]);
		expect(rereadTiers(HOUR, 1)).toEqual([{ olderThan: HOUR, every: HOUR }]);
		expect(rereadTiers(0, 2)).toEqual([]);
	});

	test('polls every 5 minutes for two days read each creation second again within its tier’s period plus one poll (a record passing into the older tier: both periods)', () => {
		const cfg = config({ rereadSeconds: HOUR, version: 2 });
		const every = (age: number) =>
			age <= 10 * 60 ? 0 : age <= HOUR ? 10 * 60 : age <= DAY ? HOUR : 6 * HOUR;
		const interval = 5 * 60;
		const samples = Array.from({ length: 60 }, (_, index) => START + 1 + index * 10_000);
		const lastRead = new Map<number, number>();
		let state: TriggerState = { ...afterStartingPoint(cfg), windowSeconds: DAY };
		state.sweeps = [{ clock: NOW }, { clock: NOW }];
		const failures: string[] = [];
		for (let now = NOW + interval; now <= NOW + 2 * DAY; now += interval) {
			const lookBackStart = now - 7 * DAY;
			const plan = planPoll(state, cfg, lookBackStart, now);
			for (const second of samples) {
				if (second < lookBackStart) continue;
				if (!plan.windows.some((window) => window.from <= second && second <= window.to)) continue;
				const previous = lastRead.get(second);
				if (previous !== undefined) {
					const ageThen = previous - second;
					const age = now - second;
					const bound =
						every(age) + (every(ageThen) === every(age) ? 0 : every(ageThen)) + interval;
					if (now - previous > bound)
						failures.push(`second ${second}: read at ${previous} and ${now}, bound ${bound}`);
				}
				lastRead.set(second, now);
			}
			state = advanceAfterPoll(state, plan, plan.windows.length, now, cfg.rereadTiers.length);
		}
		expect(failures).toEqual([]);
		// Every sample still in the look-back was read in the last 6 hours and 10 minutes.
		const end = NOW + 2 * DAY;
		for (const second of samples.filter((second) => second >= end - 7 * DAY))
			expect(end - lastRead.get(second)!).toBeLessThanOrEqual(6 * HOUR + interval);
	});

	test('a bounded memory’s starting point is what every poll reads: the youngest records (10 minutes)', () => {
		const cfg = config({ rereadSeconds: HOUR, version: 2, memory: 'bounded', maxRemembered: 10 });
		const plan = planPoll(initialState(cfg, NOW), cfg, START, NOW);
		expect([plan.slices, covered(plan.windows), plan.from]).toEqual([
			undefined,
			[[NOW - 600, NOW]],
			NOW - 600,
		]);
	});
});
