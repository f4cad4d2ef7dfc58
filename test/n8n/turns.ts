/**
 * Turns at the CPU for real-n8n runs side by side (CI runs them in lanes: they mostly wait for
 * n8n's polls). Two turns, each held by one run's step at a time:
 * - `start`: n8n's processes starting or restarting, a spike of some 20 s each;
 * - `burst`: the Notification Trigger's bursts, minutes of load;
 * and the 500-row sheet, timed against a bound, takes both, so that no other run's start or burst
 * counts against it. A burst does not hold up another run's start. Waits for polls still overlap.
 * A turn is a folder created atomically in the temporary folder, holding the holder's pid and step;
 * a turn whose holder has exited is taken over. Both are taken in one order (burst, then start), so
 * two runs never wait for each other; a run that already holds a turn takes it again at once.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import os from 'os';
import path from 'path';

import { waitFor } from './processes';

/** The turns, in the order they are taken. */
export const TURNS = ['burst', 'start'] as const;
/** One of the turns. */
export type Turn = (typeof TURNS)[number];

/** A step holds its turn for minutes at most (n8n starting in queue mode, a burst at load). */
const TURN_WAIT_MS = 30 * 60_000;
/** A turn still without its holder after this long was left half-made by a run that stopped. */
const HALF_MADE_MS = 10_000;

/** How many of this process's steps hold each turn now (steps side by side in one run share it). */
const held = new Map<Turn, number>();

/** The holder written in a turn's folder: its pid and step. */
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

/** Takes the turn in `dir` for `step` if it is free (or its holder exited); whether it was taken. */
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
 * Runs `work` (the step `step`) holding `turns`: waits while another run's step holds one (the
 * progress lines say which turn), then holds them until `work` ends, and gives them back.
 * @param root where the turns' folders are (the temporary folder; a test's own folder).
 * @throws when a turn stays taken for TURN_WAIT_MS, naming its holder.
 */
export async function inTurn<T>(
	step: string,
	work: () => Promise<T>,
	turns: readonly Turn[],
	root = os.tmpdir(),
): Promise<T> {
	const taken: Turn[] = [];
	try {
		for (const turn of TURNS.filter((candidate) => turns.includes(candidate))) {
			const dir = path.join(root, `payments-n8n-turn-${turn}`);
			if (!held.get(turn))
				await waitFor(`the ${turn} turn (another run's step holds it)`, () => takeTurn(dir, step), {
					timeoutMs: TURN_WAIT_MS,
					intervalMs: 500,
					detail: () => `held by ${JSON.stringify(holder(dir) ?? 'nobody')}`,
				});
			held.set(turn, (held.get(turn) ?? 0) + 1);
			taken.push(turn);
		}
		return await work();
	} finally {
		for (const turn of taken.reverse()) {
			const count = (held.get(turn) ?? 1) - 1;
			held.set(turn, count);
			if (count === 0)
				rmSync(path.join(root, `payments-n8n-turn-${turn}`), { recursive: true, force: true });
		}
	}
}
