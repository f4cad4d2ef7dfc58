/**
 * A sandbox for the trigger's volume benchmarks (`npm run bench -- trigger-volume-1m`), in a process
 * of its own: `tsx test/bench/seriesSandbox.ts --per-day 1000000 --days 7 --now <ms> --latency 40`.
 * Merchant 1002's cashouts are a compact series (test/sandbox/store/series.ts): `--per-day` a day,
 * evenly spread, those of the `--days` before `--now` created. Prints the Base URL line as cli.ts
 * does, then `SERIES {"firstId": …, "count": …}`, then takes one command a line on its standard
 * input and answers each with a line `ok <json>` (or `error <message>`):
 * - `clock <ms>`: sets the sandbox clock;
 * - `extend <ms>`: creates the series' records due by then, answers the series' size;
 * - `status <STATUS> <id> [<id> …]`: sets their status at the clock (their lastChangeDate moves);
 * - `latency <ms>`: the latency added to each request.
 */
import { createInterface } from 'readline';

import { startSandbox } from '../sandbox';

const DAY_MS = 86_400_000;
const MID = 1002;

function argument(name: string, fallback: string): string {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

async function main() {
	const perDay = Number(argument('per-day', '1000000'));
	const days = Number(argument('days', '7'));
	const now = Number(argument('now', String(Date.UTC(2026, 9, 12))));
	const latencyMs = Number(argument('latency', '40'));
	const sandbox = await startSandbox({
		port: 0,
		now,
		latencyMs,
		depositsPerDay: 0,
		cashoutsPerDay: 0,
	});
	const firstId = sandbox.control.addCashoutSeries({
		idMerchant: MID,
		fromMs: now - days * DAY_MS,
		everyMs: DAY_MS / perDay,
	});
	const count = sandbox.control.extendCashoutSeries(MID, now - 1_000);
	// The benchmark counts its requests itself: the log would keep every page of millions of reads.
	setInterval(() => sandbox.log.clear(), 1_000).unref();
	const commands: Record<string, (args: string[]) => unknown> = {
		clock: ([ms]) => sandbox.clock.set(Number(ms)),
		extend: ([ms]) => sandbox.control.extendCashoutSeries(MID, Number(ms)),
		status: ([status, ...ids]) => {
			for (const id of ids) sandbox.control.setStatus('cashout', Number(id), status);
			return ids.length;
		},
		latency: ([ms]) => sandbox.setLatency(Number(ms)),
	};
	createInterface({ input: process.stdin }).on('line', (line) => {
		const [name, ...args] = line.trim().split(/\s+/);
		try {
			const command = commands[name];
			if (!command) throw new Error(`unknown command ${name}`);
			console.log(`ok ${JSON.stringify(command(args) ?? null)}`);
		} catch (error) {
			console.log(`error ${(error as Error).message}`);
		}
	});
	console.log(`Base URL (reporting + tickets, /v1): ${sandbox.baseUrl}`);
	console.log(`SERIES ${JSON.stringify({ firstId, count })}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
