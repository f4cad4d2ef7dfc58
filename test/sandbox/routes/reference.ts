/**
 * Reference data routes (service rules §9 reference data; §2.2 read-only key).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { round2 } from '../data';
import { decimalText } from '../depositValidation';
import { apiError, headerOf, queryParam, safeEqual } from '../http';
import { COUNTRIES, type CountryInfo } from '../reference';
import { demoCredentials } from '../demo';

/** Sandbox choice: code/type of a bad reference-data query (unknown country, bad amount). */
export const REFERENCE_INVALID_CODE = 300;

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
		apiError(reply, 400, REFERENCE_INVALID_CODE, code === undefined ? 'Query parameter country is required' : `Unsupported country: ${code}`, 'INVALID_REQUEST');
	}
	return country;
}

/**
 * Registers GET /v3/exchange_rates?country=&amount= -> `{fx_rate, currency, converted_amount}`
 * (amount in USD, default 1) and GET /v3/banks?country= -> `[{code, name}]`. Both need the
 * read-only key (else 401/100); unknown country or bad amount -> 400/300.
 */
export function registerReferenceRoutes(app: FastifyInstance): void {
	app.get('/v3/exchange_rates', async (request, reply) => {
		if (!authorized(request, reply)) return reply;
		const country = countryOf(request, reply);
		if (!country) return reply;
		const amountRaw = queryParam(request, 'amount');
		const amountText = amountRaw === undefined || amountRaw === '' ? '1' : decimalText(amountRaw);
		if (amountText === undefined) {
			return apiError(reply, 400, REFERENCE_INVALID_CODE, 'amount must be a decimal with at most 2 decimals', 'INVALID_REQUEST');
		}
		return { fx_rate: country.fxRate, currency: country.currency, converted_amount: round2(Number(amountText) * country.fxRate) };
	});

	app.get('/v3/banks', async (request, reply) => {
		if (!authorized(request, reply)) return reply;
		const country = countryOf(request, reply);
		if (!country) return reply;
		return country.banks.map((b) => ({ code: b.code, name: b.name }));
	});
}
