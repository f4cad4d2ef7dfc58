/**
 * The {@link SandboxControl} facade the tests use, and setStatus, the status write without state
 * machine it offers.
 */
import { plainCopy } from '../copy';
import type { Entry } from '../data';
import type { SandboxControl, StatusKind } from '../types';
import { setCashoutStatus } from './cashouts';
import { setDepositStatus } from './deposits';
import type { SandboxStore } from './index';
import { requireEntry, touch, type StoreState } from './state';

/** Sets any status (no state machine); throws for an unknown id. */
export function setStatus(
	state: StoreState,
	kind: StatusKind,
	id: number,
	status: string,
	extra?: { rejectionCode?: number; rejectionReason?: string },
): void {
	if (kind === 'cashout') {
		const series = [...state.cashoutSeries.values()].find((candidate) => candidate.has(id));
		if (series) {
			series.setStatus(id, status, state.clock.now(), state.lastChangeMoves);
			return;
		}
		const entry = requireEntry(state.byId.cashout, kind, id);
		const rejection =
			extra && (extra.rejectionCode !== undefined || extra.rejectionReason !== undefined)
				? { code: extra.rejectionCode ?? 0, reason: extra.rejectionReason ?? '' }
				: undefined;
		setCashoutStatus(state, entry, status, rejection);
		return;
	}
	if (kind === 'deposit') {
		setDepositStatus(state, requireEntry(state.byId.deposit, kind, id), status);
		return;
	}
	const map: Map<number, Entry<{ status: string; lastChangeDate?: string }>> = state.byId[kind];
	const entry = requireEntry(map, kind, id);
	entry.rec.status = status;
	if ('lastChangeDate' in entry.rec) touch(state, entry);
}

/** The {@link SandboxControl} facade over `store`. */
export function control(store: SandboxStore): SandboxControl {
	const copy = <T>(entries: ReadonlyArray<Entry<T>>, mid?: number): T[] =>
		entries.filter((e) => mid === undefined || e.merchantId === mid).map((e) => plainCopy(e.rec));
	return {
		deposits: (mid) => copy(store.deposits, mid),
		cashouts: (mid) => copy(store.cashouts, mid),
		refunds: (mid) => copy(store.refunds, mid),
		chargebacks: (mid) => copy(store.chargebacks, mid),
		notes: (mid) => copy(store.notes, mid),
		settlements: (mid) => copy(store.settlements, mid),
		tickets: () => [...store.tickets.values()].map((t) => structuredClone(t)),
		createdDeposits: () => structuredClone(store.createdDeposits),
		createdCashouts: () => structuredClone(store.createdCashouts),
		createdRefunds: () => structuredClone(store.createdRefunds),
		balances: (mid) => structuredClone(store.balance(mid).balances),
		setLocalBalance: (mid, currency, amount) => store.setLocalBalance(mid, currency, amount),
		cashoutFunds: (mid) => store.cashoutFunds(mid),
		setCashoutFunds: (mid, usd) => store.setCashoutFunds(mid, usd),
		activeSessions: () => store.activeSessions(),
		omitFromBalanceReport: (id) => store.omitFromBalanceReport(id),
		shiftBalanceReport: (mid, day, amount) => store.shiftBalanceReport(mid, day, amount),
		setReportLag: (ms) => {
			if (!Number.isFinite(ms) || ms < 0) throw new Error('the report lag must be a number >= 0');
			store.reportLagMs = ms;
		},
		setLastChangeMoves: (moves) => store.setLastChangeMoves(moves),
		addCashoutSeries: (spec) => store.addCashoutSeries(spec),
		extendCashoutSeries: (merchantId, untilMs) => store.extendCashoutSeries(merchantId, untilMs),
		cashoutRejection: (id) => {
			const r = store.cashout(id)?.rejection;
			return r ? { ...r } : undefined;
		},
		depositHasVoucher: (id) => store.deposit(id)?.hasVoucher ?? false,
		addDeposit: (p) => structuredClone(store.addDeposit(p).rec),
		addCashout: (p) => structuredClone(store.addCashout(p).rec),
		addRefund: (p) => structuredClone(store.addRefund(p).rec),
		addChargeback: (p) => structuredClone(store.addChargeback(p).rec),
		addNote: (p) => structuredClone(store.addNote(p).rec),
		addSettlement: (p) => structuredClone(store.addSettlement(p).rec),
		setStatus: (kind, id, status, extra) => store.setStatus(kind, id, status, extra),
		advanceCashout: (id, to, rejection) => store.advanceCashout(id, to, rejection),
		advanceRefund: (id, to) => store.advanceRefund(id, to),
		expireSessions: () => store.expireSessions(),
		notifications: store.notifier.control(),
		setDefaultNotificationUrl: (mid, url) => store.setDefaultNotificationUrl(mid, url),
		defaultNotificationUrl: (mid) => store.defaultNotificationUrl(mid),
	};
}
