/**
 * The steps of an end-to-end run and the summary table printed at its end.
 */
import { progress } from './progress';

/** The outcome of one step. */
export interface StepResult {
	name: string;
	status: 'ok' | 'FAILED' | 'skipped';
	/** What it showed (figures), or why it failed. */
	detail: string;
	ms: number;
}

/** Thrown to stop the run after a step the rest depends on failed. */
class AbortRun extends Error {}

/** Runs steps in order, records each outcome, and prints them as they end. */
export class Steps {
	readonly results: StepResult[] = [];

	private aborted = false;

	/**
	 * Runs `body` as the step `name`; its resolved string is the step's detail. A failing step is
	 * recorded with its error message; when `critical`, the run stops (later steps are skipped).
	 * While it runs, the progress reporter (progress.ts) names it every 10 s.
	 */
	async run(
		name: string,
		body: () => Promise<string>,
		options: { critical?: boolean } = {},
	): Promise<boolean> {
		if (this.aborted) {
			this.results.push({ name, status: 'skipped', detail: 'an earlier step failed', ms: 0 });
			return false;
		}
		const started = Date.now();
		process.stdout.write(`▶ ${name}\n`);
		try {
			const detail = await progress.during(name, body);
			this.record({ name, status: 'ok', detail, ms: Date.now() - started });
			return true;
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			this.record({ name, status: 'FAILED', detail: message, ms: Date.now() - started });
			if (options.critical) {
				this.aborted = true;
				throw new AbortRun(`${name} failed`);
			}
			return false;
		}
	}

	/** Whether `error` is the stop of a run after a critical step, already recorded. */
	static isAbort(error: unknown): boolean {
		return error instanceof AbortRun;
	}

	/** Whether every step passed. */
	passed(): boolean {
		return this.results.length > 0 && this.results.every((result) => result.status === 'ok');
	}

	private record(result: StepResult): void {
		this.results.push(result);
		const mark = result.status === 'ok' ? '✔' : '✘';
		const lines = result.detail.split('\n');
		process.stdout.write(
			`  ${mark} ${result.status} (${(result.ms / 1000).toFixed(1)}s): ${lines[0]}\n`,
		);
		for (const line of lines.slice(1)) process.stdout.write(`      ${line}\n`);
	}

	/** The summary table: one row per step, with its first line of detail. */
	table(title: string): string {
		const rows = this.results.map((result) => [
			result.status,
			`${(result.ms / 1000).toFixed(1)}s`,
			result.name,
			result.detail.split('\n')[0],
		]);
		const header = ['result', 'time', 'step', 'detail'];
		const widths = header.map((cell, index) =>
			Math.min(
				index === 3 ? 90 : 60,
				Math.max(cell.length, ...rows.map((row) => row[index].length)),
			),
		);
		const line = (cells: string[]) =>
			`| ${cells.map((cell, index) => (cell.length > widths[index] ? `${cell.slice(0, widths[index] - 1)}…` : cell.padEnd(widths[index]))).join(' | ')} |`;
		const count = (status: StepResult['status']) =>
			this.results.filter((result) => result.status === status).length;
		return [
			'',
			title,
			line(header),
			`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
			...rows.map(line),
			'',
			`${count('ok')} passed, ${count('FAILED')} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''}`,
		].join('\n');
	}
}
