/**
 * Totals of a reporting list (service rules §3.5): records grouped by status, currency, country,
 * payment method, day or hour in a time zone; per group a count and, for each amount field, the
 * sum, minimum, maximum and average in each currency apart. Pure: the report operation feeds it
 * the records of each window read to its end (reporting/read/period.ts, completedWindows).
 *
 * Amounts are exact decimals (decimal.ts), so a million amounts add up to the cent; days and hours
 * are those of the chosen time zone (timeZones.ts).
 */

import type { IDataObject } from 'n8n-workflow';
import {
	type AmountField,
	type GroupField,
	type RecordListDefinition,
	type RecordListResource,
	REPORTING_LISTS,
	type SummaryDefinition,
} from './lists';
import { type Decimal, divideRounded, formatDecimal, parseDecimal, rescale } from './decimal';
import { ZoneCalendar } from './timeZones';

/** Every grouping, in the order the groups' fields are output. */
export const GROUP_FIELDS: readonly GroupField[] = [
	'day',
	'hour',
	'status',
	'country',
	'paymentMethod',
	'currency',
];

/** The groupings `list` offers: its fields, then day and hour (every list has a creation date). */
export function groupFieldsOf(resource: RecordListResource): GroupField[] {
	const groups = REPORTING_LISTS[resource].summary.groups;
	return GROUP_FIELDS.filter((field) => field === 'day' || field === 'hour' || field in groups);
}

/** ISO 4217's code for "no currency": where a record names none for an amount. */
export const NO_CURRENCY = 'XXX';

/**
 * Converts one amount field's sums (one per currency) into one currency: what a summary needs of a
 * conversion (reporting/conversion.ts, Conversion).
 */
export interface Conversion {
	/** The target currency, ISO 4217. */
	readonly currency: string;
	/** The sum in the target currency as decimal text, and the currencies left out (no rate). */
	convert(sums: ReadonlyMap<string, Decimal>): { sum: string; notConverted: string[] };
}

/** The statistics of one amount field in one currency. */
class AmountStats {
	count = 0;

	scale = 0;

	sum = 0n;

	min = 0n;

	max = 0n;

	add(value: Decimal): void {
		if (value.scale > this.scale) {
			this.sum = rescale(this.sum, this.scale, value.scale);
			this.min = rescale(this.min, this.scale, value.scale);
			this.max = rescale(this.max, this.scale, value.scale);
			this.scale = value.scale;
		}
		const units = rescale(value.units, value.scale, this.scale);
		if (this.count === 0 || units < this.min) this.min = units;
		if (this.count === 0 || units > this.max) this.max = units;
		this.sum += units;
		this.count++;
	}

	/**
	 * `{count, sum, min, max, average}`: decimal texts at the scale of the amounts' decimals; the
	 * average rounded half away from zero to that scale.
	 */
	toJson(): IDataObject {
		return {
			count: this.count,
			sum: formatDecimal(this.sum, this.scale),
			min: formatDecimal(this.min, this.scale),
			max: formatDecimal(this.max, this.scale),
			average: formatDecimal(divideRounded(this.sum, BigInt(this.count)), this.scale),
		};
	}
}

/** A record's share of a summary: its group and its amounts, made once the record's window is read to its end. */
export interface Contribution {
	group: Group;
	/** Per amount field chosen: [currency, amount], `null` when unreadable, undefined when absent. */
	amounts: Array<[string, Decimal] | null | undefined>;
}

/** One group: its values (in the order of the chosen groupings) and its statistics. */
interface Group {
	values: Array<string | null>;
	/** Orders groups: the first second of the hour (when grouped by hour), then the values. */
	sortKey: number;
	count: number;
	/** Per amount field chosen, per currency. */
	amounts: Array<Map<string, AmountStats>>;
	/** Per amount field chosen: amounts that were present but not a number. */
	unreadable: number[];
}

/** What to summarise: the list, its groupings, its amount fields, the time zone of days and hours. */
export interface SummaryRequest {
	list: RecordListDefinition;
	groupBy: GroupField[];
	/** Amount fields (record field names) of the list. */
	amountFields: string[];
	timeZone: string;
}

/**
 * The totals of a list being read (see the module's description). `contribution(record)` turns a
 * record into its share; `add` counts it; `groups()` and `totals()` give the output.
 * What it holds grows with the number of groups, not with the records.
 */
export class Summary {
	private readonly definition: SummaryDefinition;

	private readonly amounts: AmountField[];

	private readonly calendar: ZoneCalendar;

	private readonly groups = new Map<string, Group>();

	private readonly total: Group;

	constructor(readonly request: SummaryRequest) {
		this.definition = request.list.summary;
		this.amounts = request.amountFields.map(
			(field) => this.definition.amounts.find((entry) => entry.field === field) as AmountField,
		);
		this.calendar = new ZoneCalendar(request.timeZone);
		this.total = this.newGroup([], 0);
	}

	private newGroup(values: Array<string | null>, sortKey: number): Group {
		return {
			values,
			sortKey,
			count: 0,
			amounts: this.amounts.map(() => new Map<string, AmountStats>()),
			unreadable: this.amounts.map(() => 0),
		};
	}

	/** The group of `record` (created on first use) and its amounts; nothing is counted yet. */
	contribution(record: Record<string, unknown>): Contribution {
		const values: Array<string | null> = [];
		let sortKey = 0;
		for (const field of this.request.groupBy) {
			if (field === 'day' || field === 'hour') {
				const created = record[this.request.list.recordDateField];
				const ms = typeof created === 'string' ? Date.parse(created) : Number.NaN;
				if (Number.isNaN(ms)) {
					values.push(null);
					continue;
				}
				const local = this.calendar.at(Math.floor(ms / 1000));
				values.push(field === 'day' ? local.day : local.hour);
				// Hours sort by when they began: a repeated hour (clocks set back) differs by its offset.
				if (field === 'hour') sortKey = local.hourStart;
				continue;
			}
			const value = record[this.definition.groups[field] as string];
			values.push(value === undefined || value === null || value === '' ? null : String(value));
		}
		const key = values.map((value) => (value === null ? '\u0001' : value)).join('\u0000');
		let group = this.groups.get(key);
		if (!group) {
			group = this.newGroup(values, sortKey);
			this.groups.set(key, group);
		}
		const amounts = this.amounts.map((entry): [string, Decimal] | null | undefined => {
			const raw = record[entry.field];
			if (raw === undefined || raw === null || raw === '') return undefined;
			const value = parseDecimal(raw);
			if (!value) return null;
			const currencyValue =
				typeof entry.currency === 'string' ? record[entry.currency] : entry.currency.fixed;
			const currency =
				typeof currencyValue === 'string' && currencyValue.trim() !== ''
					? currencyValue.trim().toUpperCase()
					: NO_CURRENCY;
			return [currency, value];
		});
		return { group, amounts };
	}

	/** Counts one record's share in its group and in the totals. */
	add(contribution: Contribution): void {
		for (const group of [contribution.group, this.total]) {
			group.count++;
			contribution.amounts.forEach((entry, index) => {
				if (entry === undefined) return;
				if (entry === null) {
					group.unreadable[index]++;
					return;
				}
				const [currency, value] = entry;
				let stats = group.amounts[index].get(currency);
				if (!stats) group.amounts[index].set(currency, (stats = new AmountStats()));
				stats.add(value);
			});
		}
	}

	/** Records counted. */
	get count(): number {
		return this.total.count;
	}

	/** Every currency some counted amount is in (what a conversion needs rates for). */
	currencies(): Set<string> {
		return new Set(this.total.amounts.flatMap((byCurrency) => [...byCurrency.keys()]));
	}

	private groupJson(group: Group, conversion?: Conversion): IDataObject {
		const json: IDataObject = {};
		this.request.groupBy.forEach((field, index) => (json[field] = group.values[index]));
		json.count = group.count;
		this.amounts.forEach((entry, index) => {
			const byCurrency: IDataObject = {};
			for (const currency of [...group.amounts[index].keys()].sort())
				byCurrency[currency] = group.amounts[index].get(currency)!.toJson();
			json[entry.field] = byCurrency;
			if (group.unreadable[index]) json[`${entry.field}Unreadable`] = group.unreadable[index];
		});
		if (conversion) json.converted = this.convertedJson(group, conversion);
		return json;
	}

	/**
	 * `{currency, <amount field>: sum, …, notConverted?: {<amount field>: [currency, …]}}`: each
	 * amount field's sums converted into one currency (reporting/conversion.ts).
	 */
	private convertedJson(group: Group, conversion: Conversion): IDataObject {
		const json: IDataObject = { currency: conversion.currency };
		const notConverted: IDataObject = {};
		this.amounts.forEach((entry, index) => {
			const sums = new Map<string, Decimal>();
			for (const [currency, stats] of group.amounts[index])
				sums.set(currency, { units: stats.sum, scale: stats.scale });
			const converted = conversion.convert(sums);
			json[entry.field] = converted.sum;
			if (converted.notConverted.length) notConverted[entry.field] = converted.notConverted;
		});
		if (Object.keys(notConverted).length) json.notConverted = notConverted;
		return json;
	}

	/**
	 * One object per group that has records: the grouping fields (`null` where a record lacks the
	 * field), `count`, and per amount field `{<currency>: {count, sum, min, max, average}}`
	 * (`<field>Unreadable`: amounts present but not a number, when any). Ordered by day or hour,
	 * then by the values. With `conversion`, each also has `converted` (see convertedJson).
	 */
	groupsJson(conversion?: Conversion): IDataObject[] {
		const groups = [...this.groups.values()].filter((group) => group.count > 0);
		groups.sort((a, b) => {
			if (a.sortKey !== b.sortKey) return a.sortKey - b.sortKey;
			for (let index = 0; index < a.values.length; index++) {
				const x = a.values[index] ?? '\uffff';
				const y = b.values[index] ?? '\uffff';
				if (x !== y) return x < y ? -1 : 1;
			}
			return 0;
		});
		return groups.map((group) => this.groupJson(group, conversion));
	}

	/** The totals over every record, as a group with no grouping fields. */
	totalsJson(conversion?: Conversion): IDataObject {
		return this.groupJson(this.total, conversion);
	}
}
