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
const REFUND_TARGETS: readonly RefundAdvanceTarget[] = ['PENDING', 'DELIVERED', 'COMPLETED', 'REJECTED', 'CANCELLED', 'INCORRECT_DETAILS'];

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
 * POST /_sandbox/sessions/expire; GET /_sandbox/credentials.
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: AdminContext): void {
	const { store, log, faults } = ctx;
	const clockBody = (): Record<string, unknown> => ({ now: store.clock.now(), iso: toIsoSeconds(store.clock.now()) });

	app.get(`${ADMIN_PREFIX}/log`, async () => log.entries());
	app.delete(`${ADMIN_PREFIX}/log`, async () => {
		log.clear();
		return { cleared: true };
	});

	app.get(`${ADMIN_PREFIX}/clock`, async () => clockBody());
	for (const op of ['advance', 'set'] as const) {
		app.post(`${ADMIN_PREFIX}/clock/${op}`, async (request, reply) => {
			const body = jsonBody(rawBodyOf(request));
			if (!body || typeof body.ms !== 'number' || !Number.isFinite(body.ms)) return bad(reply, 'body must be {"ms": <number>}');
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

	app.post<{ Params: { id: string } }>(`${ADMIN_PREFIX}/cashouts/:id/advance`, async (request, reply) => {
		const body = jsonBody(rawBodyOf(request));
		const to = body?.to;
		if (to !== 'DELIVERED' && to !== 'COMPLETED' && to !== 'REJECTED') return bad(reply, 'body.to must be DELIVERED, COMPLETED or REJECTED');
		const rejection =
			typeof body?.rejectionCode === 'number' || typeof body?.rejectionReason === 'string'
				? { code: typeof body.rejectionCode === 'number' ? body.rejectionCode : 0, reason: typeof body.rejectionReason === 'string' ? body.rejectionReason : '' }
				: undefined;
		try {
			store.advanceCashout(Number(request.params.id), to, rejection);
		} catch (error) {
			return bad(reply, error instanceof Error ? error.message : String(error));
		}
		return structuredClone(store.cashout(Number(request.params.id))?.rec);
	});

	app.post<{ Params: { id: string } }>(`${ADMIN_PREFIX}/refunds/:id/advance`, async (request, reply) => {
		const to = jsonBody(rawBodyOf(request))?.to;
		if (typeof to !== 'string' || !REFUND_TARGETS.includes(to as RefundAdvanceTarget)) return bad(reply, `body.to must be one of ${REFUND_TARGETS.join(', ')}`);
		try {
			store.advanceRefund(Number(request.params.id), to as RefundAdvanceTarget);
		} catch (error) {
			return bad(reply, error instanceof Error ? error.message : String(error));
		}
		return structuredClone(store.refund(Number(request.params.id))?.rec);
	});

	app.post(`${ADMIN_PREFIX}/sessions/expire`, async () => {
		store.expireSessions();
		return { expired: true };
	});

	app.get(`${ADMIN_PREFIX}/credentials`, async () => demoCredentials());
}
