/**
 * Balance computations of a merchant from its visible records (service rules §3.4: balance report
 * record and the GET /v1/balance body). All amounts in USD, 2 decimals.
 */
import { MS_PER_DAY } from './constants';
import { round2, type Entry } from './data';
import type { SandboxStore } from './store';
import type { BalanceEntry, BalanceReportRecord } from './types';
import { toIsoSeconds } from './clock';

/** Sandbox choice: deposit settlement period (days) before a deposit's net amount is available. */
export const DEPOSIT_SETTLEMENT_PERIOD_DAYS = 2;
/** Sandbox choice: rolling reserve = this share of the last ROLLING_RESERVE_DAYS days' deposits. */
export const ROLLING_RESERVE_RATE = 0.05;
/** Sandbox choice: window (days) of the rolling reserve. */
export const ROLLING_RESERVE_DAYS = 30;

/** Deposit statuses that credit the balance. */
const CREDITED_DEPOSIT = new Set(['APPROVED', 'COMPLETED']);
/** Cashout statuses that no longer debit the balance. */
const RETURNED_CASHOUT = new Set(['REJECTED', 'CANCELLED', 'DECLINED']);
/** Settlement statuses counted as cancelled. */
const CANCELLED_SETTLEMENT = new Set(['CANCELLED', 'FAILED']);

interface DayTotals {
	dayStart: number;
	depositTotal: number;
	depositFeeTotal: number;
	cashoutTotal: number;
	noteTotal: number;
	settlementTotal: number;
	cancelledSettlementTotal: number;
}

function dayStartOf(ms: number): number {
	return Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
}

/**
 * Per-day totals of `merchantId` (only days with a movement), oldest first. With `forReport`, the
 * deposits {@link SandboxStore.omittedFromBalanceReport} names are left out of the amounts (their
 * day keeps its row): the report disagrees with the lists, the balance does not.
 */
function dailyTotals(store: SandboxStore, merchantId: number, forReport = false): DayTotals[] {
	const days = new Map<number, DayTotals>();
	const day = (ms: number): DayTotals => {
		const start = dayStartOf(ms);
		let totals = days.get(start);
		if (!totals) {
			totals = {
				dayStart: start,
				depositTotal: 0,
				depositFeeTotal: 0,
				cashoutTotal: 0,
				noteTotal: 0,
				settlementTotal: 0,
				cancelledSettlementTotal: 0,
			};
			days.set(start, totals);
		}
		return totals;
	};
	const visible = <T>(entries: ReadonlyArray<Entry<T>>): Array<Entry<T>> =>
		entries.filter((e) => e.merchantId === merchantId && store.isVisible(e));
	for (const d of visible(store.deposits)) {
		const t = day(d.createdMs);
		if (forReport && store.omittedFromBalanceReport.has(d.id)) continue;
		if (CREDITED_DEPOSIT.has(d.rec.status)) {
			t.depositTotal += d.rec.amount;
			t.depositFeeTotal += d.rec.fee;
		}
	}
	for (const c of visible(store.cashouts)) {
		const t = day(c.createdMs);
		if (!RETURNED_CASHOUT.has(c.rec.status)) t.cashoutTotal += c.rec.merchantAmount + c.rec.fee;
	}
	for (const n of visible(store.notes)) {
		day(n.createdMs).noteTotal += n.rec.category === 'CREDIT' ? n.rec.amount : -n.rec.amount;
	}
	for (const s of visible(store.settlements)) {
		const t = day(s.createdMs);
		t.settlementTotal += s.rec.requestedAmount;
		if (CANCELLED_SETTLEMENT.has(s.rec.status)) t.cancelledSettlementTotal += s.rec.requestedAmount;
	}
	return [...days.values()].sort((a, b) => a.dayStart - b.dayStart);
}

function net(t: DayTotals): number {
	return (
		t.depositTotal -
		t.depositFeeTotal -
		t.cashoutTotal +
		t.noteTotal -
		t.settlementTotal +
		t.cancelledSettlementTotal
	);
}

/**
 * Balance report of `merchantId`: one record per UTC day with at least one movement, oldest first;
 * netAmount = deposits - deposit fees - cashouts (incl. fees, not rejected/cancelled/declined)
 * + credit notes - debit notes - settlements + cancelled/failed settlements; totalBalance = running sum.
 * Made to disagree on purpose (control.omitFromBalanceReport, control.shiftBalanceReport): a
 * deposit left out of its day's amounts, and a totalBalance that from a day on is higher (or lower)
 * than the nets carry.
 */
export function balanceReport(
	store: SandboxStore,
	merchantId: number,
): Array<{ dayStart: number; rec: BalanceReportRecord }> {
	let running = 0;
	const shifts = store.balanceReportShifts.get(merchantId) ?? [];
	return dailyTotals(store, merchantId, true).map((t) => {
		const netAmount = net(t);
		running += netAmount;
		for (const shift of shifts) if (shift.dayStart === t.dayStart) running += shift.amount;
		return {
			dayStart: t.dayStart,
			rec: {
				idMerchant: merchantId,
				depositTotal: round2(t.depositTotal),
				cashoutTotal: round2(t.cashoutTotal),
				noteTotal: round2(t.noteTotal),
				settlementTotal: round2(t.settlementTotal),
				cancelledSettlementTotal: round2(t.cancelledSettlementTotal),
				depositFeeTotal: round2(t.depositFeeTotal),
				netAmount: round2(netAmount),
				totalBalance: round2(running),
				date: toIsoSeconds(t.dayStart),
				currency: 'USD',
			},
		};
	});
}

/**
 * Body of GET /v1/balance for `merchantId` (service rules §3.4). First one USD entry of type MAIN,
 * from the records: totalBalance = all-time net; availableBalance = total minus net deposits of the
 * last DEPOSIT_SETTLEMENT_PERIOD_DAYS days; rollingReserveBalance = 5% of the last 30 days'
 * credited deposits; usableBalance = available - rolling reserve. Then one MAIN entry per local
 * currency set with `setLocalBalance` (sandbox choice: no records move those; all their amounts are
 * the amount set, no reserve), in the order they were first set.
 */
export function balanceBody(store: SandboxStore, merchantId: number): { balances: BalanceEntry[] } {
	const now = store.clock.now();
	let total = 0;
	for (const t of dailyTotals(store, merchantId)) total += net(t);
	let unsettled = 0;
	let reserveBase = 0;
	for (const d of store.deposits) {
		if (d.merchantId !== merchantId || !store.isVisible(d) || !CREDITED_DEPOSIT.has(d.rec.status))
			continue;
		const age = now - d.createdMs;
		if (age < DEPOSIT_SETTLEMENT_PERIOD_DAYS * MS_PER_DAY) unsettled += d.rec.amount - d.rec.fee;
		if (age < ROLLING_RESERVE_DAYS * MS_PER_DAY) reserveBase += d.rec.amount;
	}
	const available = total - unsettled;
	const reserve = reserveBase * ROLLING_RESERVE_RATE;
	return {
		balances: [
			{
				currency: 'USD',
				type: 'MAIN',
				data: {
					totalBalance: round2(total),
					availableBalance: round2(available),
					depositSettlementPeriod: DEPOSIT_SETTLEMENT_PERIOD_DAYS,
					accountNumber: `ACC-${merchantId}-USD`,
					rollingReserveBalance: round2(reserve),
					usableBalance: round2(available - reserve),
				},
			},
			...[...(store.localBalances(merchantId) ?? [])].map(([currency, amount]): BalanceEntry => ({
				currency,
				type: 'MAIN',
				data: {
					totalBalance: amount,
					availableBalance: amount,
					depositSettlementPeriod: DEPOSIT_SETTLEMENT_PERIOD_DAYS,
					accountNumber: `ACC-${merchantId}-${currency}`,
					rollingReserveBalance: 0,
					usableBalance: amount,
				},
			})),
		],
	};
}
