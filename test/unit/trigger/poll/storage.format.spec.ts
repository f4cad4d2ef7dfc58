import fc from 'fast-check';

import { detectEvents } from '../../../../nodes/PaymentsService/trigger/poll/detection';
import { loadState } from '../../../../nodes/PaymentsService/trigger/poll/load';
import {
	configKey,
	initialState,
	LEFT,
	NO_STATUS,
	STATE_FORMAT,
	type SeenEntry,
	type TriggerState,
} from '../../../../nodes/PaymentsService/trigger/poll/memory';
import { packState } from '../../../../nodes/PaymentsService/trigger/poll/storage';
import { storedSeen } from '../../../harness/pollState';
import type { TriggerConfig } from '../../../../nodes/PaymentsService/trigger/poll/types';
import { packFormat1, type FormatOneState } from '../../../harness/pollFormat1';
import { resolveConfig, type TriggerSettings } from '../../../harness/triggerConfig';

/*
 * The polling trigger's stored state (issue 24): no marker can be read as a value, or a value as a
 * marker. Each encoding is tried over its whole range — every offset from creation to
 * lastChangeDate up to two days and far beyond (negative too), every status index, ids and dates
 * of any size — and states saved by format 1 are read the way they were meant.
 */

const DAY = 86_400;
const NOW = 1_700_000_000;
const LOOK_BACK = 7 * DAY;
const START = NOW - LOOK_BACK;

function config(overrides: Partial<TriggerSettings> = {}): TriggerConfig {
	return resolveConfig({
		resource: 'cashout',
		event: 'anyChange',
		filters: {},
		toStatuses: [],
		status: '',
		lookBackSeconds: LOOK_BACK,
		countNewRecords: true,
		rereadSeconds: 0,
		...overrides,
	});
}

const statuses = (count: number) =>
	Array.from({ length: count }, (_, index) => `STATUS_${String(index).padStart(4, '0')}`);

/** What n8n stores and reads back: the packed state through JSON. */
const roundTrip = (state: TriggerState) =>
	storedSeen(JSON.parse(JSON.stringify(packState(state))) as unknown);

/** The keys of `seen` whose entry `back` does not hold exactly. */
const misread = (seen: Record<string, SeenEntry>, back: Record<string, SeenEntry>) =>
	Object.keys(seen).filter((key) => {
		const [a, b] = [seen[key], back[key]];
		return !b || b.length !== 3 || a[0] !== b[0] || a[1] !== b[1] || a[2] !== b[2];
	});

describe('stored format: every value reads back as itself', () => {
	test('every offset from creation to lastChangeDate, 0 s to two days (23 s included), and far beyond', () => {
		const seen: Record<string, SeenEntry> = {};
		let id = 700_000;
		for (let offset = 0; offset <= 2 * DAY; offset++)
			seen[String(id++)] = [0, START + id + offset, START + id];
		for (const offset of [-1, -23, -33, -DAY, 36 ** 5, 2 ** 40, -(2 ** 40)])
			seen[String(id++)] = [0, START + offset, START];
		const state: TriggerState = { ...initialState(config(), NOW), statuses: ['PENDING'], seen };
		expect(typeof packState(state).packed).toBe('string');
		const back = roundTrip(state)!;
		const wrong = misread(seen, back);
		// Before: the 23 s record read back with no lastChangeDate.
		expect(wrong).toEqual([]);
	});

	test('every status index up to 1,300 (33 included), no status and a left record', () => {
		const seen: Record<string, SeenEntry> = {};
		for (let index = 0; index < 1_300; index++) seen[String(index + 1)] = [index, NOW, NOW];
		seen['5000'] = [NO_STATUS, NOW, NOW];
		seen['5001'] = [LEFT, NOW, NOW];
		const state: TriggerState = {
			...initialState(config(), NOW),
			statuses: statuses(1_300),
			seen,
		};
		const back = roundTrip(state)!;
		const wrong = misread(seen, back);
		// Before: index 33 read back as "no status".
		expect(wrong).toEqual([]);
	});

	test('property: any ids, dates, offsets and statuses read back exactly', () => {
		const entryArb = fc.record({
			status: fc.oneof(
				fc.constantFrom(NO_STATUS, LEFT, 0, 23, 33, 35, 36),
				fc.integer({ min: 0, max: 1_999 }),
			),
			created: fc.oneof(
				fc.integer({ min: NOW - 60 * DAY, max: NOW }),
				fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
			),
			offset: fc.oneof(
				fc.constant(null),
				fc.constantFrom(0, 23, 33, 36, -23),
				fc.integer({ min: 0, max: 2 * DAY }),
				fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
			),
		});
		fc.assert(
			fc.property(
				fc.dictionary(fc.oneof(fc.nat({ max: 9_999_999 }), fc.nat()).map(String), entryArb, {
					maxKeys: 40,
				}),
				(entries) => {
					const seen: Record<string, SeenEntry> = {};
					for (const [key, entry] of Object.entries(entries))
						seen[key] = [
							entry.status,
							entry.offset === null ? null : entry.created + entry.offset,
							entry.created,
						];
					const state: TriggerState = {
						...initialState(config(), NOW),
						statuses: statuses(2_000),
						seen,
					};
					expect(typeof packState(state).packed).toBe('string');
					expect(roundTrip(state)).toEqual(seen);
				},
			),
			{ numRuns: 500 },
		);
	});

	test('values the packed format has no field for (not whole seconds) keep the plain seen object, read back as they were', () => {
		const state: TriggerState = {
			...initialState(config(), NOW),
			statuses: ['PENDING'],
			seen: { '1': [0, NOW + 0.5, NOW], '2': [NO_STATUS, null, NOW] },
		};
		const stored = JSON.parse(JSON.stringify(packState(state))) as Record<string, unknown>;
		expect(stored.packed).toBeUndefined();
		expect(storedSeen(stored)).toEqual(state.seen);
	});

	test('a service status spelled like the old left marker stays a status', () => {
		const state: TriggerState = {
			...initialState(config(), NOW),
			statuses: ['~left', 'PENDING'],
			seen: { '1': [0, NOW, NOW], '2': [LEFT, NOW, NOW], '3': [1, null, NOW] },
		};
		const { state: loaded } = loadState(
			JSON.parse(JSON.stringify(packState(state))),
			config(),
			NOW,
			START,
		);
		expect(loaded).toEqual(state);
	});

	test.each([
		['a capital letter', '1.0.N'],
		['a sign alone', '1.0.-'],
		['a marker inside a number', '1.0.1_'],
		['a negative status index', '1.0..-3'],
		['a number in another base', '1.0.2A'],
		['a fifth field', '1.0.0.0.0'],
		['an empty entry', '1.0,'],
	])(
		'a damaged packed string (%s) is unreadable: the trigger starts over, saying so',
		(_name, packed) => {
			const stored = { ...packState(initialState(config(), NOW)), packed };
			const { state, notes } = loadState(stored, config(), NOW, START);
			expect(state.seen).toEqual({});
			expect(notes).toEqual([
				expect.objectContaining({ level: 'warn', message: expect.stringMatching(/unreadable/) }),
			]);
		},
	);
});

describe('stored format 1 (saved before issue 24) is migrated, each marker read the way it was meant', () => {
	const format1 = (
		cfg: TriggerConfig,
		seen: FormatOneState['seen'],
		statusList: string[],
	): FormatOneState => ({
		...initialState(cfg, NOW),
		baselineDone: true,
		v: 1,
		config: configKey(cfg),
		statuses: statusList,
		seen,
	});

	test('cashouts: `n` is a lastChangeDate 23 s after creation; the record left alone raises no event', () => {
		const cfg = config();
		const stored = packFormat1(
			format1(
				cfg,
				{
					'10': [0, START + 23, START], // changed 23 s after creation: packed `n`
					'11': [0, START + 24, START + 1],
					'12': [0, START + 2, START + 2],
				},
				['ON_HOLD'],
			),
		);
		expect(stored.packed).toMatch(/^a\.[0-9a-z]+\.n,1\.1\.n,1\.1$/); // `n` for 23 s, then "unchanged"
		const { state, notes } = loadState(stored, cfg, NOW, START);
		expect(notes).toEqual([]);
		expect(state.v).toBe(STATE_FORMAT);
		expect(state.seen).toEqual({
			'10': [0, START + 23, START],
			'11': [0, START + 24, START + 1],
			'12': [0, START + 2, START + 2],
		});
		const observations = Object.entries(state.seen).map(([key, [, lastChange, created]]) => ({
			key,
			status: 'ON_HOLD',
			lastChange,
			created,
			record: {},
		}));
		const polled = detectEvents(state, cfg, observations, {
			maxEvents: 10,
			complete: true,
			lookBackStart: START,
		});
		expect(polled.events).toEqual([]);
	});

	test('settlements (no lastChangeDate): `n` is "none"', () => {
		const cfg = config({ resource: 'settlement', event: 'statusChanged' });
		const stored = packFormat1(format1(cfg, { '7': [0, 0, START] }, ['PENDING']));
		const { state } = loadState(stored, cfg, NOW, START);
		expect(state.seen).toEqual({ '7': [0, null, START] });
	});

	test('`x` is "no status" unless the dictionary has an index 33; `~left` becomes the left marker', () => {
		const cfg = config({ event: 'statusChanged', toStatuses: ['ON_HOLD'] });
		const few = packFormat1(
			format1(
				cfg,
				{ '1': [-1, START, START], '2': [1, START, START], '3': [2, START + 5, START] },
				['ON_HOLD', '~left', 'CANCELLED'],
			),
		);
		expect(loadState(few, cfg, NOW, START).state).toMatchObject({
			statuses: ['ON_HOLD', 'CANCELLED'],
			seen: {
				'1': [NO_STATUS, START, START],
				'2': [LEFT, START, START],
				'3': [1, START + 5, START],
			},
		});
		const many = packFormat1(
			format1(cfg, { '1': [33, START, START], '2': [34, START, START] }, statuses(35)),
		);
		expect(loadState(many, cfg, NOW, START).state.seen).toEqual({
			'1': [33, START, START],
			'2': [34, START, START],
		});
	});

	test('plain (unpacked) format 1: lastChangeDate 0 becomes null', () => {
		const cfg = config();
		const stored = packFormat1(
			format1(cfg, { 'a-1': [0, 0, START], 'b-2': [0, START + 9, START] }, ['PENDING']),
		);
		expect(stored.packed).toBeUndefined();
		expect(loadState(stored, cfg, NOW, START).state.seen).toEqual({
			'a-1': [0, null, START],
			'b-2': [0, START + 9, START],
		});
	});

	test('property: every format-1 value that was not ambiguous reads back as it was, and saves as the current format', () => {
		const cfg = config();
		fc.assert(
			fc.property(
				fc.dictionary(
					fc.nat({ max: 9_999_999 }).map(String),
					fc.record({
						status: fc.integer({ min: -1, max: 32 }),
						created: fc.integer({ min: START, max: NOW }),
						offset: fc.integer({ min: 0, max: 2 * DAY }).filter((offset) => offset !== 23),
					}),
					{ maxKeys: 30 },
				),
				(entries) => {
					const seen: FormatOneState['seen'] = {};
					for (const [key, entry] of Object.entries(entries))
						seen[key] = [entry.status, entry.created + entry.offset, entry.created];
					const { state } = loadState(
						packFormat1(format1(cfg, seen, statuses(33))),
						cfg,
						NOW,
						START,
					);
					expect(state.seen).toEqual(seen);
					const saved = packState(state);
					expect(saved.v).toBe(STATE_FORMAT);
					expect(storedSeen(JSON.parse(JSON.stringify(saved)))).toEqual(seen);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('stored format 2 (before version 2 of the node) is carried over into format 3', () => {
	test('its memory and re-reading cursor are kept as the first tier’s; nothing is known of when parts were read', () => {
		const cfg = config();
		const packed = packState({
			...initialState(cfg, NOW - DAY),
			baselineDone: true,
			statuses: ['PENDING'],
			seen: { '7': [0, START + 60, START + 10] },
			knownFrom: START,
		});
		const { sweeps, ranges, ...rest } = packed;
		expect([sweeps, ranges]).toEqual([[], '']);
		const formatTwo = { ...rest, v: 2, sweepFrom: NOW - 2 * DAY, sweepClock: NOW - 600 };
		const { state, notes } = loadState(JSON.parse(JSON.stringify(formatTwo)), cfg, NOW, START);
		expect(notes).toEqual([]);
		expect(state).toMatchObject({
			v: STATE_FORMAT,
			sweeps: [{ from: NOW - 2 * DAY, clock: NOW - 600 }],
			ranges: [],
			seen: { '7': [0, START + 60, START + 10] },
			knownFrom: START,
			baselineDone: true,
		});
		expect(state).not.toHaveProperty('sweepFrom');
	});

	test('ranges and tier cursors of format 3 read back exactly; damaged ones start over', () => {
		const cfg = config();
		const state: TriggerState = {
			...initialState(cfg, NOW),
			sweeps: [{ clock: NOW - 60, from: NOW - DAY }, { clock: NOW - 600 }],
			ranges: [
				{ from: START, to: NOW - DAY, readTo: NOW - 3_600 },
				{ from: NOW - DAY + 1, to: NOW, readTo: NOW - 900, count: 4_321 },
			],
			fullMemorySince: NOW - 30,
		};
		const stored = JSON.parse(JSON.stringify(packState(state)));
		expect(typeof stored.ranges).toBe('string');
		expect(loadState(stored, cfg, NOW, START).state).toEqual(state);
		for (const damaged of [
			{ ...stored, ranges: 'x.y' },
			{ ...stored, ranges: [{ from: 'a' }] },
			{ ...stored, sweeps: [{ from: 1.5 }] },
			{ ...stored, sweeps: 'none' },
			{ ...stored, fullMemorySince: 'yesterday' },
		])
			expect(loadState(damaged, cfg, NOW, START).notes).toEqual([
				expect.objectContaining({ level: 'warn', message: expect.stringContaining('unreadable') }),
			]);
	});
});
