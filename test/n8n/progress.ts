/**
 * Progress of the real-n8n tools' long steps (installs, builds, starts, waits): while anything
 * runs, a line every 10 s names what is running and its time so far, so a slow download never looks
 * like a hang. Activities nest (a step, the install it runs, the npm command of that install) and run
 * side by side (the polling alerts); each line names one innermost activity with the chain it runs
 * in. Where stdout is a terminal and nothing else was printed since, the line is rewritten in
 * place; elsewhere (a CI log, a file) each is a plain line of its own: no spinner, no control codes.
 */
import { AsyncLocalStorage } from 'async_hooks';

/** How often a line is printed while something runs: under the 15 s a reader waits at most. */
export const PROGRESS_INTERVAL_MS = 10_000;

/** The clock the reporter reads and ticks on (the real one, or a fake in tests). */
export interface ProgressClock {
	now(): number;
	setInterval(callback: () => void, ms: number): unknown;
	clearInterval(handle: unknown): void;
}

/** Where the lines go: stdout, or a test's collector. */
export interface ProgressOutput {
	/** Whether the output is a terminal (lines may then be rewritten in place). */
	isTTY?: boolean;
	/** A terminal's width: longer lines are cut there, so a rewrite knows how many lines to go up. */
	columns?: number;
	write(text: string): void;
	/**
	 * Bytes written to the terminal so far by anyone (stdout and stderr), to tell whether something
	 * else was printed since the last line; undefined where it cannot be known (never rewrites).
	 */
	written?(): number | undefined;
}

/** One thing running: what it is, since when, and an optional figure of how far it got. */
interface Activity {
	what: string;
	started: number;
	parent?: Activity;
	/** Children still running: an activity with none is a leaf, and gets a line. */
	children: number;
	detail?: () => string | undefined;
}

/** Options of one activity. */
export interface ActivityOptions {
	/** How far it got (e.g. "812 packages downloaded"), read at each line; undefined: nothing. */
	detail?: () => string | undefined;
}

const systemClock: ProgressClock = {
	now: () => Date.now(),
	setInterval: (callback, ms) => {
		const handle = setInterval(callback, ms);
		// A tick alone never keeps the process alive.
		handle.unref();
		return handle;
	},
	clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/** Bytes written to stdout and stderr, where both are terminals (tty.WriteStream counts them). */
function terminalBytes(): number | undefined {
	const out = (process.stdout as { bytesWritten?: number }).bytesWritten;
	const err = (process.stderr as { bytesWritten?: number }).bytesWritten;
	return typeof out === 'number' && typeof err === 'number' ? out + err : undefined;
}

const stdout: ProgressOutput = {
	get isTTY() {
		return process.stdout.isTTY === true;
	},
	get columns() {
		return process.stdout.columns;
	},
	write: (text) => void process.stdout.write(text),
	written: terminalBytes,
};

/** `ms` as "45s", "2m 05s" or "1h 02m". */
export function formatDuration(ms: number): string {
	const seconds = Math.floor(ms / 1000);
	if (seconds < 60) return `${seconds}s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
	return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Reports what is running at a steady interval; see the file's header. */
export class Progress {
	private readonly running = new Set<Activity>();

	private readonly context = new AsyncLocalStorage<Activity>();

	private timer: unknown;

	/** After our last line on a terminal: how many lines it took and the byte count then. */
	private lastLines?: { count: number; written: number };

	constructor(
		private readonly out: ProgressOutput = stdout,
		private readonly clock: ProgressClock = systemClock,
		private readonly intervalMs = PROGRESS_INTERVAL_MS,
	) {}

	/**
	 * Runs `work` as the activity `what`, inside the activity that is running where it is called
	 * (if any). Resolves or rejects as `work` does; the activity ends either way.
	 */
	async during<T>(what: string, work: () => Promise<T>, options: ActivityOptions = {}): Promise<T> {
		const parent = this.context.getStore();
		const activity: Activity = {
			what,
			started: this.clock.now(),
			parent: parent && this.running.has(parent) ? parent : undefined,
			children: 0,
			detail: options.detail,
		};
		if (activity.parent) activity.parent.children++;
		this.running.add(activity);
		if (this.timer === undefined)
			this.timer = this.clock.setInterval(() => this.tick(), this.intervalMs);
		try {
			return await this.context.run(activity, work);
		} finally {
			this.running.delete(activity);
			if (activity.parent) activity.parent.children--;
			if (this.running.size === 0 && this.timer !== undefined) {
				this.clock.clearInterval(this.timer);
				this.timer = undefined;
			}
		}
	}

	/** The lines of one tick: one per innermost running activity, oldest first. */
	lines(): string[] {
		const now = this.clock.now();
		const leaves = [...this.running].filter((activity) => activity.children === 0);
		return leaves.map((leaf) => {
			const chain: Activity[] = [];
			for (let at: Activity | undefined = leaf; at; at = at.parent) chain.unshift(at);
			const path = chain
				.map((activity) => `${activity.what} (${formatDuration(now - activity.started)})`)
				.join(' › ');
			let detail: string | undefined;
			try {
				detail = leaf.detail?.();
			} catch {
				detail = undefined;
			}
			return `  … ${path}${detail ? `: ${detail}` : ''}`;
		});
	}

	/** Prints the lines of now; on a terminal, over the previous ones when nothing came between. */
	private tick(): void {
		const width = this.out.isTTY ? this.out.columns : undefined;
		const lines = this.lines().map((line) =>
			width && line.length >= width ? `${line.slice(0, width - 2)}…` : line,
		);
		if (lines.length === 0) return;
		let text = `${lines.join('\n')}\n`;
		const before = this.out.isTTY ? this.out.written?.() : undefined;
		if (before !== undefined && this.lastLines && this.lastLines.written === before)
			// Up over our previous lines, and clear from there to the end of the screen.
			text = `\x1b[${this.lastLines.count}F\x1b[J${text}`;
		this.out.write(text);
		const after = this.out.isTTY ? this.out.written?.() : undefined;
		this.lastLines = after === undefined ? undefined : { count: lines.length, written: after };
	}
}

/** The reporter the real-n8n tools share (one process, one stdout). */
export const progress = new Progress();
