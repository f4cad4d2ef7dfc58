/**
 * Reporting list routes and the balance read (service rules §3: paging, periods, filters, records;
 * §4 errors).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { balanceBody, balanceReport } from '../balance';
import { FILTER_CODE_MAX_LENGTH, MAX_PERIOD_SECONDS } from '../constants';
import type { Entry } from '../data';
import { queryParam, reportingError, requireSession, type RouteContext } from '../http';
import {
	CASHOUT_STATUSES,
	CHARGEBACK_STATUSES,
	DEPOSIT_FILTER_STATUSES,
	KNOWN_COUNTRY_CODES,
	NOTE_TYPES,
	REFUND_FILTER_STATUSES,
	SETTLEMENT_STATUSES,
} from '../reference';
import type { Session } from '../store';

/** Sandbox choice: code of a reporting 400 for a malformed parameter other than dates and country. */
export const INVALID_PARAMETER_CODE = 400;
/** Sandbox choice: `type` of that 400. */
export const INVALID_PARAMETER_TYPE = 'INVALID_PARAMETER';

/** Longest accepted from/to value (digits). */
const MAX_TIMESTAMP_DIGITS = 12;

type Predicate<T> = (rec: T) => boolean;

/** Thrown by a filter parser; answered as a reporting error. */
class ParamError extends Error {
	constructor(
		readonly http: number,
		readonly code: number,
		message: string,
		readonly type?: string,
	) {
		super(message);
	}
}

/** Parsed from/to/page (service rules §3.1-3.2: from, to Unix seconds; page from 0). Throws ParamError. */
function parsePeriod(request: FastifyRequest): { from: number; to: number; page: number } {
	const timestamp = new RegExp(`^\\d{1,${MAX_TIMESTAMP_DIGITS}}$`);
	const fromRaw = queryParam(request, 'from');
	const toRaw = queryParam(request, 'to');
	if (
		fromRaw === undefined ||
		toRaw === undefined ||
		!timestamp.test(fromRaw) ||
		!timestamp.test(toRaw)
	) {
		throw new ParamError(
			400,
			17,
			"Query parameters 'from' and 'to' are required and must be Unix timestamps in seconds (non-negative integers)",
		);
	}
	const from = Number(fromRaw);
	const to = Number(toRaw);
	if (from > to)
		throw new ParamError(400, 17, `Invalid date range: 'from' (${from}) is after 'to' (${to})`);
	if (to - from >= MAX_PERIOD_SECONDS) {
		throw new ParamError(
			412,
			18,
			'The period between from and to must be shorter than 60 days',
			'EXCEEDED_DATE_PERIOD',
		);
	}
	const pageRaw = queryParam(request, 'page');
	if (pageRaw !== undefined && !/^\d{1,9}$/.test(pageRaw)) {
		throw new ParamError(
			400,
			INVALID_PARAMETER_CODE,
			"Query parameter 'page' must be a non-negative integer",
			INVALID_PARAMETER_TYPE,
		);
	}
	return { from, to, page: pageRaw === undefined ? 0 : Number(pageRaw) };
}

/** Non-empty query value, else undefined (an empty value counts as absent). */
function optional(request: FastifyRequest, name: string): string | undefined {
	const value = queryParam(request, name);
	return value === undefined || value === '' ? undefined : value;
}

/** `country` filter: 2 letters and a known ISO code (case-insensitive), else 400 code 19. */
function countryFilter<T extends { country: string }>(
	request: FastifyRequest,
): Predicate<T> | undefined {
	const value = optional(request, 'country');
	if (value === undefined) return undefined;
	const code = value.toUpperCase();
	if (code.length !== FILTER_CODE_MAX_LENGTH || !KNOWN_COUNTRY_CODES.has(code)) {
		throw new ParamError(400, 19, `Invalid country: '${value}'`);
	}
	return (rec) => rec.country === code;
}

/** `paymentMethod` filter: at most 2 characters (case-insensitive), else 400. */
function paymentMethodFilter<T>(
	request: FastifyRequest,
	field: (rec: T) => string,
): Predicate<T> | undefined {
	const value = optional(request, 'paymentMethod');
	if (value === undefined) return undefined;
	if (value.length > FILTER_CODE_MAX_LENGTH) {
		throw new ParamError(
			400,
			INVALID_PARAMETER_CODE,
			`Query parameter 'paymentMethod' must be at most ${FILTER_CODE_MAX_LENGTH} characters`,
			INVALID_PARAMETER_TYPE,
		);
	}
	const code = value.toUpperCase();
	return (rec) => field(rec) === code;
}

/** Enumerated filter `name` on `field` (case-insensitive), else 400. */
function enumFilter<T>(
	request: FastifyRequest,
	name: string,
	allowed: readonly string[],
	field: (rec: T) => string,
): Predicate<T> | undefined {
	const value = optional(request, name);
	if (value === undefined) return undefined;
	const upper = value.toUpperCase();
	if (!allowed.includes(upper)) {
		throw new ParamError(
			400,
			INVALID_PARAMETER_CODE,
			`Query parameter '${name}' must be one of ${allowed.join(', ')}`,
			INVALID_PARAMETER_TYPE,
		);
	}
	return (rec) => field(rec) === upper;
}

/** `clientDocument` filter: exact match. */
function clientDocumentFilter<T extends { clientDocument: string }>(
	request: FastifyRequest,
): Predicate<T> | undefined {
	const value = optional(request, 'clientDocument');
	return value === undefined ? undefined : (rec) => rec.clientDocument === value;
}

function all<T>(predicates: Array<Predicate<T> | undefined>): Predicate<T> {
	const active = predicates.filter((p): p is Predicate<T> => p !== undefined);
	return (rec) => active.every((p) => p(rec));
}

/**
 * Registers the reporting lists (GET, session token, page envelope, newest first):
 * /v1/deposits, /v1/cashouts, /v1/notes, /v1/refund(s), /v1/chargeback(s), /v1/settlements,
 * /v1/balance/report, and GET /v1/balance. Every list is scoped to the session's current MID.
 */
export function registerReportingRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store, options } = ctx;

	function list<T>(
		path: string,
		entries: () => ReadonlyArray<Entry<T>>,
		filters: (request: FastifyRequest) => Array<Predicate<T> | undefined>,
		compact?: (
			merchantId: number,
			request: FastifyRequest,
			period: { from: number; to: number; page: number },
		) => unknown,
	): void {
		app.get(path, async (request: FastifyRequest, reply: FastifyReply) => {
			const session: Session | undefined = requireSession(ctx, request, reply, 'reporting');
			if (!session) return reply;
			try {
				const period = parsePeriod(request);
				const { from, to, page } = period;
				const predicate = all(filters(request));
				// A merchant whose records are a compact series (store/series.ts) lists those.
				const series = compact?.(session.merchantId, request, period);
				if (series) return series;
				return store.listPage(entries(), session.merchantId, from, to, page, predicate);
			} catch (error) {
				if (error instanceof ParamError)
					return reportingError(reply, error.http, error.code, error.message, error.type);
				throw error;
			}
		});
	}

	list(
		'/v1/deposits',
		() => store.deposits,
		(request) => [
			countryFilter(request),
			paymentMethodFilter(request, (rec) => rec.paymentMethodCode),
			enumFilter(request, 'status', DEPOSIT_FILTER_STATUSES, (rec) => rec.status),
			clientDocumentFilter(request),
		],
	);
	list(
		'/v1/cashouts',
		() => store.cashouts,
		(request) => [
			countryFilter(request),
			enumFilter(request, options.statusParamName, CASHOUT_STATUSES, (rec) => rec.status),
			clientDocumentFilter(request),
		],
		(merchantId, request, period) =>
			store
				.cashoutSeriesOf(merchantId)
				?.page(
					period.from,
					period.to,
					period.page,
					optional(request, options.statusParamName)?.toUpperCase(),
				),
	);
	list(
		'/v1/notes',
		() => store.notes,
		(request) => [enumFilter(request, 'type', NOTE_TYPES, (rec) => rec.type)],
	);
	list(
		options.pluralRefundChargebackPaths ? '/v1/refunds' : '/v1/refund',
		() => store.refunds,
		(request) => [
			countryFilter(request),
			paymentMethodFilter(request, (rec) => rec.paymentMethod),
			enumFilter(request, 'status', REFUND_FILTER_STATUSES, (rec) => rec.status),
		],
	);
	list(
		options.pluralRefundChargebackPaths ? '/v1/chargebacks' : '/v1/chargeback',
		() => store.chargebacks,
		(request) => [
			countryFilter(request),
			enumFilter(request, 'status', CHARGEBACK_STATUSES, (rec) => rec.status),
		],
	);
	list(
		'/v1/settlements',
		() => store.settlements,
		(request) => [
			enumFilter(request, options.statusParamName, SETTLEMENT_STATUSES, (rec) => rec.status),
		],
	);

	app.get('/v1/balance/report', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'reporting');
		if (!session) return reply;
		try {
			const { from, to, page } = parsePeriod(request);
			const entries = balanceReport(store, session.merchantId).map((d, i) => ({
				id: i,
				merchantId: session.merchantId,
				createdMs: d.dayStart,
				visibleAt: d.dayStart,
				rec: d.rec,
			}));
			return store.listPage(entries, session.merchantId, from, to, page, () => true);
		} catch (error) {
			if (error instanceof ParamError)
				return reportingError(reply, error.http, error.code, error.message, error.type);
			throw error;
		}
	});

	app.get('/v1/balance', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'reporting');
		if (!session) return reply;
		return balanceBody(store, session.merchantId);
	});
}
