/** Deposits: lookup, creation by control or the deposit API, status changes (service rules §5). */
import { toIsoSeconds } from '../clock';
import { buildDepositRecord, type DepositEntry } from '../data';
import { COUNTRIES, findMethod, merchantById } from '../reference';
import type { AddDepositInput } from '../types';
import { notifyDeposit } from './notifications';
import {
	keepEntry,
	lastChangeIso,
	newEntry,
	startRecord,
	nowSeconds,
	touch,
	type StoreState,
} from './state';

/** A deposit by id (any merchant, visible or not). */
export function deposit(state: StoreState, id: number): DepositEntry | undefined {
	return state.byId.deposit.get(id);
}

/** Adds a deposit (defaults: BR, first method, 100 USD, PENDING, creation = clock now). */
export function addDeposit(
	state: StoreState,
	p: AddDepositInput,
	payer?: Record<string, unknown>,
	paymentType?: string,
): DepositEntry {
	const { idMerchant, visibleAt, hasVoucher, notificationUrl, ...fields } = p;
	const { merchant, createdMs, id } = startRecord(
		state,
		'deposit',
		idMerchant,
		fields.creationDate,
		fields.idDeposit,
	);
	const country = COUNTRIES[fields.country ?? 'BR'] ?? COUNTRIES.BR;
	const method = findMethod(country.code, fields.paymentMethodCode ?? country.methods[0].code);
	const base = buildDepositRecord({
		id,
		merchant,
		createdMs,
		lastChangeMs: createdMs,
		status: 'PENDING',
		country,
		method: fields.paymentMethodCode === '' ? undefined : (method ?? country.methods[0]),
		usd: fields.amount ?? 100,
		externalId: `inv-${idMerchant}-x${id}`,
		clientId: 'cus-sandbox',
		clientDocument: '52998224725',
		idUser: '1000001',
	});
	const rec = {
		...base,
		...fields,
		idDeposit: id,
		idMerchant,
		merchantName: merchant.name,
		creationDate: toIsoSeconds(createdMs),
		lastChangeDate: lastChangeIso(state, createdMs),
	};
	const entry: DepositEntry = {
		...newEntry(id, idMerchant, createdMs, visibleAt, rec),
		hasVoucher: hasVoucher ?? method?.hasVoucher ?? false,
		paymentType: paymentType ?? method?.kind ?? 'ALL',
		payer: payer ?? { id: rec.clientId, document: rec.clientDocument },
	};
	if (notificationUrl !== undefined) entry.notificationUrl = notificationUrl;
	return keepEntry(state, 'deposit', entry);
}

/**
 * The deposit record a refund or chargeback takes its defaults from: deposit `depositId`, else a
 * deposit of the merchant, else a COMPLETED template.
 */
export function anyDepositOf(
	state: StoreState,
	merchantId: number,
	depositId: number | undefined,
): DepositEntry['rec'] {
	if (depositId !== undefined) {
		const d = deposit(state, depositId);
		if (d) return d.rec;
	}
	const own = state.deposits.find((d) => d.merchantId === merchantId);
	if (own) return own.rec;
	return addDepositTemplate(state, merchantId);
}

function addDepositTemplate(state: StoreState, merchantId: number): DepositEntry['rec'] {
	const merchant = merchantById(merchantId);
	return buildDepositRecord({
		id: 0,
		merchant,
		createdMs: nowSeconds(state),
		lastChangeMs: nowSeconds(state),
		status: 'COMPLETED',
		country: COUNTRIES.BR,
		method: COUNTRIES.BR.methods[0],
		usd: 100,
		externalId: '',
		clientId: 'cus-sandbox',
		clientDocument: '52998224725',
		idUser: '1000001',
	});
}

/** Sets a deposit's status and lastChangeDate; a change of status queues a notification (see {@link notifyDeposit}). */
export function setDepositStatus(state: StoreState, entry: DepositEntry, status: string): void {
	const previous = entry.rec.status;
	entry.rec.status = status;
	touch(state, entry);
	if (status !== previous) notifyDeposit(state, entry);
}
