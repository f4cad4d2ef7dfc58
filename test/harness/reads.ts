import type { RequestLogEntry } from '../sandbox';

/**
 * How a period of a reporting list was read, from the sandbox's request log: the requests whose
 * window lies within the period, and whether they are one read of it (service rules §3.1, §3.2).
 */
export interface PeriodRead {
	/** List requests whose `from` and `to` lie within the period. */
	requests: number;
	/** Pages (window and page number) requested more than once, as `from-to#page`. */
	repeated: string[];
	/**
	 * The windows read to their end: those no other requested window lies within (a divided
	 * window's parts do), oldest first, as [from, to].
	 */
	leaves: Array<[number, number]>;
	/** Whether the leaves cover the period exactly: no gap, no overlap, from its first second to its last. */
	covers: boolean;
	/**
	 * Leaves not read as one read reads a window: pages 0 to the last without a gap, each answered
	 * 200, the last one short (fewer rows than `maxRows`).
	 */
	unfinished: string[];
}

/**
 * Judges the GET requests to `path` in `log` (the sandbox's request log) whose window lies within
 * [from, to] (Unix seconds, inclusive): one read of the period requests each page once
 * (`repeated` empty), and its windows read to their end cover the period exactly (`covers`, and
 * `unfinished` empty). A second read of the same period repeats every page of the first.
 */
export function periodRead(
	log: readonly RequestLogEntry[],
	path: string,
	from: number,
	to: number,
): PeriodRead {
	const entries = log.filter((entry) => {
		if (entry.method !== 'GET' || entry.path !== path) return false;
		const start = Number(entry.query.from);
		const end = Number(entry.query.to);
		return start >= from && end <= to;
	});
	const pages = new Map<string, RequestLogEntry[]>();
	const windows = new Map<string, { from: number; to: number; pages: RequestLogEntry[] }>();
	for (const entry of entries) {
		const window = `${entry.query.from}-${entry.query.to}`;
		const page = `${window}#${entry.query.page}`;
		pages.set(page, [...(pages.get(page) ?? []), entry]);
		const known = windows.get(window) ?? {
			from: Number(entry.query.from),
			to: Number(entry.query.to),
			pages: [],
		};
		known.pages.push(entry);
		windows.set(window, known);
	}
	const all = [...windows.values()];
	const leaves = all
		.filter(
			(window) =>
				!all.some(
					(other) =>
						other !== window &&
						other.from >= window.from &&
						other.to <= window.to &&
						(other.from !== window.from || other.to !== window.to),
				),
		)
		.sort((a, b) => a.from - b.from);
	let next = from;
	let covers = leaves.length > 0;
	for (const leaf of leaves) {
		if (leaf.from !== next) covers = false;
		next = leaf.to + 1;
	}
	if (next !== to + 1) covers = false;
	const unfinished = leaves
		.filter((leaf) => {
			const numbers = leaf.pages.map((entry) => Number(entry.query.page)).sort((a, b) => a - b);
			const last = leaf.pages.find((entry) => Number(entry.query.page) === numbers.at(-1));
			const body = last?.responseBody as { rows?: number; maxRows?: number } | undefined;
			return (
				numbers.some((page, index) => page !== index) ||
				leaf.pages.some((entry) => entry.status !== 200) ||
				body?.rows === undefined ||
				body.rows >= (body.maxRows ?? 50)
			);
		})
		.map((leaf) => `${leaf.from}-${leaf.to}`);
	return {
		requests: entries.length,
		repeated: [...pages].filter(([, copies]) => copies.length > 1).map(([page]) => page),
		leaves: leaves.map((leaf) => [leaf.from, leaf.to]),
		covers,
		unfinished,
	};
}
