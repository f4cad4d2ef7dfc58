import type { INodeParameters } from 'n8n-workflow';

import { Rng } from '../../../sandbox/data';
import { MAX_ROWS_PER_PAGE, type FaultSpec } from '../../../sandbox';
import { type Fixture } from '../../../harness/fixtures';
import { PollRunner } from '../../../harness/poll';
import { iso } from '../../../harness/records';
import {
	TRIGGER_NODE,
	triggerWorkflow,
	useTriggerWorld,
	type SharedClock,
	MINUTE,
	HOUR,
	MID,
} from '../../../harness/trigger';

/*
 * Several days of merchant activity against the sandbox, polled by five triggers the way n8n polls
 * them. The oracle knows only what the sandbox did and which creation windows a poll read whole
 * (from the sandbox's request log): at each poll that succeeded it takes the visible records of
 * those windows; the events a trigger must emit are the differences from what that trigger saw
 * last. The triggers' emitted events must equal that set exactly: nothing missed, nothing repeated;
 * and a change is seen no later than the trigger's re-read period plus one poll interval.
 */

const START = Date.UTC(2026, 9, 5, 6, 0, 0);
const POLLS = 40; // every 2 hours for 3 days and 8 hours
const LOOK_BACK_DAYS = 75; // two windows per poll

const TRANSITIONS: Record<string, string[]> = {
	PENDING: ['ON_HOLD', 'DELIVERED', 'CANCELLED'],
	ON_HOLD: ['PENDING', 'CANCELLED'],
	DELIVERED: ['COMPLETED', 'REJECTED'],
	COMPLETED: ['REJECTED'],
};

/** A record as the sandbox holds it at a poll: what the trigger may see. */
interface Truth {
	status: string;
	lastChange: string;
}

type Snapshot = Map<number, Truth>;

/** What a narrowed trigger remembers of a record that left the statuses it asks for. */
const LEFT: Truth = { status: '~left', lastChange: '' };

interface Watched {
	name: string;
	parameters: INodeParameters;
	/** The statuses the trigger asks the service for; undefined: every status. */
	narrowed?: string[];
	/** Re-read period of older records, in minutes (0: every poll). */
	rereadMinutes: number;
	lookBackDays: number;
	runner?: PollRunner;
	/** Decides the event a trigger of this kind must emit, from the last snapshot entry to the current one. */
	expected: (before: Truth | undefined, now: Truth) => boolean;
	last: Map<number, Truth>;
	/** What the trigger's static data in n8n's database holds (saved at activation and after a poll that emits). */
	saved: Map<number, Truth>;
	/** Whether the next poll activates the workflow (after a restart), which saves whatever it emits. */
	activating: boolean;
	expectedEvents: string[];
	emittedEvents: string[];
	failedPolls: number;
	/** Longest time from a change of a known record to the poll that reported it, in ms. */
	longestDelay: number;
	/** Polls in which a fault hit one of the trigger's requests. */
	faultedPolls: number;
	/** Most polls that failed one after the other. */
	failedInARow: number;
	failingNow: number;
}

describe('trigger simulation: days of activity, late arrivals, page shifts, faults and restarts under n8n’s saving rule', () => {
	let fx: Fixture;
	let clock: SharedClock;
	// Merchant 1002 is empty; the generated history of the other merchants is not needed here.
	useTriggerWorld(START, (world) => ({ fx, clock } = world), { once: true });

	test('every trigger emits exactly the changes the sandbox made after activation', async () => {
		const rng = new Rng(20261105);
		// What the test did: each cashout's status (to pick legal moves) and when it becomes visible.
		const status = new Map<number, string>();
		const visibleAt = new Map<number, number>();
		const createdAt = new Map<number, number>();
		const add = (ageMs: number, visibleDelayMs = 0) => {
			const createdMs = Math.floor((clock.now() - ageMs) / 1000) * 1000;
			const record = fx.sandbox.control.addCashout({
				idMerchant: MID,
				creationDate: iso(createdMs / 1000),
				visibleAt: visibleDelayMs ? clock.now() + visibleDelayMs : undefined,
			});
			status.set(record.idCashout, 'PENDING');
			createdAt.set(record.idCashout, createdMs / 1000);
			visibleAt.set(record.idCashout, visibleDelayMs ? clock.now() + visibleDelayMs : createdMs);
			return record.idCashout;
		};
		const change = (id: number) => {
			const options = TRANSITIONS[status.get(id)!];
			if (!options) return false;
			const next = options[rng.int(0, options.length - 1)];
			fx.sandbox.control.setStatus('cashout', id, next);
			status.set(id, next);
			return true;
		};
		/** The sandbox's own records visible now: the ground truth a poll at this time could see. */
		const snapshot = (): Snapshot => {
			const now = clock.now();
			return new Map(
				fx.sandbox.control
					.cashouts(MID)
					.filter((record) => visibleAt.get(record.idCashout)! <= now)
					.map((record) => [
						record.idCashout,
						{ status: record.status, lastChange: record.lastChangeDate },
					]),
			);
		};

		// History before activation: 3 days of cashouts, some already moved on.
		for (let index = 0; index < 240; index++) add(rng.int(0, 72 * HOUR));
		for (const id of [...status.keys()]) if (rng.chance(0.5)) change(id);

		type Spec = Pick<
			Watched,
			'name' | 'parameters' | 'expected' | 'narrowed' | 'rereadMinutes' | 'lookBackDays'
		>;
		// Re-reading in turn is tried on a look-back the activity fills (5 days), so a part never re-read would show.
		const FILLED_LOOK_BACK_DAYS = 5;
		const changedStatus = (before: Truth | undefined, now: Truth) =>
			!before || before.status !== now.status;
		/** To Status: a new status, or a later lastChangeDate in it (it left and came back). */
		const arrived = (before: Truth | undefined, now: Truth) =>
			changedStatus(before, now) ||
			(before !== LEFT && Date.parse(now.lastChange) > Date.parse(before!.lastChange));
		const specs: Spec[] = [
			{
				name: 'Status Changed, every poll',
				parameters: {
					resource: 'cashout',
					event: 'statusChanged',
					toStatuses: [],
					options: { lookBackDays: LOOK_BACK_DAYS, rereadMinutes: '0' },
				},
				rereadMinutes: 0,
				lookBackDays: LOOK_BACK_DAYS,
				expected: changedStatus,
			},
			{
				name: 'Status Changed to REJECTED (narrowed, Automatic: every poll)',
				parameters: {
					resource: 'cashout',
					event: 'statusChanged',
					toStatuses: ['REJECTED'],
					options: { lookBackDays: LOOK_BACK_DAYS },
				},
				narrowed: ['REJECTED'],
				rereadMinutes: 0,
				lookBackDays: LOOK_BACK_DAYS,
				expected: (before, now) => arrived(before, now) && now.status === 'REJECTED',
			},
			{
				name: 'Status Changed to ON_HOLD or CANCELLED (narrowed, older records every 6 hours)',
				parameters: {
					resource: 'cashout',
					event: 'statusChanged',
					toStatuses: ['ON_HOLD', 'CANCELLED'],
					options: { lookBackDays: FILLED_LOOK_BACK_DAYS, rereadMinutes: '360' },
				},
				narrowed: ['CANCELLED', 'ON_HOLD'],
				rereadMinutes: 360,
				lookBackDays: FILLED_LOOK_BACK_DAYS,
				expected: (before, now) =>
					arrived(before, now) && ['ON_HOLD', 'CANCELLED'].includes(now.status),
			},
			{
				name: 'New Record (older records every 6 hours)',
				parameters: {
					resource: 'cashout',
					event: 'newRecord',
					options: { lookBackDays: FILLED_LOOK_BACK_DAYS, rereadMinutes: '360' },
				},
				rereadMinutes: 360,
				lookBackDays: FILLED_LOOK_BACK_DAYS,
				expected: (before) => !before,
			},
			{
				name: 'Any Change (older records every 24 hours)',
				parameters: {
					resource: 'cashout',
					event: 'anyChange',
					options: { lookBackDays: FILLED_LOOK_BACK_DAYS, rereadMinutes: '1440' },
				},
				rereadMinutes: 1440,
				lookBackDays: FILLED_LOOK_BACK_DAYS,
				expected: (before, now) =>
					!before || before.lastChange !== now.lastChange || before.status !== now.status,
			},
		];
		const watched: Watched[] = specs.map((spec) => ({
			...spec,
			last: new Map(),
			saved: new Map(),
			activating: false,
			expectedEvents: [],
			emittedEvents: [],
			failedPolls: 0,
			faultedPolls: 0,
			longestDelay: 0,
			failedInARow: 0,
			failingNow: 0,
		}));

		/** What a trigger sees of the visible records: only those in the statuses it asks for. */
		const seenBy = (trigger: Watched, visible: Snapshot): Snapshot =>
			trigger.narrowed
				? new Map([...visible].filter(([, entry]) => trigger.narrowed!.includes(entry.status)))
				: visible;

		/**
		 * The creation times a poll read whole, in every status it asked for, from the request log: a
		 * window's page that is not full covers the window; a full first page, listed newest first,
		 * covers the seconds after its oldest record (the trigger reads the rest as a narrower window).
		 */
		const windowsReadWhole = (
			trigger: Watched,
			listed: ReturnType<typeof fx.sandbox.log.entries>,
		) => {
			const covered = new Map<string, Array<{ from: number; to: number }>>();
			for (const entry of listed) {
				if (entry.status !== 200) continue;
				const body = entry.responseBody as { rows: number; data: Array<{ creationDate: string }> };
				const from = Number(entry.query.from);
				const to = Number(entry.query.to);
				const status = String(entry.query.Status ?? '');
				const ranges = covered.get(status) ?? [];
				covered.set(status, ranges);
				if (body.rows < MAX_ROWS_PER_PAGE) ranges.push({ from, to });
				else if (entry.query.page === '0')
					ranges.push({
						from: Date.parse(body.data[body.data.length - 1].creationDate) / 1000 + 1,
						to,
					});
			}
			const statuses = trigger.narrowed ?? [''];
			return {
				has: (created: number) =>
					statuses.every((status) =>
						(covered.get(status) ?? []).some(
							(range) => created >= range.from && created <= range.to,
						),
					),
			};
		};

		/** The oracle: the events a poll that read `windows` whole must emit, and what the trigger now remembers. */
		const judge = (
			trigger: Watched,
			label: string,
			visible: Snapshot,
			windows: ReturnType<typeof windowsReadWhole>,
			pollMs: number,
		) => {
			const seen = seenBy(trigger, visible);
			for (const [id, created] of createdAt) {
				if (!windows.has(created)) continue;
				const entry = seen.get(id);
				if (!entry) {
					// Listed no more (narrowed): it left the wanted statuses.
					if (trigger.last.has(id) && visible.has(id)) trigger.last.set(id, LEFT);
					continue;
				}
				const before = trigger.last.get(id);
				if (trigger.expected(before, entry)) {
					const previous = before && before !== LEFT ? before.status : null;
					trigger.expectedEvents.push(
						`${label} ${id}:${previous}->${entry.status}@${entry.lastChange}`,
					);
					if (before && before !== LEFT)
						trigger.longestDelay = Math.max(
							trigger.longestDelay,
							pollMs - Date.parse(entry.lastChange),
						);
				}
				trigger.last.set(id, entry);
			}
		};

		// Activation: each trigger takes its starting point.
		for (const trigger of watched) {
			trigger.runner = new PollRunner(fx.engine, triggerWorkflow(trigger.parameters), TRIGGER_NODE);
			const first = await trigger.runner.poll();
			expect([trigger.name, first]).toEqual([trigger.name, { items: null }]);
			trigger.last = seenBy(trigger, snapshot());
			trigger.saved = new Map(trigger.last);
		}
		fx.sandbox.log.clear();
		let restarts = 0;

		let actions = 0;
		let lateArrivals = 0;
		let twiceBetweenPolls = 0;
		let concurrentInserts = 0;
		let requests = 0;
		let widestPoll = 0;
		let deepestPage = 0;
		let pageShifts = 0;
		let recoveredPolls = 0;
		for (let poll = 1; poll <= POLLS; poll++) {
			// Two hours of activity, in steps of a few minutes so every change has its own second.
			const touched = new Set<number>();
			for (let step = 0; step < 24; step++) {
				clock.advance(5 * MINUTE);
				if (rng.chance(0.7)) {
					add(rng.int(0, 4 * MINUTE));
					actions++;
				}
				if (rng.chance(0.12)) {
					// Created before the last poll, visible only hours later.
					add(rng.int(2 * HOUR, 6 * HOUR), rng.int(1, 8) * HOUR);
					actions++;
					lateArrivals++;
				}
				const ids = [...status.keys()];
				for (let count = rng.int(1, 4); count > 0; count--) {
					const id = ids[rng.int(0, ids.length - 1)];
					if (change(id)) {
						actions++;
						if (touched.has(id)) twiceBetweenPolls++;
						touched.add(id);
					}
				}
			}

			if (poll % 9 === 0) {
				// n8n restarts: each trigger's memory since its last save is gone; the next poll activates
				// the workflow from the database. The oracle forgets the same.
				restarts++;
				for (const trigger of watched) {
					trigger.runner!.restart();
					trigger.last = new Map(trigger.saved);
					trigger.activating = true;
				}
			}
			for (const trigger of watched) {
				const fault = rng.chance(0.2) ? randomFault(rng) : undefined;
				if (fault) fx.sandbox.faults.add(fault);
				const insertWhilePaging = !fault && rng.chance(0.2);
				if (insertWhilePaging) {
					// The record the insert will push from page 0 to page 1 gets a change to report, so a
					// trigger that counted it twice would emit it twice.
					clock.advance(1_000);
					const boundary = [...fx.sandbox.control.cashouts(MID)]
						.filter((record) => visibleAt.get(record.idCashout)! <= clock.now())
						.sort(
							(a, b) =>
								Date.parse(b.creationDate) - Date.parse(a.creationDate) ||
								b.idCashout - a.idCashout,
						)
						.slice(MAX_ROWS_PER_PAGE - 1)
						.find((record) => change(record.idCashout));
					if (boundary) actions++;
				}
				// What this poll must see: the records visible when it starts. A cashout inserted while it
				// pages lands on page 0, already read, so it belongs to the next poll.
				const visible = snapshot();
				let outcome;
				if (insertWhilePaging) {
					// A new cashout arrives between two pages of this poll: records shift by one.
					fx.sandbox.setLatency(5);
					fx.sandbox.log.clear();
					const running = trigger.runner!.poll();
					// Page 0 of the newest window (it ends now and spans many pages) has been answered.
					const newestTo = String(Math.floor(clock.now() / 1000));
					while (
						!fx.sandbox.log
							.find('GET', '/v1/cashouts')
							.some(
								(entry) =>
									entry.query.to === newestTo && entry.query.page === '0' && entry.status === 200,
							)
					) {
						await new Promise((resolve) => setTimeout(resolve, 2));
					}
					add(0);
					actions++;
					concurrentInserts++;
					outcome = await running;
					fx.sandbox.setLatency(0);
				} else {
					outcome = await trigger.runner!.poll();
				}
				fx.sandbox.faults.clear();
				const listed = fx.sandbox.log.find('GET', '/v1/cashouts');
				const readWhole = windowsReadWhole(trigger, listed);
				if (
					listed.some((entry) => entry.fault) ||
					fx.sandbox.log.find('POST', '/v1/auth/login').some((entry) => entry.fault)
				)
					trigger.faultedPolls++;
				const pageIds = listed
					.filter((entry) => entry.status === 200)
					.flatMap((entry) =>
						(entry.responseBody as { data: Array<{ idCashout: number }> }).data.map(
							(record) => record.idCashout,
						),
					);
				if (new Set(pageIds).size < pageIds.length) pageShifts++;
				requests += listed.length;
				widestPoll = Math.max(
					widestPoll,
					new Set(listed.map((entry) => `${entry.query.from}-${entry.query.to}`)).size,
				);
				deepestPage = Math.max(deepestPage, ...listed.map((entry) => Number(entry.query.page)));
				fx.sandbox.log.clear();
				if (outcome.error) {
					trigger.failedPolls++;
					trigger.failingNow++;
					trigger.failedInARow = Math.max(trigger.failedInARow, trigger.failingNow);
					continue;
				}
				trigger.failingNow = 0;
				if (fault) recoveredPolls++;
				for (const item of outcome.items ?? []) {
					const event = item.json.event as { previousStatus: string | null };
					trigger.emittedEvents.push(
						`poll ${poll} ${String(item.json.idCashout)}:${event.previousStatus}->${String(item.json.status)}@${String(item.json.lastChangeDate)}`,
					);
				}
				judge(trigger, `poll ${poll}`, visible, readWhole, clock.now());
				if (outcome.items || trigger.activating) trigger.saved = new Map(trigger.last);
				trigger.activating = false;
			}
		}
		// Quiet polls, a poll interval apart, until each trigger's re-read period has passed: every
		// change made above must have been reported by then (a re-reading that skipped part of the
		// look-back would leave the oracle's memory behind the sandbox).
		for (const trigger of watched) {
			for (let quiet = 0; quiet <= Math.ceil(trigger.rereadMinutes / 120); quiet++) {
				clock.advance(quiet === 0 ? MINUTE : 2 * HOUR);
				const visible = snapshot();
				fx.sandbox.log.clear();
				const outcome = await trigger.runner!.poll();
				expect(outcome.error).toBeUndefined();
				for (const item of outcome.items ?? []) {
					const event = item.json.event as { previousStatus: string | null };
					trigger.emittedEvents.push(
						`final ${String(item.json.idCashout)}:${event.previousStatus}->${String(item.json.status)}@${String(item.json.lastChangeDate)}`,
					);
				}
				judge(
					trigger,
					'final',
					visible,
					windowsReadWhole(trigger, fx.sandbox.log.find('GET', '/v1/cashouts')),
					clock.now(),
				);
			}
			const lookBackStart = clock.now() / 1000 - trigger.lookBackDays * 24 * 3600;
			const truth = [...seenBy(trigger, snapshot())].filter(
				([id]) => createdAt.get(id)! >= lookBackStart,
			);
			expect(truth.length).toBeGreaterThan(100);
			const behind = truth.filter(
				([id, entry]) => JSON.stringify(trigger.last.get(id)) !== JSON.stringify(entry),
			);
			expect([trigger.name, behind]).toEqual([trigger.name, []]);
		}

		expect(restarts).toBeGreaterThanOrEqual(4);
		expect(actions).toBeGreaterThanOrEqual(2_000);
		expect(lateArrivals).toBeGreaterThan(50);
		expect(twiceBetweenPolls).toBeGreaterThan(10);
		expect(concurrentInserts).toBeGreaterThan(10);
		expect(pageShifts).toBeGreaterThan(10); // polls that were served one record twice (the oldest second of a full page is read again)
		// Across windows: a full read takes two windows (75 days), the newest peeled over many requests.
		expect(widestPoll).toBeGreaterThanOrEqual(2);
		expect(deepestPage).toBe(0); // windows are peeled: every request is a first page
		expect(requests).toBeGreaterThan(1_000);
		expect(recoveredPolls).toBeGreaterThan(5); // faults the retries absorbed within the poll
		expect(watched.reduce((sum, trigger) => sum + trigger.failedPolls, 0)).toBeGreaterThan(4); // faults that outlasted the retries
		for (const trigger of watched) {
			expect([trigger.name, trigger.faultedPolls > 0]).toEqual([trigger.name, true]);
			expect(trigger.expectedEvents.length).toBeGreaterThan(0);
			// Exactly the same events at the same polls (each names the change it reports by its
			// lastChangeDate): none missed, none repeated, none late.
			expect([trigger.name, [...trigger.emittedEvents].sort()]).toEqual([
				trigger.name,
				[...trigger.expectedEvents].sort(),
			]);
			expect(new Set(trigger.emittedEvents).size).toBe(trigger.emittedEvents.length);
			// Bounded delay: the re-read period plus one poll interval (2 hours), plus the interval of
			// each failed poll in a row (a failed poll reads nothing); polls run a few seconds late here.
			const bound = (trigger.rereadMinutes + 120 * (1 + trigger.failedInARow) + 5) * MINUTE;
			expect([trigger.name, trigger.longestDelay <= bound]).toEqual([trigger.name, true]);
		}
	}, 240_000);
});

/**
 * A fault for one poll. Transient ones (one 503, one reset, one failed login) are retried within the
 * poll, which then succeeds; persistent ones (a page failing on every attempt, a 429 asking for a
 * minute) fail the poll, which must leave the state as it was.
 */
function randomFault(rng: Rng): FaultSpec {
	switch (rng.int(0, 4)) {
		case 0:
			return {
				method: 'GET',
				path: '/v1/cashouts',
				kind: 'status',
				status: 503,
				skip: rng.int(0, 12),
			};
		case 1:
			return { method: 'GET', path: '/v1/cashouts', kind: 'reset', skip: rng.int(0, 12) };
		case 2:
			return {
				method: 'GET',
				path: '/v1/cashouts',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 60,
				skip: rng.int(0, 12),
			};
		case 3:
			return {
				method: 'GET',
				path: '/v1/cashouts',
				kind: 'status',
				status: 503,
				skip: rng.int(0, 12),
				times: 4,
			};
		default:
			return { method: 'POST', path: '/v1/auth/login', kind: 'status', status: 500 };
	}
}
