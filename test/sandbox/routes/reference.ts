/**
 * Reference data routes (service rules §9 reference data; §2.2 read-only key).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MS_PER_DAY } from '../constants';
import { round2 } from '../data';
import { decimalText } from '../depositValidation';
import { apiError, headerOf, queryParam, safeEqual, type RouteContext } from '../http';
import { COUNTRIES, type CountryInfo, type PaymentMethodInfo } from '../reference';
import { demoCredentials } from '../demo';

/** Sandbox choice: code/type of a bad reference-data query (unknown country, bad amount). */
export const REFERENCE_INVALID_CODE = 300;
/** Sandbox choice: `status` of every payment method in GET /v3/payment_methods. */
export const PAYMENT_METHOD_STATUS = 'OK';
/** Sandbox choice: deposit statuses counted by the payment-method averages. */
const CREDITED = new Set(['APPROVED', 'COMPLETED']);
/** Sandbox choice: days behind daily_average (last 30 days) and monthly_average (last 180 days = 6 months). */
const DAILY_WINDOW_DAYS = 30;
const MONTHLY_WINDOW_DAYS = 180;
const MONTHLY_WINDOW_MONTHS = 6;

/** `Authorization: Bearer <readOnlyKey>` or an answered 401/100. */
function authorized(request: FastifyRequest, reply: FastifyReply): boolean {
	const expected = `Bearer ${demoCredentials().readOnlyKey}`;
	const actual = headerOf(request, 'authorization') ?? '';
	if (safeEqual(actual, expected)) return true;
	apiError(reply, 401, 100, 'Invalid credentials', 'INVALID_CREDENTIALS');
	return false;
}

/** The `country` query as a supported country, or an answered 400/300. */
function countryOf(request: FastifyRequest, reply: FastifyReply): CountryInfo | undefined {
	const code = queryParam(request, 'country');
	const country = code === undefined ? undefined : COUNTRIES[code.toUpperCase()];
	if (!country) {
		apiError(
			reply,
			400,
			REFERENCE_INVALID_CODE,
			code === undefined ? 'Query parameter country is required' : `Unsupported country: ${code}`,
			'INVALID_REQUEST',
		);
	}
	return country;
}

/** Payment-method entry of GET /v3/payment_methods (service rules §9). */
export interface PaymentMethodEntry {
	country: string;
	code: string;
	name: string;
	/** BANK_TRANSFER, VOUCHER, CREDIT_CARD or WALLET (the method's kind, as payment_info.type). */
	type: string;
	status: string;
	/** `<baseUrl>/logos/<country>-<code>.svg`, a small SVG served by the sandbox. */
	logo: string;
	/** Credited deposits per day of this method over the last 30 sandbox days, all merchants, 2 decimals. */
	daily_average: number;
	/** Credited deposits per month of this method over the last 180 sandbox days (6 months), all merchants, 2 decimals. */
	monthly_average: number;
}

/** SVG logo of a payment method: a rounded box with the method code. */
function logoSvg(code: string): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32" viewBox="0 0 64 32"><rect width="64" height="32" rx="6" fill="#1f4e79"/><text x="32" y="21" font-family="sans-serif" font-size="14" fill="#fff" text-anchor="middle">${code}</text></svg>`;
}

/**
 * Registers, all behind the read-only key (else 401/100), unknown or missing country -> 400/300:
 * - GET /v3/exchange_rates?country=&amount= -> `{fx_rate, currency, converted_amount}` (amount in USD, default 1; bad amount -> 400/300);
 * - GET /v3/banks?country= -> `[{code, name}]`;
 * - GET /v3/payment_methods?country= -> {@link PaymentMethodEntry}[] (the country's deposit methods, as POST /v3/deposits accepts them);
 * - GET /v3/states?country= -> `[{code, name}]` (ISO 3166-2 subdivision codes without the country prefix).
 * Also GET /logos/:file (no key), the SVG each payment method's `logo` points to.
 */
export function registerReferenceRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store } = ctx;

	/** Credited deposits of `method` in `country` created within the last `days` sandbox days (all merchants). */
	const creditedCount = (country: string, method: PaymentMethodInfo, days: number): number => {
		const since = store.clock.now() - days * MS_PER_DAY;
		return store.deposits.filter(
			(d) =>
				d.createdMs >= since &&
				store.isVisible(d) &&
				d.rec.country === country &&
				d.rec.paymentMethodCode === method.code &&
				CREDITED.has(d.rec.status),
		).length;
	};

	app.get('/v3/exchange_rates', async (request, reply) => {
		if (!authorized(request, reply)) return reply;
		const country = countryOf(request, reply);
		if (!country) return reply;
		const amountRaw = queryParam(request, 'amount');
		const amountText = amountRaw === undefined || amountRaw === '' ? '1' : decimalText(amountRaw);
		if (amountText === undefined) {
			return apiError(
				reply,
				400,
				REFERENCE_INVALID_CODE,
				'amount must be a decimal with at most 2 decimals',
				'INVALID_REQUEST',
			);
		}
		return {
			fx_rate: country.fxRate,
			currency: country.currency,
			converted_amount: round2(Number(amountText) * country.fxRate),
		};
	});

	app.get('/v3/banks', async (request, reply) => {
		if (!authorized(request, reply)) return reply;
		const country = countryOf(request, reply);
		if (!country) return reply;
		return country.banks.map((b) => ({ code: b.code, name: b.name }));
	});

	app.get('/v3/payment_methods', async (request, reply) => {
		if (!authorized(request, reply)) return reply;
		const country = countryOf(request, reply);
		if (!country) return reply;
		return country.methods.map((m): PaymentMethodEntry => ({
			country: country.code,
			code: m.code,
			name: m.name,
			type: m.kind,
			status: PAYMENT_METHOD_STATUS,
			logo: `${ctx.baseUrl()}/logos/${country.code.toLowerCase()}-${m.code.toLowerCase()}.svg`,
			daily_average: round2(creditedCount(country.code, m, DAILY_WINDOW_DAYS) / DAILY_WINDOW_DAYS),
			monthly_average: round2(
				creditedCount(country.code, m, MONTHLY_WINDOW_DAYS) / MONTHLY_WINDOW_MONTHS,
			),
		}));
	});

	app.get('/v3/states', async (request, reply) => {
		if (!authorized(request, reply)) return reply;
		const country = countryOf(request, reply);
		if (!country) return reply;
		return country.states.map((s) => ({ code: s.code, name: s.name }));
	});

	app.get<{ Params: { file: string } }>('/logos/:file', async (request, reply) => {
		const match = /^([a-z]{2})-([a-z0-9]{2})\.svg$/.exec(request.params.file);
		const method = match
			? COUNTRIES[match[1].toUpperCase()]?.methods.find((m) => m.code === match[2].toUpperCase())
			: undefined;
		if (!method)
			return reply
				.code(404)
				.send({ code: 404, description: `Logo ${request.params.file} not found` });
		return reply.type('image/svg+xml').send(logoSvg(method.code));
	});
}
