/**
 * A sandbox for the report benchmarks, in a process of its own (`npm run bench -- report` starts
 * it): `tsx test/bench/reportSandbox.ts --deposits 100000 --days 1 --latency 40`. Merchant 1002
 * (empty in the generated data) gets `--deposits` deposits evenly spread over the `--days` before
 * the sandbox clock, with seeded amounts (0.01 to 5,000.00 USD), countries and statuses. It prints
 * the Base URL line as cli.ts does, then `TOTALS <json>`: the sandbox's own totals of those records,
 * in integer cents (count per status, `amount` per currency, `localAmount` per local currency), the
 * oracle of the exactness check. The request log is emptied every second (the benchmark counts its
 * requests itself), so a million-record read does not keep its pages here.
 */
import { startSandbox } from '../sandbox';
import { Rng } from '../sandbox/data';
import { iso } from '../harness/records';

function argument(name: string, fallback: string): string {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

const COUNTRIES = ['BR', 'MX', 'CO', 'CL', 'PE', 'AR'];
const STATUSES: Array<[string, number]> = [
	['COMPLETED', 70],
	['PENDING', 15],
	['CANCELLED', 10],
	['DECLINED', 5],
];

async function main() {
	const count = Number(argument('deposits', '100000'));
	const days = Number(argument('days', '1'));
	const latencyMs = Number(argument('latency', '40'));
	const sandbox = await startSandbox({ port: 0, latencyMs, depositsPerDay: 0, cashoutsPerDay: 0 });
	const now = Math.floor(sandbox.clock.now() / 1000);
	const span = days * 86_400;
	const start = now - span + 1;
	const rng = new Rng(2511);
	const cents = (value: number) => BigInt(Math.round(value * 100));
	const totals = {
		count,
		statuses: {} as Record<string, number>,
		amount: {} as Record<string, string>,
		localAmount: {} as Record<string, string>,
	};
	const amount = new Map<string, bigint>();
	const localAmount = new Map<string, bigint>();
	for (let index = 0; index < count; index++) {
		const record = sandbox.control.addDeposit({
			idMerchant: 1002,
			creationDate: iso(start + Math.floor(((index + 0.5) * span) / count)),
			amount: rng.int(1, 500_000) / 100,
			country: rng.pick(COUNTRIES),
			status: rng.weighted(STATUSES),
		});
		totals.statuses[record.status] = (totals.statuses[record.status] ?? 0) + 1;
		amount.set(record.currency, (amount.get(record.currency) ?? 0n) + cents(record.amount));
		localAmount.set(
			record.localCurrency,
			(localAmount.get(record.localCurrency) ?? 0n) + cents(record.localAmount),
		);
	}
	for (const [currency, sum] of amount) totals.amount[currency] = sum.toString();
	for (const [currency, sum] of localAmount) totals.localAmount[currency] = sum.toString();
	setInterval(() => sandbox.log.clear(), 1_000).unref();
	console.log(`Base URL (reporting + tickets, /v1): ${sandbox.baseUrl}`);
	console.log(`TOTALS ${JSON.stringify(totals)}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
