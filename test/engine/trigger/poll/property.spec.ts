import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import type { FaultSpec } from '../../../sandbox';
import { type Fixture } from '../../../harness/fixtures';
import { READ_MARGIN_SECONDS } from '../../../../nodes/PaymentsService/trigger/poll/ranges';
import { PollRunner, type SavingMode } from '../../../harness/poll';
import { iso } from '../../../harness/records';
import {
	TRIGGER_NODE,
	triggerWorkflow,
	useTriggerWorld,
	type SharedClock,
	SECOND,
	DAY,
	MID,
} from '../../../harness/trigger';

/*
 * A property test of the polling trigger, polled through n8n-core's PollContext with n8n's saving
 * rule (test/harness/poll.ts: legacy, static data saved only at activation and after a poll that
 * emits; or durable poll cursors). fast-check draws a trigger configuration and a history: cashouts
 * created (some listed only later), status changes a chosen number of seconds apart (23 and 33
 * among them, the values the stored format once mistook for its markers), n8n restarts between
 * polls, and faults that fail a poll or are retried within it.
 *
 * The oracle knows only the sandbox's records. At each poll that succeeds it compares every listed
 * record with the same record at the previous poll that succeeded, and says what the trigger must
 * emit: nothing missing, nothing repeated, nothing invented, whatever n8n saved or forgot. Each run
 * lives in its own stretch of sandbox time, ten days after the last, so it sees only its own records.
 */

const STATUSES = ['PENDING', 'ON_HOLD', 'CANCELLED', 'REJECTED'];
/** Seconds between two actions: 23 and 33 were the stored format's markers (`n`, `x`) in base 36. */
const GAPS = [1, 2, 23, 33, 36, 61, 1_295];

interface Watched {
	name: string;
	parameters: INodeParameters;
	/** What the trigger must emit for a record listed now, given the same record at the previous successful poll. */
	emits: (record: Truth, before: Truth | undefined, context: OracleContext) => boolean;
}

interface Truth {
	status: string;
	lastChange: number;
	created: number;
}

interface OracleContext {
	/** The activation poll's time, Unix seconds. */
	activatedAt: number;
	/** Whether the record was listed in ON_HOLD by an earlier successful poll. */
	everHeld: boolean;
}

const held = (record: Truth) => record.status === 'ON_HOLD';
const changedAfterCreation = (record: Truth) => record.lastChange > record.created;
/** To Status ON_HOLD: a new status, or a later lastChangeDate (it left ON_HOLD and came back). */
const newHold = (record: Truth, before: Truth | undefined, newRecordsCount: boolean) =>
	held(record) &&
	(before
		? before.status !== record.status || record.lastChange > before.lastChange
		: newRecordsCount || changedAfterCreation(record));

const WATCHED: Watched[] = [
	{
		name: 'Any Change',
		parameters: { resource: 'cashout', event: 'anyChange' },
		emits: (record, before) =>
			!before || before.status !== record.status || before.lastChange !== record.lastChange,
	},
	{
		name: 'Status Changed (any status)',
		parameters: { resource: 'cashout', event: 'statusChanged', toStatuses: [] },
		emits: (record, before) => !before || before.status !== record.status,
	},
	{
		name: 'Status Changed to ON_HOLD (asks for ON_HOLD only)',
		parameters: { resource: 'cashout', event: 'statusChanged', toStatuses: ['ON_HOLD'] },
		emits: (record, before) => newHold(record, before, true),
	},
	{
		name: 'Status Changed to ON_HOLD, Count New Records as Changes off (every status read)',
		parameters: {
			resource: 'cashout',
			event: 'statusChanged',
			toStatuses: ['ON_HOLD'],
			options: { includeFirstSightings: false },
		},
		emits: (record, before) => newHold(record, before, false),
	},
	{
		name: 'Any Change with Status ON_HOLD (asks for ON_HOLD only)',
		parameters: { resource: 'cashout', event: 'anyChange', filters: { status: 'ON_HOLD' } },
		emits: (record, before) =>
			held(record) &&
			(!before || before.status !== record.status || before.lastChange !== record.lastChange),
	},
	{
		name: 'New Record',
		parameters: { resource: 'cashout', event: 'newRecord' },
		emits: (_record, before) => !before,
	},
	{
		name: 'New Record with Status ON_HOLD',
		parameters: { resource: 'cashout', event: 'newRecord', filters: { status: 'ON_HOLD' } },
		emits: (record, _before, context) =>
			held(record) && !context.everHeld && record.created > context.activatedAt,
	},
];

type Action =
	| { kind: 'create'; gap: number; ageSeconds: number; onHold: boolean; lateSeconds: number }
	| { kind: 'change'; gap: number; target: number; status: string };

interface Round {
	actions: Action[];
	restart: boolean;
	fault: 'none' | 'fails' | 'retried';
}

const gapArb = fc.constantFrom(...GAPS);
const actionArb: fc.Arbitrary<Action> = fc.oneof(
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('create' as const),
			gap: gapArb,
			ageSeconds: fc.constantFrom(0, 0, 23, 33, 36, 1_295),
			onHold: fc.boolean(),
			lateSeconds: fc.constantFrom(0, 0, 0, 90, 600),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('change' as const),
			gap: gapArb,
			target: fc.nat(),
			status: fc.constantFrom(...STATUSES),
		}),
	},
);
const roundArb: fc.Arbitrary<Round> = fc.record({
	actions: fc.array(actionArb, { maxLength: 4 }),
	restart: fc.boolean(),
	fault: fc.oneof(
		{ weight: 6, arbitrary: fc.constant('none' as const) },
		{ weight: 2, arbitrary: fc.constant('fails' as const) },
		{ weight: 1, arbitrary: fc.constant('retried' as const) },
	),
});
/**
 * The node's version and memory: version 1 (every record remembered); version 2 remembering at most
 * 0, 2 or 1,000 records (the others judged by lastChangeDate against when they were read); and a
 * service whose status changes leave lastChangeDate alone, which version 2 must notice on a record
 * it remembers (with 1,000 it remembers every record of a history) and then remember everything.
 */
const memoryArb = fc.oneof(
	{ weight: 2, arbitrary: fc.constant({ version: 1, maxRemembered: undefined, frozen: false }) },
	{
		weight: 4,
		arbitrary: fc.record({
			version: fc.constant(2),
			maxRemembered: fc.constantFrom(0, 2, 1_000),
			frozen: fc.constant(false),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			version: fc.constantFrom(1, 2),
			maxRemembered: fc.constant(1_000),
			frozen: fc.constant(true),
		}),
	},
);

const historyArb = fc.record({
	watched: fc.constantFrom(...WATCHED),
	memory: memoryArb,
	mode: fc.constantFrom<SavingMode>('legacy', 'legacy', 'durable'),
	initial: fc.array(
		fc.record({ ageSeconds: fc.integer({ min: 0, max: 7_200 }), onHold: fc.boolean() }),
		{ maxLength: 4 },
	),
	rounds: fc.array(roundArb, { minLength: 3, maxLength: 9 }),
});

const FAULTS: Record<'fails' | 'retried', FaultSpec> = {
	// A 429 asking for a minute outlasts the retries: the poll fails and must leave the state as it was.
	fails: {
		method: 'GET',
		path: '/v1/cashouts',
		kind: 'status',
		status: 429,
		retryAfterSeconds: 60,
	},
	// A 503 asking to retry at once is retried within the poll, which then succeeds.
	retried: {
		method: 'GET',
		path: '/v1/cashouts',
		kind: 'status',
		status: 503,
		retryAfterSeconds: 0,
	},
};

describe('polling trigger, property: random creations, changes, restarts and faults under n8n’s saving rule', () => {
	let fx: Fixture;
	let clock: SharedClock;
	const era = Date.UTC(2026, 10, 2, 12, 0, 0);
	useTriggerWorld(era, (world) => ({ fx, clock } = world), { once: true });

	test('the events are exactly the differences between successive successful polls: none missing, repeated or invented', async () => {
		const totals = {
			runs: 0,
			polls: 0,
			failed: 0,
			retried: 0,
			restarts: 0,
			events: 0,
			byVersion: { 1: 0, 2: 0 } as Record<number, number>,
		};
		await fc.assert(
			fc.asyncProperty(historyArb, async (history) => {
				totals.runs++;
				// A stretch of time of its own: the records of earlier runs are older than the look-back.
				clock.set(clock.now() + 10 * DAY);
				const created = new Map<number, number>();
				const visibleAt = new Map<number, number>();
				const add = (ageSeconds: number, onHold: boolean, lateSeconds = 0) => {
					const createdSeconds = Math.floor(clock.now() / SECOND) - ageSeconds;
					const record = fx.sandbox.control.addCashout({
						idMerchant: MID,
						creationDate: iso(createdSeconds),
						onHold,
						visibleAt: lateSeconds ? clock.now() + lateSeconds * SECOND : undefined,
					});
					created.set(record.idCashout, createdSeconds);
					visibleAt.set(record.idCashout, lateSeconds ? clock.now() + lateSeconds * SECOND : 0);
				};
				/** This run's records the service lists now, as the oracle sees them. */
				const truth = (): Map<number, Truth> =>
					new Map(
						fx.sandbox.control
							.cashouts(MID)
							.filter(
								(record) =>
									created.has(record.idCashout) && visibleAt.get(record.idCashout)! <= clock.now(),
							)
							.map((record) => [
								record.idCashout,
								{
									status: record.status,
									lastChange: Date.parse(record.lastChangeDate) / SECOND,
									created: created.get(record.idCashout)!,
								},
							]),
					);

				for (const entry of history.initial) add(entry.ageSeconds, entry.onHold);
				const { version, maxRemembered, frozen } = history.memory;
				const bounded = version === 2 && maxRemembered !== undefined && maxRemembered < 1_000;
				totals.byVersion[version]++;
				const trigger = new PollRunner(
					fx.engine,
					triggerWorkflow(
						{
							...history.watched.parameters,
							options: {
								rereadMinutes: '0',
								...(maxRemembered === undefined ? {} : { maxRemembered }),
								...(history.watched.parameters.options as INodeParameters | undefined),
							},
						},
						undefined,
						version,
					),
					TRIGGER_NODE,
					{ staticData: {} },
					// A status change that leaves lastChangeDate alone is lost with a lost save (the
					// documented limit): such a service is played with every poll's state committed.
					frozen ? 'durable' : history.mode,
				);
				fx.sandbox.control.setLastChangeMoves(!frozen);
				const activation = await trigger.poll();
				expect(activation).toEqual({ items: null });
				const activatedAt = Math.floor(clock.now() / SECOND);
				let previous = truth();
				const everHeld = new Set(
					[...previous].filter(([, record]) => held(record)).map(([id]) => id),
				);
				const expected: string[] = [];
				const emitted: string[] = [];

				for (const [index, round] of history.rounds.entries()) {
					for (const action of round.actions) {
						clock.advance(action.gap * SECOND);
						if (action.kind === 'create') {
							// A memory bounded below the history's records sees a record first listed
							// within the read margin of its creation (docs/polling-trigger.md, "Memory").
							const age = bounded
								? Math.min(action.ageSeconds, READ_MARGIN_SECONDS - 1 - action.lateSeconds)
								: action.ageSeconds;
							add(age, action.onHold, action.lateSeconds);
						} else {
							const ids = [...created.keys()];
							if (ids.length)
								fx.sandbox.control.setStatus(
									'cashout',
									ids[action.target % ids.length],
									action.status,
								);
						}
					}
					clock.advance(61 * SECOND);
					if (round.restart) {
						trigger.restart();
						totals.restarts++;
					}
					if (round.fault !== 'none') fx.sandbox.faults.add(FAULTS[round.fault]);
					const now = truth();
					const outcome = await trigger.poll();
					fx.sandbox.faults.clear();
					totals.polls++;
					if (round.fault === 'fails') {
						expect(outcome).toEqual({ items: null, error: expect.any(Error) });
						totals.failed++;
						continue;
					}
					expect(outcome.error).toBeUndefined();
					if (round.fault === 'retried') totals.retried++;
					for (const item of outcome.items ?? [])
						emitted.push(
							`poll ${index} ${String(item.json.idCashout)} ${String(item.json.status)} ${String(item.json.lastChangeDate)}`,
						);
					for (const [id, record] of now) {
						const context = { activatedAt, everHeld: everHeld.has(id) };
						if (history.watched.emits(record, previous.get(id), context))
							expected.push(`poll ${index} ${id} ${record.status} ${iso(record.lastChange)}`);
						if (held(record)) everHeld.add(id);
					}
					previous = now;
				}
				fx.sandbox.control.setLastChangeMoves(true);
				totals.events += emitted.length;
				const name = `${history.watched.name}, ${JSON.stringify(history.memory)}`;
				expect([name, emitted.sort()]).toEqual([name, expected.sort()]);
			}),
			{ numRuns: 30, seed: 24, endOnFailure: true },
		);
		expect(totals.byVersion[2]).toBeGreaterThan(8);
		// The runs met what they are meant to meet.
		expect(totals.restarts).toBeGreaterThan(20);
		expect(totals.failed).toBeGreaterThan(5);
		expect(totals.retried).toBeGreaterThan(5);
		expect(totals.events).toBeGreaterThan(40);
	}, 120_000);
});
