import { isDeepStrictEqual } from 'util';
import { loadState } from '../../../../nodes/PaymentsService/trigger/poll/load';
import {
	initialState,
	type SeenEntry,
	type TriggerState,
} from '../../../../nodes/PaymentsService/trigger/poll/memory';
import { packState } from '../../../../nodes/PaymentsService/trigger/poll/storage';
import {
	NOW,
	START,
	config,
	obs,
	detect,
	loadTriggerState,
	storedSeen,
} from '../../../harness/pollState';

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
		expect(loadTriggerState({ ...initialState(cfg, NOW), v: 4 }, cfg)).toBeUndefined();
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
		expect(packState(state)).toEqual({ ...state, ranges: '' });
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
