import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { FIRST_PAGE, MAX_PAGES_PER_WINDOW } from '../codes/constants';
import { hasNextPage, pageDates } from '../reporting/paging';
import {
	estimateRemainingPages,
	planSplit,
	SPLIT_MARGIN,
	splitEvenly,
	type TimeWindow,
	type WindowProgress,
} from '../reporting/windows';
import type { PaymentsClient } from './client';
import type { HandOffChannel } from './handOff';
import { describeWindow, fetchPage, type ListQuery, type PeriodEvent } from './listPages';

/**
 * The reader behind `splitPeriodPages` (transport/reporting.ts; service rules §3.2): the windows
 * waiting to be read, those being read, the density estimate that guides splitting and the slots
 * waiting for work. One instance serves one call; its read slots run on a hand-off.
 */

/** How {@link SplitReader} reads: the options of `splitPeriodPages`, see there. */
export interface SplitReadOptions {
	concurrency: number;
	itemIndex?: number;
	dateField?: string;
	/** Pages a window should hold at most; omitted: no cap. */
	windowPages?: number;
}

/** A window to read, or being read. */
interface Task {
	window: TimeWindow;
	path: number[];
	/** Pages still to read, as last estimated; undefined before the window's first full page. */
	estimate?: number;
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

/** One `splitPeriodPages` call: its queue, its active windows, its density estimate, its idle slots. */
export class SplitReader {
	/** Read slots (windows read at once), ≥ 1. */
	readonly concurrency: number;
	/** Windows waiting, in the order they are read: the parts of a split window go first. */
	private readonly queue: Task[];
	private readonly active = new Set<Task>();
	/** Pages per second seen in first pages, to guess how much work a window not yet started holds. */
	private readonly density = { pages: 0, seconds: 0 };
	/** The most pages a slot's share may be (`windowPages`), or no cap. */
	private readonly cap: number;
	/** Slots with nothing to read wait here for a split to queue parts, or for the read to end. */
	private readonly idle: Array<() => void> = [];

	constructor(
		private readonly client: PaymentsClient,
		private readonly query: ListQuery,
		windows: readonly TimeWindow[],
		private readonly options: SplitReadOptions,
	) {
		this.concurrency = Math.max(1, Math.floor(options.concurrency) || 1);
		this.queue = windows.map((window, index) => ({ window, path: [index] }));
		this.cap = options.windowPages ?? Number.POSITIVE_INFINITY;
	}

	/** Resumes the slots waiting for work (they look at the queue again). */
	readonly wakeIdle = (): void => {
		for (const resume of this.idle.splice(0)) resume();
	};

	/**
	 * One read slot: reads windows from the queue until the hand-off stops, or until none is waiting
	 * and none is being read (a slot with nothing to read waits for a split's parts).
	 * @throws NodeApiError as `splitPeriodPages`.
	 */
	async slot(channel: HandOffChannel<PeriodEvent>): Promise<void> {
		while (!channel.halted()) {
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

	/** The chain of pages each slot should get. Alone, a window is split only to stay clear of the cap. */
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
	 * queued first).
	 */
	private async readWindow(task: Task, channel: HandOffChannel<PeriodEvent>): Promise<void> {
		const { window, path } = task;
		const state: WindowState = { pagesRead: 0, oldest: Number.POSITIVE_INFINITY };
		for (let page = FIRST_PAGE; !channel.halted(); page++) {
			const envelope = await fetchPage(
				this.client,
				this.query,
				window,
				page,
				this.options.itemIndex,
				channel.halted,
			);
			const records = envelope.data ?? [];
			const last = !hasNextPage(envelope);
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
		// Alone, or with a slot that has nothing to read, any window above its share is worth dividing.
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
	 * Queues the parts of a split window first, so one slot keeps reading newest first; they share
	 * the window's estimate in proportion to their spans until their own first pages say more.
	 */
	private queueParts(task: Task, pagesRead: number, into: TimeWindow[]): void {
		const rest = into.reduce((seconds, part) => seconds + span(part), 0);
		const remaining = task.estimate ?? pagesRead;
		this.queue.unshift(
			...into.map((part, index) => ({
				window: part,
				path: [...task.path, index],
				estimate: (remaining * span(part)) / rest,
			})),
		);
	}
}
