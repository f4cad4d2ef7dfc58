import type { IDataObject } from 'n8n-workflow';

/**
 * The polling trigger's stored state as format 1 wrote it (the version before issue 24), to test
 * that states saved by it are still read, and read the way they were meant.
 *
 * Format 1: `v: 1`; `seen` entries `[status index or -1, lastChangeDate or 0, creation date]`; a
 * record that left a narrowed read had the status `~left` in `statuses`; with numeric ids, `seen`
 * was packed as `idDelta.createdDelta.change.status` in base 36 with `n` for "no lastChangeDate" and
 * `x` for "no status" — also the base-36 digits of 23 and 33, which is why format 2 exists.
 */
export interface FormatOneState {
	v: 1;
	config: string;
	statuses: string[];
	/** `[status index or -1, lastChangeDate (Unix seconds) or 0 for none, creation date]`. */
	seen: Record<string, [number, number, number]>;
	[field: string]: unknown;
}

/** Format 1's packing, as it was (nodes/PaymentsService/trigger/poll/state.ts before format 2). */
export function packFormat1(state: FormatOneState): IDataObject {
	const keys = Object.keys(state.seen);
	if (!keys.every((key) => /^(0|[1-9][0-9]{0,14})$/.test(key)))
		return { ...state } as unknown as IDataObject;
	const entries = keys.map((key) => [Number(key), state.seen[key]] as const);
	entries.sort((a, b) => a[1][2] - b[1][2] || a[0] - b[0]);
	let previousId = 0;
	let previousCreated = 0;
	const parts = entries.map(([id, [status, lastChange, created]]) => {
		const fields = [
			(id - previousId).toString(36),
			(created - previousCreated).toString(36),
			lastChange === 0 ? 'n' : lastChange === created ? '' : (lastChange - created).toString(36),
			status === 0 ? '' : status < 0 ? 'x' : status.toString(36),
		];
		while (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
		previousId = id;
		previousCreated = created;
		return fields.join('.');
	});
	const stored = { ...state, packed: parts.join(',') } as unknown as IDataObject;
	delete stored.seen;
	return stored;
}
