/**
 * A sandbox for the one-day read benchmarks, in a process of its own (`npm run bench` starts it):
 * `tsx test/bench/daySandbox.ts --deposits 10000 --shape uniform|peak --latency 40`. Merchant 1002
 * (empty in the generated data) gets `--deposits` deposits created in the day before the sandbox
 * clock: evenly spread (`uniform`), or 80% of them in the two hours from 10:00 to 12:00 of that
 * day and the rest evenly over the other 22 hours (`peak`). Prints the Base URL line as cli.ts does.
 */
import { startSandbox } from '../sandbox';
import { iso } from '../harness/records';

const DAY = 86_400;

function argument(name: string, fallback: string): string {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

/** The creation second of each deposit in [from, from + DAY), oldest first. */
export function creationSeconds(from: number, count: number, shape: string): number[] {
	const spread = (start: number, seconds: number, n: number) =>
		Array.from({ length: n }, (_, index) => start + Math.floor(((index + 0.5) * seconds) / n));
	if (shape === 'uniform') return spread(from, DAY, count);
	if (shape !== 'peak') throw new Error(`--shape must be uniform or peak, got ${shape}`);
	const inPeak = Math.round(count * 0.8);
	const quiet = count - inPeak;
	const peakStart = from + 10 * 3_600;
	const before = Math.round((quiet * 10) / 22);
	return [
		...spread(from, 10 * 3_600, before),
		...spread(peakStart, 2 * 3_600, inPeak),
		...spread(peakStart + 2 * 3_600, 12 * 3_600, quiet - before),
	];
}

async function main() {
	const count = Number(argument('deposits', '10000'));
	const shape = argument('shape', 'uniform');
	const latencyMs = Number(argument('latency', '40'));
	const sandbox = await startSandbox({ port: 0, latencyMs, depositsPerDay: 0, cashoutsPerDay: 0 });
	const now = Math.floor(sandbox.clock.now() / 1000);
	for (const second of creationSeconds(now - DAY + 1, count, shape)) {
		sandbox.control.addDeposit({
			idMerchant: 1002,
			creationDate: iso(second),
			status: 'COMPLETED',
		});
	}
	console.log(`Base URL (reporting + tickets, /v1): ${sandbox.baseUrl}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
