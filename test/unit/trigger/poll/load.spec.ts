import { detectEvents } from '../../../../nodes/PaymentsService/trigger/poll/detection';
import { loadState } from '../../../../nodes/PaymentsService/trigger/poll/load';
import { configKey } from '../../../../nodes/PaymentsService/trigger/poll/memory';
import { planPoll } from '../../../../nodes/PaymentsService/trigger/poll/plan';
import { packState } from '../../../../nodes/PaymentsService/trigger/poll/storage';
import {
	HOUR,
	DAY,
	NOW,
	START,
	config,
	obs,
	detect,
	afterStartingPoint,
	summary,
} from '../../../harness/pollState';

describe('loadState', () => {
	test('the same record set under other settings keeps the memory; the first poll compares with it', () => {
		const before = config();
		const state = afterStartingPoint(before, [obs('a', 'PENDING', START + 10, START + 10)]);
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
		const state = { ...afterStartingPoint(cfg, []), polledAt: NOW + 8 * DAY, knownFrom: NOW + DAY };
		const { state: loaded, notes } = loadState(state, cfg, NOW, START);
		expect(notes.map((note) => note.level)).toEqual(['warn', 'info']);
		expect(notes[0].metadata).toMatchObject({ clockMovedBackSeconds: 8 * DAY });
		expect(planPoll(loaded, config({ rereadSeconds: HOUR }), START, NOW).slices).toBeUndefined(); // the whole look-back
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
