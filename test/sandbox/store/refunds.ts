/**
 * Refunds: lookup, the refundable remainder of a deposit, creation by control or the refund API, and
 * the refund state machine (service rules §7).
 */
import { toIsoSeconds } from '../clock';
import { buildRefundRecord, type DepositEntry, type RefundEntry } from '../data';
import type { AddRefundInput, RefundAdvanceTarget } from '../types';
import { anyDepositOf } from './deposits';
import {
	keepEntry,
	lastChangeIso,
	newEntry,
	startRecord,
	requireEntry,
	touch,
	type StoreState,
} from './state';

/** Refund statuses whose amount goes back to the refundable remainder of the deposit. */
const DEAD_REFUND_STATUSES: ReadonlySet<string> = new Set(['CANCELLED', 'REJECTED']);

/** Allowed refund moves (service rules §7): target -> stored statuses it may come from. */
const REFUND_MOVES: Readonly<Record<RefundAdvanceTarget, readonly string[]>> = {
	DELIVERED: ['PENDING'],
	COMPLETED: ['DELIVERED'],
	REJECTED: ['PENDING', 'DELIVERED'],
	CANCELLED: ['PENDING', 'WAITING_DETAILS'],
	INCORRECT_DETAILS: ['PENDING'],
	PENDING: ['WAITING_DETAILS'],
};

/** A refund by id (any merchant, visible or not). */
export function refund(state: StoreState, id: number): RefundEntry | undefined {
	return state.byId.refund.get(id);
}

/**
 * Local amount of `deposit` still refundable: its localAmount minus the amounts of its refunds that
 * are not CANCELLED or REJECTED (never below 0), computed in cents.
 */
export function refundableCents(state: StoreState, deposit: DepositEntry): number {
	const refunded = state.refunds
		.filter((r) => r.rec.idBoleto === deposit.id && !DEAD_REFUND_STATUSES.has(r.rec.status))
		.reduce((sum, r) => sum + Math.round(r.rec.amount * 100), 0);
	return Math.max(0, Math.round(deposit.rec.localAmount * 100) - refunded);
}

/** Adds a refund (defaults from the deposit `idBoleto`, else a deposit of the merchant; PENDING, FULL). */
export function addRefund(state: StoreState, p: AddRefundInput): RefundEntry {
	const { idMerchant, visibleAt, ...fields } = p;
	const { merchant, createdMs, id } = startRecord(
		state,
		'refund',
		idMerchant,
		fields.date,
		fields.id,
	);
	const base = buildRefundRecord(
		id,
		anyDepositOf(state, idMerchant, fields.idBoleto),
		createdMs,
		createdMs,
		'PENDING',
		1,
	);
	const rec = {
		...base,
		...fields,
		id,
		idMerchant,
		merchantName: merchant.name,
		date: toIsoSeconds(createdMs),
		lastChangeDate: lastChangeIso(state, createdMs),
	};
	return keepEntry(state, 'refund', newEntry(id, idMerchant, createdMs, visibleAt, rec));
}

/**
 * Refund state machine (service rules §7, see {@link REFUND_MOVES}). INCORRECT_DETAILS is stored as
 * the reporting status WAITING_DETAILS. Throws for an unknown id or a refused move.
 */
export function advanceRefund(state: StoreState, id: number, to: RefundAdvanceTarget): void {
	const entry = requireEntry(state.byId.refund, 'refund', id);
	const from = entry.rec.status;
	const allowed = REFUND_MOVES[to];
	if (!allowed) throw new Error(`unknown refund status ${String(to)}`);
	if (!allowed.includes(from)) throw new Error(`refund ${id} cannot move from ${from} to ${to}`);
	entry.rec.status = to === 'INCORRECT_DETAILS' ? 'WAITING_DETAILS' : to;
	touch(state, entry);
}
