import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { FIRST_PAGE, MAX_ROWS_PER_PAGE } from '../../codes/service';
import { MAX_PAGES_PER_WINDOW } from '../../codes/limits';
import {
	estimateRemainingPages,
	planSplit,
	SPLIT_MARGIN,
	splitByEstimate,
	splitEvenly,
	type TimeWindow,
	type WindowProgress,
} from './windows';
import type { PaymentsClient } from '../../transport/client';
import type { Channel } from './channel';
import {
	describeWindow,
	fetchPage,
	hasNextPage,
	pageDates,
	type ListQuery,
	type PeriodEvent,
} from './pages';

/**
 * The reader behind `readPeriodPages` (period.ts; service rules §3.2): the windows
 * waiting to be read, those being read, the density estimate that guides splitting and the workers
 * waiting for work. One instance serves one call; its read workers run on a hand-off.
 */

/** How a period is read (`readPeriodPages`, period.ts): the one options type of the reader. */
export interface ReadOptions {
	/** Windows read at once (Window Concurrency), ≥ 1. */
	concurrency: number;
	/** The item the read is for, named in errors. */
	itemIndex?: number;
	/** The records' creation-date field: guides dividing a busy window (newest first assumed). */
	dateField?: string;
	/**
	 * Pages a window should hold at most, for a consumer that holds a window's records until the
	 * window ends (`completedWindows`): a window estimated above it is divided. Omitted: no cap.
	 */
	windowPages?: number;
	/** Each window is read once in each of these statuses (the service's filter takes one). */
	statuses?: ReadonlyArray<string | undefined>;
	/**
	 * First-page mode (the polling trigger): each window is read by its first pages
	 * ({@link WindowReader.splitAtFirstPage}); needs `dateField`.
	 */
	firstPages?: boolean;
	/** Asked before each request (a poll's budget): once true, no request starts and the read ends, unfinished. */
	stop?: () => boolean;
}

/** A window to read, or being read. */
interface Task {
	window: TimeWindow;
	path: number[];
	/** Pages still to read, as last estimated; undefined before the window's first full page. */
	estimate?: number;
	/** The query of its status (`statuses`), or the read's own. */
	query: ListQuery;
	/** First-page mode: full first pages split off it in a row. */
	firstPageSplits: number;
	/** First-page mode: read page after page (a second busier than a page). */
	paged: boolean;
}

/** First-page mode: full first pages split off in a row before the rest of a window is divided by density. */
export const FIRST_PAGE_SPLITS_BEFORE_DIVIDING = 3;

/** A record's creation date in Unix seconds (`dateField`, ISO 8601), or NaN. */
function createdSecond(record: IDataObject, dateField: string): number {
	const value = record[dateField];
	const ms = typeof value === 'string' && value !== '' ? Date.parse(value) : Number.NaN;
	return Math.floor(ms / 1000);
}

/** Where the read of one window stands. */
interface WindowState {
	/** Full pages read so far. */
	pagesRead: number;
	/** Oldest creation date over the full pages read so far (POSITIVE_INFINITY: none yet). */
	oldest: number;
}

/** Seconds a window covers (both ends included). */
const span = (window: TimeWindow) => window.to - window.from + 1;

/** One `readPeriodPages` call: its queue, its active windows, its density estimate, its idle workers. */
export class WindowReader {
	/** Read workers (windows read at once), ≥ 1. */
	readonly concurrency: number;
	/** Windows waiting, in the order they are read: the parts of a split window go first. */
	private readonly queue: Task[];
	private readonly active = new Set<Task>();
	/** Pages per second seen in first pages, to guess how much work a window not yet started holds. */
	private readonly density = { pages: 0, seconds: 0 };
	/** The most pages a worker's share may be (`windowPages`), or no cap. */
	private readonly cap: number;
	/** Workers with nothing to read wait here for a split to queue parts, or for the read to end. */
	private readonly idle: Array<() => void> = [];

	constructor(
		private readonly client: PaymentsClient,
		private readonly query: ListQuery,
		windows: readonly TimeWindow[],
		private readonly options: ReadOptions,
	) {
		this.concurrency = Math.max(1, Math.floor(options.concurrency) || 1);
		const { statuses } = options;
		const start = (window: TimeWindow, path: number[], status?: string): Task => ({
			window,
			path,
			query: status === undefined ? query : { ...query, status },
			firstPageSplits: 0,
			paged: false,
		});
		this.queue = statuses
			? windows.flatMap((window, index) =>
					statuses.map((status, at) => start(window, [index, at], status)),
				)
			: windows.map((window, index) => start(window, [index]));
		this.cap = options.windowPages ?? Number.POSITIVE_INFINITY;
	}

	/** Whether the read was told to stop (`stop`): no new request starts. */
	private stopped(): boolean {
		return this.options.stop?.() ?? false;
	}

	/** Resumes the workers waiting for work (they look at the queue again). */
	readonly wakeIdle = (): void => {
		for (const resume of this.idle.splice(0)) resume();
	};

	/**
	 * One read worker: reads windows from the queue until the hand-off stops, or until none is waiting
	 * and none is being read (a worker with nothing to read waits for a split's parts).
	 * @throws NodeApiError as `readPeriodPages`.
	 */
	async work(channel: Channel<PeriodEvent>): Promise<void> {
		while (!channel.halted() && !this.stopped()) {
			const task = this.queue.shift();
			if (!task) {
				if (this.active.size === 0) return;
				await new Promise<void>((resume) => this.idle.push(resume));
				continue;
			}
			this.active.add(task);
			try {
				await this.readWindow(task, channel);
			} finally {
				this.active.delete(task);
				this.wakeIdle();
			}
		}
	}

	/** Pages still to read in `task`: its own estimate, or else its span at the density seen so far. */
	private guess(task: Task): number {
		return (
			task.estimate ??
			(this.density.seconds > 0
				? (this.density.pages * span(task.window)) / this.density.seconds
				: 1)
		);
	}

	/** The chain of pages each worker should get. Alone, a window is split only to stay clear of the cap. */
	private fairPages(): number {
		if (this.concurrency === 1) return Math.min(this.cap, MAX_PAGES_PER_WINDOW / 2);
		let total = 0;
		for (const task of this.active) total += this.guess(task);
		for (const task of this.queue) total += this.guess(task);
		return Math.min(this.cap, Math.ceil(total / this.concurrency));
	}

	/**
	 * Reads `task`'s window from page 0: gives each page to the consumer, until its last page, or
	 * until a full page leads to a split (then the page and the `split` are posted and its parts
	 * queued first), or, in first-page mode, until its first page is split off ({@link splitAtFirstPage}).
	 */
	private async readWindow(task: Task, channel: Channel<PeriodEvent>): Promise<void> {
		const { window, path } = task;
		const state: WindowState = { pagesRead: 0, oldest: Number.POSITIVE_INFINITY };
		for (let page = FIRST_PAGE; !channel.halted() && !this.stopped(); page++) {
			const envelope = await fetchPage(
				this.client,
				task.query,
				window,
				page,
				this.options.itemIndex,
				channel.halted,
			);
			const records = envelope.data ?? [];
			const last = !hasNextPage(envelope);
			if (channel.halted()) return;
			if (!last && page === FIRST_PAGE && this.options.firstPages && !task.paged) {
				if (this.splitAtFirstPage(task, records, channel)) return;
			}
			const into = last ? undefined : this.splitOf(task, state, records);
			if (channel.halted()) return;
			const event: PeriodEvent = {
				kind: 'page',
				path,
				page: { window, windowIndex: path[0], page, records, last },
			};
			if (into) {
				this.queueParts(task, state.pagesRead, into);
				channel.post(event);
				channel.post({ kind: 'split', path, window, into });
				this.wakeIdle();
				return;
			}
			await channel.give(event);
			if (last) return;
		}
	}

	/**
	 * First-page mode, after a full first page of `task` (service rules §3.1): the service lists newest
	 * first, so the page holds every record created after its oldest second. Those seconds are posted
	 * at once as a window read to its end (path `[...path, 0]`), and the rest, that second included,
	 * is queued first and read the same way; after {@link FIRST_PAGE_SPLITS_BEFORE_DIVIDING} such
	 * splits in a row the rest is divided by density ({@link splitByEstimate}). A full page of one
	 * second splits that second off, to be read page after page. No request goes past a first page.
	 * @returns false when the page is not newest first (or its dates are missing or outside the
	 *   window): the window is then read page after page.
	 */
	private splitAtFirstPage(
		task: Task,
		records: IDataObject[],
		channel: Channel<PeriodEvent>,
	): boolean {
		const { window, path } = task;
		const dateField = this.options.dateField ?? this.query.list.recordDateField;
		const created = records.map((record) => createdSecond(record, dateField));
		const newest = created[0];
		const oldest = created[created.length - 1];
		const newestFirst = created.every(
			(time, index) => Number.isFinite(time) && (index === 0 || time <= created[index - 1]),
		);
		if (!newestFirst || oldest < window.from || newest > window.to) return false;
		if (newest > oldest) {
			const done: TimeWindow = { from: oldest + 1, to: window.to };
			const rest: TimeWindow = { from: window.from, to: oldest };
			const splits = task.firstPageSplits + 1;
			const parts =
				splits >= FIRST_PAGE_SPLITS_BEFORE_DIVIDING
					? splitByEstimate(
							rest,
							(records.length * span(rest)) / (window.to - oldest + 1) / MAX_ROWS_PER_PAGE,
							Math.min(this.cap, MAX_PAGES_PER_WINDOW / 2),
						)
					: [rest];
			channel.post({ kind: 'split', path, window, into: [done, ...parts] });
			const kept = records.filter((_, index) => created[index] > oldest);
			const page = { window: done, windowIndex: path[0], page: FIRST_PAGE, records: kept };
			channel.post({ kind: 'page', path: [...path, 0], page: { ...page, last: true } });
			this.queueChildren(task, parts, 1, parts.length > 1 ? 0 : splits);
			return true;
		}
		if (oldest === window.from) return false;
		const second: TimeWindow = { from: oldest, to: window.to };
		const older: TimeWindow = { from: window.from, to: oldest - 1 };
		channel.post({ kind: 'split', path, window, into: [second, older] });
		this.queueChildren(task, [second, older], 0, 0);
		this.queue[0].paged = true;
		return true;
	}

	/** Queues `parts` first, as the children `first`, `first + 1`, … of `task` (first-page mode). */
	private queueChildren(
		task: Task,
		parts: TimeWindow[],
		first: number,
		firstPageSplits: number,
	): void {
		this.queue.unshift(
			...parts.map((part, index) => ({
				window: part,
				path: [...task.path, first + index],
				query: task.query,
				firstPageSplits,
				paged: false,
			})),
		);
		this.wakeIdle();
	}

	/**
	 * After a full page of `task`: counts it, updates the estimates, and returns the parts to divide
	 * the window into, or undefined to read on.
	 * @throws NodeApiError when a one-second window returned {@link MAX_PAGES_PER_WINDOW} full pages.
	 */
	private splitOf(
		task: Task,
		state: WindowState,
		records: IDataObject[],
	): TimeWindow[] | undefined {
		state.pagesRead++;
		const { dateField } = this.options;
		const dates = dateField ? pageDates(records, dateField, task.window) : undefined;
		const into = dates ? this.plannedSplit(task, state, dates) : undefined;
		if (!into && state.pagesRead >= MAX_PAGES_PER_WINDOW) return this.splitAtCap(task.window);
		return into;
	}

	/** With the creation dates of a full page: the new estimates, and `planSplit`'s decision. */
	private plannedSplit(
		task: Task,
		state: WindowState,
		dates: { oldest: number; newest: number },
	): TimeWindow[] | undefined {
		const { window } = task;
		state.oldest = Math.min(state.oldest, dates.oldest);
		const progress: WindowProgress = {
			window,
			pagesRead: state.pagesRead,
			oldest: state.oldest,
			lastPage: dates,
		};
		task.estimate = estimateRemainingPages(progress);
		if (state.pagesRead === 1) {
			this.density.pages += 1 + task.estimate;
			this.density.seconds += span(window);
		}
		// Alone, or with a worker that has nothing to read, any window above its share is worth dividing.
		const margin =
			this.concurrency === 1 || this.active.size + this.queue.length < this.concurrency
				? 1
				: SPLIT_MARGIN;
		return planSplit(progress, this.fairPages(), { margin });
	}

	/**
	 * A window at {@link MAX_PAGES_PER_WINDOW} full pages is halved rather than failed.
	 * @throws NodeApiError when it is a single second.
	 */
	private splitAtCap(window: TimeWindow): TimeWindow[] {
		if (window.to === window.from) {
			throw new NodeApiError(
				this.client.context.getNode(),
				{ message: 'too many pages' },
				{
					message: `Listing ${this.query.list.label} records created ${describeWindow(window)} did not end after ${MAX_PAGES_PER_WINDOW} full pages`,
					description:
						'The service kept answering full pages for a single second; add filters, or check the service.',
					itemIndex: this.options.itemIndex,
				},
			);
		}
		return splitEvenly(window, 2);
	}

	/**
	 * Queues the parts of a split window first, so one worker keeps reading newest first; they share
	 * the window's estimate in proportion to their spans until their own first pages say more.
	 */
	private queueParts(task: Task, pagesRead: number, into: TimeWindow[]): void {
		const rest = into.reduce((seconds, part) => seconds + span(part), 0);
		const remaining = task.estimate ?? pagesRead;
		this.queue.unshift(
			...into.map((part, index) => ({
				...task,
				window: part,
				path: [...task.path, index],
				estimate: (remaining * span(part)) / rest,
			})),
		);
	}
}
