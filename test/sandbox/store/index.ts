/**
 * The store of the sandbox. {@link SandboxStore} composes its parts, one file per resource, each a set
 * of functions over the shared state object of state.ts:
 * - sessions.ts: session tokens and idempotency keys;
 * - deposits.ts, cashouts.ts (with the cashout funds), refunds.ts: lookups, creation, status changes;
 * - records.ts: chargebacks, notes and settlements;
 * - notifications.ts: default notification URLs and the bodies of status-change notifications;
 * - control.ts: the {@link SandboxControl} facade the tests use, and setStatus.
 * This file keeps the reporting page read: visibility, newest-first order, pages.
 */
import { balanceBody, balanceReport } from '../balance';
import { plainCopy } from '../copy';
import type { ManualClock } from '../clock';
import { MAX_ROWS_PER_PAGE } from '../constants';
import { merchantById } from '../reference';
import type {
	CashoutEntry,
	ChargebackEntry,
	DepositEntry,
	Entry,
	NoteEntry,
	RefundEntry,
	SettlementEntry,
} from '../data';
import type { NotificationCenter } from '../notifications';
import type {
	AddCashoutInput,
	BalanceEntry,
	AddChargebackInput,
	AddDepositInput,
	AddNoteInput,
	AddRefundInput,
	AddSettlementInput,
	CreatedCashout,
	CreatedDeposit,
	CreatedRefund,
	RefundAdvanceTarget,
	SandboxControl,
	SessionInfo,
	StatusKind,
	TicketRecord,
} from '../types';
import * as cashouts from './cashouts';
import { control, setStatus } from './control';
import * as deposits from './deposits';
import * as notifications from './notifications';
import * as records from './records';
import * as refunds from './refunds';
import * as sessions from './sessions';
import type { LoginResult, Session } from './sessions';
import {
	allocateId,
	createState,
	nowSeconds,
	type IdKind,
	type ResolvedOptions,
	type StoreState,
} from './state';

import { CashoutSeries } from './series';
export type { LoginResult, Session } from './sessions';
export type { ResolvedOptions } from './state';

/** A page of a reporting list (service rules §3.1). */
export interface PageEnvelope<T> {
	data: T[];
	page: number;
	rows: number;
	maxRows: number;
}

/**
 * The mutable state of one sandbox. Each method hands its work to the function of the same name in
 * the file its section names, where that function's documentation is.
 */
export class SandboxStore {
	/** Per list array: its length when sorted, and each merchant's entries newest first. */
	private readonly orderCache = new WeakMap<
		ReadonlyArray<Entry<unknown>>,
		{ length: number; byMerchant: Map<number, Array<Entry<unknown>>> }
	>();

	private readonly state: StoreState;
	/** How long a record created through the API stays out of the lists (ms, sandbox clock). */
	reportLagMs = 0;
	/** Deposits the daily balance report leaves out (balance.ts): a report that disagrees with the lists. */
	readonly omittedFromBalanceReport = new Set<number>();
	/**
	 * Per merchant, the days (UTC day start, ms) from which the report's totalBalance is `amount`
	 * USD higher than its nets carry (balance.ts): a balance that does not carry over.
	 */
	readonly balanceReportShifts = new Map<number, Array<{ dayStart: number; amount: number }>>();
	readonly deposits: DepositEntry[];
	readonly cashouts: CashoutEntry[];
	readonly refunds: RefundEntry[];
	readonly chargebacks: ChargebackEntry[];
	readonly notes: NoteEntry[];
	readonly settlements: SettlementEntry[];
	readonly tickets: Map<number, TicketRecord>;
	readonly createdDeposits: CreatedDeposit[];
	readonly createdCashouts: CreatedCashout[];
	readonly createdRefunds: CreatedRefund[];
	/** Status-change notifications (service rules §10). */
	readonly notifier: NotificationCenter;

	constructor(
		readonly options: ResolvedOptions,
		readonly clock: ManualClock,
	) {
		this.state = createState(options, clock);
		this.deposits = this.state.deposits;
		this.cashouts = this.state.cashouts;
		this.refunds = this.state.refunds;
		this.chargebacks = this.state.chargebacks;
		this.notes = this.state.notes;
		this.settlements = this.state.settlements;
		this.tickets = this.state.tickets;
		this.createdDeposits = this.state.createdDeposits;
		this.createdCashouts = this.state.createdCashouts;
		this.createdRefunds = this.state.createdRefunds;
		this.notifier = this.state.notifier;
	}

	// ---- ids and time (state.ts) ----

	allocateId(kind: IdKind, requested?: number): number {
		return allocateId(this.state, kind, requested);
	}

	nowSeconds(): number {
		return nowSeconds(this.state);
	}

	// ---- sessions and idempotency keys (sessions.ts) ----

	login(accessKey: unknown, secretKey: unknown): LoginResult {
		return sessions.login(this.state, accessKey, secretKey);
	}

	useSession(tokens: string[]): Session | undefined {
		return sessions.useSession(this.state, tokens);
	}

	destroySession(token: string): void {
		sessions.destroySession(this.state, token);
	}

	activeSessions(): SessionInfo[] {
		return sessions.activeSessions(this.state);
	}

	expireSessions(): void {
		sessions.expireSessions(this.state);
	}

	isIdempotencyKeyUsed(merchantId: number, key: string): boolean {
		return sessions.isIdempotencyKeyUsed(this.state, merchantId, key);
	}

	useIdempotencyKey(merchantId: number, key: string): void {
		sessions.useIdempotencyKey(this.state, merchantId, key);
	}

	// ---- deposits (deposits.ts) ----

	deposit(id: number): DepositEntry | undefined {
		return deposits.deposit(this.state, id);
	}

	addDeposit(
		p: AddDepositInput,
		payer?: Record<string, unknown>,
		paymentType?: string,
	): DepositEntry {
		return deposits.addDeposit(this.state, p, payer, paymentType);
	}

	setDepositStatus(entry: DepositEntry, status: string): void {
		deposits.setDepositStatus(this.state, entry, status);
	}

	// ---- balances (balance.ts) ----

	/** The body of GET /v1/balance for `merchantId`, as a session of that merchant reads it. */
	balance(merchantId: number): { balances: BalanceEntry[] } {
		merchantById(merchantId);
		return balanceBody(this, merchantId);
	}

	/** The available amount of each local-currency balance of `merchantId`, in the order first set. */
	localBalances(merchantId: number): ReadonlyMap<string, number> | undefined {
		return this.state.localBalances.get(merchantId);
	}

	/**
	 * Sets the available balance `merchantId` holds in `currency` (ISO 4217, not USD: that balance
	 * follows the records), listed after the USD one. Throws for an unknown merchant, a currency
	 * that is not 3 upper-case letters or is USD, or an amount that is not a finite number.
	 */
	setLocalBalance(merchantId: number, currency: string, amount: number): void {
		merchantById(merchantId);
		if (!/^[A-Z]{3}$/.test(currency) || currency === 'USD')
			throw new Error(`a local balance needs a currency code other than USD, got ${currency}`);
		if (!Number.isFinite(amount)) throw new Error(`a balance must be a number, got ${amount}`);
		const balances = this.state.localBalances.get(merchantId) ?? new Map<string, number>();
		balances.set(currency, Math.round(amount * 100) / 100);
		this.state.localBalances.set(merchantId, balances);
	}

	/**
	 * Leaves deposit `id` out of the daily balance report: its amount and fee leave its day's
	 * depositTotal, depositFeeTotal and netAmount, and every later totalBalance (its day keeps its
	 * row). The lists and GET /v1/balance still hold it. Throws for an unknown deposit.
	 */
	omitFromBalanceReport(id: number): void {
		if (!this.deposit(id)) throw new Error(`unknown deposit ${id}`);
		this.omittedFromBalanceReport.add(id);
	}

	/**
	 * From UTC day `day` (`yyyy-MM-dd`) on, the daily balance report's totalBalance of `merchantId`
	 * is `amount` USD higher (lower when negative) than its nets carry: that day's balance does not
	 * carry over from the day before; the later days carry it on. The day must have a row (a
	 * movement). Throws for an unknown merchant, a day that is not a date, a day without a row, or
	 * an amount that is not a finite number of at most 2 decimals other than 0.
	 */
	shiftBalanceReport(merchantId: number, day: string, amount: number): void {
		merchantById(merchantId);
		const dayStart = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
		if (Number.isNaN(dayStart)) throw new Error(`a day must be written yyyy-MM-dd, got ${day}`);
		if (!Number.isFinite(amount) || amount === 0 || Math.round(amount * 100) / 100 !== amount)
			throw new Error(
				`a shift must be a number other than 0 with at most 2 decimals, got ${amount}`,
			);
		if (!balanceReport(this, merchantId).some((row) => row.dayStart === dayStart))
			throw new Error(`merchant ${merchantId} has no balance report row on ${day}`);
		const shifts = this.balanceReportShifts.get(merchantId) ?? [];
		shifts.push({ dayStart, amount });
		this.balanceReportShifts.set(merchantId, shifts);
	}

	// ---- cashouts (cashouts.ts) ----

	cashoutFunds(merchantId: number): number {
		return cashouts.cashoutFunds(this.state, merchantId);
	}

	setCashoutFunds(merchantId: number, usd: number): void {
		cashouts.setCashoutFunds(this.state, merchantId, usd);
	}

	cashout(id: number): CashoutEntry | undefined {
		return cashouts.cashout(this.state, id);
	}

	addCashout(p: AddCashoutInput): CashoutEntry {
		return cashouts.addCashout(this.state, p);
	}

	setCashoutStatus(
		entry: CashoutEntry,
		status: string,
		rejection?: { code: number; reason: string },
	): void {
		cashouts.setCashoutStatus(this.state, entry, status, rejection);
	}

	advanceCashout(
		id: number,
		to: 'DELIVERED' | 'COMPLETED' | 'REJECTED',
		rejection?: { code: number; reason: string },
	): void {
		cashouts.advanceCashout(this.state, id, to, rejection);
	}

	// ---- refunds (refunds.ts) ----

	refund(id: number): RefundEntry | undefined {
		return refunds.refund(this.state, id);
	}

	refundableCents(deposit: DepositEntry): number {
		return refunds.refundableCents(this.state, deposit);
	}

	addRefund(p: AddRefundInput): RefundEntry {
		return refunds.addRefund(this.state, p);
	}

	advanceRefund(id: number, to: RefundAdvanceTarget): void {
		refunds.advanceRefund(this.state, id, to);
	}

	// ---- chargebacks, notes, settlements (records.ts) ----

	addChargeback(p: AddChargebackInput): ChargebackEntry {
		return records.addChargeback(this.state, p);
	}

	addNote(p: AddNoteInput): NoteEntry {
		return records.addNote(this.state, p);
	}

	addSettlement(p: AddSettlementInput): SettlementEntry {
		return records.addSettlement(this.state, p);
	}

	// ---- notifications (notifications.ts) ----

	setDefaultNotificationUrl(merchantId: number, url: string | undefined): void {
		notifications.setDefaultNotificationUrl(this.state, merchantId, url);
	}

	defaultNotificationUrl(merchantId: number): string | undefined {
		return notifications.defaultNotificationUrl(this.state, merchantId);
	}

	// ---- reporting lists ----

	/** Whether an entry is visible at clock now. */
	isVisible(entry: Entry<unknown>): boolean {
		return this.clock.now() >= entry.visibleAt;
	}

	/**
	 * One page of a reporting list: entries of `merchantId`, visible now, with
	 * fromS <= creation (s) <= toS, accepted by `predicate`; newest first (creation desc, then id desc).
	 */
	listPage<T>(
		entries: ReadonlyArray<Entry<T>>,
		merchantId: number,
		fromS: number,
		toS: number,
		page: number,
		predicate: (rec: T) => boolean,
	): PageEnvelope<T> {
		const fromMs = fromS * 1000;
		const toMs = toS * 1000;
		const now = this.clock.now();
		const sorted = this.newestFirst(entries, merchantId);
		// The creation range by binary search, so a page costs the size of its window, not the list.
		const firstAtOrBefore = (ms: number) => {
			let low = 0;
			let high = sorted.length;
			while (low < high) {
				const middle = (low + high) >> 1;
				if (sorted[middle].createdMs > ms) low = middle + 1;
				else high = middle;
			}
			return low;
		};
		const matching = sorted
			.slice(firstAtOrBefore(toMs), firstAtOrBefore(fromMs - 1))
			.filter((e) => now >= e.visibleAt && predicate(e.rec));
		const data = matching
			.slice(page * MAX_ROWS_PER_PAGE, (page + 1) * MAX_ROWS_PER_PAGE)
			.map((e) => plainCopy(e.rec));
		return { data, page, rows: data.length, maxRows: MAX_ROWS_PER_PAGE };
	}

	/** Newest-first order of one merchant's entries (creation desc, then id desc), rebuilt only after an entry was added. */
	private newestFirst<T>(entries: ReadonlyArray<Entry<T>>, merchantId: number): Array<Entry<T>> {
		let cached = this.orderCache.get(entries);
		if (!cached || cached.length !== entries.length) {
			cached = { length: entries.length, byMerchant: new Map() };
			this.orderCache.set(entries, cached);
		}
		let sorted = cached.byMerchant.get(merchantId) as Array<Entry<T>> | undefined;
		if (!sorted) {
			sorted = entries
				.filter((e) => e.merchantId === merchantId)
				.sort((a, b) => b.createdMs - a.createdMs || b.id - a.id);
			cached.byMerchant.set(merchantId, sorted as Array<Entry<unknown>>);
		}
		return sorted;
	}

	// ---- control (control.ts) ----

	setStatus(
		kind: StatusKind,
		id: number,
		status: string,
		extra?: { rejectionCode?: number; rejectionReason?: string },
	): void {
		setStatus(this.state, kind, id, status, extra);
	}

	/**
	 * Makes `idMerchant`'s cashouts a compact series (./series.ts) from `fromMs`, one every
	 * `everyMs`; returns the first id. Ordinary cashout ids continue a billion above it.
	 */
	addCashoutSeries(spec: { idMerchant: number; fromMs: number; everyMs: number }): number {
		if (!(spec.everyMs > 0) || !Number.isFinite(spec.fromMs))
			throw new Error('a series needs a finite fromMs and everyMs > 0');
		const firstId = Math.max(this.state.nextId.cashout, 10_000_000);
		this.state.nextId.cashout = firstId + 1_000_000_000;
		this.state.cashoutSeries.set(spec.idMerchant, new CashoutSeries({ ...spec, firstId }));
		return firstId;
	}

	/** Creates the records of `merchantId`'s series due by `untilMs`; returns the series' size. */
	extendCashoutSeries(merchantId: number, untilMs: number): number {
		const series = this.state.cashoutSeries.get(merchantId);
		if (!series) throw new Error(`merchant ${merchantId} has no cashout series`);
		series.extend(untilMs);
		return series.count;
	}

	/** The compact cashout series of `merchantId`, if it has one. */
	cashoutSeriesOf(merchantId: number): CashoutSeries | undefined {
		return this.state.cashoutSeries.get(merchantId);
	}

	/** Whether a status write moves `lastChangeDate` (see SandboxControl.setLastChangeMoves). */
	setLastChangeMoves(moves: boolean): void {
		this.state.lastChangeMoves = moves;
	}

	control(): SandboxControl {
		return control(this);
	}
}
