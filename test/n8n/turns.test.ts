import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

import { inTurn, takeTurn } from './turns';

describe('turns at the CPU for real-n8n runs side by side', () => {
	let root: string;
	let turn: string;
	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'n8n-turn-'));
		turn = path.join(root, 'turn');
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	/** The turn as another process holds it. */
	const heldBy = (pid: number) => {
		mkdirSync(turn, { recursive: true });
		writeFileSync(path.join(turn, 'holder.json'), JSON.stringify({ pid, step: 'Start n8n' }));
	};

	test('a free turn is taken and names its holder; a held one is not, while its holder runs', () => {
		expect(takeTurn(turn, 'Payouts from a 500-row sheet')).toBe(true);
		expect(JSON.parse(readFileSync(path.join(turn, 'holder.json'), 'utf8'))).toEqual({
			pid: process.pid,
			step: 'Payouts from a 500-row sheet',
		});
		heldBy(process.ppid);
		expect(takeTurn(turn, 'Start n8n')).toBe(false);
	});

	test('the turn of a run that exited is taken over', () => {
		const gone = spawnSync('true').pid;
		heldBy(gone);
		expect(takeTurn(turn, 'Start n8n')).toBe(true);
		expect(JSON.parse(readFileSync(path.join(turn, 'holder.json'), 'utf8')).pid).toBe(process.pid);
	});

	test('a step runs in the turn and gives it back, also when it fails; nested steps share it', async () => {
		const order: string[] = [];
		await inTurn(
			'Start n8n',
			async () => {
				order.push(`outer holds: ${existsSync(turn)}`);
				await inTurn('nested', async () => order.push('nested ran'), turn);
				order.push(`after nested: ${existsSync(turn)}`);
			},
			turn,
		);
		expect(order).toEqual(['outer holds: true', 'nested ran', 'after nested: true']);
		expect(existsSync(turn)).toBe(false);
		await expect(
			inTurn('sheet', async () => Promise.reject(new Error('2.61 × the bound')), turn),
		).rejects.toThrow('2.61 × the bound');
		expect(existsSync(turn)).toBe(false);
	});

	test('a step waits while another run holds the turn, and runs once it is given back', async () => {
		heldBy(process.ppid);
		let ran = false;
		const waiting = inTurn('sheet', async () => (ran = true), turn);
		await new Promise((resolve) => setTimeout(resolve, 700));
		expect(ran).toBe(false);
		rmSync(turn, { recursive: true, force: true });
		await waiting;
		expect(ran).toBe(true);
	});
});
