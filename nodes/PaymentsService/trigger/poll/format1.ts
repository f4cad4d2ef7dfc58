import { hasStatus, REPORTING_LISTS, type ReportingListDefinition } from '../../reporting/lists';
import { LEFT, NO_STATUS, type SeenEntry, type TriggerState } from './memory';

/*
 * The trigger's memory as format 1 stored it, read into format 2 (./storage.ts reads every format
 * and migrates format 2 on to format 3).
 */

/**
 * A stored state of format 2: format 3 before tiers and ranges, with one re-reading cursor
 * (./storage.ts migrates it).
 */
export type FormatTwoState = Omit<TriggerState, 'v' | 'sweeps' | 'ranges'> & {
	v: 2;
	sweepFrom?: number;
	sweepClock?: number;
};

/** A stored state of format 1: `v: 1`, `seen` entries with 0 for "no lastChangeDate". */
export type FormatOneState = Omit<FormatTwoState, 'v'> & { v: 1 };

/** Format 1's status remembered for a record that left a narrowed read (a string in `statuses`). */
const FORMAT1_LEFT_STATUS = '~left';

/**
 * The `seen` map of a format-1 packed string, each marker read the way it was meant. Format 1
 * wrote `n` for "no lastChangeDate" and also for a lastChangeDate 23 s after creation (23 in base
 * 36), and `x` for "no status" and also for status index 33:
 * - `n` is 23 s for a list whose records carry lastChangeDate (deposits, cashouts, refunds,
 *   chargebacks: a record of those without one is all but unknown, and if it was one, the next poll
 *   reads no lastChangeDate, which no event takes for a change), and "none" for the others;
 * - `x` is index 33 when the list has statuses and `statuses` has an index 33, and "none" otherwise.
 * Undefined when the string is damaged.
 */
export function unpackFormat1(
	packed: string,
	config: string,
	statuses: unknown[],
): Record<string, SeenEntry> | undefined {
	const list = listOfConfig(config);
	const nMeans23 = list?.hasLastChangeDate ?? false;
	const xMeans33 = list !== undefined && hasStatus(list) && statuses.length > 33;
	const seen: Record<string, SeenEntry> = {};
	if (packed === '') return seen;
	let id = 0;
	let created = 0;
	for (const entry of packed.split(',')) {
		const [idDelta, createdDelta = '', change = '', status = ''] = entry.split('.');
		id += parseInt(idDelta, 36);
		created += createdDelta === '' ? 0 : parseInt(createdDelta, 36);
		const lastChange =
			change === 'n'
				? nMeans23
					? created + 23
					: null
				: change === ''
					? created
					: created + parseInt(change, 36);
		const statusIndex =
			status === '' ? 0 : status === 'x' ? (xMeans33 ? 33 : NO_STATUS) : parseInt(status, 36);
		if (![id, created, lastChange ?? 0, statusIndex].every(Number.isFinite)) return undefined;
		seen[String(id)] = [statusIndex, lastChange, created];
	}
	return seen;
}

/** The list a {@link configKey} watches; undefined for a key that is not one. */
function listOfConfig(key: string): ReportingListDefinition | undefined {
	try {
		const parts = JSON.parse(key) as unknown[];
		const resource = Array.isArray(parts) ? parts[0] : undefined;
		return typeof resource === 'string' &&
			Object.prototype.hasOwnProperty.call(REPORTING_LISTS, resource)
			? REPORTING_LISTS[resource as keyof typeof REPORTING_LISTS]
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * A format-1 state in format 2: lastChangeDate 0 or below (format 1 read those as "none") becomes
 * null, and the status `~left` in `statuses` becomes {@link LEFT} (a service status spelled `~left`
 * could not be told from it). Unpacked entries are already in format 2 (see {@link unpackFormat1}).
 */
export function migrateFormat1(state: FormatOneState): FormatTwoState {
	const left = state.statuses.indexOf(FORMAT1_LEFT_STATUS);
	const statuses = state.statuses.filter((status) => status !== FORMAT1_LEFT_STATUS);
	const remap = (index: number) =>
		index === left && left >= 0 ? LEFT : left >= 0 && index > left ? index - 1 : index;
	const seen: Record<string, SeenEntry> = {};
	for (const [key, entry] of Object.entries(state.seen)) {
		const lastChange = entry[1] === null || entry[1] <= 0 ? null : entry[1];
		seen[key] = [remap(entry[0]), lastChange, entry[2]];
	}
	return { ...state, v: 2, statuses, seen };
}
