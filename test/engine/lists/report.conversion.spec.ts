import type { IDataObject } from 'n8n-workflow';

import {
	CREDENTIAL_IDS,
	paymentsNode,
	startFixture,
	WorkflowBuilder,
	type Fixture,
} from '../../harness/fixtures';
import { fakeDate, realDate } from '../../harness/clock';
import { iso } from '../../harness/records';
import { COUNTRIES } from '../../sandbox/reference';

const DAY = 86_400;
const NODE = 'Payments Service';
const SESSION = 'paymentsServiceSessionApi';
const READ_ONLY = 'paymentsServiceReadOnlyApi';

type Rec = Record<string, unknown>;

/** Deposit → Summarize with `parameters`, with the Session credential and, unless `withoutRates`, the Read-Only one. */
function summarizeWorkflow(parameters: Record<string, unknown>, withoutRates = false) {
	const credentials: Record<string, { id: string; name: string }> = {
		[SESSION]: { id: CREDENTIAL_IDS[SESSION], name: SESSION },
	};
	if (!withoutRates) credentials[READ_ONLY] = { id: CREDENTIAL_IDS[READ_ONLY], name: READ_ONLY };
	const builder = new WorkflowBuilder('Summarize converted');
	builder.then(
		paymentsNode({ resource: 'deposit', operation: 'summarize', ...parameters }, SESSION, {
			credentials,
		}),
	);
	return { ...builder.build(), settings: {} };
}

/** Cents of an amount the sandbox holds (at most 2 decimals). */
const cents = (value: unknown) => BigInt(Math.round(Number(value) * 100));

/** The sandbox's rate of `currency` (units per USD) as [integer, decimals], from its own table. */
function sandboxRate(currency: string): [bigint, number] {
	if (currency === 'USD') return [1n, 0];
	const country = Object.values(COUNTRIES).find((entry) => entry.currency === currency);
	if (!country) throw new Error(`the sandbox has no country with ${currency}`);
	const [whole, fraction = ''] = String(country.fxRate).split('.');
	return [BigInt(whole + fraction), fraction.length];
}

/**
 * The oracle: `field`'s sums per currency (from the sandbox's records) converted to `target` in
 * cents, each currency rounded half up once: cents × rate(target) ÷ rate(currency).
 */
function expectedConverted(records: Rec[], field: string, currencyField: string, target: string) {
	const sums = new Map<string, bigint>();
	for (const record of records) {
		const value = record[field];
		if (value === undefined || value === null || value === '') continue;
		const currency = currencyField === 'USD' ? 'USD' : String(record[currencyField]);
		sums.set(currency, (sums.get(currency) ?? 0n) + cents(value));
	}
	const [toUnits, toScale] = sandboxRate(target);
	let total = 0n;
	for (const [currency, sum] of sums) {
		const [fromUnits, fromScale] = sandboxRate(currency);
		const numerator = sum * toUnits * 10n ** BigInt(fromScale);
		const denominator = fromUnits * 10n ** BigInt(toScale);
		total += (numerator * 2n + denominator) / (denominator * 2n);
	}
	const text = total.toString().padStart(3, '0');
	return { text: `${text.slice(0, -2)}.${text.slice(-2)}`, currencies: [...sums.keys()] };
}

describe('Report → Summarize with Convert Totals To (the service’s exchange rates)', () => {
	let fx: Fixture;
	let from: number;
	let to: number;
	let records: Rec[];

	beforeAll(async () => {
		fx = await startFixture();
		const now = Math.floor(fx.sandbox.clock.now() / 1000);
		from = now - 12 * DAY;
		to = now - 2 * DAY;
		records = (fx.sandbox.control.deposits(1001) as unknown as Rec[]).filter((record) => {
			const created = Math.floor(Date.parse(String(record.creationDate)) / 1000);
			return created >= from && created <= to;
		});
	});
	afterAll(async () => await fx.close());
	beforeEach(() => fx.sandbox.log.clear());

	const period = () => ({ period: 'custom', createdFrom: iso(from), createdTo: iso(to) });
	const rateRequests = () =>
		fx.sandbox.log.entries().filter((entry) => entry.path === '/v3/exchange_rates');

	test.each(['USD', 'BRL'])(
		'into %s: each amount field’s total equals the sandbox’s per-currency sums converted at its rates, each rate read once and shown with when it was read',
		async (target) => {
			const run = await fx.engine.run(
				summarizeWorkflow({
					...period(),
					groupBy: [],
					convertTo: target.toLowerCase(),
					options: { timeZone: 'UTC' },
				}),
			);
			expect(run.error).toBeUndefined();
			const totals = run.output(NODE).at(-1)!.json;
			expect(totals.total).toBe(true);
			const localAmount = expectedConverted(records, 'localAmount', 'localCurrency', target);
			expect(localAmount.currencies.length).toBeGreaterThan(1);
			expect(totals.converted).toEqual({
				currency: target,
				amount: expectedConverted(records, 'amount', 'currency', target).text,
				localAmount: localAmount.text,
				requestedAmount: expectedConverted(records, 'requestedAmount', 'requestedCurrency', target)
					.text,
				fee: expectedConverted(records, 'fee', 'feeCurrency', target).text,
				localCountryTaxFee: expectedConverted(
					records,
					'localCountryTaxFee',
					'localCurrency',
					target,
				).text,
				usdCountryTaxFee: expectedConverted(records, 'usdCountryTaxFee', 'USD', target).text,
			});
			// One read per currency other than USD (the target's included), by country, with the read-only key.
			const wanted = [...new Set([...localAmount.currencies, target])].filter(
				(currency) => currency !== 'USD',
			);
			const countries = wanted
				.map((currency) => Object.values(COUNTRIES).find((c) => c.currency === currency)!.code)
				.sort();
			expect(
				rateRequests()
					.map((entry) => entry.query.country)
					.sort(),
			).toEqual(countries);
			const rates = totals.exchangeRates as IDataObject[];
			expect(rates.map((rate) => rate.currency)).toEqual([...wanted].sort());
			for (const rate of rates) {
				expect(rate.perUsd).toBe(
					String(Object.values(COUNTRIES).find((c) => c.currency === rate.currency)!.fxRate),
				);
				expect(Date.parse(String(rate.readAt))).not.toBeNaN();
			}
		},
	);

	test('grouped by country, each group’s converted total is its own records’ sums converted', async () => {
		const run = await fx.engine.run(
			summarizeWorkflow({
				...period(),
				groupBy: ['country'],
				amountFields: ['localAmount'],
				convertTo: 'USD',
				options: { timeZone: 'UTC' },
			}),
		);
		expect(run.error).toBeUndefined();
		const groups = run.output(NODE).filter((item) => item.json.total === false);
		expect(groups.length).toBeGreaterThan(1);
		for (const group of groups) {
			const own = records.filter((record) => record.country === group.json.country);
			expect(group.json.converted).toEqual({
				currency: 'USD',
				localAmount: expectedConverted(own, 'localAmount', 'localCurrency', 'USD').text,
			});
		}
	});

	test('without Convert Totals To no rate is read and no item has converted amounts', async () => {
		const run = await fx.engine.run(
			summarizeWorkflow({ ...period(), groupBy: ['status'], options: { timeZone: 'UTC' } }),
		);
		expect(run.error).toBeUndefined();
		expect(rateRequests()).toHaveLength(0);
		for (const item of run.output(NODE)) {
			expect(item.json.converted).toBeUndefined();
			expect(item.json.exchangeRates).toBeUndefined();
		}
	});

	test.each([
		[
			'a currency the service does not quote',
			{ convertTo: 'EUR' },
			false,
			/not a currency the service quotes/,
		],
		[
			'no Read-Only API credential',
			{ convertTo: 'USD' },
			true,
			/needs the Read-Only API credential/,
		],
	])('%s fails the item before any request', async (_name, parameters, withoutRates, message) => {
		const run = await fx.engine.run(
			summarizeWorkflow({ ...period(), ...parameters }, withoutRates),
		);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.message).toMatch(/item 0/);
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test('a failed rate read fails the item: no totals are output as converted', async () => {
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v3/exchange_rates',
			kind: 'status',
			status: 500,
			times: 1_000,
		});
		// n8n's clock held still: the rate read's retry backoffs end at once (test/setup/n8nSleep.ts).
		fakeDate(Date.now());
		try {
			const run = await fx.engine.run(
				summarizeWorkflow({
					...period(),
					groupBy: [],
					convertTo: 'USD',
					options: { timeZone: 'UTC', retryReads: false },
				}),
			);
			expect(run.error).toBeDefined();
			expect(run.output(NODE)).toHaveLength(0);
			expect(rateRequests().length).toBeGreaterThan(0);
		} finally {
			realDate();
			fx.sandbox.faults.clear();
		}
	});
});
