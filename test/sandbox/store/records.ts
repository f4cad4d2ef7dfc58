/**
 * Chargebacks, notes and settlements: the records only the reporting lists show (service rules §3),
 * added by control.
 */
import { toIsoSeconds } from '../clock';
import {
	buildChargebackRecord,
	buildNoteRecord,
	buildSettlementRecord,
	type ChargebackEntry,
	type NoteEntry,
	type SettlementEntry,
} from '../data';
import { noteCategory } from '../reference';
import type { AddChargebackInput, AddNoteInput, AddSettlementInput } from '../types';
import { anyDepositOf } from './deposits';
import { keepEntry, lastChangeIso, newEntry, startRecord, type StoreState } from './state';

/** Adds a chargeback (defaults from the deposit `idDeposit`, else a deposit of the merchant; PENDING). */
export function addChargeback(state: StoreState, p: AddChargebackInput): ChargebackEntry {
	const { idMerchant, visibleAt, ...fields } = p;
	const { merchant, createdMs, id } = startRecord(
		state,
		'chargeback',
		idMerchant,
		fields.creationDate,
		fields.idChargeback,
	);
	const base = buildChargebackRecord(
		id,
		anyDepositOf(state, idMerchant, fields.idDeposit),
		createdMs,
		createdMs,
		'PENDING',
	);
	const rec = {
		...base,
		...fields,
		idChargeback: id,
		idMerchant,
		merchantName: merchant.name,
		creationDate: toIsoSeconds(createdMs),
		lastChangeDate: lastChangeIso(state, createdMs),
	};
	return keepEntry(state, 'chargeback', newEntry(id, idMerchant, createdMs, visibleAt, rec));
}

/** Adds a note (defaults: GENERIC_CREDIT_NOTE, 10 USD; category derived from the type). */
export function addNote(state: StoreState, p: AddNoteInput): NoteEntry {
	const { idMerchant, visibleAt, ...fields } = p;
	const { merchant, createdMs, id } = startRecord(
		state,
		'note',
		idMerchant,
		fields.date,
		fields.id,
	);
	const type = fields.type ?? 'GENERIC_CREDIT_NOTE';
	const base = buildNoteRecord(id, merchant, createdMs, type, fields.amount ?? 10, '');
	const rec = {
		...base,
		category: noteCategory(type),
		...fields,
		id,
		idMerchant,
		merchantName: merchant.name,
		date: toIsoSeconds(createdMs),
	};
	return keepEntry(state, 'note', newEntry(id, idMerchant, createdMs, visibleAt, rec));
}

/** Adds a settlement (defaults: MANUAL, 1000 USD, PENDING). */
export function addSettlement(state: StoreState, p: AddSettlementInput): SettlementEntry {
	const { idMerchant, visibleAt, ...fields } = p;
	const { merchant, createdMs, id } = startRecord(
		state,
		'settlement',
		idMerchant,
		fields.creationDate,
		fields.id,
	);
	const base = buildSettlementRecord(
		id,
		merchant,
		createdMs,
		'MANUAL',
		fields.requestedAmount ?? 1000,
		'PENDING',
	);
	const rec = {
		...base,
		...fields,
		id,
		idMerchant,
		merchantName: merchant.name,
		creationDate: toIsoSeconds(createdMs),
	};
	return keepEntry(state, 'settlement', newEntry(id, idMerchant, createdMs, visibleAt, rec));
}
