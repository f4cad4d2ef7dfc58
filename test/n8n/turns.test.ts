import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

import { inTurn, takeTurn } from './turns';

describe('turns at the CPU for real-n8n runs side by side', () => {
	let root: string;
	/** The folder of a turn under this test's root. */
	const turnDir = (turn: string) => path.join(root, `payments-n8n-turn-${turn}`);
	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'n8n-turn-'));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	/** A turn as another process holds it. */
	const heldBy = (turn: string, pid: number) => {
		mkdirSync(turnDir(turn), { recursive: true });
		writeFileSync(
			path.join(turnDir(turn), 'holder.json'),
			JSON.stringify({ pid, step: 'Start n8n' }),
		);
	};
	const holderOf = (turn: string) =>
		JSON.parse(readFileSync(path.join(turnDir(turn), 'holder.json'), 'utf8')) as {
			pid: number;
			step: string;
		};

	test('a free turn is taken and names its holder; a held one is not, while its holder runs', () => {
		expect(takeTurn(turnDir('start'), 'the 500-row sheet')).toBe(true);
		expect(holderOf('start')).toEqual({ pid: process.pid, step: 'the 500-row sheet' });
		heldBy('burst', process.ppid);
		expect(takeTurn(turnDir('burst'), 'Start n8n')).toBe(false);
	});

	test('the turn of a run that exited is taken over', () => {
		heldBy('start', spawnSync('true').pid);
		expect(takeTurn(turnDir('start'), 'Start n8n')).toBe(true);
		expect(holderOf('start').pid).toBe(process.pid);
	});

	test('a step runs holding its turns and gives them back, also when it fails; nested steps share them', async () => {
		const seen: string[] = [];
		await inTurn(
			'the 500-row sheet',
			async () => {
				seen.push(`holds: ${existsSync(turnDir('burst'))} ${existsSync(turnDir('start'))}`);
				await inTurn('Restart n8n', async () => seen.push('nested ran'), ['start'], root);
				seen.push(`after nested: ${existsSync(turnDir('start'))}`);
			},
			['burst', 'start'],
			root,
		);
		expect(seen).toEqual(['holds: true true', 'nested ran', 'after nested: true']);
		expect([existsSync(turnDir('burst')), existsSync(turnDir('start'))]).toEqual([false, false]);
		await expect(
			inTurn('sheet', async () => Promise.reject(new Error('2.61 × the bound')), ['start'], root),
		).rejects.toThrow('2.61 × the bound');
		expect(existsSync(turnDir('start'))).toBe(false);
	});

	test("another run's burst holds up a timed step, not a start; the timed step runs once it ends", async () => {
		heldBy('burst', process.ppid);
		let started = false;
		await inTurn('Start n8n', async () => (started = true), ['start'], root);
		expect(started).toBe(true);
		let timed = false;
		const waiting = inTurn(
			'the 500-row sheet',
			async () => (timed = true),
			['burst', 'start'],
			root,
		);
		await new Promise((resolve) => setTimeout(resolve, 700));
		expect(timed).toBe(false);
		rmSync(turnDir('burst'), { recursive: true, force: true });
		await waiting;
		expect(timed).toBe(true);
	});
});
