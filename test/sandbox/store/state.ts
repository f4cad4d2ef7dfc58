/**
 * The state object every part of the store works on: its construction from the seeded dataset, id
 * allocation, and the time stamps of writes.
 */
import { ManualClock, floorToSecond, parseTimestamp, toIsoSeconds } from '../clock';
import {
	ID_BASE,
	seededDataset,
	type CashoutEntry,
	type ChargebackEntry,
	type DepositEntry,
	type Entry,
	type NoteEntry,
	type RefundEntry,
	type SettlementEntry,
} from '../data';
import { NotificationCenter } from '../notifications';
import type { CashoutSeries } from './series';
import { merchantById, type MerchantInfo } from '../reference';
import type { CreatedCashout, CreatedDeposit, CreatedRefund, TicketRecord } from '../types';
import type { Session } from './sessions';

/** Options after defaults were applied (see SandboxOptions). */
export interface ResolvedOptions {
	port: number;
	seed: number;
	now: number;
	days: number;
	depositsPerDay: number;
	cashoutsPerDay: number;
	flagReviewMinAgeMs: number;
	statusParamName: 'Status' | 'status';
	pluralRefundChargebackPaths: boolean;
	latencyMs: number;
	cashoutStatusPair: 'both' | 'cashout_id';
}

export type IdKind = keyof typeof ID_BASE;

/** The mutable state of one sandbox, shared by the parts of the store. */
export interface StoreState {
	readonly options: ResolvedOptions;
	readonly clock: ManualClock;
	/**
	 * Whether a status write moves the record's `lastChangeDate` to clock now (the default, service
	 * rules §3.4); off plays a service that leaves it where it was.
	 */
	lastChangeMoves: boolean;
	/** Merchants whose cashouts are a compact series (./series.ts), by merchant id. */
	readonly cashoutSeries: Map<number, CashoutSeries>;
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
	/** Configured cashout funds (USD) per merchant; absent = DEFAULT_CASHOUT_FUNDS_USD. */
	readonly cashoutFundsUsd: Map<number, number>;
	/** Balances a merchant holds besides its USD one: available amount per currency (balance.ts). */
	readonly localBalances: Map<number, Map<string, number>>;
	/** Status-change notifications (service rules §10). */
	readonly notifier: NotificationCenter;
	/** Merchant panel default notification URL per merchant (deposits without their own). */
	readonly defaultNotificationUrls: Map<number, string>;
	readonly sessions: Map<string, Session>;
	readonly idempotencyKeys: Map<number, Set<string>>;
	readonly byId: {
		deposit: Map<number, DepositEntry>;
		cashout: Map<number, CashoutEntry>;
		refund: Map<number, RefundEntry>;
		chargeback: Map<number, ChargebackEntry>;
		note: Map<number, NoteEntry>;
		settlement: Map<number, SettlementEntry>;
	};
	readonly nextId: Record<IdKind, number>;
}

/** The state of a new sandbox: the seeded dataset, indexed by id; notifications follow the clock. */
export function createState(options: ResolvedOptions, clock: ManualClock): StoreState {
	const data = seededDataset(options);
	const state: StoreState = {
		options,
		clock,
		deposits: data.deposits,
		cashouts: data.cashouts,
		refunds: data.refunds,
		chargebacks: data.chargebacks,
		notes: data.notes,
		settlements: data.settlements,
		tickets: new Map<number, TicketRecord>(),
		createdDeposits: [],
		createdCashouts: [],
		createdRefunds: [],
		cashoutFundsUsd: new Map<number, number>(),
		localBalances: new Map<number, Map<string, number>>(),
		notifier: new NotificationCenter(clock),
		defaultNotificationUrls: new Map<number, string>(),
		sessions: new Map<string, Session>(),
		idempotencyKeys: new Map<number, Set<string>>(),
		byId: {
			deposit: new Map<number, DepositEntry>(),
			cashout: new Map<number, CashoutEntry>(),
			refund: new Map<number, RefundEntry>(),
			chargeback: new Map<number, ChargebackEntry>(),
			note: new Map<number, NoteEntry>(),
			settlement: new Map<number, SettlementEntry>(),
		},
		nextId: { ...ID_BASE },
		lastChangeMoves: true,
		cashoutSeries: new Map<number, CashoutSeries>(),
	};
	index(state, 'deposit', state.deposits);
	index(state, 'cashout', state.cashouts);
	index(state, 'refund', state.refunds);
	index(state, 'chargeback', state.chargebacks);
	index(state, 'note', state.notes);
	index(state, 'settlement', state.settlements);
	clock.onChange((now) => state.notifier.onClockChange(now));
	return state;
}

function index<K extends keyof StoreState['byId']>(
	state: StoreState,
	kind: K,
	entries: Array<Entry<unknown>>,
): void {
	const map = state.byId[kind] as Map<number, Entry<unknown>>;
	for (const e of entries) {
		map.set(e.id, e);
		if (e.id >= state.nextId[kind]) state.nextId[kind] = e.id + 1;
	}
}

/** Allocates the next id of a kind, or reserves `requested` (throws when taken). */
export function allocateId(state: StoreState, kind: IdKind, requested?: number): number {
	if (requested === undefined) return state.nextId[kind]++;
	if (!Number.isInteger(requested) || requested <= 0)
		throw new Error(`invalid ${kind} id ${requested}`);
	const taken = kind === 'ticket' ? state.tickets.has(requested) : state.byId[kind].has(requested);
	if (taken) throw new Error(`${kind} id ${requested} already exists`);
	if (requested >= state.nextId[kind]) state.nextId[kind] = requested + 1;
	return requested;
}

/** Clock now floored to the second (creation dates have whole seconds). */
export function nowSeconds(state: StoreState): number {
	return floorToSecond(state.clock.now());
}

/** Creation time (ms, whole seconds) of a written record: its `creationDate`, else clock now. */
export function creation(state: StoreState, creationDate: string | undefined): number {
	return creationDate === undefined
		? nowSeconds(state)
		: floorToSecond(parseTimestamp(creationDate));
}

/** `lastChangeDate` of a write: clock now, never before the record's creation. */
export function lastChangeIso(state: StoreState, createdMs: number): string {
	return toIsoSeconds(Math.max(createdMs, nowSeconds(state)));
}

/** Stamps a status write on `rec`: `lastChangeDate` moves to clock now, unless `lastChangeMoves` is off. */
export function touch(
	state: StoreState,
	entry: { createdMs: number; rec: { lastChangeDate?: string } },
): void {
	if (state.lastChangeMoves) entry.rec.lastChangeDate = lastChangeIso(state, entry.createdMs);
}

/** The list of the state that holds each kind of record. */
const LIST_OF = {
	deposit: 'deposits',
	cashout: 'cashouts',
	refund: 'refunds',
	chargeback: 'chargebacks',
	note: 'notes',
	settlement: 'settlements',
} as const;

/** A kind of record the reporting lists show. */
export type RecordKind = keyof typeof LIST_OF;

/**
 * What adding a `kind` record of merchant `idMerchant` starts with: the merchant (throws for an
 * unknown MID), the creation time from `date` (else now) and its id (`requested`, else the next).
 */
export function startRecord(
	state: StoreState,
	kind: RecordKind,
	idMerchant: number,
	date: string | undefined,
	requested: number | undefined,
): { merchant: MerchantInfo; createdMs: number; id: number } {
	const merchant = merchantById(idMerchant);
	const createdMs = creation(state, date);
	return { merchant, createdMs, id: allocateId(state, kind, requested) };
}

/**
 * The entry of record `rec` (`id`, merchant `merchantId`, created at `createdMs`), listed from
 * `visibleAt` (default: its creation).
 */
export function newEntry<T>(
	id: number,
	merchantId: number,
	createdMs: number,
	visibleAt: number | undefined,
	rec: T,
): Entry<T> {
	return { id, merchantId, createdMs, visibleAt: visibleAt ?? createdMs, rec };
}

/** Keeps `entry` in the list of `kind`, indexed by its id; returns it. */
export function keepEntry<E extends Entry<unknown>>(
	state: StoreState,
	kind: RecordKind,
	entry: E,
): E {
	(state[LIST_OF[kind]] as Array<Entry<unknown>>).push(entry);
	(state.byId[kind] as Map<number, Entry<unknown>>).set(entry.id, entry);
	return entry;
}

/** The entry of `id` in `map`; throws `unknown <kind> <id>` when absent. */
export function requireEntry<T>(map: Map<number, T>, kind: string, id: number): T {
	const entry = map.get(id);
	if (!entry) throw new Error(`unknown ${kind} ${id}`);
	return entry;
}
