/**
 * Turns at the CPU for real-n8n runs side by side (CI runs them in lanes: they mostly wait for
 * n8n's polls). A step that measures time against a bound (the 500-row sheet) or loads the machine
 * in a burst (n8n's processes starting) runs in its turn, so that one run's burst is not counted
 * against another run's bound; waits still overlap. The turn is a folder created atomically in the
 * temporary folder, holding the holder's pid and step; a turn whose holder has exited is taken over.
 * A run that already holds the turn takes it again at once (nested steps).
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import os from 'os';
import path from 'path';

import { waitFor } from './processes';

/** The turn of every run on this machine. */
const TURN = path.join(os.tmpdir(), 'payments-n8n-turn');
/** A step holds its turn for minutes at most (n8n starting in queue mode, the sheet at load). */
const TURN_WAIT_MS = 30 * 60_000;

/** A turn still without its holder after this long was left half-made by a run that stopped. */
const HALF_MADE_MS = 10_000;

/** How many of this process's steps hold the turn now (steps side by side in one run share it). */
let held = 0;

/** The holder written in the turn: its pid and step. */
function holder(dir: string): { pid: number; step: string } | undefined {
	try {
		return JSON.parse(readFileSync(path.join(dir, 'holder.json'), 'utf8')) as {
			pid: number;
			step: string;
		};
	} catch {
		return undefined;
	}
}

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Takes the turn in `dir` for `step` if it is free (or its holder exited); whether it was taken.
 */
export function takeTurn(dir: string, step: string): boolean {
	try {
		mkdirSync(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		const current = holder(dir);
		// A turn without a holder is being written (a moment), or was left half-made (older).
		if (current ? alive(current.pid) : Date.now() - statSync(dir).mtimeMs < HALF_MADE_MS)
			return false;
		rmSync(dir, { recursive: true, force: true });
		return takeTurn(dir, step);
	}
	writeFileSync(path.join(dir, 'holder.json'), JSON.stringify({ pid: process.pid, step }));
	return true;
}

/**
 * Runs `work` (the step `step`) in this machine's turn: waits while another run's step holds it
 * (the progress lines name that step), then holds it until `work` ends.
 * @throws when the turn stays taken for TURN_WAIT_MS, naming its holder.
 */
export async function inTurn<T>(step: string, work: () => Promise<T>, dir = TURN): Promise<T> {
	if (held === 0)
		await waitFor(`the turn of a step that loads the machine`, () => takeTurn(dir, step), {
			timeoutMs: TURN_WAIT_MS,
			intervalMs: 500,
			detail: () => `held by ${JSON.stringify(holder(dir) ?? 'nobody')}`,
		});
	held++;
	try {
		return await work();
	} finally {
		held--;
		if (held === 0) rmSync(dir, { recursive: true, force: true });
	}
}
