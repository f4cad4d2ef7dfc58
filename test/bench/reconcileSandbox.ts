/**
 * A sandbox for the reconciliation benchmark, in a process of its own (`npm run bench -- reconcile`
 * starts it): `tsx test/bench/reconcileSandbox.ts --days 30 --deposits 100000 --cashouts 20000
 * --notes 200 --latency 40`. Merchant 1002 (empty in the generated data) gets, on each of the
 * `--days` whole UTC days before the sandbox clock's day, `--deposits` deposits, `--cashouts`
 * cashouts and `--notes` credit/debit notes evenly spread over the day, and one settlement; seeded
 * amounts (2 decimals) and statuses; and one deposit the day before, so that the report holds the
 * row whose balance the first day carries on. It prints the Base URL line as cli.ts does, then `TOTALS
 * <json>`: the period (`from`, `to`, Unix seconds), the records of each list, and per day the
 * sandbox's own sums of each term of the daily balance report in integer cents, by the rule its
 * report follows (test/sandbox/balance.ts): the oracle of the exactness check. The request log is
 * emptied every second (the benchmark counts its requests itself).
 */
import { startSandbox } from '../sandbox';
import { Rng } from '../sandbox/data';
import { NOTE_TYPES, noteCategory } from '../sandbox/reference';
import { iso } from '../harness/records';
import { TERMS } from '../../nodes/PaymentsService/reporting/reconciliation';

function argument(name: string, fallback: string): string {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

const COUNTRIES = ['BR', 'MX', 'CO', 'CL', 'PE', 'AR'];
const DEPOSIT_STATUSES: Array<[string, number]> = [
	['COMPLETED', 70],
	['APPROVED', 5],
	['PENDING', 10],
	['CANCELLED', 10],
	['DECLINED', 5],
];
const CASHOUT_STATUSES: Array<[string, number]> = [
	['COMPLETED', 60],
	['PENDING', 10],
	['DELIVERED', 10],
	['ON_HOLD', 5],
	['REJECTED', 8],
	['CANCELLED', 5],
	['DECLINED', 2],
];
const SETTLEMENT_STATUSES: Array<[string, number]> = [
	['COMPLETED', 60],
	['PENDING', 20],
	['CANCELLED', 10],
	['FAILED', 10],
];

async function main() {
	const days = Number(argument('days', '30'));
	const perDay = {
		deposits: Number(argument('deposits', '100000')),
		cashouts: Number(argument('cashouts', '20000')),
		notes: Number(argument('notes', '200')),
	};
	const latencyMs = Number(argument('latency', '40'));
	const sandbox = await startSandbox({ port: 0, latencyMs, depositsPerDay: 0, cashoutsPerDay: 0 });
	const now = Math.floor(sandbox.clock.now() / 1000);
	const today = now - (now % 86_400);
	const from = today - days * 86_400;
	const rng = new Rng(4302);
	const cents = (value: number) => BigInt(Math.round(value * 100));
	const sums: Record<string, Record<(typeof TERMS)[number], bigint>> = {};
	const records = { deposits: 0, cashouts: 0, notes: 0, settlements: 0 };
	const { control } = sandbox;
	// The merchant's history: a deposit the day before the period, so that the report has a row
	// before it and the first day's balance is carried over (and checked).
	control.addDeposit({
		idMerchant: 1002,
		creationDate: iso(from - 12 * 3600),
		amount: 1000,
		status: 'COMPLETED',
	});
	for (let day = 0; day < days; day++) {
		const start = from + day * 86_400;
		const at = (index: number, count: number) =>
			iso(start + Math.floor(((index + 0.5) * 86_400) / count));
		const terms = Object.fromEntries(TERMS.map((term) => [term, 0n])) as Record<
			(typeof TERMS)[number],
			bigint
		>;
		sums[iso(start).slice(0, 10)] = terms;
		for (let index = 0; index < perDay.deposits; index++) {
			const deposit = control.addDeposit({
				idMerchant: 1002,
				creationDate: at(index, perDay.deposits),
				amount: rng.int(1, 500_000) / 100,
				country: rng.pick(COUNTRIES),
				status: rng.weighted(DEPOSIT_STATUSES),
			});
			if (deposit.status === 'COMPLETED' || deposit.status === 'APPROVED') {
				terms.depositTotal += cents(deposit.amount);
				terms.depositFeeTotal += cents(deposit.fee);
			}
		}
		for (let index = 0; index < perDay.cashouts; index++) {
			const cashout = control.addCashout({
				idMerchant: 1002,
				creationDate: at(index, perDay.cashouts),
				merchantAmount: rng.int(100, 300_000) / 100,
				country: rng.pick(COUNTRIES),
				status: rng.weighted(CASHOUT_STATUSES),
			});
			if (!['REJECTED', 'CANCELLED', 'DECLINED'].includes(cashout.status))
				terms.cashoutTotal += cents(cashout.merchantAmount) + cents(cashout.fee);
		}
		for (let index = 0; index < perDay.notes; index++) {
			const type = rng.pick(NOTE_TYPES);
			const note = control.addNote({
				idMerchant: 1002,
				date: at(index, perDay.notes),
				type,
				amount: rng.int(100, 50_000) / 100,
			});
			terms.noteTotal += (noteCategory(type) === 'CREDIT' ? 1n : -1n) * cents(note.amount);
		}
		const settlement = control.addSettlement({
			idMerchant: 1002,
			creationDate: iso(start + 10 * 3600),
			requestedAmount: rng.int(100_000, 5_000_000) / 100,
			status: rng.weighted(SETTLEMENT_STATUSES),
		});
		terms.settlementTotal += cents(settlement.requestedAmount);
		if (settlement.status === 'CANCELLED' || settlement.status === 'FAILED')
			terms.cancelledSettlementTotal += cents(settlement.requestedAmount);
		records.deposits += perDay.deposits;
		records.cashouts += perDay.cashouts;
		records.notes += perDay.notes;
		records.settlements += 1;
	}
	setInterval(() => sandbox.log.clear(), 1_000).unref();
	console.log(`Base URL (reporting + tickets, /v1): ${sandbox.baseUrl}`);
	console.log(
		`TOTALS ${JSON.stringify({
			from,
			to: today - 1,
			records,
			days: Object.fromEntries(
				Object.entries(sums).map(([day, terms]) => [
					day,
					Object.fromEntries(Object.entries(terms).map(([term, sum]) => [term, sum.toString()])),
				]),
			),
		})}`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
