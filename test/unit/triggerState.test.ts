import { isDeepStrictEqual } from 'util';

import { MAX_WINDOW_SECONDS } from '../../nodes/PaymentsService/codes/service';
import { REPORTING_LISTS } from '../../nodes/PaymentsService/reporting/lists';
import {
	detectEvents,
	eventItem,
	observe,
	type DetectedEvent,
} from '../../nodes/PaymentsService/trigger/poll/detection';
import { loadState } from '../../nodes/PaymentsService/trigger/poll/load';
import {
	configKey,
	initialState,
	type SeenEntry,
	type TriggerState,
} from '../../nodes/PaymentsService/trigger/poll/memory';
import {
	advanceReadPosition,
	MIN_TRIGGER_WINDOW_SECONDS,
	planPoll,
	planWindows,
	splitByDensity,
} from '../../nodes/PaymentsService/trigger/poll/plan';
import {
	packState,
	loadTriggerState,
	storedSeen,
} from '../../nodes/PaymentsService/trigger/poll/storage';
import type { Observation, TriggerConfig } from '../../nodes/PaymentsService/trigger/poll/types';
import type { TimeWindow } from '../../nodes/PaymentsService/reporting/windows';
import { resolveConfig, type TriggerSettings } from '../harness/triggerConfig';

const HOUR = 3_600;
const DAY = 86_400;
/** 2023-11-14T22:13:20Z */
const NOW = 1_700_000_000;
const LOOK_BACK = 7 * DAY;
const START = NOW - LOOK_BACK;

function config(overrides: Partial<TriggerSettings> = {}): TriggerConfig {
	return resolveConfig({
		resource: 'cashout',
		event: 'statusChanged',
		filters: {},
		toStatuses: [],
		status: '',
		lookBackSeconds: LOOK_BACK,
		includeFirstSightings: true,
		rereadSeconds: 0,
		...overrides,
	});
}

function obs(
	key: string,
	status: string | null,
	lastChange: number | null,
	created: number,
): Observation {
	return { key, status, lastChange, created, record: { id: key, status } };
}

function detect(
	state: TriggerState,
	cfg: TriggerConfig,
	observations: Observation[],
	options: { maxEvents?: number; complete?: boolean; lookBackStart?: number } = {},
) {
	return detectEvents(state, cfg, observations, {
		maxEvents: options.maxEvents ?? 1_000,
		complete: options.complete ?? true,
		lookBackStart: options.lookBackStart ?? START,
	});
}

/** The state after a complete baseline poll that read `observations`. */
function baseline(cfg: TriggerConfig, observations: Observation[]): TriggerState {
	const result = detect(initialState(cfg, NOW - HOUR), cfg, observations);
	expect(result.events).toEqual([]);
	return result.state;
}

const summary = (events: DetectedEvent[]) =>
	events.map((event) => [
		event.observation.key,
		event.type,
		event.previousStatus,
		event.observation.status,
	]);

/** What the state remembers of `key`, decoded. */
function remembered(state: TriggerState, key: string) {
	const entry = state.seen[key];
	if (!entry) return undefined;
	return {
		status: entry[0] >= 0 ? state.statuses[entry[0]] : null,
		lastChange: entry[1],
		created: entry[2],
	};
}

/** Asserts the windows cover [from, to] exactly once each second, and returns them sorted. */
function expectExactCover(windows: TimeWindow[], from: number, to: number): void {
	const sorted = [...windows].sort((a, b) => a.from - b.from);
	expect(sorted[0].from).toBe(from);
	expect(sorted[sorted.length - 1].to).toBe(to);
	for (let i = 1; i < sorted.length; i++) expect(sorted[i].from).toBe(sorted[i - 1].to + 1);
}

describe('configKey', () => {
	test('equal configurations give equal keys, whatever the order of filters and To Statuses', () => {
		const a = config({
			filters: { country: 'BR', paymentMethod: 'PX' },
			toStatuses: ['REJECTED', 'COMPLETED'],
		});
		const b = config({
			filters: { paymentMethod: 'PX', country: 'BR' },
			toStatuses: ['COMPLETED', 'REJECTED'],
		});
		expect(configKey(a)).toBe(configKey(b));
	});

	test('empty and undefined filters are ignored', () => {
		const bare = config({ filters: { country: 'BR' } });
		const withEmpty = config({
			filters: { clientDocument: '', country: 'BR', paymentMethod: undefined },
		});
		expect(configKey(withEmpty)).toBe(configKey(bare));
	});

	test.each<[string, Partial<TriggerSettings>]>([
		['resource', { resource: 'deposit' }],
		['event', { event: 'anyChange' }],
		['a filter value', { filters: { country: 'MX' } }],
		['an added filter', { filters: { country: 'BR', clientDocument: '123' } }],
		['To Statuses', { toStatuses: ['REJECTED'] }],
		['status', { status: 'PENDING' }],
		['look-back', { lookBackSeconds: LOOK_BACK + 1 }],
		['Include First Sightings', { includeFirstSightings: false }],
	])('a different %s gives a different key', (_field, change) => {
		const base = config({ filters: { country: 'BR' } });
		expect(configKey(config({ filters: { country: 'BR' }, ...change }))).not.toBe(configKey(base));
	});
});

describe('loadTriggerState', () => {
	const cfg = config({ filters: { country: 'BR' } });

	test('a stored state of the same configuration is read back (also after a JSON round trip)', () => {
		const state = detect(initialState(cfg, NOW), cfg, [
			obs('a', 'PENDING', NOW - 10, NOW - 20),
		]).state;
		const stored: unknown = JSON.parse(JSON.stringify(state));
		expect(loadTriggerState(stored, cfg)).toEqual(state);
	});

	test.each<[string, unknown]>([
		['undefined', undefined],
		['null', null],
		['a string', 'state'],
		['a number', 1],
	])('%s is no state', (_name, stored) => {
		expect(loadTriggerState(stored, cfg)).toBeUndefined();
	});

	test('a state of another version is rejected', () => {
		expect(loadTriggerState({ ...initialState(cfg, NOW), v: 3 }, cfg)).toBeUndefined();
		expect(loadTriggerState({ ...initialState(cfg, NOW), v: 0 }, cfg)).toBeUndefined();
	});

	test('a state of another configuration is rejected', () => {
		expect(
			loadTriggerState(initialState(config({ filters: { country: 'MX' } }), NOW), cfg),
		).toBeUndefined();
		expect(
			loadTriggerState(
				initialState(cfg, NOW),
				config({ filters: { country: 'BR' }, event: 'anyChange' }),
			),
		).toBeUndefined();
	});

	test.each<[string, Record<string, unknown>]>([
		['activatedAt missing', { activatedAt: undefined }],
		['activatedAt not a number', { activatedAt: '1700000000' }],
		['seen missing', { seen: undefined }],
		['seen a string', { seen: 'x' }],
		['seen null', { seen: null }],
		['statuses not an array', { statuses: {} }],
		['windowSeconds missing', { windowSeconds: undefined }],
	])('a malformed state (%s) is rejected', (_name, damage) => {
		const stored: Record<string, unknown> = { ...initialState(cfg, NOW), ...damage };
		expect(loadTriggerState(stored, cfg)).toBeUndefined();
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
	describe('baseline', () => {
		test('the baseline poll emits nothing and remembers every record', () => {
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

		test('a baseline poll cut short leaves the baseline pending', () => {
			const cfg = config();
			const result = detect(initialState(cfg, NOW), cfg, [obs('a', 'PENDING', null, START + 10)], {
				complete: false,
			});
			expect(result.events).toEqual([]);
			expect(result.state.baselineDone).toBe(false);
			expect(Object.keys(result.state.seen)).toEqual(['a']);
		});

		test('once the baseline is done, a first sighting counts', () => {
			const cfg = config({ event: 'newRecord' });
			const state = baseline(cfg, [obs('a', 'PENDING', null, START + 10)]);
			const result = detect(state, cfg, [
				obs('a', 'PENDING', null, START + 10),
				obs('b', 'PENDING', null, NOW - 5),
			]);
			expect(summary(result.events)).toEqual([['b', 'newRecord', null, 'PENDING']]);
		});

		test('a change of a record remembered by a cut-short baseline poll is emitted', () => {
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

		test('a record created after activation and first seen while a cut-short baseline is pending is a New Record', () => {
			// README: New Record = "created since activation"; every creation is emitted once, "also ... when a
			// poll is cut short". The activation poll read only part of a long look-back.
			const cfg = config({ event: 'newRecord', includeFirstSightings: false });
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
		const cfg = config({ event: 'newRecord', includeFirstSightings: false });

		test('a known record that changes status or lastChangeDate is no new record', () => {
			const state = baseline(cfg, [obs('a', 'PENDING', START + 10, START + 10)]);
			expect(detect(state, cfg, [obs('a', 'COMPLETED', NOW, START + 10)]).events).toEqual([]);
		});

		test('a new record is emitted once', () => {
			const state = baseline(cfg, []);
			const first = detect(state, cfg, [obs('a', 'PENDING', NOW - 10, NOW - 10)]);
			expect(summary(first.events)).toEqual([['a', 'newRecord', null, 'PENDING']]);
			expect(first.events[0].previousLastChange).toBeNull();
			expect(detect(first.state, cfg, [obs('a', 'PENDING', NOW - 10, NOW - 10)]).events).toEqual(
				[],
			);
		});

		test('the status filter emits only records currently in that status, case-insensitively', () => {
			const filtered = config({ event: 'newRecord', status: 'completed' });
			const state = baseline(filtered, []);
			const result = detect(state, filtered, [
				obs('a', 'PENDING', null, NOW - 10),
				obs('b', 'COMPLETED', null, NOW - 9),
				obs('c', null, null, NOW - 8),
			]);
			expect(summary(result.events)).toEqual([['b', 'newRecord', null, 'COMPLETED']]);
		});

		test('with a status filter, a new record is reported once, when first seen in that status', () => {
			const filtered = config({ event: 'newRecord', status: 'COMPLETED' });
			const first = detect(baseline(filtered, []), filtered, [obs('a', 'PENDING', null, NOW - 10)]);
			expect(first.events).toEqual([]);
			// Not remembered in another status, so reaching COMPLETED later is its first sighting.
			expect(remembered(first.state, 'a')).toBeUndefined();
			const completed = detect(first.state, filtered, [obs('a', 'COMPLETED', null, NOW - 10)]);
			expect(summary(completed.events)).toEqual([['a', 'newRecord', null, 'COMPLETED']]);
			expect(
				detect(completed.state, filtered, [obs('a', 'COMPLETED', null, NOW - 10)]).events,
			).toEqual([]);
		});

		test('with a status filter, a record created before activation that reaches the status later is no new record', () => {
			const filtered = config({ event: 'newRecord', status: 'COMPLETED' });
			const state = baseline(filtered, [obs('old', 'PENDING', null, START + 10)]);
			expect(detect(state, filtered, [obs('old', 'COMPLETED', null, START + 10)]).events).toEqual(
				[],
			);
		});
	});

	describe('Status Changed', () => {
		const cfg = config({ event: 'statusChanged' });

		test('a different status is a change from the status seen last', () => {
			const state = baseline(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
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
			const state = baseline(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			expect(detect(state, cfg, [obs('a', 'PENDING', NOW, START + 10)]).events).toEqual([]);
		});

		test('a change and its undo between two polls cancel out', () => {
			const state = baseline(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			expect(detect(state, cfg, [obs('a', 'PENDING', NOW - 5, START + 10)]).events).toEqual([]);
		});

		test('a status that appears or disappears (null) is a change', () => {
			const state = baseline(cfg, [
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
			const state = baseline(wanted, [
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
			const state = baseline(wanted, [obs('a', 'PENDING', START + 10, START + 1)]);
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

		test('with Include First Sightings a record first seen after the baseline is a change to its first status', () => {
			const state = baseline(cfg, []);
			const result = detect(state, cfg, [obs('a', 'REJECTED', NOW - 5, NOW - 10)]);
			expect(summary(result.events)).toEqual([['a', 'statusChanged', null, 'REJECTED']]);
		});

		test('a first sighting must also pass To Statuses', () => {
			const wanted = config({ event: 'statusChanged', toStatuses: ['REJECTED'] });
			const state = baseline(wanted, []);
			const result = detect(state, wanted, [
				obs('a', 'PENDING', null, NOW - 10),
				obs('b', 'REJECTED', null, NOW - 9),
			]);
			expect(summary(result.events)).toEqual([['b', 'statusChanged', null, 'REJECTED']]);
			expect(remembered(result.state, 'a')?.status).toBe('PENDING');
		});

		test('without Include First Sightings a first sighting is remembered silently and its later change emitted', () => {
			const quiet = config({ event: 'statusChanged', includeFirstSightings: false });
			const state = baseline(quiet, []);
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
			const state = baseline(cfg, [obs('a', 'PENDING', START + 50, START + 10)]);
			const result = detect(state, cfg, [obs('a', 'PENDING', START + 51, START + 10)]);
			expect(summary(result.events)).toEqual([['a', 'changed', 'PENDING', 'PENDING']]);
			expect(result.events[0].previousLastChange).toBe(START + 50);
		});

		test('a status change without lastChangeDate is a change', () => {
			const state = baseline(cfg, [obs('a', 'PENDING', null, START + 10)]);
			expect(summary(detect(state, cfg, [obs('a', 'COMPLETED', null, START + 10)]).events)).toEqual(
				[['a', 'changed', 'PENDING', 'COMPLETED']],
			);
		});

		test('a lastChangeDate that appears is a change', () => {
			const state = baseline(cfg, [obs('a', 'PENDING', null, START + 10)]);
			expect(
				summary(detect(state, cfg, [obs('a', 'PENDING', START + 20, START + 10)]).events),
			).toEqual([['a', 'changed', 'PENDING', 'PENDING']]);
		});

		test('an unchanged record, or one whose lastChangeDate went back with the same status, is no change', () => {
			const state = baseline(cfg, [
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
			const state = baseline(filtered, [obs('a', 'PENDING', START + 50, START + 10)]);
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

		test('first sightings are changes with Include First Sightings; without, only a record changed after its creation is', () => {
			const withFirst = detect(baseline(cfg, []), cfg, [obs('a', 'PENDING', NOW - 10, NOW - 10)]);
			expect(summary(withFirst.events)).toEqual([['a', 'changed', null, 'PENDING']]);
			const quiet = config({ event: 'anyChange', includeFirstSightings: false });
			const without = detect(baseline(quiet, []), quiet, [
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
			obs('b', 'PENDING', null, NOW - 40), // first sighting, oldest by creation
			obs('a', 'PENDING', null, NOW - 5), // first sighting, newest
		];

		test('events are emitted oldest change first (lastChangeDate, else creation), ties by key', () => {
			const result = detect(baseline(cfg, before), cfg, after);
			expect(result.events.map((event) => event.observation.key)).toEqual([
				'b',
				'c',
				'd',
				'e',
				'a',
			]);
		});

		test('the rest is deferred oldest first and emitted by the next polls, none repeated', () => {
			let state = baseline(cfg, before);
			const batches: string[][] = [];
			for (let poll = 0; poll < 4; poll++) {
				const result = detect(state, cfg, after, { maxEvents: 2 });
				batches.push(result.events.map((event) => event.observation.key));
				state = result.state;
			}
			expect(batches).toEqual([['b', 'c'], ['d', 'e'], ['a'], []]);
		});

		test('a deferred record keeps its old entry (or none), so its event still names the status seen before', () => {
			const result = detect(baseline(cfg, before), cfg, after, { maxEvents: 2 });
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
			const first = detect(baseline(cfg, before), cfg, after, { maxEvents: 1 });
			const moved = after.map((observation) =>
				observation.key === 'e' ? obs('e', 'CANCELLED', NOW - 1, START + 1) : observation,
			);
			const rest = detect(first.state, cfg, moved);
			expect(summary(rest.events).filter(([key]) => key === 'e')).toEqual([
				['e', 'statusChanged', 'PENDING', 'CANCELLED'],
			]);
		});

		test('maxEvents 0 emits nothing and consumes nothing wanted', () => {
			const state = baseline(cfg, before);
			const result = detect(state, cfg, after, { maxEvents: 0 });
			expect(result.events).toEqual([]);
			expect(detect(result.state, cfg, after).events).toHaveLength(5);
		});
	});

	describe('pruning', () => {
		test('entries created before lookBackStart are forgotten, observed or not; entries at lookBackStart are kept', () => {
			const cfg = config();
			const state = baseline(cfg, [
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
			const result = detect(baseline(cfg, []), cfg, [obs('ancient', 'PENDING', null, START - 1)]);
			expect(result.state.seen).toEqual({});
		});

		test('entries within the look-back that this poll did not read are kept', () => {
			const cfg = config();
			const state = baseline(cfg, [
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
			const state = baseline(cfg, [
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
			const state = baseline(cfg, [
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
			const state = baseline(cfg, [
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

		test('a completed poll marks the baseline done and keeps the other fields', () => {
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

describe('stored state', () => {
	test('packState stores seen as one string that loadState reads back exactly, ids and dates in any order', () => {
		const cfg = config();
		const state: TriggerState = {
			...initialState(cfg, NOW),
			baselineDone: true,
			statuses: ['PENDING', 'REJECTED'],
			seen: {
				'705350': [0, START + 10, START + 10],
				'12': [1, START + 99_000, START + 5],
				'9007199254740': [-1, null, NOW],
				'705351': [1, START + 3, START + 10],
			},
		};
		const stored = packState(state);
		expect(stored.seen).toBeUndefined();
		expect(typeof stored.packed).toBe('string');
		expect(storedSeen(JSON.parse(JSON.stringify(stored)))).toEqual(state.seen);
		const { state: loaded } = loadState(JSON.parse(JSON.stringify(stored)), cfg, NOW, START);
		expect(loaded).toEqual(state);
	});

	test('a packed look-back of 140,000 records stays under 0.8 MB (about 38 bytes a record unpacked)', () => {
		const seen: Record<string, SeenEntry> = {};
		for (let index = 0; index < 140_000; index++)
			seen[String(700_000 + index)] = [
				index % 7 === 0 ? 1 : 0,
				index % 7 === 0 ? START + index * 5 : START + index * 4,
				START + index * 4,
			];
		const state: TriggerState = {
			...initialState(config(), NOW),
			statuses: ['PENDING', 'ON_HOLD'],
			seen,
		};
		const packed = JSON.stringify(packState(state)).length;
		expect(packed).toBeLessThan(800_000);
		expect(JSON.stringify(state).length).toBeGreaterThan(4 * packed);
		// Node's own deep comparison: jest's toEqual takes seconds over 140,000 keys.
		const unpacked = storedSeen(packState(state));
		expect(Object.keys(unpacked ?? {})).toHaveLength(140_000);
		expect(isDeepStrictEqual(unpacked, seen)).toBe(true);
	});

	test('ids that are not plain numbers keep the plain seen object', () => {
		const state: TriggerState = {
			...initialState(config(), NOW),
			statuses: ['PENDING'],
			seen: { 'a-1': [0, NOW, NOW], '007': [0, NOW, NOW] },
		};
		expect(packState(state)).toEqual(state);
	});

	test('a damaged packed string starts over, with a warning', () => {
		const stored = {
			...packState({
				...initialState(config(), NOW),
				statuses: ['PENDING'],
				seen: { '1': [0, NOW, NOW] },
			}),
			packed: 'zz.!!',
		};
		const { state, notes } = loadState(stored, config(), NOW, START);
		expect(state.seen).toEqual({});
		expect(notes).toEqual([
			expect.objectContaining({ level: 'warn', message: expect.stringMatching(/unreadable/) }),
		]);
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

describe('loadState', () => {
	test('the same record set under other settings keeps the memory; the first poll compares with it', () => {
		const before = config();
		const state = baseline(before, [obs('a', 'PENDING', START + 10, START + 10)]);
		const stored = packState({ ...state, polledAt: NOW - 60 });
		const after = config({ lookBackSeconds: 10 * DAY });
		const { state: loaded, notes } = loadState(stored, after, NOW, NOW - 10 * DAY);
		expect(loaded.config).toBe(configKey(after));
		expect(loaded.baselineDone).toBe(false);
		expect(notes).toEqual([
			expect.objectContaining({
				level: 'info',
				metadata: expect.objectContaining({ keptRecords: 1 }),
			}),
		]);
		const polled = detect(
			loaded,
			after,
			[obs('a', 'REJECTED', NOW - 30, START + 10), obs('old', 'PENDING', START - DAY, START - DAY)],
			{ lookBackStart: NOW - 10 * DAY },
		);
		expect(summary(polled.events)).toEqual([['a', 'statusChanged', 'PENDING', 'REJECTED']]);
	});

	test('a clock earlier than the last poll is logged; records below the memory join the starting point', () => {
		const cfg = config();
		const state = { ...baseline(cfg, []), polledAt: NOW + 8 * DAY, knownFrom: NOW + DAY };
		const { state: loaded, notes } = loadState(state, cfg, NOW, START);
		expect(notes.map((note) => note.level)).toEqual(['warn', 'info']);
		expect(notes[0].metadata).toMatchObject({ clockMovedBackSeconds: 8 * DAY });
		expect(planPoll(loaded, { ...cfg, rereadSeconds: HOUR }, START, NOW).slice).toBeUndefined(); // the whole look-back
		const polled = detectEvents(
			loaded,
			cfg,
			[
				obs('a', 'PENDING', START + 10, START + 10),
				obs('b', 'PENDING', NOW + DAY + 1, NOW + DAY + 1),
			],
			{
				maxEvents: 10,
				complete: true,
				lookBackStart: START,
				wholeLookBack: true,
			},
		);
		expect(summary(polled.events)).toEqual([['b', 'statusChanged', null, 'PENDING']]);
		expect(polled.state.knownFrom).toBe(START);
	});
});
