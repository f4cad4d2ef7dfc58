import { MAX_ROWS_PER_PAGE } from '../../codes/service';
import { RecordCollector } from '../../reporting/read/deduplication';
import type { TimeWindow } from '../../reporting/read/windows';
import type { PaymentsClient } from '../../transport/client';
import { readPeriodPages, type ListQuery } from '../../reporting/read/period';
import { observe } from './detection';
import { TARGET_RECORDS_PER_WINDOW } from './plan';
import type { Observation } from './types';

/**
 * The polling trigger's reads of its planned windows (service rules §3.1, §3.2), through the one
 * period reader (`readPeriodPages`, reporting/read/period.ts) in first-page mode: each request is a first
 * page, a busy window is divided by density into parts of about {@link TARGET_RECORDS_PER_WINDOW}
 * records read side by side, and each record is counted once (`RecordCollector`).
 */

/** What one poll read. */
export interface PollRead {
	/** Each record read once (the newest copy when it arrived twice), from the windows read whole. */
	observations: Observation[];
	/** How many planned windows, from the first, were read whole (in every status asked for). */
	windowsRead: number;
}

/** How {@link readPlannedWindows} reads: see there. */
interface ReadOptions {
	concurrency: number;
	outOfTime: () => boolean;
	keep: (observation: Observation) => boolean;
}

/**
 * Reads `windows` (in plan order) in every status of `statuses` (undefined: every status); returns
 * the planned windows read whole, from the first (a window counts once every part of it was read to
 * its last page, in every status).
 * @param options.keep whether an observation may become an event: only those keep their whole
 *   record, so memory follows the events, not the look-back.
 * @param options.outOfTime asked before each request: once true, no new request starts, and the
 *   windows not finished are not counted as read (the next poll reads them again).
 * @throws NodeApiError from the first request that failed (after the client's retries), once the
 *   reads in flight ended; after `outOfTime`, a failure ends the read unfinished instead.
 */
export async function readPlannedWindows(
	client: PaymentsClient,
	query: ListQuery,
	statuses: string[] | undefined,
	windows: TimeWindow[],
	options: ReadOptions,
): Promise<PollRead> {
	// Windows (or parts of windows, in any status) of each planned window not read to their end.
	const open = windows.map(() => statuses?.length ?? 1);
	// A record's copies all fall in the planned window of its creation date (windows never overlap).
	const found = windows.map(
		() =>
			new RecordCollector<Observation>(
				(observation) => observation.key,
				(observation) => observation.lastChange ?? Number.NEGATIVE_INFINITY,
			),
	);
	const events = readPeriodPages(client, query, windows, {
		concurrency: options.concurrency,
		dateField: query.list.recordDateField,
		windowPages: TARGET_RECORDS_PER_WINDOW / MAX_ROWS_PER_PAGE,
		statuses,
		firstPages: true,
		stop: options.outOfTime,
	});
	// The NodeApiError of a request that failed (the client built it), decided on below.
	let failed: { error: unknown } | undefined;
	try {
		for await (const event of events) {
			const planned = event.path[0];
			if (event.kind === 'split') {
				// Its parts are read instead; records of its pages already taken are read again in
				// them, and the collector counts each once.
				open[planned] += event.into.length - 1;
				continue;
			}
			for (const record of event.page.records) {
				const observation = observe(query.list, record);
				if (!observation) continue;
				if (!options.keep(observation)) observation.record = {};
				found[planned].add(observation);
			}
			if (event.page.last) open[planned]--;
		}
	} catch (error) {
		failed = { error };
	}
	// Once the budget is spent, a request that fails (one abandoned at the answer deadline, a retry
	// the budget no longer allows) ends the read as the budget does: the windows read whole count,
	// the others are read again next poll.
	if (failed && !options.outOfTime()) throw failed.error;
	let windowsRead = 0;
	while (windowsRead < windows.length && open[windowsRead] === 0) windowsRead++;
	const observations = found.slice(0, windowsRead).flatMap((collector) => collector.records());
	return { observations, windowsRead };
}
