/**
 * Cashout API (service rules §6: creation, update status, cancel, status, statuses and transitions,
 * rejection codes; §2.4 Payload-Signature; §4 cashout error codes).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CASHOUT_CREDENTIAL_MAX_LENGTH } from '../constants';
import type { CashoutEntry } from '../data';
import { CASHOUT_ACCOUNTS } from '../demo';
import { cashoutError, headerOf, hmacHex, isPlainObject, parseJson, rawBodyOf, safeEqual, type RouteContext } from '../http';
import { CASHOUT_STATUS_CODES } from '../reference';

type CashoutAccount = (typeof CASHOUT_ACCOUNTS)[number];

/** Cashout status result (service rules §6.1). */
export function statusResult(entry: CashoutEntry): Record<string, unknown> {
	const known = CASHOUT_STATUS_CODES[entry.rec.status] ?? { code: -1, description: entry.rec.status };
	const result: Record<string, unknown> = { cashout_status: known.code, cashout_status_description: known.description };
	if (entry.rec.status === 'REJECTED' && entry.rejection) {
		result.rejection_code = entry.rejection.code;
		result.rejection_reason = entry.rejection.reason;
	}
	return result;
}

/**
 * Common checks, in order: Payload-Signature header missing -> 400/302; body not a JSON object ->
 * 400/502; login/pass missing or wrong -> 401/401; Payload-Signature != lowercase hex
 * HMAC-SHA256(account secret, raw body) -> 400/302. Answers and returns undefined on failure.
 */
function authenticate(request: FastifyRequest, reply: FastifyReply): { account: CashoutAccount; body: Record<string, unknown> } | undefined {
	const signature = headerOf(request, 'Payload-Signature');
	if (signature === undefined || signature.trim() === '') {
		cashoutError(reply, 400, 302, 'Invalid control string: missing Payload-Signature header');
		return undefined;
	}
	const raw = rawBodyOf(request);
	const parsed = parseJson(raw);
	if (!parsed.ok || !isPlainObject(parsed.value)) {
		cashoutError(reply, 400, 502, 'Invalid JSON body');
		return undefined;
	}
	const body = parsed.value;
	const account = CASHOUT_ACCOUNTS.find(
		(a) =>
			typeof body.login === 'string' &&
			typeof body.pass === 'string' &&
			body.login.length <= CASHOUT_CREDENTIAL_MAX_LENGTH &&
			body.pass.length <= CASHOUT_CREDENTIAL_MAX_LENGTH &&
			a.login === body.login &&
			a.pass === body.pass,
	);
	if (!account) {
		cashoutError(reply, 401, 401, 'Invalid credentials');
		return undefined;
	}
	if (!safeEqual(signature, hmacHex(account.apiSignature, raw))) {
		cashoutError(reply, 400, 302, 'Invalid control string: Payload-Signature does not match the body');
		return undefined;
	}
	return { account, body };
}

function isId(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/**
 * Registers PUT /v3/cashout/status (PENDING <-> ON_HOLD), DELETE /v3/cashout/cancel (from PENDING or
 * ON_HOLD, cashout_id + external_id must match) and POST /v3/cashout/status (by cashout_id or
 * external_id). Invalid params -> 400/300; unknown or another merchant's cashout -> 412/509;
 * refused transition -> 412/510 naming the current status.
 */
export function registerCashoutRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store } = ctx;

	/** The merchant's cashout with `id`, or undefined. */
	const ownCashout = (merchantId: number, id: number): CashoutEntry | undefined => {
		const entry = store.cashout(id);
		return entry && entry.merchantId === merchantId && store.isVisible(entry) ? entry : undefined;
	};
	const notFound = (reply: FastifyReply): FastifyReply => cashoutError(reply, 412, 509, 'Cashout not found');

	app.put('/v3/cashout/status', async (request, reply) => {
		const auth = authenticate(request, reply);
		if (!auth) return reply;
		const { body, account } = auth;
		if (!isId(body.cashout_id)) return cashoutError(reply, 400, 300, 'Invalid params: cashout_id must be a positive integer');
		if (body.status !== 'PENDING' && body.status !== 'ON_HOLD') return cashoutError(reply, 400, 300, 'Invalid params: status must be PENDING or ON_HOLD');
		const entry = ownCashout(account.merchantId, body.cashout_id);
		if (!entry) return notFound(reply);
		const from = entry.rec.status;
		const allowedFrom = body.status === 'ON_HOLD' ? 'PENDING' : 'ON_HOLD';
		if (from !== allowedFrom) {
			return cashoutError(reply, 412, 510, `Invalid status transition: cashout ${entry.id} is ${from}; ${body.status} can only be set from ${allowedFrom}`);
		}
		store.setCashoutStatus(entry, body.status);
		return statusResult(entry);
	});

	app.delete('/v3/cashout/cancel', async (request, reply) => {
		const auth = authenticate(request, reply);
		if (!auth) return reply;
		const { body, account } = auth;
		if (!isId(body.cashout_id)) return cashoutError(reply, 400, 300, 'Invalid params: cashout_id must be a positive integer');
		if (typeof body.external_id !== 'string' || body.external_id === '') return cashoutError(reply, 400, 300, 'Invalid params: external_id is required');
		const entry = ownCashout(account.merchantId, body.cashout_id);
		if (!entry || entry.rec.externalId !== body.external_id) return notFound(reply);
		const from = entry.rec.status;
		if (from !== 'PENDING' && from !== 'ON_HOLD') {
			return cashoutError(reply, 412, 510, `Invalid status transition: cashout ${entry.id} is ${from}; only PENDING or ON_HOLD cashouts can be cancelled`);
		}
		store.setCashoutStatus(entry, 'CANCELLED');
		return statusResult(entry);
	});

	app.post('/v3/cashout/status', async (request, reply) => {
		const auth = authenticate(request, reply);
		if (!auth) return reply;
		const { body, account } = auth;
		const hasId = body.cashout_id !== undefined && body.cashout_id !== null;
		const hasExternal = body.external_id !== undefined && body.external_id !== null;
		if (!hasId && !hasExternal) return cashoutError(reply, 400, 300, 'Invalid params: cashout_id or external_id is required');
		if (hasId && !isId(body.cashout_id)) return cashoutError(reply, 400, 300, 'Invalid params: cashout_id must be a positive integer');
		if (hasExternal && (typeof body.external_id !== 'string' || body.external_id === '')) {
			return cashoutError(reply, 400, 300, 'Invalid params: external_id must be a non-empty string');
		}
		let entry: CashoutEntry | undefined;
		if (isId(body.cashout_id)) {
			entry = ownCashout(account.merchantId, body.cashout_id);
			if (entry && hasExternal && entry.rec.externalId !== body.external_id) entry = undefined;
		} else {
			entry = store.cashouts.find((c) => c.merchantId === account.merchantId && c.rec.externalId === body.external_id && store.isVisible(c));
		}
		if (!entry) return notFound(reply);
		return statusResult(entry);
	});
}
