/**
 * The fastify server of the sandbox: raw-body parsing, request logging, latency, fault injection,
 * JSON error/404 bodies and the route modules.
 */
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_ATTACHMENT_BYTES, MAX_BODY_BYTES } from './constants';
import type { FaultRegistry } from './faults';
import type { RouteContext } from './http';
import type { RequestLogStore } from './log';
import { requestState, setRequestState } from './requestState';
import { ADMIN_PREFIX, registerAdminRoutes } from './routes/admin';
import { registerAuthRoutes } from './routes/auth';
import { registerCashoutRoutes } from './routes/cashouts';
import { registerDepositRoutes } from './routes/deposits';
import { registerReferenceRoutes } from './routes/reference';
import { registerRefundRoutes } from './routes/refunds';
import { registerReportingRoutes } from './routes/reporting';
import { registerTicketRoutes } from './routes/tickets';

/** Dependencies of {@link buildServer}. */
export interface ServerDeps extends RouteContext {
	log: RequestLogStore;
	faults: FaultRegistry;
	/** Current artificial latency (ms). */
	latencyMs(): number;
}

/** application/json, optionally with parameters (charset) or a +json suffix type. */
const JSON_CONTENT_TYPE = /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i;

function isAdmin(url: string): boolean {
	return (
		url === ADMIN_PREFIX || url.startsWith(`${ADMIN_PREFIX}/`) || url.startsWith(`${ADMIN_PREFIX}?`)
	);
}

function flatten(record: Record<string, unknown>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(record)) {
		if (value === undefined) continue;
		out[key] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
	}
	return out;
}

function destroySocket(request: FastifyRequest): void {
	request.raw.socket?.destroy();
}

/**
 * Builds the fastify instance (not listening). Every non-admin request is logged; latency and
 * 'before' faults run in preHandler (after body parsing, before the route); 'after' faults replace
 * or drop the answer in onSend, after the route changed the state.
 */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
	const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES, forceCloseConnections: true });
	app.removeAllContentTypeParsers();
	// Keep the exact body bytes of every non-multipart request: signatures are verified over them.
	app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
	await app.register(multipart, { limits: { fileSize: MAX_ATTACHMENT_BYTES } });

	app.addHook('onRequest', async (request) => {
		if (isAdmin(request.url)) return;
		const queryIndex = request.url.indexOf('?');
		setRequestState(request, {
			entry: deps.log.begin({
				at: deps.store.clock.now(),
				method: request.method.toUpperCase(),
				path: queryIndex < 0 ? request.url : request.url.slice(0, queryIndex),
				query: flatten(request.query as Record<string, unknown>),
				headers: flatten(request.headers as Record<string, unknown>),
			}),
		});
	});

	app.addHook('preHandler', async (request, reply) => {
		const state = requestState(request);
		if (!state) return;
		if (typeof request.body === 'string' && request.body !== '') state.entry.rawBody = request.body;
		const latency = deps.latencyMs();
		if (latency > 0) await sleep(latency);
		const fault = deps.faults.take(
			state.entry.method,
			state.entry.path,
			state.entry.query,
			state.entry.rawBody,
		);
		if (!fault) return;
		if (fault.phase === 'after') {
			state.afterFault = fault;
			return;
		}
		state.entry.fault = fault.label;
		if (fault.kind === 'reset') {
			state.entry.status = 0;
			deps.log.answered(state.entry);
			reply.hijack();
			destroySocket(request);
			return;
		}
		await reply.code(fault.status).headers(fault.headers).send(fault.body);
	});

	// Service rules §1: bodies are JSON. A non-empty, non-multipart body with another Content-Type -> 415.
	app.addHook('preHandler', async (request, reply) => {
		if (!requestState(request) || typeof request.body !== 'string' || request.body === '') return;
		if (JSON_CONTENT_TYPE.test(request.headers['content-type'] ?? '')) return;
		await reply.code(415).send({ code: 415, description: 'Content-Type must be application/json' });
	});

	app.addHook('onSend', async (request, reply, payload) => {
		const state = requestState(request);
		if (!state) return payload;
		// The service's clock is the sandbox's (service rules §3.4): answers carry it as `Date`.
		reply.header('date', new Date(deps.store.clock.now()).toUTCString());
		deps.log.answered(state.entry);
		const fault = state.afterFault;
		if (!fault) {
			state.entry.status = reply.statusCode;
			deps.log.setResponse(state.entry, payload);
			return payload;
		}
		state.entry.fault = fault.label;
		if (fault.kind === 'reset') {
			state.entry.status = 0;
			deps.log.setResponse(state.entry, payload);
			destroySocket(request);
			return payload;
		}
		reply.code(fault.status).headers(fault.headers).type('application/json; charset=utf-8');
		state.entry.status = fault.status;
		deps.log.setResponse(state.entry, fault.body, true);
		return JSON.stringify(fault.body ?? null);
	});

	app.setErrorHandler(async (error: { statusCode?: number; message: string }, _request, reply) => {
		const status =
			typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
		return reply.code(status).send({ code: status, description: error.message });
	});
	app.setNotFoundHandler(async (request, reply) => {
		return reply.code(404).send({
			code: 404,
			description: `Route ${request.method} ${request.url.split('?')[0]} not found`,
		});
	});

	registerAuthRoutes(app, deps);
	registerReportingRoutes(app, deps);
	registerTicketRoutes(app, deps);
	registerDepositRoutes(app, deps);
	registerCashoutRoutes(app, deps);
	registerRefundRoutes(app, deps);
	registerReferenceRoutes(app, deps);
	registerAdminRoutes(app, deps);
	return app;
}
