/**
 * Cashouts: the merchants' cashout funds (service rules §6.2, code 514), lookup, creation by control
 * or the cashout API, status changes and the bank side of the state machine (service rules §6.1).
 */
import { toIsoSeconds } from '../clock';
import { DEFAULT_CASHOUT_FUNDS_USD } from '../constants';
import { buildCashoutRecord, type CashoutEntry } from '../data';
import { COUNTRIES, DEFAULT_REJECTION, merchantById } from '../reference';
import type { AddCashoutInput } from '../types';
import { notifyCashout } from './notifications';
import {
	keepEntry,
	lastChangeIso,
	newEntry,
	startRecord,
	requireEntry,
	touch,
	type StoreState,
} from './state';

/** Cashout statuses whose amount no longer counts against the merchant's cashout funds. */
const RELEASED_CASHOUT_STATUSES: ReadonlySet<string> = new Set([
	'CANCELLED',
	'REJECTED',
	'DECLINED',
]);

// ---- cashout funds (service rules §6.2, code 514) ----

/** Funds (USD) left for new cashouts of `merchantId`: configured funds minus amount + fee of its live API-created cashouts. */
export function cashoutFunds(state: StoreState, merchantId: number): number {
	merchantById(merchantId);
	const configured = state.cashoutFundsUsd.get(merchantId) ?? DEFAULT_CASHOUT_FUNDS_USD;
	const used = state.cashouts
		.filter(
			(c) =>
				c.viaApi && c.merchantId === merchantId && !RELEASED_CASHOUT_STATUSES.has(c.rec.status),
		)
		.reduce((sum, c) => sum + c.rec.merchantAmount + c.rec.fee, 0);
	return Math.round((configured - used) * 100) / 100;
}

/** Sets the configured cashout funds of `merchantId` (USD, finite, >= 0); throws otherwise. */
export function setCashoutFunds(state: StoreState, merchantId: number, usd: number): void {
	merchantById(merchantId);
	if (!Number.isFinite(usd) || usd < 0)
		throw new Error(`cashout funds must be a non-negative number, got ${usd}`);
	state.cashoutFundsUsd.set(merchantId, usd);
}

/** A cashout by id (any merchant, visible or not). */
export function cashout(state: StoreState, id: number): CashoutEntry | undefined {
	return state.byId.cashout.get(id);
}

/** Adds a cashout (defaults: BR, 50 USD, PENDING or ON_HOLD with `onHold`, creation = clock now). */
export function addCashout(state: StoreState, p: AddCashoutInput): CashoutEntry {
	const {
		idMerchant,
		visibleAt,
		onHold,
		rejectionCode,
		rejectionReason,
		notificationUrl,
		...fields
	} = p;
	const { merchant, createdMs, id } = startRecord(
		state,
		'cashout',
		idMerchant,
		fields.creationDate,
		fields.idCashout,
	);
	const country = COUNTRIES[fields.country ?? 'BR'] ?? COUNTRIES.BR;
	const base = buildCashoutRecord({
		id,
		merchant,
		createdMs,
		lastChangeMs: createdMs,
		status: onHold ? 'ON_HOLD' : 'PENDING',
		country,
		usd: fields.merchantAmount ?? 50,
		externalId: `co-${idMerchant}-x${id}`,
		clientDocument: '52998224725',
		reason: '',
		existVoucher: false,
	});
	const rec = {
		...base,
		...fields,
		idCashout: id,
		idMerchant,
		merchantName: merchant.name,
		creationDate: toIsoSeconds(createdMs),
		lastChangeDate: lastChangeIso(state, createdMs),
	};
	const entry: CashoutEntry = newEntry(id, idMerchant, createdMs, visibleAt, rec);
	if (notificationUrl !== undefined) entry.notificationUrl = notificationUrl;
	if (rejectionCode !== undefined || rejectionReason !== undefined) {
		entry.rejection = { code: rejectionCode ?? 0, reason: rejectionReason ?? '' };
		if (!fields.reason) rec.reason = entry.rejection.reason;
	}
	return keepEntry(state, 'cashout', entry);
}

/**
 * Sets a cashout's status and lastChangeDate (rejection kept only for REJECTED). A change of status
 * queues a notification when the cashout has a notification URL.
 */
export function setCashoutStatus(
	state: StoreState,
	entry: CashoutEntry,
	status: string,
	rejection?: { code: number; reason: string },
): void {
	const previous = entry.rec.status;
	entry.rec.status = status;
	touch(state, entry);
	if (status === 'REJECTED') {
		if (rejection) {
			entry.rejection = { ...rejection };
			entry.rec.reason = rejection.reason;
		}
	} else if (entry.rejection) {
		delete entry.rejection;
		entry.rec.reason = '';
	}
	if (status !== previous) notifyCashout(state, entry);
}

/** Bank side of the cashout state machine (service rules §6.1). */
export function advanceCashout(
	state: StoreState,
	id: number,
	to: 'DELIVERED' | 'COMPLETED' | 'REJECTED',
	rejection?: { code: number; reason: string },
): void {
	const entry = requireEntry(state.byId.cashout, 'cashout', id);
	const from = entry.rec.status;
	const allowed: Record<string, readonly string[]> = {
		DELIVERED: ['PENDING'],
		COMPLETED: ['DELIVERED'],
		REJECTED: ['DELIVERED', 'COMPLETED'],
	};
	if (!(allowed[to] ?? []).includes(from))
		throw new Error(`cashout ${id} cannot move from ${from} to ${to}`);
	setCashoutStatus(
		state,
		entry,
		to,
		to === 'REJECTED' ? (rejection ?? { ...DEFAULT_REJECTION }) : undefined,
	);
}
