import * as FakeTimers from '@sinonjs/fake-timers';

import { formatDuration, Progress, PROGRESS_INTERVAL_MS, type ProgressOutput } from './progress';

/** A reporter on a fake clock, writing into `written`; `terminal` makes it a TTY whose bytes count. */
function reporter(terminal = false) {
	const clock = FakeTimers.createClock(0);
	const written: string[] = [];
	let bytes = 0;
	const out: ProgressOutput = {
		isTTY: terminal,
		columns: terminal ? 40 : undefined,
		write: (text) => {
			written.push(text);
			bytes += text.length;
		},
		written: terminal ? () => bytes : undefined,
	};
	const progress = new Progress(out, {
		now: () => clock.now,
		setInterval: (callback, ms) => clock.setInterval(callback, ms),
		clearInterval: (handle) => clock.clearInterval(handle as FakeTimers.TimerId),
	});
	/** Something else printing on the same terminal (a step's result). */
	const print = (text: string) => {
		written.push(text);
		bytes += text.length;
	};
	return { clock, written, progress, print };
}

/** A piece of work that runs until `finish` or `fail` is called. */
function pending() {
	let finish!: () => void;
	let fail!: (error: Error) => void;
	const promise = new Promise<void>((resolve, reject) => {
		finish = resolve;
		fail = reject;
	});
	return { promise, finish, fail };
}

describe('the progress lines of the real-n8n tools', () => {
	test('a long install is named with its time so far and how far it got, every 10 s, and nothing after it ends', async () => {
		const { clock, written, progress } = reporter();
		const work = pending();
		let downloaded = 0;
		const done = progress.during('npm install of n8n 2.41.1', async () => await work.promise, {
			detail: () => `${downloaded} packages downloaded`,
		});
		await clock.tickAsync(PROGRESS_INTERVAL_MS - 1);
		expect(written).toEqual([]);
		await clock.tickAsync(1);
		downloaded = 812;
		await clock.tickAsync(PROGRESS_INTERVAL_MS);
		await clock.tickAsync(PROGRESS_INTERVAL_MS * 4);
		expect(written.slice(0, 3)).toEqual([
			'  … npm install of n8n 2.41.1 (10s): 0 packages downloaded\n',
			'  … npm install of n8n 2.41.1 (20s): 812 packages downloaded\n',
			'  … npm install of n8n 2.41.1 (30s): 812 packages downloaded\n',
		]);
		expect(written).toHaveLength(6);
		expect(written[5]).toBe('  … npm install of n8n 2.41.1 (1m 00s): 812 packages downloaded\n');
		// A CI log gets plain lines: no carriage return, no escape sequence.
		expect(written.join('')).not.toContain('\r');
		expect(written.join('')).not.toContain('\x1b');
		work.finish();
		await done;
		await clock.tickAsync(PROGRESS_INTERVAL_MS * 3);
		expect(written).toHaveLength(6);
	});

	test('nested activities: the line names the innermost with the chain it runs in, then the outer again', async () => {
		const { clock, written, progress } = reporter();
		const install = pending();
		const step = progress.during('Install n8n and Node.js (cache)', async () => {
			await clock.tickAsync(5_000);
			await progress.during('Installing n8n 2.41.1', async () => {
				await progress.during('npm install', async () => await install.promise);
			});
			await clock.tickAsync(15_000);
		});
		await clock.tickAsync(PROGRESS_INTERVAL_MS);
		expect(written).toEqual([
			'  … Install n8n and Node.js (cache) (10s) › Installing n8n 2.41.1 (5s) › npm install (5s)\n',
		]);
		install.finish();
		await step;
		expect(written).toEqual([
			'  … Install n8n and Node.js (cache) (10s) › Installing n8n 2.41.1 (5s) › npm install (5s)\n',
			'  … Install n8n and Node.js (cache) (20s)\n',
			'  … Install n8n and Node.js (cache) (30s)\n',
		]);
	});

	test('activities side by side get a line each', async () => {
		const { clock, written, progress } = reporter();
		const first = pending();
		const second = pending();
		const both = Promise.all([
			progress.during('Alert: rejected cashout', async () => await first.promise),
			progress.during('Alert: new chargeback', async () => await second.promise),
		]);
		await clock.tickAsync(PROGRESS_INTERVAL_MS);
		expect(written).toEqual([
			'  … Alert: rejected cashout (10s)\n  … Alert: new chargeback (10s)\n',
		]);
		first.finish();
		second.finish();
		await both;
	});

	test('a failed activity rejects as its work did and prints no more lines', async () => {
		const { clock, written, progress } = reporter();
		const work = pending();
		const done = progress.during('apt-get install chromium', async () => await work.promise);
		await clock.tickAsync(PROGRESS_INTERVAL_MS);
		work.fail(new Error('apt-get install chromium failed (exit 100)'));
		await expect(done).rejects.toThrow('apt-get install chromium failed (exit 100)');
		await clock.tickAsync(PROGRESS_INTERVAL_MS * 3);
		expect(written).toEqual(['  … apt-get install chromium (10s)\n']);
	});

	test('on a terminal, the line is rewritten in place unless something else was printed since', async () => {
		const { clock, written, progress, print } = reporter(true);
		const work = pending();
		const done = progress.during('Start n8n', async () => await work.promise);
		await clock.tickAsync(PROGRESS_INTERVAL_MS * 2);
		print('  ✔ ok (0.2s): the sandbox\n');
		await clock.tickAsync(PROGRESS_INTERVAL_MS);
		await progress.during(
			'waiting for n8n 2.41.1 (main) to answer on http://127.0.0.1:4312',
			async () => {
				await clock.tickAsync(PROGRESS_INTERVAL_MS);
			},
		);
		expect(written).toEqual([
			'  … Start n8n (10s)\n',
			// Up one line, cleared to the end of the screen, written again.
			'\x1b[1F\x1b[J  … Start n8n (20s)\n',
			'  ✔ ok (0.2s): the sandbox\n',
			'  … Start n8n (30s)\n',
			// Cut at the terminal's width (40), so a rewrite knows how many lines to go up.
			'\x1b[1F\x1b[J  … Start n8n (40s)\n  … waiting for n8n 2.41.1 (main) to a…\n',
		]);
		work.finish();
		await done;
	});

	test('durations read as seconds, minutes and hours', () => {
		expect([0, 9_999, 65_000, 3_599_999, 3_720_000].map(formatDuration)).toEqual([
			'0s',
			'9s',
			'1m 05s',
			'59m 59s',
			'1h 02m',
		]);
	});
});
