/**
 * Cashout API (service rules §6: creation, update status, cancel, status, statuses and transitions,
 * rejection codes; §2.4 Payload-Signature; §4 cashout error codes).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateCashoutBody, type CashoutCreation } from '../cashoutValidation';
import {
	CASHOUT_CONTACT_REQUIRED_COUNTRIES,
	CASHOUT_CREDENTIAL_MAX_LENGTH,
	CASHOUT_MAX_AMOUNT_USD,
	CASHOUT_MIN_AMOUNT_USD,
	KYC_BLOCKED_DOCUMENT_PATTERN,
	KYC_REFUSAL_CODE,
} from '../constants';
import { cashoutFee, type CashoutEntry } from '../data';
import { CASHOUT_ACCOUNTS } from '../demo';
import {
	cashoutError,
	headerOf,
	hmacHex,
	isPlainObject,
	parseJson,
	rawBodyOf,
	safeEqual,
	type RouteContext,
} from '../http';
import { CASHOUT_STATUS_CODES } from '../reference';
import type { SandboxStore } from '../store';

type CashoutAccount = (typeof CASHOUT_ACCOUNTS)[number];

/** Cashout status result (service rules §6.1). */
export function statusResult(entry: CashoutEntry): Record<string, unknown> {
	const known = CASHOUT_STATUS_CODES[entry.rec.status] ?? {
		code: -1,
		description: entry.rec.status,
	};
	const result: Record<string, unknown> = {
		cashout_status: known.code,
		cashout_status_description: known.description,
	};
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
function authenticate(
	request: FastifyRequest,
	reply: FastifyReply,
): { account: CashoutAccount; body: Record<string, unknown> } | undefined {
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
		cashoutError(
			reply,
			400,
			302,
			'Invalid control string: Payload-Signature does not match the body',
		);
		return undefined;
	}
	return { account, body };
}

/** A refusal of a valid creation request: code and message of the cashout error body. */
interface Refusal {
	code: number;
	message: string;
}

/**
 * Checks about the beneficiary and the merchant, in order: KYC (document_id of one repeated digit)
 * -> 101; amount below CASHOUT_MIN_AMOUNT_USD -> 533; above CASHOUT_MAX_AMOUNT_USD -> 508; amount +
 * fee above the merchant's cashout funds -> 514. Amounts are compared in USD (unrounded conversion).
 */
function businessRefusal(
	store: SandboxStore,
	merchantId: number,
	c: CashoutCreation,
): Refusal | undefined {
	if (KYC_BLOCKED_DOCUMENT_PATTERN.test(c.documentId)) {
		return {
			code: KYC_REFUSAL_CODE,
			message: 'USER_REJECTED_KYC_CHECK: the beneficiary did not pass the KYC check',
		};
	}
	if (c.usdExact < CASHOUT_MIN_AMOUNT_USD) {
		const min =
			c.currency === 'USD'
				? CASHOUT_MIN_AMOUNT_USD
				: Math.ceil(CASHOUT_MIN_AMOUNT_USD * c.country.fxRate * 100) / 100;
		return {
			code: 533,
			message: `Invalid Amount. The minimum amount is ${c.currency} ${min.toFixed(2)} or equivalent in USD`,
		};
	}
	if (c.usdExact > CASHOUT_MAX_AMOUNT_USD) {
		return {
			code: 508,
			message: `Limit exceeded: TRANSACTION (at most USD ${CASHOUT_MAX_AMOUNT_USD.toFixed(2)} or equivalent per cashout)`,
		};
	}
	if (c.usdAmount + cashoutFee(c.usdAmount) > store.cashoutFunds(merchantId))
		return { code: 514, message: 'Insufficient funds' };
	return undefined;
}

function isId(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/**
 * Registers POST /v3/cashout (creation), PUT /v3/cashout/status (PENDING <-> ON_HOLD),
 * DELETE /v3/cashout/cancel (from PENDING or ON_HOLD, cashout_id + external_id must match) and
 * POST /v3/cashout/status (by cashout_id or external_id). Invalid params -> 400/300; unknown or
 * another merchant's cashout -> 412/509; refused transition -> 412/510 naming the current status.
 *
 * Creation answers 200 `{cashout_id: '<digits>'}` (a string) and creates a PENDING cashout (ON_HOLD
 * with `on_hold: true`). Refusals, each 400 `{code, message}`, in order: 300 invalid params
 * ({@link validateCashoutBody}); 303 bank_code not among the country's banks; 540 no e-mail and no
 * phone for a country of CASHOUT_CONTACT_REQUIRED_COUNTRIES; 511 external_id already used by a
 * non-DECLINED cashout of the merchant; then {@link businessRefusal} (101 KYC, 533, 508, 514),
 * which also records a DECLINED cashout (reason = the message) in the reporting list.
 */
export function registerCashoutRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store } = ctx;

	/** The merchant's cashout with `id`, or undefined. */
	const ownCashout = (merchantId: number, id: number): CashoutEntry | undefined => {
		const entry = store.cashout(id);
		return entry && entry.merchantId === merchantId && store.isVisible(entry) ? entry : undefined;
	};
	const notFound = (reply: FastifyReply): FastifyReply =>
		cashoutError(reply, 412, 509, 'Cashout not found');

	app.post('/v3/cashout', async (request, reply) => {
		const auth = authenticate(request, reply);
		if (!auth) return reply;
		const { body, account } = auth;
		const validation = validateCashoutBody(body);
		if (!validation.ok)
			return cashoutError(reply, 400, 300, `Invalid params: ${validation.problems.join('; ')}`);
		const c = validation.creation;
		if (c.bankCode !== undefined && !c.country.banks.some((b) => b.code === c.bankCode)) {
			return cashoutError(
				reply,
				400,
				303,
				`Invalid bank code: ${c.bankCode} is not a bank of ${c.country.code} (see GET /v3/banks)`,
			);
		}
		if (
			CASHOUT_CONTACT_REQUIRED_COUNTRIES.includes(c.country.code) &&
			c.email === undefined &&
			c.phone === undefined
		) {
			return cashoutError(reply, 400, 540, 'Beneficiary email or phone is required');
		}
		const merchantId = account.merchantId;
		if (
			store.cashouts.some(
				(e) =>
					e.merchantId === merchantId &&
					e.rec.externalId === c.externalId &&
					e.rec.status !== 'DECLINED',
			)
		) {
			return cashoutError(reply, 400, 511, `External ID already used: ${c.externalId}`);
		}
		const fields = {
			idMerchant: merchantId,
			country: c.country.code,
			externalId: c.externalId,
			clientDocument: c.documentId,
			merchantAmount: c.usdAmount,
			amount: c.localAmount,
			creditedAmount: c.localAmount,
		};
		const refusal = businessRefusal(store, merchantId, c);
		if (refusal) {
			store.addCashout({ ...fields, status: 'DECLINED', reason: refusal.message });
			return cashoutError(reply, 400, refusal.code, refusal.message);
		}
		const entry = store.addCashout({
			...fields,
			onHold: c.onHold,
			notificationUrl: c.notificationUrl,
			visibleAt: store.clock.now() + store.reportLagMs,
		});
		entry.viaApi = true;
		if (c.comments !== undefined) entry.comments = c.comments;
		const response = { cashout_id: String(entry.id) };
		store.createdCashouts.push({
			cashoutId: entry.id,
			merchantId,
			initialStatus: c.onHold ? 'ON_HOLD' : 'PENDING',
			request: structuredClone(body),
			rawBody: rawBodyOf(request),
			response: { ...response },
			createdAt: store.clock.now(),
		});
		return response;
	});

	app.put('/v3/cashout/status', async (request, reply) => {
		const auth = authenticate(request, reply);
		if (!auth) return reply;
		const { body, account } = auth;
		if (!isId(body.cashout_id))
			return cashoutError(reply, 400, 300, 'Invalid params: cashout_id must be a positive integer');
		if (body.status !== 'PENDING' && body.status !== 'ON_HOLD')
			return cashoutError(reply, 400, 300, 'Invalid params: status must be PENDING or ON_HOLD');
		const entry = ownCashout(account.merchantId, body.cashout_id);
		if (!entry) return notFound(reply);
		const from = entry.rec.status;
		const allowedFrom = body.status === 'ON_HOLD' ? 'PENDING' : 'ON_HOLD';
		if (from !== allowedFrom) {
			return cashoutError(
				reply,
				412,
				510,
				`Invalid status transition: cashout ${entry.id} is ${from}; ${body.status} can only be set from ${allowedFrom}`,
			);
		}
		store.setCashoutStatus(entry, body.status);
		return statusResult(entry);
	});

	app.delete('/v3/cashout/cancel', async (request, reply) => {
		const auth = authenticate(request, reply);
		if (!auth) return reply;
		const { body, account } = auth;
		if (!isId(body.cashout_id))
			return cashoutError(reply, 400, 300, 'Invalid params: cashout_id must be a positive integer');
		if (typeof body.external_id !== 'string' || body.external_id === '')
			return cashoutError(reply, 400, 300, 'Invalid params: external_id is required');
		const entry = ownCashout(account.merchantId, body.cashout_id);
		if (!entry || entry.rec.externalId !== body.external_id) return notFound(reply);
		const from = entry.rec.status;
		if (from !== 'PENDING' && from !== 'ON_HOLD') {
			return cashoutError(
				reply,
				412,
				510,
				`Invalid status transition: cashout ${entry.id} is ${from}; only PENDING or ON_HOLD cashouts can be cancelled`,
			);
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
		if (!hasId && !hasExternal)
			return cashoutError(reply, 400, 300, 'Invalid params: cashout_id or external_id is required');
		if (hasId && !isId(body.cashout_id))
			return cashoutError(reply, 400, 300, 'Invalid params: cashout_id must be a positive integer');
		if (hasExternal && (typeof body.external_id !== 'string' || body.external_id === '')) {
			return cashoutError(
				reply,
				400,
				300,
				'Invalid params: external_id must be a non-empty string',
			);
		}
		let entry: CashoutEntry | undefined;
		if (isId(body.cashout_id)) {
			entry = ownCashout(account.merchantId, body.cashout_id);
			if (
				entry &&
				hasExternal &&
				ctx.options.cashoutStatusPair === 'both' &&
				entry.rec.externalId !== body.external_id
			)
				entry = undefined;
		} else {
			// A DECLINED creation may share the external_id of the cashout that was created later: prefer the live one.
			const matches = store.cashouts.filter(
				(c) =>
					c.merchantId === account.merchantId &&
					c.rec.externalId === body.external_id &&
					store.isVisible(c),
			);
			entry = matches.find((c) => c.rec.status !== 'DECLINED') ?? matches[0];
		}
		if (!entry) return notFound(reply);
		return statusResult(entry);
	});
}
