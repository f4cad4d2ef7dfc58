import type { INodeParameters } from 'n8n-workflow';

import { Rng } from '../sandbox/data';
import { MAX_ROWS_PER_PAGE, type FaultSpec } from '../sandbox';
import { startFixture, storeSandboxCredentials, type Fixture } from '../harness/fixtures';
import { PollRunner } from '../harness/poll';
import { iso } from '../harness/records';
import { sharedClock, TRIGGER_NODE, triggerWorkflow } from '../harness/trigger';

/*
 * Several days of merchant activity against the sandbox, polled by four triggers the way n8n polls
 * them. The oracle knows only what the sandbox did: at each poll that succeeded it takes the
 * visible records; the events a trigger must emit are the differences between those snapshots.
 * The triggers' emitted events must equal that set exactly: nothing missed, nothing repeated.
 */

const START = Date.UTC(2026, 9, 5, 6, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MID = 1002;
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

interface Watched {
	name: string;
	parameters: INodeParameters;
	runner?: PollRunner;
	/** Decides the event a trigger of this kind must emit, from the last snapshot entry to the current one. */
	expected: (before: Truth | undefined, now: Truth) => boolean;
	last: Map<number, Truth>;
	expectedEvents: string[];
	emittedEvents: string[];
	failedPolls: number;
}

describe('trigger simulation: days of activity, late arrivals, page shifts and faults', () => {
	let fx: Fixture;
	let clock: ReturnType<typeof sharedClock>;

	beforeAll(async () => {
		// Merchant 1002 is empty; the generated history of the other merchants is not needed here.
		fx = await startFixture({ sandbox: { now: START, depositsPerDay: 0, cashoutsPerDay: 0 } });
		storeSandboxCredentials(fx.engine, fx.sandbox, String(MID));
		clock = sharedClock(fx.sandbox, START);
	});
	afterAll(async () => {
		clock.restore();
		await fx.close();
	});

	test('every trigger emits exactly the changes the sandbox made after activation', async () => {
		const rng = new Rng(20261105);
		// What the test did: each cashout's status (to pick legal moves) and when it becomes visible.
		const status = new Map<number, string>();
		const visibleAt = new Map<number, number>();
		const add = (ageMs: number, visibleDelayMs = 0) => {
			const createdMs = Math.floor((clock.now() - ageMs) / 1000) * 1000;
			const record = fx.sandbox.control.addCashout({
				idMerchant: MID,
				creationDate: iso(createdMs / 1000),
				visibleAt: visibleDelayMs ? clock.now() + visibleDelayMs : undefined,
			});
			status.set(record.idCashout, 'PENDING');
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
					.map((record) => [record.idCashout, { status: record.status, lastChange: record.lastChangeDate }]),
			);
		};

		// History before activation: 3 days of cashouts, some already moved on.
		for (let index = 0; index < 240; index++) add(rng.int(0, 72 * HOUR));
		for (const id of [...status.keys()]) if (rng.chance(0.5)) change(id);

		type Spec = Pick<Watched, 'name' | 'parameters' | 'expected'>;
		const specs: Spec[] = [
			{
				name: 'Status Changed',
				parameters: { resource: 'cashout', event: 'statusChanged', toStatuses: [], options: { lookBackDays: LOOK_BACK_DAYS } },
				expected: (before, now) => !before || before.status !== now.status,
			},
			{
				name: 'Status Changed to REJECTED',
				parameters: { resource: 'cashout', event: 'statusChanged', toStatuses: ['REJECTED'], options: { lookBackDays: LOOK_BACK_DAYS } },
				expected: (before, now) => (!before || before.status !== now.status) && now.status === 'REJECTED',
			},
			{
				name: 'New Record',
				parameters: { resource: 'cashout', event: 'newRecord', options: { lookBackDays: LOOK_BACK_DAYS } },
				expected: (before) => !before,
			},
			{
				name: 'Any Change',
				parameters: { resource: 'cashout', event: 'anyChange', options: { lookBackDays: LOOK_BACK_DAYS } },
				expected: (before, now) => !before || before.lastChange !== now.lastChange || before.status !== now.status,
			},
		];
		const watched: Watched[] = specs.map((spec) => ({ ...spec, last: new Map(), expectedEvents: [], emittedEvents: [], failedPolls: 0 }));

		// Activation: each trigger takes its starting point.
		for (const trigger of watched) {
			trigger.runner = new PollRunner(fx.engine, triggerWorkflow(trigger.parameters), TRIGGER_NODE);
			const first = await trigger.runner.poll();
			expect([trigger.name, first]).toEqual([trigger.name, { items: null }]);
			trigger.last = snapshot();
		}
		fx.sandbox.log.clear();

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
						.sort((a, b) => Date.parse(b.creationDate) - Date.parse(a.creationDate) || b.idCashout - a.idCashout)
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
					while (!fx.sandbox.log.find('GET', '/v1/cashouts').some((entry) => entry.query.to === newestTo && entry.query.page === '0' && entry.status === 200)) {
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
				const pageIds = listed
					.filter((entry) => entry.status === 200)
					.flatMap((entry) => (entry.responseBody as { data: Array<{ idCashout: number }> }).data.map((record) => record.idCashout));
				if (new Set(pageIds).size < pageIds.length) pageShifts++;
				requests += listed.length;
				widestPoll = Math.max(widestPoll, new Set(listed.map((entry) => `${entry.query.from}-${entry.query.to}`)).size);
				deepestPage = Math.max(deepestPage, ...listed.map((entry) => Number(entry.query.page)));
				fx.sandbox.log.clear();
				if (outcome.error) {
					trigger.failedPolls++;
					continue;
				}
				if (fault) recoveredPolls++;
				for (const item of outcome.items ?? []) {
					const event = item.json.event as { previousStatus: string | null };
					trigger.emittedEvents.push(`poll ${poll} ${String(item.json.idCashout)}:${event.previousStatus}->${String(item.json.status)}@${String(item.json.lastChangeDate)}`);
				}
				for (const [id, entry] of visible) {
					const before = trigger.last.get(id);
					if (trigger.expected(before, entry)) trigger.expectedEvents.push(`poll ${poll} ${id}:${before?.status ?? null}->${entry.status}@${entry.lastChange}`);
				}
				trigger.last = visible;
			}
		}
		// A last quiet poll each, so records inserted during the final polls are counted too.
		for (const trigger of watched) {
			clock.advance(MINUTE);
			const visible = snapshot();
			const outcome = await trigger.runner!.poll();
			expect(outcome.error).toBeUndefined();
			for (const item of outcome.items ?? []) {
				const event = item.json.event as { previousStatus: string | null };
				trigger.emittedEvents.push(`final ${String(item.json.idCashout)}:${event.previousStatus}->${String(item.json.status)}@${String(item.json.lastChangeDate)}`);
			}
			for (const [id, entry] of visible) {
				const before = trigger.last.get(id);
				if (trigger.expected(before, entry)) trigger.expectedEvents.push(`final ${id}:${before?.status ?? null}->${entry.status}@${entry.lastChange}`);
			}
		}

		expect(actions).toBeGreaterThanOrEqual(2_000);
		expect(lateArrivals).toBeGreaterThan(50);
		expect(twiceBetweenPolls).toBeGreaterThan(10);
		expect(concurrentInserts).toBeGreaterThan(10);
		expect(pageShifts).toBeGreaterThan(10); // polls that were served one record on two pages
		// Across windows and pages: every poll read two windows (75 days), the newest over many pages.
		expect(widestPoll).toBe(2);
		expect(deepestPage).toBeGreaterThan(10);
		expect(requests).toBeGreaterThan(1_500);
		expect(recoveredPolls).toBeGreaterThan(5); // faults the retries absorbed within the poll
		for (const trigger of watched) {
			expect(trigger.failedPolls).toBeGreaterThan(0);
			expect(trigger.expectedEvents.length).toBeGreaterThan(0);
			// Exactly the same events at the same polls (each names the change it reports by its
			// lastChangeDate): none missed, none repeated, none late.
			expect([trigger.name, [...trigger.emittedEvents].sort()]).toEqual([trigger.name, [...trigger.expectedEvents].sort()]);
			expect(new Set(trigger.emittedEvents).size).toBe(trigger.emittedEvents.length);
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
			return { method: 'GET', path: '/v1/cashouts', kind: 'status', status: 503, skip: rng.int(0, 12) };
		case 1:
			return { method: 'GET', path: '/v1/cashouts', kind: 'reset', skip: rng.int(0, 12) };
		case 2:
			return { method: 'GET', path: '/v1/cashouts', kind: 'status', status: 429, retryAfterSeconds: 60, skip: rng.int(0, 12) };
		case 3:
			return { method: 'GET', path: '/v1/cashouts', kind: 'status', status: 503, skip: rng.int(0, 12), times: 4 };
		default:
			return { method: 'POST', path: '/v1/auth/login', kind: 'status', status: 500 };
	}
}
