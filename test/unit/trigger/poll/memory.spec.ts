import { detectEvents } from '../../../../nodes/PaymentsService/trigger/poll/detection';
import {
	configKey,
	initialState,
	type TriggerState,
} from '../../../../nodes/PaymentsService/trigger/poll/memory';
import {
	READ_MARGIN_SECONDS,
	readToAt,
} from '../../../../nodes/PaymentsService/trigger/poll/ranges';
import type { Observation } from '../../../../nodes/PaymentsService/trigger/poll/types';
import { type TriggerSettings } from '../../../harness/triggerConfig';
import { HOUR, LOOK_BACK, NOW, START, config, obs } from '../../../harness/pollState';

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
		['Count New Records as Changes', { countNewRecords: false }],
	])('a different %s gives a different key', (_field, change) => {
		const base = config({ filters: { country: 'BR' } });
		expect(configKey(config({ filters: { country: 'BR' }, ...change }))).not.toBe(configKey(base));
	});
});

describe('a bounded memory (version 2): the newest records one by one, the others by when they were read', () => {
	const cfg = config({
		event: 'anyChange',
		version: 2,
		memory: 'bounded',
		maxRemembered: 3,
		rereadSeconds: 0,
	});
	const window = { from: START, to: NOW };
	/** A state after a whole read at `NOW` of records created every hour over the last 10 hours. */
	const afterRead = () => {
		const observations = Array.from({ length: 10 }, (_, index) =>
			obs(String(index), 'PENDING', NOW - (index + 1) * HOUR, NOW - (index + 1) * HOUR),
		);
		return detectEvents({ ...initialState(cfg, NOW), knownFrom: START }, cfg, observations, {
			maxEvents: 100,
			complete: true,
			lookBackStart: START,
			readWindows: [window],
			now: NOW,
			serviceTime: NOW + 5,
		});
	};
	const poll = (state: TriggerState, observations: Observation[], now: number) =>
		detectEvents(state, cfg, observations, {
			maxEvents: 100,
			complete: true,
			lookBackStart: now - LOOK_BACK,
			readWindows: [{ from: now - LOOK_BACK, to: now }],
			now,
			serviceTime: now,
		});

	test('keeps the newest 3 records, and stamps the read with the service’s clock less the margin', () => {
		const { state, events } = afterRead();
		expect(events).toEqual([]);
		expect(Object.keys(state.seen).sort()).toEqual(['0', '1', '2']);
		expect(state.knownFrom).toBe(NOW - 4 * HOUR + 1); // just above the newest record it let go
		expect(readToAt(state.ranges, NOW - 5 * HOUR)).toBe(NOW + 5 - READ_MARGIN_SECONDS);
	});

	test('a record it no longer holds: a later lastChangeDate is a change (previous status null), the same one is none', () => {
		const { state } = afterRead();
		const changed = poll(
			state,
			[
				obs('7', 'REJECTED', NOW + 60, NOW - 8 * HOUR),
				obs('8', 'PENDING', NOW - 9 * HOUR, NOW - 9 * HOUR),
				obs('1', 'ON_HOLD', NOW + 30, NOW - 2 * HOUR),
			],
			NOW + 120,
		);
		expect(changed.events.map((event) => [event.observation.key, event.previousStatus])).toEqual([
			['1', 'PENDING'],
			['7', null],
		]);
		// Changed within the margin of the read, it stays remembered, so the next read does not repeat it.
		expect(changed.state.seen['7']).toBeDefined();
		const again = poll(changed.state, [obs('7', 'REJECTED', NOW + 60, NOW - 8 * HOUR)], NOW + 180);
		expect(again.events).toEqual([]);
		// Once the reads are past the margin, it is forgotten again, and still no event.
		const later = NOW + READ_MARGIN_SECONDS + 200;
		const past = poll(again.state, [obs('7', 'REJECTED', NOW + 60, NOW - 8 * HOUR)], later);
		expect([past.events, past.state.seen['7']]).toEqual([[], undefined]);
	});

	test('a record created after its part was read, never listed before, is new', () => {
		const { state } = afterRead();
		const late = poll(state, [obs('late', 'PENDING', NOW - 100, NOW - 100)], NOW + 300);
		expect(late.events.map((event) => [event.observation.key, event.type])).toEqual([
			['late', 'changed'],
		]);
	});

	test('a remembered record whose status changed with its lastChangeDate unmoved turns the memory full', () => {
		const { state } = afterRead();
		const moved = poll(state, [obs('0', 'CANCELLED', NOW - HOUR, NOW - HOUR)], NOW + 60);
		expect(moved.statusMovedAlone).toEqual({ key: '0', from: 'PENDING', to: 'CANCELLED' });
		expect(moved.state.fullMemorySince).toBe(NOW + 60);
		const full = poll(
			moved.state,
			Array.from({ length: 10 }, (_, index) =>
				obs(String(index), 'PENDING', NOW - (index + 1) * HOUR, NOW - (index + 1) * HOUR),
			),
			NOW + 120,
		);
		expect(Object.keys(full.state.seen)).toHaveLength(10);
		expect(full.statusMovedAlone).toBeUndefined();
	});

	test('an event deferred by Max Items per Poll leaves its part’s readTo as it was, so the next poll emits it', () => {
		const { state } = afterRead();
		const observations = [
			obs('8', 'REJECTED', NOW + 60, NOW - 9 * HOUR),
			obs('9', 'REJECTED', NOW + 61, NOW - 10 * HOUR),
		];
		const first = detectEvents(state, cfg, observations, {
			maxEvents: 1,
			complete: true,
			lookBackStart: START,
			readWindows: [window],
			now: NOW + 3_600,
			serviceTime: NOW + 3_600,
		});
		expect(first.events.map((event) => event.observation.key)).toEqual(['8']);
		const second = poll(first.state, observations, NOW + 3_700);
		expect(second.events.map((event) => event.observation.key)).toEqual(['9']);
	});
});
