/**
 * Seeded, deterministic dataset generator of the sandbox and the record builders used by the
 * control writers. Same seed + same `now` (+ same volumes) => byte-identical dataset.
 */
import { floorToSecond, toIsoSeconds } from './clock';
import { plainCopy } from './copy';
import {
	MS_PER_DAY,
	MS_PER_MINUTE,
	MS_PER_SECOND,
	SMALL_MERCHANT_VOLUME_FACTOR,
} from './constants';
import {
	COUNTRIES,
	COUNTRY_CODES,
	MERCHANTS,
	NOTE_TYPES,
	REJECTION_CODES,
	noteCategory,
	type CountryInfo,
	type MerchantInfo,
	type PaymentMethodInfo,
} from './reference';
import type {
	CashoutRecord,
	ChargebackRecord,
	DepositRecord,
	NoteRecord,
	RefundRecord,
	SettlementRecord,
} from './types';

/** mulberry32 PRNG: returns a function yielding uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Small helper around a seeded PRNG. */
export class Rng {
	private readonly next: () => number;

	constructor(seed: number) {
		this.next = mulberry32(seed);
	}

	/** Uniform float in [0, 1). */
	float(): number {
		return this.next();
	}

	/** Uniform integer in [min, max] (inclusive). */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	/** True with probability p. */
	chance(p: number): boolean {
		return this.next() < p;
	}

	/** A uniformly chosen element. */
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** An element chosen by weight. */
	weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): T {
		const total = pairs.reduce((sum, [, w]) => sum + w, 0);
		let r = this.next() * total;
		for (const [value, weight] of pairs) {
			r -= weight;
			if (r < 0) return value;
		}
		return pairs[pairs.length - 1][0];
	}

	/** Standard normal variate (Box-Muller). */
	normal(): number {
		const u = 1 - this.next();
		const v = this.next();
		return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
	}

	/** A string of `n` decimal digits. */
	digits(n: number): string {
		let s = '';
		for (let i = 0; i < n; i++) s += String(this.int(0, 9));
		return s;
	}

	/** A count around `rate` (uniform +-30%, fractional part resolved randomly). */
	count(rate: number): number {
		const x = rate * (0.7 + 0.6 * this.next());
		const whole = Math.floor(x);
		return whole + (this.next() < x - whole ? 1 : 0);
	}
}

/** Rounds to 2 decimals. */
export function round2(x: number): number {
	return Math.round(x * 100) / 100;
}

/** Internal wrapper of a stored record: visibility and ordering data live beside the record. */
export interface Entry<T> {
	id: number;
	merchantId: number;
	/** Creation (or note/refund `date`) in ms, whole seconds. */
	createdMs: number;
	/** Listed only when clock.now() >= visibleAt. */
	visibleAt: number;
	rec: T;
}

/** Payer data kept for GET /v3/deposits/{id}. */
export type PayerData = Record<string, unknown>;

/** Stored deposit. */
export interface DepositEntry extends Entry<DepositRecord> {
	hasVoucher: boolean;
	payer: PayerData;
	/** payment_type of the v3 view (the method's kind, or ALL when no method). */
	paymentType: string;
	/** Where status-change notifications go (creation body's notification_url, or control input); else the merchant's default. */
	notificationUrl?: string;
}

/** Stored cashout. */
export interface CashoutEntry extends Entry<CashoutRecord> {
	rejection?: { code: number; reason: string };
	/** Created through POST /v3/cashout (counts against the merchant's cashout funds). */
	viaApi?: boolean;
	/** Where status-change notifications go (the creation body's notification_url, or control input). */
	notificationUrl?: string;
	/** `comments` of the creation body (sent back in notifications). */
	comments?: string;
}

/** Stored refund. */
export interface RefundEntry extends Entry<RefundRecord> {
	/** Created through POST /v3/refunds. */
	viaApi?: boolean;
	/** `notification_url` of the creation body (kept; refunds send no notifications). */
	notificationUrl?: string;
}
/** Stored chargeback. */
export type ChargebackEntry = Entry<ChargebackRecord>;
/** Stored note. */
export type NoteEntry = Entry<NoteRecord>;
/** Stored settlement. */
export type SettlementEntry = Entry<SettlementRecord>;

/** The generated dataset; every array is sorted by creation time, ids increase with it. */
export interface Dataset {
	deposits: DepositEntry[];
	cashouts: CashoutEntry[];
	refunds: RefundEntry[];
	chargebacks: ChargebackEntry[];
	notes: NoteEntry[];
	settlements: SettlementEntry[];
}

/** Inputs of {@link generateDataset}. */
export interface GenerateOptions {
	seed: number;
	/** ms since epoch; history ends here. */
	now: number;
	days: number;
	depositsPerDay: number;
	cashoutsPerDay: number;
}

/** First id of each generated kind (later ids, incl. control-added ones, count up from the last). */
export const ID_BASE = {
	deposit: 300_001,
	cashout: 700_001,
	refund: 90_001,
	chargeback: 40_001,
	note: 20_001,
	settlement: 801,
	ticket: 50_001,
} as const;

const FIRST_NAMES = [
	'Ana',
	'Bruno',
	'Carla',
	'Diego',
	'Elena',
	'Felipe',
	'Gabriela',
	'Hugo',
	'Isabel',
	'João',
	'Karina',
	'Luis',
	'María',
	'Nicolás',
	'Olivia',
	'Pedro',
	'Rafael',
	'Sofía',
	'Tomás',
	'Valentina',
	'Ximena',
];
const LAST_NAMES = [
	'Silva',
	'Santos',
	'Oliveira',
	'García',
	'Martínez',
	'López',
	'Rodríguez',
	'González',
	'Pérez',
	'Sánchez',
	'Ramírez',
	'Torres',
	'Flores',
	'Rojas',
	'Díaz',
	'Castro',
];

/** A generated customer of a merchant. */
export interface Customer {
	clientId: string;
	idUser: string;
	country: string;
	document: string;
	documentType: string;
	firstName: string;
	lastName: string;
	email: string;
}

function asciiLower(s: string): string {
	return s
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}

function makeCustomers(rng: Rng, merchant: MerchantInfo, count: number): Customer[] {
	const customers: Customer[] = [];
	for (let i = 0; i < count; i++) {
		const country = rng.pick(COUNTRY_CODES);
		const info = COUNTRIES[country];
		const firstName = rng.pick(FIRST_NAMES);
		const lastName = rng.pick(LAST_NAMES);
		customers.push({
			clientId: `cus${merchant.id}${String(i + 1).padStart(5, '0')}`,
			idUser: String(rng.int(1_000_000, 9_999_999)),
			country,
			document: rng.digits(info.documentDigits),
			documentType: info.documentTypes[0],
			firstName,
			lastName,
			email: `${asciiLower(firstName)}.${asciiLower(lastName)}${i + 1}@example.com`,
		});
	}
	return customers;
}

function usdAmount(rng: Rng, median: number): number {
	const x = Math.exp(Math.log(median) + 0.9 * rng.normal());
	return round2(Math.min(5000, Math.max(1, x)));
}

/** Last-change time: final statuses move within 5 min..3 days, open ones within 2 minutes; never after now. */
function lastChange(rng: Rng, createdMs: number, nowMs: number, open: boolean): number {
	const delta = open ? rng.int(0, 120) * MS_PER_SECOND : rng.int(300, 3 * 86400) * MS_PER_SECOND;
	return Math.max(createdMs, floorToSecond(Math.min(nowMs, createdMs + delta)));
}

const DEPOSIT_STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
	['COMPLETED', 52],
	['APPROVED', 10],
	['PENDING', 10],
	['CANCELLED', 12],
	['DECLINED', 10],
	['CREATED', 6],
];
const CASHOUT_STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
	['COMPLETED', 48],
	['PENDING', 10],
	['ON_HOLD', 6],
	['DELIVERED', 8],
	['REJECTED', 10],
	['CANCELLED', 10],
	['DECLINED', 8],
];
const REFUND_STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
	['COMPLETED', 50],
	['PENDING', 20],
	['CANCELLED', 12],
	['WAITING_DETAILS', 14],
	['REJECTED', 4],
];
const CHARGEBACK_STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
	['COMPLETED', 40],
	['PENDING', 25],
	['CANCELLED', 20],
	['FAILED', 15],
];
const SETTLEMENT_STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
	['COMPLETED', 60],
	['PENDING', 20],
	['CANCELLED', 10],
	['FAILED', 10],
];
const OPEN_STATUSES = new Set(['PENDING', 'CREATED', 'ON_HOLD', 'WAITING_DETAILS']);

/** What deposit and cashout records are built from: the record, its merchant, times and status, its country and USD amount. */
interface PaymentBasics {
	id: number;
	merchant: MerchantInfo;
	createdMs: number;
	lastChangeMs: number;
	status: string;
	country: CountryInfo;
	usd: number;
	externalId: string;
	clientDocument: string;
}

/** Fields of a deposit record derived from country, method, USD amount and customer. */
export interface DepositBasics extends PaymentBasics {
	method: PaymentMethodInfo | undefined;
	clientId: string;
	idUser: string;
}

/** Builds a full deposit record (amount in USD, local amounts via the country's FX rate). */
export function buildDepositRecord(b: DepositBasics): DepositRecord {
	const local = round2(b.usd * b.country.fxRate);
	const taxed = b.country.code === 'BR';
	return {
		idDeposit: b.id,
		externalId: b.externalId,
		creationDate: toIsoSeconds(b.createdMs),
		countryName: b.country.name,
		country: b.country.code,
		paymentMethodName: b.method?.name ?? '',
		paymentMethodCode: b.method?.code ?? '',
		requestedPaymentMethod: b.method?.code ?? '',
		requestedPaymentMethodName: b.method?.name ?? '',
		clientId: b.clientId,
		clientDocument: b.clientDocument,
		amount: b.usd,
		currency: 'USD',
		balanceCurrency: 'USD',
		requestedAmount: local,
		requestedCurrency: b.country.currency,
		localAmount: local,
		localCurrency: b.country.currency,
		localCountryTaxFee: taxed ? round2(local * 0.0038) : 0,
		usdCountryTaxFee: taxed ? round2(b.usd * 0.0038) : 0,
		fee: round2(b.usd * 0.025 + 0.3),
		feeCurrency: 'USD',
		lastChangeDate: toIsoSeconds(b.lastChangeMs),
		status: b.status,
		idUser: b.idUser,
		flags: [],
		idMerchant: b.merchant.id,
		merchantName: b.merchant.name,
		allowInstallments: b.method?.kind === 'CREDIT_CARD',
		refundAttempted: false,
	};
}

/** Fields of a cashout record. */
export interface CashoutBasics extends PaymentBasics {
	reason: string;
	existVoucher: boolean;
}

/** Sandbox choice: fee (USD) of a cashout of `usd` USD: 1.5% + 0.50, 2 decimals. */
export function cashoutFee(usd: number): number {
	return round2(usd * 0.015 + 0.5);
}

/** Builds a full cashout record (amount/creditedAmount local, merchantAmount and fee in USD). */
export function buildCashoutRecord(b: CashoutBasics): CashoutRecord {
	const local = round2(b.usd * b.country.fxRate);
	return {
		idCashout: b.id,
		externalId: b.externalId,
		creationDate: toIsoSeconds(b.createdMs),
		country: b.country.code,
		currency: b.country.currency,
		amount: local,
		creditedCurrency: b.country.currency,
		creditedAmount: local,
		merchantCurrency: 'USD',
		merchantAmount: b.usd,
		feeCurrency: 'USD',
		fee: cashoutFee(b.usd),
		tax: b.country.code === 'BR' ? round2(b.usd * 0.0038) : 0,
		lastChangeDate: toIsoSeconds(b.lastChangeMs),
		status: b.status,
		clientDocument: b.clientDocument,
		flags: [],
		idMerchant: b.merchant.id,
		merchantName: b.merchant.name,
		reason: b.reason,
		existVoucher: b.existVoucher,
	};
}

/**
 * Sandbox choice (service rules §7: which methods need a bank account is not published): how a
 * deposit is refunded. Pix deposits back to the payer's Pix key (PIX), card deposits to the card
 * (CREDIT_CARD), every other method by bank transfer (BANK_TRANSFER: POST /v3/refunds needs `bank_account`).
 */
export function refundTypeOf(deposit: DepositRecord): 'PIX' | 'CREDIT_CARD' | 'BANK_TRANSFER' {
	if (deposit.paymentMethodCode === 'PX') return 'PIX';
	return deposit.allowInstallments ? 'CREDIT_CARD' : 'BANK_TRANSFER';
}

/** Builds a refund record of `deposit`. */
export function buildRefundRecord(
	id: number,
	deposit: DepositRecord,
	createdMs: number,
	lastChangeMs: number,
	status: string,
	partialFactor: number,
): RefundRecord {
	const method = deposit.paymentMethodCode;
	const type = refundTypeOf(deposit);
	const record: RefundRecord = {
		id,
		idBoleto: deposit.idDeposit,
		idMerchant: deposit.idMerchant,
		merchantName: deposit.merchantName,
		date: toIsoSeconds(createdMs),
		lastChangeDate: toIsoSeconds(lastChangeMs),
		country: deposit.country,
		paymentMethod: method,
		status,
		amount: round2(deposit.localAmount * partialFactor),
		refundCurrency: deposit.localCurrency,
		amountType: partialFactor < 1 ? 'PARTIAL' : 'FULL',
		type,
		apiVersion: 'v3',
		comments: '',
		allowPixApiRefund: method === 'PX',
	};
	if (type === 'BANK_TRANSFER') {
		const bank = COUNTRIES[deposit.country]?.banks[0];
		record.beneficiary = deposit.clientId;
		record.cpf = deposit.clientDocument;
		record.documentType = COUNTRIES[deposit.country]?.documentTypes[0] ?? '';
		record.bankName = bank?.name ?? '';
		record.bankCode = String(bank?.code ?? '');
		record.branchNumber = '0001';
		record.bankAccount = deposit.clientDocument.slice(0, 8);
		record.accountType = 'C';
	}
	return record;
}

/** Builds a chargeback record of `deposit`. */
export function buildChargebackRecord(
	id: number,
	deposit: DepositRecord,
	createdMs: number,
	lastChangeMs: number,
	status: string,
): ChargebackRecord {
	return {
		idChargeback: id,
		creationDate: toIsoSeconds(createdMs),
		lastChangeDate: toIsoSeconds(lastChangeMs),
		idMerchant: deposit.idMerchant,
		merchantName: deposit.merchantName,
		inMediation: status === 'PENDING',
		idDeposit: deposit.idDeposit,
		amount: deposit.localAmount,
		currency: deposit.localCurrency,
		merchantAmount: deposit.amount,
		merchantCurrency: 'USD',
		country: deposit.country,
		countryName: deposit.countryName,
		status,
		notified: status !== 'PENDING',
		externalId: deposit.externalId,
		comments: '',
	};
}

/** Builds a note record. */
export function buildNoteRecord(
	id: number,
	merchant: MerchantInfo,
	createdMs: number,
	type: string,
	amount: number,
	externalId: string,
): NoteRecord {
	return {
		id,
		externalId,
		idMerchant: merchant.id,
		merchantName: merchant.name,
		date: toIsoSeconds(createdMs),
		amount,
		currency: 'USD',
		type,
		description: `${type.toLowerCase().replace(/_/g, ' ')} #${id}`,
		category: noteCategory(type),
	};
}

/** Builds a settlement record (fee 0.5% + 25 USD). */
export function buildSettlementRecord(
	id: number,
	merchant: MerchantInfo,
	createdMs: number,
	type: string,
	requested: number,
	status: string,
): SettlementRecord {
	const fee = round2(requested * 0.005 + 25);
	return {
		id,
		creationDate: toIsoSeconds(createdMs),
		type,
		currency: 'USD',
		requestedAmount: requested,
		fee,
		amountToTransfer: round2(requested - fee),
		status,
		idMerchant: merchant.id,
		merchantName: merchant.name,
	};
}

/** Sorts drafts by time (stable) and gives them consecutive ids from `base`. */
function assignIds<T extends { createdMs: number; id: number }>(items: T[], base: number): void {
	items.sort((a, b) => a.createdMs - b.createdMs);
	items.forEach((item, i) => {
		item.id = base + i;
	});
}

/**
 * Generates the dataset of merchants 1001 ('full' volumes) and 2001 ('small' volumes); 1002 gets
 * nothing. Deposits and cashouts: `depositsPerDay` / `cashoutsPerDay` on average (+-30%);
 * refunds ~2/day, chargebacks ~0.5/day, notes ~1.5/day, settlements weekly (scaled for 2001).
 * Takes well under a second for the defaults (200 days, 30 + 20 per day).
 */
export function generateDataset(opts: GenerateOptions): Dataset {
	const rng = new Rng(opts.seed);
	const nowMs = floorToSecond(opts.now);
	const start = nowMs - opts.days * MS_PER_DAY;
	const generated = MERCHANTS.filter((m) => m.volume !== 'none');
	const customers = new Map<number, Customer[]>();
	for (const m of generated)
		customers.set(m.id, makeCustomers(rng, m, m.volume === 'full' ? 400 : 150));
	const factor = (m: MerchantInfo): number =>
		m.volume === 'full' ? 1 : SMALL_MERCHANT_VOLUME_FACTOR;
	const randomTimeOfDay = (day: number): number =>
		floorToSecond(start + day * MS_PER_DAY + rng.int(0, 86399) * MS_PER_SECOND);

	/**
	 * Calls `make` for each record of a kind made `perDay` times a day on average: merchant after
	 * merchant, day after day, its creation time and customer drawn in that order; `seq` counts the
	 * merchant's records from 1.
	 */
	const eachRecord = (
		perDay: number,
		make: (merchant: MerchantInfo, seq: number, createdMs: number, customer: Customer) => void,
	): void => {
		for (const merchant of generated) {
			let seq = 0;
			const pool = customers.get(merchant.id) ?? [];
			for (let day = 0; day < opts.days; day++) {
				const n = rng.count(perDay * factor(merchant));
				for (let i = 0; i < n; i++) {
					const createdMs = randomTimeOfDay(day);
					make(merchant, ++seq, createdMs, rng.pick(pool));
				}
			}
		}
	};

	// Deposits.
	type DepositDraft = { id: number; createdMs: number; build: (id: number) => DepositEntry };
	const depositDrafts: DepositDraft[] = [];
	eachRecord(opts.depositsPerDay, (merchant, seq, createdMs, customer) => {
		const country = COUNTRIES[customer.country];
		const method = rng.pick(country.methods);
		const status = rng.weighted(DEPOSIT_STATUS_WEIGHTS);
		const lastChangeMs = lastChange(rng, createdMs, nowMs, OPEN_STATUSES.has(status));
		const usd = usdAmount(rng, 40);
		const externalId = `inv-${merchant.id}-${String(seq).padStart(6, '0')}`;
		depositDrafts.push({
			id: 0,
			createdMs,
			build: (id) => ({
				id,
				merchantId: merchant.id,
				createdMs,
				visibleAt: createdMs,
				hasVoucher: method.hasVoucher,
				paymentType: method.kind,
				payer: {
					id: customer.clientId,
					document: customer.document,
					document_type: customer.documentType,
					email: customer.email,
					first_name: customer.firstName,
					last_name: customer.lastName,
				},
				rec: buildDepositRecord({
					id,
					merchant,
					createdMs,
					lastChangeMs,
					status,
					country,
					method,
					usd,
					externalId,
					clientId: customer.clientId,
					clientDocument: customer.document,
					idUser: customer.idUser,
				}),
			}),
		});
	});
	assignIds(depositDrafts, ID_BASE.deposit);
	const deposits = depositDrafts.map((d) => d.build(d.id));

	// Cashouts.
	const cashouts: CashoutEntry[] = [];
	eachRecord(opts.cashoutsPerDay, (merchant, seq, createdMs, customer) => {
		const status = rng.weighted(CASHOUT_STATUS_WEIGHTS);
		const rejection = status === 'REJECTED' ? rng.pick(REJECTION_CODES) : undefined;
		const lastChangeMs = lastChange(rng, createdMs, nowMs, OPEN_STATUSES.has(status));
		const usd = usdAmount(rng, 20);
		const existVoucher = status === 'COMPLETED' && rng.chance(0.6);
		const entry: CashoutEntry = {
			id: 0,
			merchantId: merchant.id,
			createdMs,
			visibleAt: createdMs,
			rec: buildCashoutRecord({
				id: 0,
				merchant,
				createdMs,
				lastChangeMs,
				status,
				country: COUNTRIES[customer.country],
				usd,
				externalId: `co-${merchant.id}-${String(seq).padStart(6, '0')}`,
				clientDocument: customer.document,
				reason: rejection?.reason ?? '',
				existVoucher,
			}),
		};
		if (rejection) entry.rejection = { ...rejection };
		cashouts.push(entry);
	});
	assignIds(cashouts, ID_BASE.cashout);
	for (const c of cashouts) c.rec.idCashout = c.id;

	// Refunds and chargebacks reference earlier COMPLETED deposits of the same merchant.
	const refunds: RefundEntry[] = [];
	const chargebacks: ChargebackEntry[] = [];
	const notes: NoteEntry[] = [];
	const settlements: SettlementEntry[] = [];
	for (const merchant of generated) {
		const completed = deposits.filter(
			(d) => d.merchantId === merchant.id && d.rec.status === 'COMPLETED',
		);
		if (completed.length === 0) continue;
		const days = opts.days;
		const refundCount = rng.count(2 * days * factor(merchant));
		for (let i = 0; i < refundCount; i++) {
			const dep = rng.pick(completed);
			const createdMs = floorToSecond(dep.createdMs + rng.int(1, 10 * 86400) * MS_PER_SECOND);
			if (createdMs > nowMs) continue;
			const status = rng.weighted(REFUND_STATUS_WEIGHTS);
			const partial = rng.chance(0.25) ? rng.int(20, 90) / 100 : 1;
			dep.rec.refundAttempted = true;
			refunds.push({
				id: 0,
				merchantId: merchant.id,
				createdMs,
				visibleAt: createdMs,
				rec: buildRefundRecord(
					0,
					dep.rec,
					createdMs,
					lastChange(rng, createdMs, nowMs, OPEN_STATUSES.has(status)),
					status,
					partial,
				),
			});
		}
		const chargebackCount = rng.count(0.5 * days * factor(merchant));
		for (let i = 0; i < chargebackCount; i++) {
			const dep = rng.pick(completed);
			const createdMs = floorToSecond(dep.createdMs + rng.int(2, 30 * 86400) * MS_PER_SECOND);
			if (createdMs > nowMs) continue;
			const status = rng.weighted(CHARGEBACK_STATUS_WEIGHTS);
			chargebacks.push({
				id: 0,
				merchantId: merchant.id,
				createdMs,
				visibleAt: createdMs,
				rec: buildChargebackRecord(
					0,
					dep.rec,
					createdMs,
					lastChange(rng, createdMs, nowMs, OPEN_STATUSES.has(status)),
					status,
				),
			});
		}
		for (let day = 0; day < days; day++) {
			const n = rng.count(1.5 * factor(merchant));
			for (let i = 0; i < n; i++) {
				const createdMs = randomTimeOfDay(day);
				const type = rng.pick(NOTE_TYPES);
				const amount = usdAmount(rng, 60);
				const externalId = rng.chance(0.5) ? '' : `note-${merchant.id}-${day}-${i}`;
				notes.push({
					id: 0,
					merchantId: merchant.id,
					createdMs,
					visibleAt: createdMs,
					rec: buildNoteRecord(0, merchant, createdMs, type, amount, externalId),
				});
			}
			if (day % 7 === 6) {
				const createdMs = floorToSecond(
					start + day * MS_PER_DAY + 10 * 60 * MS_PER_MINUTE + rng.int(0, 3600) * MS_PER_SECOND,
				);
				const requested = round2(rng.int(1000, 3000) * factor(merchant) + rng.int(0, 99) / 100);
				const type = rng.chance(0.3) ? 'MANUAL' : 'AUTOMATIC';
				const status = rng.weighted(SETTLEMENT_STATUS_WEIGHTS);
				settlements.push({
					id: 0,
					merchantId: merchant.id,
					createdMs,
					visibleAt: createdMs,
					rec: buildSettlementRecord(0, merchant, createdMs, type, requested, status),
				});
			}
		}
	}
	assignIds(refunds, ID_BASE.refund);
	for (const r of refunds) r.rec.id = r.id;
	assignIds(chargebacks, ID_BASE.chargeback);
	for (const c of chargebacks) c.rec.idChargeback = c.id;
	assignIds(notes, ID_BASE.note);
	for (const n of notes) {
		n.rec.id = n.id;
		n.rec.description = `${n.rec.type.toLowerCase().replace(/_/g, ' ')} #${n.id}`;
	}
	assignIds(settlements, ID_BASE.settlement);
	for (const s of settlements) s.rec.id = s.id;

	return { deposits, cashouts, refunds, chargebacks, notes, settlements };
}

/** Datasets generated so far in this module registry (a jest test file), by options other than `now`. */
const generatedDatasets = new Map<string, { nowMs: number; dataset: Dataset }>();

/**
 * {@link generateDataset}'s dataset, copied from the one generated earlier with the same options
 * and moved to this `now`: every time in it is `now` less a seeded offset in whole seconds, so a
 * move is the same dataset (test/sandbox/data.spec.ts checks it). A test file starts up to a
 * dozen sandboxes of the same options; a moved copy takes about half the time of generating one.
 */
export function seededDataset(opts: GenerateOptions): Dataset {
	const nowMs = floorToSecond(opts.now);
	const key = [opts.seed, opts.days, opts.depositsPerDay, opts.cashoutsPerDay].join(' ');
	let generated = generatedDatasets.get(key);
	if (!generated) {
		generated = { nowMs, dataset: generateDataset(opts) };
		generatedDatasets.set(key, generated);
	}
	return movedDataset(generated.dataset, nowMs - generated.nowMs);
}

/** The fields of the records that hold a time (`yyyy-MM-ddTHH:mm:ssZ`). */
const TIME_FIELDS = ['creationDate', 'date', 'lastChangeDate'];
/** Read once (a global read costs more in jest's per-file context); any Date parses the same. */
const parseTime = Date.parse;

/** A deep copy of `dataset` with every time `deltaMs` later (whole seconds). */
function movedDataset(dataset: Dataset, deltaMs: number): Dataset {
	const moved = <E extends Entry<object>>(entries: E[]): E[] =>
		entries.map((original) => {
			const entry = plainCopy(original);
			if (deltaMs === 0) return entry;
			entry.createdMs += deltaMs;
			entry.visibleAt += deltaMs;
			const rec = entry.rec as Record<string, unknown>;
			for (const field of TIME_FIELDS) {
				const time = rec[field];
				if (typeof time === 'string') rec[field] = toIsoSeconds(parseTime(time) + deltaMs);
			}
			return entry;
		});
	return {
		deposits: moved(dataset.deposits),
		cashouts: moved(dataset.cashouts),
		refunds: moved(dataset.refunds),
		chargebacks: moved(dataset.chargebacks),
		notes: moved(dataset.notes),
		settlements: moved(dataset.settlements),
	};
}
