/**
 * HTTP helpers shared by the routes: raw body, query and header access, JSON parsing, HMAC,
 * the four error-body families (service rules §4) and the session guard.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedOptions, SandboxStore, Session } from './store';

/** What every route module receives. */
export interface RouteContext {
	store: SandboxStore;
	options: ResolvedOptions;
	/** 'http://127.0.0.1:<port>' once listening. */
	baseUrl(): string;
}

/** The exact body string received ('' when there was none or it was multipart). */
export function rawBodyOf(request: FastifyRequest): string {
	return typeof request.body === 'string' ? request.body : '';
}

/** A query parameter (first value when repeated), or undefined. */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
	const query = request.query as Record<string, string | string[] | undefined>;
	const value = query[name];
	return Array.isArray(value) ? value[0] : value;
}

/** A request header (first value when repeated), or undefined. */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
	const value = request.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** A plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON.parse without throwing. */
export function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(raw) as unknown };
	} catch {
		return { ok: false };
	}
}

/** Lowercase hex HMAC-SHA256 of `message` (utf8) keyed with `key` (utf8). */
export function hmacHex(key: string, message: string): string {
	return createHmac('sha256', key).update(message, 'utf8').digest('hex');
}

/** Constant-time string equality. */
export function safeEqual(a: string, b: string): boolean {
	const x = Buffer.from(a, 'utf8');
	const y = Buffer.from(b, 'utf8');
	return x.length === y.length && timingSafeEqual(x, y);
}

/** Reporting API error: `{code:number, description, type?}`. */
export function reportingError(
	reply: FastifyReply,
	http: number,
	code: number,
	description: string,
	type?: string,
): FastifyReply {
	return reply
		.code(http)
		.send(type === undefined ? { code, description } : { code, description, type });
}

/** Ticket API error: `{code:string, message}`. */
export function ticketError(
	reply: FastifyReply,
	http: number,
	code: string,
	message: string,
): FastifyReply {
	return reply.code(http).send({ code, message });
}

/** Deposit/reference API error: `{code:number, description, type, details?}`. */
export function apiError(
	reply: FastifyReply,
	http: number,
	code: number,
	description: string,
	type: string,
	details?: string[],
): FastifyReply {
	return reply
		.code(http)
		.send(
			details === undefined ? { code, description, type } : { code, description, type, details },
		);
}

/** Cashout API error: `{code:number, message}`. */
export function cashoutError(
	reply: FastifyReply,
	http: number,
	code: number,
	message: string,
): FastifyReply {
	return reply.code(http).send({ code, message });
}

/** Session tokens the request carries: `Authorization: Bearer <t>` first, then `Cookie: BEARER_TOKEN=<t>`. */
export function sessionTokens(request: FastifyRequest): string[] {
	const tokens: string[] = [];
	const auth = headerOf(request, 'authorization');
	const bearer = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
	if (bearer) tokens.push(bearer[1]);
	const cookie = headerOf(request, 'cookie');
	if (cookie) {
		for (const part of cookie.split(';')) {
			const eq = part.indexOf('=');
			if (eq > 0 && part.slice(0, eq).trim() === 'BEARER_TOKEN')
				tokens.push(decodeURIComponent(part.slice(eq + 1).trim()));
		}
	}
	return tokens;
}

/** Text of the reporting 401 body. */
export const SESSION_INVALID_DESCRIPTION = 'Session expired or invalid token';

/**
 * Resolves the live session of a request (refreshing its idle timer) or answers 401:
 * reporting flavour `{code: 401, description}`, ticket flavour `{code: 'UNAUTHORIZED', message}`.
 */
export function requireSession(
	ctx: RouteContext,
	request: FastifyRequest,
	reply: FastifyReply,
	flavour: 'reporting' | 'ticket',
): Session | undefined {
	const session = ctx.store.useSession(sessionTokens(request));
	if (session) return session;
	if (flavour === 'reporting') reportingError(reply, 401, 401, SESSION_INVALID_DESCRIPTION);
	else ticketError(reply, 401, 'UNAUTHORIZED', SESSION_INVALID_DESCRIPTION);
	return undefined;
}
