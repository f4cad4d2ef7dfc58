/**
 * What the polling trigger's unit tests share (test/unit/trigger/poll/): a fixed now, trigger
 * settings, observations, a detection call with defaults, a starting-point poll, and readers of the state.
 */
import {
	detectEvents,
	type DetectedEvent,
} from '../../nodes/PaymentsService/trigger/poll/detection';
import {
	configKey,
	initialState,
	type SeenEntry,
	type TriggerState,
} from '../../nodes/PaymentsService/trigger/poll/memory';
import { readStoredState } from '../../nodes/PaymentsService/trigger/poll/storage';
import type { Observation, TriggerConfig } from '../../nodes/PaymentsService/trigger/poll/types';
import type { TimeWindow } from '../../nodes/PaymentsService/reporting/read/windows';
import { resolveConfig, type TriggerSettings } from './triggerConfig';

export const HOUR = 3_600;
export const DAY = 86_400;
/** 2023-11-14T22:13:20Z */
export const NOW = 1_700_000_000;
export const LOOK_BACK = 7 * DAY;
export const START = NOW - LOOK_BACK;

export function config(overrides: Partial<TriggerSettings> = {}): TriggerConfig {
	return resolveConfig({
		resource: 'cashout',
		event: 'statusChanged',
		filters: {},
		toStatuses: [],
		status: '',
		lookBackSeconds: LOOK_BACK,
		countNewRecords: true,
		rereadSeconds: 0,
		...overrides,
	});
}

export function obs(
	key: string,
	status: string | null,
	lastChange: number | null,
	created: number,
): Observation {
	return { key, status, lastChange, created, record: { id: key, status } };
}

export function detect(
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

/** The state after a complete starting-point poll that read `observations`. */
export function afterStartingPoint(cfg: TriggerConfig, observations: Observation[]): TriggerState {
	const result = detect(initialState(cfg, NOW - HOUR), cfg, observations);
	expect(result.events).toEqual([]);
	return result.state;
}

export const summary = (events: DetectedEvent[]) =>
	events.map((event) => [
		event.observation.key,
		event.type,
		event.previousStatus,
		event.observation.status,
	]);

/** What the state remembers of `key`, decoded. */
export function remembered(state: TriggerState, key: string) {
	const entry = state.seen[key];
	if (!entry) return undefined;
	return {
		status: entry[0] >= 0 ? state.statuses[entry[0]] : null,
		lastChange: entry[1],
		created: entry[2],
	};
}

/** Asserts the windows cover [from, to] exactly once each second, and returns them sorted. */
export function expectExactCover(windows: TimeWindow[], from: number, to: number): void {
	const sorted = [...windows].sort((a, b) => a.from - b.from);
	expect(sorted[0].from).toBe(from);
	expect(sorted[sorted.length - 1].to).toBe(to);
	for (let i = 1; i < sorted.length; i++) expect(sorted[i].from).toBe(sorted[i - 1].to + 1);
}

/** The records a stored state remembers, by key, packed or not; undefined for no readable state. */
export function storedSeen(stored: unknown): Record<string, SeenEntry> | undefined {
	return readStoredState(stored)?.seen;
}

/** Reads a stored state; undefined when absent, malformed, of another version or another config. */
export function loadTriggerState(stored: unknown, cfg: TriggerConfig): TriggerState | undefined {
	const state = readStoredState(stored);
	return state && state.config === configKey(cfg) ? state : undefined;
}
