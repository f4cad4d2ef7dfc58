import { COUNTRIES } from '../reference/countries';
import { divideRounded, formatDecimal, parseDecimal, type Decimal } from './decimal';
import { type Conversion } from './summary';

/**
 * Converting a summary's sums into one currency with the service's exchange rates (service rules
 * §9.1). The service quotes each country's local currency against USD (`GET /v3/exchange_rates?
 * country=`: `fx_rate` local units per 1 USD), so an amount moves from currency A to currency B as
 * `amount × rate(B) ÷ rate(A)`, USD's rate being 1. Pure: the Summarize operation reads the rates
 * (actions/report/conversion.ts) and hands them in.
 *
 * Arithmetic is exact: the amounts and the rates are decimals (integers of minor units, as in
 * summary.ts), each currency's sum is converted once and rounded half away from zero to
 * {@link CONVERTED_SCALE} decimals, and the rounded parts are added. Two currencies are never added
 * before conversion, and a currency with no rate is left out and named, never guessed.
 */

/** Decimals of a converted amount: cents of the target currency. */
export const CONVERTED_SCALE = 2;

/** USD: the currency every rate is quoted against (rate 1, never read). */
export const BASE_CURRENCY = 'USD';

/** A rate the service gave: `perUsd` units of `currency` for 1 USD, read for `country` at `readAt`. */
export interface ExchangeRate {
	currency: string;
	country: string;
	/** `fx_rate` as the service sent it, as an exact decimal. */
	perUsd: Decimal;
	/** When the answer arrived, ISO 8601 UTC. */
	readAt: string;
}

/**
 * The currencies a rate can be read for: USD, and the local currency of each documented country
 * (reference/countries.ts), with the country to ask for it. Sorted.
 */
export function convertibleCurrencies(): string[] {
	return [...new Set([BASE_CURRENCY, ...COUNTRIES.map((country) => country.currency)])].sort();
}

/**
 * The country whose exchange rate quotes `currency` (ISO 4217, upper case), or undefined for USD
 * (no rate needed) and for a currency no documented country uses.
 */
export function rateCountryOf(currency: string): string | undefined {
	if (currency === BASE_CURRENCY) return undefined;
	return COUNTRIES.find((country) => country.currency === currency)?.code;
}

/**
 * Reads `fx_rate` from the exchange-rate answer: a positive decimal, or undefined when it is
 * missing, zero, negative or not a number.
 */
export function parseRate(value: unknown): Decimal | undefined {
	const rate = parseDecimal(value);
	return rate && rate.units > 0n ? rate : undefined;
}

const ONE: Decimal = { units: 1n, scale: 0 };

/**
 * `amount` in a currency whose rate is `from` converted to the currency whose rate is `to`
 * (each a {@link Decimal} of units per USD; USD's is 1), as an integer of hundredths rounded half
 * away from zero: amount × to ÷ from, computed on integers.
 */
export function convertUnits(amount: Decimal, from: Decimal, to: Decimal): bigint {
	const ten = 10n;
	const numerator = amount.units * to.units * ten ** BigInt(from.scale + CONVERTED_SCALE);
	const denominator = from.units * ten ** BigInt(amount.scale + to.scale);
	return divideRounded(numerator, denominator);
}

/** The conversion a summary applies: the target and the rates read, by currency. */
export class RateConversion implements Conversion {
	constructor(
		readonly currency: string,
		private readonly rates: ReadonlyMap<string, ExchangeRate>,
	) {}

	private rateOf(currency: string): Decimal | undefined {
		if (currency === BASE_CURRENCY) return ONE;
		return this.rates.get(currency)?.perUsd;
	}

	/**
	 * The sum of `sums` (one amount field of one group: a sum per currency) in the target currency,
	 * as decimal text with {@link CONVERTED_SCALE} decimals, and the currencies that could not be
	 * converted (no rate: left out of the sum).
	 */
	convert(sums: ReadonlyMap<string, Decimal>): { sum: string; notConverted: string[] } {
		const to = this.rateOf(this.currency);
		if (!to) throw new Error(`No exchange rate for the target currency ${this.currency}`);
		let total = 0n;
		const notConverted: string[] = [];
		for (const [currency, sum] of [...sums].sort(([a], [b]) => (a < b ? -1 : 1))) {
			const from = this.rateOf(currency);
			if (!from) notConverted.push(currency);
			else total += convertUnits(sum, from, to);
		}
		return { sum: formatDecimal(total, CONVERTED_SCALE), notConverted };
	}

	/** The rates used, by currency: `{currency, country, perUsd, readAt}` with `perUsd` as text. */
	ratesJson(): Array<Record<string, string>> {
		return [...this.rates.values()]
			.sort((a, b) => (a.currency < b.currency ? -1 : 1))
			.map((rate) => ({
				currency: rate.currency,
				country: rate.country,
				perUsd: formatDecimal(rate.perUsd.units, rate.perUsd.scale),
				readAt: rate.readAt,
			}));
	}
}
