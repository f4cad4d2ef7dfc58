/**
 * Reconciling the daily balance report with the lists (service rules §3.6): the rule that says
 * which records each term of the report sums, the per-day sums of the lists as their records
 * stream by, the report's rows read and checked, and the comparison of one day and currency.
 * Pure: Balance → Reconcile (actions/balance/reconcile.operation.ts) feeds it the records of each
 * window read to its end and the report's rows.
 *
 * The service publishes the report's fields but no formula. The rule here is inferred from the
 * field names (and is what the sandbox follows):
 *   netAmount = depositTotal − depositFeeTotal − cashoutTotal + noteTotal − settlementTotal
 *               + cancelledSettlementTotal
 *   totalBalance[d] = totalBalance[d − 1] + netAmount[d]
 * Amounts are exact decimals (decimal.ts): what is held grows with the days and currencies, never
 * with the records.
 */

import type { IDataObject } from 'n8n-workflow';

import { isoSeconds } from '../codes/dates';
import { type Decimal, formatDecimal, parseDecimal, rescale } from './decimal';
import { type RecordListResource, REPORTING_LISTS } from './lists';
import { NO_CURRENCY } from './summary';
import { showValue } from '../parameters/values';

/** The report's terms, in the order the net is written and items list them. */
export const TERMS = [
	'depositTotal',
	'depositFeeTotal',
	'cashoutTotal',
	'noteTotal',
	'settlementTotal',
	'cancelledSettlementTotal',
] as const;
export type Term = (typeof TERMS)[number];

/** The terms whose records are chosen by status (notes have none). */
export type StatusTerm = Exclude<Term, 'noteTotal'>;

/** How each term enters the net (inferred from the field names, service rules §3.6). */
export const TERM_SIGNS: Readonly<Record<Term, 1 | -1>> = {
	depositTotal: 1,
	depositFeeTotal: -1,
	cashoutTotal: -1,
	noteTotal: 1,
	settlementTotal: -1,
	cancelledSettlementTotal: 1,
};

/** The net as a formula, for the output and the docs. */
export const NET_FORMULA =
	'netAmount = depositTotal − depositFeeTotal − cashoutTotal + noteTotal − settlementTotal + cancelledSettlementTotal';
/** How the balance carries over, for the output and the docs. */
export const BALANCE_FORMULA = 'totalBalance = the previous row’s totalBalance + netAmount';

/** An amount a term sums: the record field and the field naming its currency. */
export interface TermAmount {
	field: string;
	currency: string;
}

/** Which records one term sums, and how. */
export interface TermRule {
	list: RecordListResource;
	/** The amounts added per record (a cashout: merchantAmount and fee). */
	amounts: readonly TermAmount[];
	/** The statuses whose records count, upper case; undefined: every record (notes have no status). */
	statuses?: readonly string[];
	/** Notes: the field whose value says whether the amount adds (`plus`) or subtracts (`minus`). */
	signedBy?: { field: string; plus: string; minus: string };
}

/** The rule of every term. */
export type ReconciliationRule = Readonly<Record<Term, TermRule>>;

/**
 * The default statuses of each term (service rules §3.6, inferred): deposits that credited the
 * merchant (APPROVED, COMPLETED), cashouts that were not returned (ON_HOLD, PENDING, DELIVERED,
 * COMPLETED: REJECTED, CANCELLED and DECLINED are not), every settlement, and the settlements that
 * were undone (CANCELLED, FAILED).
 */
export const DEFAULT_STATUSES: Readonly<Record<StatusTerm, readonly string[]>> = {
	depositTotal: ['APPROVED', 'COMPLETED'],
	depositFeeTotal: ['APPROVED', 'COMPLETED'],
	cashoutTotal: ['ON_HOLD', 'PENDING', 'DELIVERED', 'COMPLETED'],
	settlementTotal: ['PENDING', 'COMPLETED', 'CANCELLED', 'FAILED'],
	cancelledSettlementTotal: ['CANCELLED', 'FAILED'],
};

/**
 * The rule of every term (service rules §3.6, inferred from the field names), with the statuses
 * given in place of {@link DEFAULT_STATUSES}: deposits `amount` in `currency`, their `fee` in
 * `feeCurrency`; cashouts `merchantAmount` in `merchantCurrency` plus `fee` in `feeCurrency`;
 * notes `amount` in `currency`, added when `category` is CREDIT and subtracted when DEBIT;
 * settlements `requestedAmount` in `currency`.
 */
export function reconciliationRule(
	statuses: Partial<Record<StatusTerm, readonly string[]>> = {},
): ReconciliationRule {
	const chosen = (term: StatusTerm) => (statuses[term] ?? DEFAULT_STATUSES[term]).slice();
	return {
		depositTotal: {
			list: 'deposit',
			amounts: [{ field: 'amount', currency: 'currency' }],
			statuses: chosen('depositTotal'),
		},
		depositFeeTotal: {
			list: 'deposit',
			amounts: [{ field: 'fee', currency: 'feeCurrency' }],
			statuses: chosen('depositFeeTotal'),
		},
		cashoutTotal: {
			list: 'cashout',
			amounts: [
				{ field: 'merchantAmount', currency: 'merchantCurrency' },
				{ field: 'fee', currency: 'feeCurrency' },
			],
			statuses: chosen('cashoutTotal'),
		},
		noteTotal: {
			list: 'note',
			amounts: [{ field: 'amount', currency: 'currency' }],
			signedBy: { field: 'category', plus: 'CREDIT', minus: 'DEBIT' },
		},
		settlementTotal: {
			list: 'settlement',
			amounts: [{ field: 'requestedAmount', currency: 'currency' }],
			statuses: chosen('settlementTotal'),
		},
		cancelledSettlementTotal: {
			list: 'settlement',
			amounts: [{ field: 'requestedAmount', currency: 'currency' }],
			statuses: chosen('cancelledSettlementTotal'),
		},
	};
}

/** The lists a rule reads, each once, in the order of {@link TERMS}. */
export function listsOf(rule: ReconciliationRule): RecordListResource[] {
	return [...new Set(TERMS.map((term) => rule[term].list))];
}

/**
 * The rule as the output shows it: the formulas, each term's list, amounts, statuses (null: every
 * record, the list has no status) and whether it adds to the net or subtracts, and a word that it
 * is inferred (service rules §3.6).
 */
export function ruleJson(rule: ReconciliationRule): IDataObject {
	const terms: IDataObject = {};
	for (const term of TERMS) {
		const { list, amounts, statuses, signedBy } = rule[term];
		const sums = amounts.map((amount) => `${amount.field} (in ${amount.currency})`).join(' + ');
		terms[term] = {
			list: REPORTING_LISTS[list].plural,
			sums: signedBy
				? `${sums}: ${signedBy.field} ${signedBy.plus} adds, ${signedBy.minus} subtracts; every record (no status)`
				: sums,
			statuses: statuses ? [...statuses] : null,
			net: TERM_SIGNS[term] > 0 ? 'adds' : 'subtracts',
		};
	}
	return {
		inferred:
			'from the report’s field names: the service publishes the fields but no formula, no statuses and no amount fields',
		net: NET_FORMULA,
		balance: BALANCE_FORMULA,
		days: 'UTC days: the report’s date is the start of a UTC day',
		terms,
	};
}

// ---- Days ----

const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The UTC day (`yyyy-MM-dd`) of a record's date (ISO 8601 text), undefined when it is no date. */
export function utcDayOf(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	if (ISO_SECOND.test(value)) return value.slice(0, 10);
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 10);
}

/** A day of the period: its UTC date and its first and last second (Unix seconds). */
export interface PeriodDay {
	day: string;
	start: number;
	end: number;
}

/** The UTC days from the one holding `from` to the one holding `to` (Unix seconds, inclusive). */
export function utcDays(from: number, to: number): PeriodDay[] {
	const days: PeriodDay[] = [];
	const first = Math.floor(from / 86_400);
	const last = Math.floor(to / 86_400);
	for (let index = first; index <= last; index++) {
		const start = index * 86_400;
		days.push({
			day: new Date(start * 1000).toISOString().slice(0, 10),
			start,
			end: start + 86_399,
		});
	}
	return days;
}

// ---- Exact sums ----

/** `a + b`, exact, at the larger scale. */
function plus(a: Decimal, b: Decimal): Decimal {
	const scale = Math.max(a.scale, b.scale);
	return {
		units: rescale(a.units, a.scale, scale) + rescale(b.units, b.scale, scale),
		scale,
	};
}

function negative(a: Decimal): Decimal {
	return { units: -a.units, scale: a.scale };
}

function minus(a: Decimal, b: Decimal): Decimal {
	return plus(a, negative(b));
}

const ZERO: Decimal = { units: 0n, scale: 0 };

/** The fewest decimals an item's amounts are written with: money is read in cents. */
const MIN_SCALE = 2;

/** The sum of one term, in one currency, on one day. */
class TermSum {
	total: Decimal = ZERO;

	/** Records that added to it. */
	records = 0;

	/** Amounts that were not numbers (or a note neither CREDIT nor DEBIT): not added. */
	unreadable = 0;
}

/** One record's share of the sums: its day and, per amount it adds, [term, currency, amount or null]. */
export interface Share {
	day: string;
	/** Adjacent entries of one term belong to one record (a cashout's amount and fee). */
	entries: Array<[Term, string, Decimal | null]>;
}

/** A list's records whose date field held no date. */
export interface Undated {
	count: number;
	/** The first such record's id and date, for the message. */
	example: { id: unknown; date: unknown };
}

/**
 * The lists' sums per day, currency and term, made as the records stream by (service rules §3.6):
 * `shareOf(list, record)` turns a record into what it adds, `add(share)` adds it. What it holds
 * grows with the days and currencies, not with the records.
 */
export class ListSums {
	private readonly days = new Map<
		string,
		Map<string, { records: number; terms: Map<Term, TermSum> }>
	>();

	private readonly termsOf = new Map<
		RecordListResource,
		Array<{ term: Term; rule: TermRule; statuses?: Set<string> }>
	>();

	/** Per list, its records without a date (they cannot be put on a day). */
	readonly undated = new Map<RecordListResource, Undated>();

	constructor(readonly rule: ReconciliationRule) {
		for (const term of TERMS) {
			const entry = rule[term];
			const terms = this.termsOf.get(entry.list) ?? [];
			terms.push({
				term,
				rule: entry,
				statuses: entry.statuses ? new Set(entry.statuses) : undefined,
			});
			this.termsOf.set(entry.list, terms);
		}
	}

	/**
	 * What `record` of `list` adds: its UTC day (of the list's date field) and, for each term whose
	 * statuses hold the record's, each amount with its currency (`XXX` when none is named; null when
	 * the amount is not a number). Undefined when it adds to no term, or has no date (counted in
	 * {@link undated}). An absent amount adds nothing.
	 */
	shareOf(list: RecordListResource, record: Record<string, unknown>): Share | undefined {
		const terms = this.termsOf.get(list);
		if (!terms) return undefined;
		const status = typeof record.status === 'string' ? record.status.toUpperCase() : undefined;
		const entries: Share['entries'] = [];
		for (const { term, rule, statuses } of terms) {
			if (statuses && (status === undefined || !statuses.has(status))) continue;
			let sign = 1;
			if (rule.signedBy) {
				const value = record[rule.signedBy.field];
				const word = typeof value === 'string' ? value.trim().toUpperCase() : '';
				sign = word === rule.signedBy.plus ? 1 : word === rule.signedBy.minus ? -1 : 0;
			}
			for (const amount of rule.amounts) {
				const raw = record[amount.field];
				if (raw === undefined || raw === null || raw === '') continue;
				const value = sign === 0 ? undefined : parseDecimal(raw);
				const currencyValue = record[amount.currency];
				const currency =
					typeof currencyValue === 'string' && currencyValue.trim() !== ''
						? currencyValue.trim().toUpperCase()
						: NO_CURRENCY;
				entries.push([term, currency, value ? (sign < 0 ? negative(value) : value) : null]);
			}
		}
		if (!entries.length) return undefined;
		const dateField = REPORTING_LISTS[list].recordDateField;
		const day = utcDayOf(record[dateField]);
		if (day === undefined) {
			const known = this.undated.get(list);
			if (known) known.count++;
			else {
				const idField = REPORTING_LISTS[list].idFields[0];
				this.undated.set(list, {
					count: 1,
					example: { id: record[idField], date: record[dateField] },
				});
			}
			return undefined;
		}
		return { day, entries };
	}

	/** Adds one record's share. */
	add(share: Share): void {
		let byCurrency = this.days.get(share.day);
		if (!byCurrency) this.days.set(share.day, (byCurrency = new Map()));
		let previous: Term | undefined;
		const counted = new Set<string>();
		for (const [term, currency, value] of share.entries) {
			let held = byCurrency.get(currency);
			if (!held) byCurrency.set(currency, (held = { records: 0, terms: new Map() }));
			// A record counts once a day and currency, and once in a term, however many amounts it adds.
			if (!counted.has(currency)) {
				counted.add(currency);
				held.records++;
			}
			let sum = held.terms.get(term);
			if (!sum) held.terms.set(term, (sum = new TermSum()));
			if (term !== previous) sum.records++;
			previous = term;
			if (value === null) sum.unreadable++;
			else sum.total = plus(sum.total, value);
		}
	}

	/** Records that added to some term on `day` in `currency`, each once. */
	records(day: string, currency: string): number {
		return this.days.get(day)?.get(currency)?.records ?? 0;
	}

	/** The currencies some record of `day` added an amount in, sorted. */
	currencies(day: string): string[] {
		return [...(this.days.get(day)?.keys() ?? [])].sort();
	}

	/** The sum of `term` in `currency` on `day`: zero and no records when nothing added to it. */
	sum(day: string, currency: string, term: Term): Readonly<TermSum> {
		return this.days.get(day)?.get(currency)?.terms.get(term) ?? new TermSum();
	}
}

// ---- The report's rows ----

/** The report's amount fields: the terms, the net and the balance. */
export const REPORT_FIELDS = [...TERMS, 'netAmount', 'totalBalance'] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];

/** One row of the daily balance report, read: its UTC day, its currency and its amounts. */
export interface ReportRow {
	day: string;
	currency: string;
	values: Record<ReportField, Decimal>;
}

/**
 * A report row that cannot be reconciled: a field that is not a number, or a date that is not the
 * start of a UTC day. `message` names the day (or the date as sent), the currency, the field and
 * the value.
 */
export class ReportRowError extends Error {
	constructor(
		message: string,
		readonly field: string,
	) {
		super(message);
	}
}

/**
 * Reads one row of the daily balance report (service rules §3.3, §3.6): `date` the start of a UTC
 * day (`yyyy-MM-ddT00:00:00Z`), `currency` (`XXX` when none), and every field of
 * {@link REPORT_FIELDS} a number (a JSON number or its text). `fields` limits the amounts read (the
 * row before the period needs only `totalBalance`).
 * @throws ReportRowError naming the day, the currency, the field and its value.
 */
export function readReportRow(
	record: Record<string, unknown>,
	fields: readonly ReportField[] = REPORT_FIELDS,
): ReportRow {
	const currencyValue = record.currency;
	const currency =
		typeof currencyValue === 'string' && currencyValue.trim() !== ''
			? currencyValue.trim().toUpperCase()
			: NO_CURRENCY;
	const date = record.date;
	const ms = typeof date === 'string' ? Date.parse(date) : Number.NaN;
	if (Number.isNaN(ms) || ms % 86_400_000 !== 0) {
		throw new ReportRowError(
			`A row of the daily balance report (${currency}) has date ${showValue(date)}, not the start of a UTC day`,
			'date',
		);
	}
	const day = new Date(ms).toISOString().slice(0, 10);
	const values = {} as Record<ReportField, Decimal>;
	for (const field of fields) {
		const raw = record[field];
		const value = raw === null || raw === '' ? undefined : parseDecimal(raw);
		if (!value) {
			throw new ReportRowError(
				`The daily balance report of ${day} (${currency}) has ${field} ${raw === undefined ? 'missing' : showValue(raw)}, not a number`,
				field,
			);
		}
		values[field] = value;
	}
	return { day, currency, values };
}

// ---- The comparison ----

/** What one day and currency are compared with. */
export interface DayInput {
	day: PeriodDay;
	/** Whether the day has ended when it was read (today has not). */
	ended: boolean;
	/** Its currency; undefined when neither the report nor the lists name one for the day. */
	currency?: string;
	/** The report's row of the day in that currency, when it has one. */
	row?: ReportRow;
	/** The latest earlier row in that currency (the balance carried over), when one was read. */
	previous?: ReportRow;
	sums: ListSums;
	rule: ReconciliationRule;
	/** How many days before the period the report was read for the previous row. */
	lookBackDays: number;
}

/**
 * Compares one day and currency (service rules §3.6) and returns its output item: per term the
 * report's value, the lists' sum, `difference` (lists − report) and `matches`; `net` (the report's
 * terms recomputed against its `netAmount`); `balance` (the previous row's `totalBalance` plus
 * `netAmount` against `totalBalance`); `differences` (the names of the checks that failed),
 * `reconciled`, `notes` and the rule. Amounts are decimal texts at one scale per item (the most
 * decimals any of its amounts has, at least 2). A day without a row is reconciled when the lists hold nothing
 * for it (no row: nothing moved); a row's balance that cannot be checked (no earlier row read) is
 * not reconciled.
 */
export function reconcileDay(input: DayInput): IDataObject {
	const { day, row, previous, sums, rule } = input;
	const currency = input.currency ?? NO_CURRENCY;
	const notes: string[] = [];
	const differences: string[] = [];
	// Every amount of the item, to be written at one scale once it is known.
	const amounts: Decimal[] = [];
	const keep = (value: Decimal | undefined) => {
		if (value) amounts.push(value);
		return value;
	};
	type Compared = {
		report?: Decimal;
		lists: Decimal;
		difference?: Decimal;
		matches: boolean;
		records: number;
		unreadable: number;
	};
	const terms = new Map<Term, Compared>();
	const listRecords = sums.records(day.day, currency);
	for (const term of TERMS) {
		const sum = sums.sum(day.day, currency, term);
		const report = keep(row?.values[term]);
		const lists = keep(sum.total)!;
		const difference = keep(minus(lists, report ?? ZERO));
		const matches = difference!.units === 0n && sum.unreadable === 0;
		if (!matches) differences.push(term);
		if (sum.unreadable)
			notes.push(
				`${sum.unreadable} ${REPORTING_LISTS[rule[term].list].label} amount${sum.unreadable === 1 ? '' : 's'} of ${term} ${sum.unreadable === 1 ? 'is' : 'are'} not a number${rule[term].signedBy ? ' (or the note is neither CREDIT nor DEBIT)' : ''}: not added, so ${term} cannot match`,
			);
		terms.set(term, {
			report,
			lists,
			difference: row ? difference : undefined,
			matches,
			records: sum.records,
			unreadable: sum.unreadable,
		});
	}
	let net: { report: Decimal; fromTerms: Decimal; difference: Decimal; matches: boolean } | null =
		null;
	let balance: {
		previousDay: string | null;
		previous: Decimal | null;
		net: Decimal;
		expected: Decimal | null;
		report: Decimal;
		difference: Decimal | null;
		matches: boolean | null;
	} | null = null;
	if (row) {
		let fromTerms = ZERO;
		for (const term of TERMS)
			fromTerms = plus(
				fromTerms,
				TERM_SIGNS[term] > 0 ? row.values[term] : negative(row.values[term]),
			);
		const netDifference = minus(fromTerms, row.values.netAmount);
		net = {
			report: keep(row.values.netAmount)!,
			fromTerms: keep(fromTerms)!,
			difference: keep(netDifference)!,
			matches: netDifference.units === 0n,
		};
		if (!net.matches) differences.push('netAmount');
		if (previous) {
			const expected = plus(previous.values.totalBalance, row.values.netAmount);
			const balanceDifference = minus(expected, row.values.totalBalance);
			balance = {
				previousDay: previous.day,
				previous: keep(previous.values.totalBalance)!,
				net: keep(row.values.netAmount)!,
				expected: keep(expected)!,
				report: keep(row.values.totalBalance)!,
				difference: keep(balanceDifference)!,
				matches: balanceDifference.units === 0n,
			};
			if (!balance.matches) differences.push('totalBalance');
		} else {
			balance = {
				previousDay: null,
				previous: null,
				net: keep(row.values.netAmount)!,
				expected: null,
				report: keep(row.values.totalBalance)!,
				difference: null,
				matches: null,
			};
			notes.push(
				`No earlier row of the report in ${currency} within the ${input.lookBackDays} days before the period: the balance carried over is not checked (widen the period to include the row before)`,
			);
		}
		if (listRecords === 0)
			notes.push('The report has a row for this day, but the lists hold no record of its terms');
	} else {
		notes.push(
			listRecords === 0
				? 'No report row for this day, and the lists hold no record of its terms: nothing moved'
				: `No report row for this day, but the lists hold ${listRecords} record${listRecords === 1 ? '' : 's'} of its terms`,
		);
	}
	if (!input.ended) notes.push('The day has not ended: its records and its row may still change');
	const scale = Math.max(MIN_SCALE, ...amounts.map((amount) => amount.scale));
	const text = (value: Decimal | null | undefined) =>
		value ? formatDecimal(rescale(value.units, value.scale, scale), scale) : null;
	const termsJson: IDataObject = {};
	for (const [term, compared] of terms) {
		termsJson[term] = {
			report: text(compared.report),
			lists: text(compared.lists),
			difference: text(compared.difference),
			matches: compared.matches,
			records: compared.records,
			...(compared.unreadable ? { unreadable: compared.unreadable } : {}),
		};
	}
	const reconciled =
		differences.length === 0 && (!row || (balance !== null && balance.matches === true));
	return {
		day: day.day,
		dayStart: isoSeconds(day.start),
		dayEnd: isoSeconds(day.end),
		dayEnded: input.ended,
		timeZone: 'UTC',
		currency: input.currency ?? null,
		reportRow: row !== undefined,
		reconciled,
		differences,
		terms: termsJson,
		net: net && {
			report: text(net.report),
			fromTerms: text(net.fromTerms),
			difference: text(net.difference),
			matches: net.matches,
		},
		balance: balance && {
			previousDay: balance.previousDay,
			previous: text(balance.previous),
			netAmount: text(balance.net),
			expected: text(balance.expected),
			report: text(balance.report),
			difference: text(balance.difference),
			matches: balance.matches,
		},
		notes,
		rule: ruleJson(rule),
	};
}
