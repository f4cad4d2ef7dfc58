/**
 * Admin routes (/_sandbox/...) for use next to a real n8n. Not logged, never faulted, no auth.
 * Errors answer 400 `{error: message}`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { toIsoSeconds } from '../clock';
import { demoCredentials } from '../demo';
import type { FaultRegistry } from '../faults';
import { isPlainObject, parseJson, rawBodyOf, type RouteContext } from '../http';
import type { RequestLogStore } from '../log';
import type { FaultSpec, RefundAdvanceTarget } from '../types';

/** Accepted `to` values of POST /_sandbox/refunds/:id/advance. */
const REFUND_TARGETS: readonly RefundAdvanceTarget[] = [
	'PENDING',
	'DELIVERED',
	'COMPLETED',
	'REJECTED',
	'CANCELLED',
	'INCORRECT_DETAILS',
];

/** Prefix of the admin routes. */
export const ADMIN_PREFIX = '/_sandbox';

/** Admin routes also need the log and the fault registry. */
export interface AdminContext extends RouteContext {
	log: RequestLogStore;
	faults: FaultRegistry;
}

function bad(reply: FastifyReply, message: string): FastifyReply {
	return reply.code(400).send({ error: message });
}

function jsonBody(raw: string): Record<string, unknown> | undefined {
	const parsed = parseJson(raw === '' ? '{}' : raw);
	return parsed.ok && isPlainObject(parsed.value) ? parsed.value : undefined;
}

/**
 * Registers:
 * GET/DELETE /_sandbox/log; GET /_sandbox/clock; POST /_sandbox/clock/advance {ms};
 * POST /_sandbox/clock/set {ms}; GET/POST/DELETE /_sandbox/faults (POST body = FaultSpec JSON with
 * `path` as an exact string or `*` glob, or `pathRegex` as a RegExp source);
 * POST /_sandbox/cashouts/:id/advance {to, rejectionCode?, rejectionReason?};
 * POST /_sandbox/refunds/:id/advance {to} (answers the refund record);
 * POST /_sandbox/deposits/:id/status {status} (no state machine; answers the deposit record);
 * POST /_sandbox/deposits/:id/omit-from-balance-report (the daily balance report leaves it out);
 * POST /_sandbox/merchants/:id/balance-report/shift {day, amount} (from that UTC day on, the
 * report's totalBalance is `amount` USD off what its nets carry);
 * GET/DELETE /_sandbox/notifications; POST /_sandbox/notifications/deliver-due -> {attempts};
 * POST /_sandbox/notifications/settle; POST /_sandbox/notifications/duplicate {n};
 * POST /_sandbox/notifications/hold; POST /_sandbox/notifications/release {order?} -> {released};
 * GET/POST /_sandbox/merchants/:id/notification-url {url | null};
 * GET/POST /_sandbox/merchants/:id/cashout-funds {usd} -> {merchantId, funds};
 * GET /_sandbox/merchants/:id/balances -> {merchantId, balances} (the GET /v1/balance entries);
 * POST /_sandbox/merchants/:id/balances {currency, available} (a local-currency balance) -> the same;
 * POST /_sandbox/sessions/expire; GET /_sandbox/credentials;
 * GET /_sandbox/created/cashouts -> [{cashoutId, externalId}] (the cashouts POST /v3/cashout made).
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: AdminContext): void {
	const { store, log, faults } = ctx;
	const clockBody = (): Record<string, unknown> => ({
		now: store.clock.now(),
		iso: toIsoSeconds(store.clock.now()),
	});

	app.get(`${ADMIN_PREFIX}/log`, async () => log.entries());
	app.get(`${ADMIN_PREFIX}/created/cashouts`, async () =>
		store.createdCashouts.map((entry) => ({
			cashoutId: entry.cashoutId,
			externalId: entry.request.external_id,
		})),
	);
	app.delete(`${ADMIN_PREFIX}/log`, async () => {
		log.clear();
		return { cleared: true };
	});

	app.get(`${ADMIN_PREFIX}/clock`, async () => clockBody());
	for (const op of ['advance', 'set'] as const) {
		app.post(`${ADMIN_PREFIX}/clock/${op}`, async (request, reply) => {
			const body = jsonBody(rawBodyOf(request));
			if (!body || typeof body.ms !== 'number' || !Number.isFinite(body.ms))
				return bad(reply, 'body must be {"ms": <number>}');
			if (op === 'advance') store.clock.advance(body.ms);
			else store.clock.set(body.ms);
			return clockBody();
		});
	}

	app.get(`${ADMIN_PREFIX}/faults`, async () => ({ pending: faults.pending() }));
	app.delete(`${ADMIN_PREFIX}/faults`, async () => {
		faults.clear();
		return { pending: 0 };
	});
	app.post(`${ADMIN_PREFIX}/faults`, async (request, reply) => {
		const body = jsonBody(rawBodyOf(request));
		if (!body) return bad(reply, 'body must be a FaultSpec JSON object');
		const { pathRegex, ...rest } = body;
		const spec = rest as unknown as FaultSpec;
		try {
			if (typeof pathRegex === 'string') spec.path = new RegExp(pathRegex);
			faults.add(spec);
		} catch (error) {
			return bad(reply, error instanceof Error ? error.message : String(error));
		}
		return { pending: faults.pending() };
	});

	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/cashouts/:id/advance`,
		async (request, reply) => {
			const body = jsonBody(rawBodyOf(request));
			const to = body?.to;
			if (to !== 'DELIVERED' && to !== 'COMPLETED' && to !== 'REJECTED')
				return bad(reply, 'body.to must be DELIVERED, COMPLETED or REJECTED');
			const rejection =
				typeof body?.rejectionCode === 'number' || typeof body?.rejectionReason === 'string'
					? {
							code: typeof body.rejectionCode === 'number' ? body.rejectionCode : 0,
							reason: typeof body.rejectionReason === 'string' ? body.rejectionReason : '',
						}
					: undefined;
			try {
				store.advanceCashout(Number(request.params.id), to, rejection);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return structuredClone(store.cashout(Number(request.params.id))?.rec);
		},
	);

	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/refunds/:id/advance`,
		async (request, reply) => {
			const to = jsonBody(rawBodyOf(request))?.to;
			if (typeof to !== 'string' || !REFUND_TARGETS.includes(to as RefundAdvanceTarget))
				return bad(reply, `body.to must be one of ${REFUND_TARGETS.join(', ')}`);
			try {
				store.advanceRefund(Number(request.params.id), to as RefundAdvanceTarget);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return structuredClone(store.refund(Number(request.params.id))?.rec);
		},
	);

	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/deposits/:id/status`,
		async (request, reply) => {
			const status = jsonBody(rawBodyOf(request))?.status;
			if (typeof status !== 'string' || status === '')
				return bad(reply, 'body must be {"status": "<status>"}');
			try {
				store.setStatus('deposit', Number(request.params.id), status);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return structuredClone(store.deposit(Number(request.params.id))?.rec);
		},
	);

	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/deposits/:id/omit-from-balance-report`,
		async (request, reply) => {
			try {
				store.omitFromBalanceReport(Number(request.params.id));
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return { depositId: Number(request.params.id), omittedFromBalanceReport: true };
		},
	);

	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/balance-report/shift`,
		async (request, reply) => {
			const body = jsonBody(rawBodyOf(request));
			if (typeof body?.day !== 'string' || typeof body.amount !== 'number')
				return bad(reply, 'body must be {"day": "yyyy-MM-dd", "amount": <USD, not 0>}');
			const merchantId = Number(request.params.id);
			try {
				store.shiftBalanceReport(merchantId, body.day, body.amount);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return { merchantId, day: body.day, amount: body.amount };
		},
	);

	const notifications = store.notifier;
	app.get(`${ADMIN_PREFIX}/notifications`, async () => notifications.list());
	app.delete(`${ADMIN_PREFIX}/notifications`, async () => {
		notifications.clear();
		return { cleared: true };
	});
	app.post(`${ADMIN_PREFIX}/notifications/deliver-due`, async () => ({
		attempts: await notifications.deliverDue(),
	}));
	app.post(`${ADMIN_PREFIX}/notifications/settle`, async () => {
		await notifications.settle();
		return { settled: true };
	});
	app.post(`${ADMIN_PREFIX}/notifications/duplicate`, async (request, reply) => {
		const n = jsonBody(rawBodyOf(request))?.n;
		if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
			return bad(reply, 'body must be {"n": <integer >= 0>}');
		notifications.duplicate(n);
		return { duplicate: n };
	});
	app.post(`${ADMIN_PREFIX}/notifications/hold`, async () => {
		notifications.hold();
		return { holding: true };
	});
	app.post(`${ADMIN_PREFIX}/notifications/release`, async (request, reply) => {
		const order = jsonBody(rawBodyOf(request))?.order ?? 'queued';
		if (order !== 'queued' && order !== 'reverse')
			return bad(reply, 'body.order must be "queued" or "reverse"');
		return { released: await notifications.release({ order }) };
	});

	app.get<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/notification-url`,
		async (request) => {
			const merchantId = Number(request.params.id);
			return { merchantId, url: store.defaultNotificationUrl(merchantId) ?? null };
		},
	);
	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/notification-url`,
		async (request, reply) => {
			const body = jsonBody(rawBodyOf(request));
			const url = body?.url;
			if (url !== undefined && url !== null && typeof url !== 'string')
				return bad(reply, 'body must be {"url": "<http(s) URL>"} or {"url": null}');
			const merchantId = Number(request.params.id);
			try {
				store.setDefaultNotificationUrl(merchantId, typeof url === 'string' ? url : undefined);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return { merchantId, url: store.defaultNotificationUrl(merchantId) ?? null };
		},
	);

	app.get<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/cashout-funds`,
		async (request, reply) => {
			try {
				return {
					merchantId: Number(request.params.id),
					funds: store.cashoutFunds(Number(request.params.id)),
				};
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
		},
	);
	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/cashout-funds`,
		async (request, reply) => {
			const usd = jsonBody(rawBodyOf(request))?.usd;
			if (typeof usd !== 'number') return bad(reply, 'body must be {"usd": <number >= 0>}');
			const merchantId = Number(request.params.id);
			try {
				store.setCashoutFunds(merchantId, usd);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return { merchantId, funds: store.cashoutFunds(merchantId) };
		},
	);

	app.get<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/balances`,
		async (request, reply) => {
			try {
				const merchantId = Number(request.params.id);
				return { merchantId, balances: store.balance(merchantId).balances };
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
		},
	);
	app.post<{ Params: { id: string } }>(
		`${ADMIN_PREFIX}/merchants/:id/balances`,
		async (request, reply) => {
			const body = jsonBody(rawBodyOf(request));
			if (typeof body?.currency !== 'string' || typeof body.available !== 'number')
				return bad(
					reply,
					'body must be {"currency": "<ISO 4217, not USD>", "available": <number>}',
				);
			const merchantId = Number(request.params.id);
			try {
				store.setLocalBalance(merchantId, body.currency, body.available);
			} catch (error) {
				return bad(reply, error instanceof Error ? error.message : String(error));
			}
			return { merchantId, balances: store.balance(merchantId).balances };
		},
	);

	app.post(`${ADMIN_PREFIX}/sessions/expire`, async () => {
		store.expireSessions();
		return { expired: true };
	});

	app.get(`${ADMIN_PREFIX}/credentials`, async () => demoCredentials());
}
