/**
 * Deposit API (service rules §5.1 creation, §5.2 idempotency, §5.3 status, §2.3 signature, §4 errors):
 * POST /v3/deposits, GET /v3/deposits/:id and the hosted checkout / payment pages they point to.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toSpaceDateTime } from '../clock';
import { DEPOSIT_AUTH_PREFIX, MS_PER_MINUTE, X_DATE_MAX_SKEW_MS } from '../constants';
import { round2, type DepositEntry } from '../data';
import { DEPOSIT_ACCOUNTS } from '../demo';
import { decimalText, hasValue, validateDepositBody } from '../depositValidation';
import {
	apiError,
	hmacHex,
	headerOf,
	isPlainObject,
	parseJson,
	rawBodyOf,
	safeEqual,
	type RouteContext,
} from '../http';
import { digitableLine, pixCopyPaste, qrPngBase64 } from '../qr';
import {
	COUNTRIES,
	findMethod,
	merchantById,
	type CountryInfo,
	type PaymentMethodInfo,
} from '../reference';

/** Sandbox choice: code/type of a deposit field validation failure (service rules §4 give no deposit-specific one; 300 = invalid params). */
export const DEPOSIT_VALIDATION_CODE = 300;
/** Strict X-Date format: yyyy-MM-dd'T'HH:mm:ss'Z'. */
const X_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

type DepositAccount = (typeof DEPOSIT_ACCOUNTS)[number];

/**
 * Checks the deposit API headers in this order: missing X-Date / X-Login / Authorization (and
 * X-Idempotency-Key on POST) -> 400/101 (an empty X-Date/X-Login/Authorization counts as missing);
 * empty X-Idempotency-Key -> 400/105; unknown X-Login -> 401/100; X-Date malformed or more than
 * 5 minutes from the SYSTEM clock -> 400/103; Authorization != 'D24 ' + hex HMAC-SHA256(secret,
 * X-Date + X-Login + raw body) -> 400/102. Answers and returns undefined on failure. Also used by the
 * refund calls, which are signed the same way (service rules §7).
 */
export function authenticateDepositApi(
	request: FastifyRequest,
	reply: FastifyReply,
	needsIdempotencyKey: boolean,
): { account: DepositAccount; idempotencyKey: string } | undefined {
	const names = [
		'X-Date',
		'X-Login',
		'Authorization',
		...(needsIdempotencyKey ? ['X-Idempotency-Key'] : []),
	];
	for (const name of names) {
		const value = headerOf(request, name);
		if (value === undefined || (name !== 'X-Idempotency-Key' && value.trim() === '')) {
			apiError(reply, 400, 101, `Missing header: ${name}`, 'MISSING_HEADER');
			return undefined;
		}
	}
	const idempotencyKey = headerOf(request, 'X-Idempotency-Key') ?? '';
	if (needsIdempotencyKey && idempotencyKey.trim() === '') {
		apiError(reply, 400, 105, 'Header X-Idempotency-Key must not be empty', 'EMPTY_HEADER');
		return undefined;
	}
	const xLogin = headerOf(request, 'X-Login') ?? '';
	const xDate = headerOf(request, 'X-Date') ?? '';
	const account = DEPOSIT_ACCOUNTS.find((a) => a.apiKey === xLogin);
	if (!account) {
		apiError(reply, 401, 100, 'Invalid credentials', 'INVALID_CREDENTIALS');
		return undefined;
	}
	const dateMs = X_DATE_PATTERN.test(xDate) ? Date.parse(xDate) : NaN;
	if (Number.isNaN(dateMs) || Math.abs(dateMs - Date.now()) > X_DATE_MAX_SKEW_MS) {
		apiError(
			reply,
			400,
			103,
			"X-Date is invalid or out of range: use yyyy-MM-dd'T'HH:mm:ss'Z' (UTC) within 5 minutes of now",
			'INVALID_DATE',
		);
		return undefined;
	}
	const expected =
		DEPOSIT_AUTH_PREFIX + hmacHex(account.apiSignature, xDate + xLogin + rawBodyOf(request));
	if (!safeEqual(headerOf(request, 'Authorization') ?? '', expected)) {
		apiError(reply, 400, 102, 'Invalid signature', 'INVALID_SIGNATURE');
		return undefined;
	}
	return { account, idempotencyKey };
}

/**
 * The start of a keyed creation of the Deposit API (POST /v3/deposits, POST /v3/refunds): the
 * request authenticated with its idempotency key ({@link authenticateDepositApi}), a key already used
 * refused (400/104, service rules §5.2), the body read as a JSON object (else 400 with
 * `DEPOSIT_VALIDATION_CODE`). Answers and returns undefined on failure.
 */
export function startKeyedCreation(
	request: FastifyRequest,
	reply: FastifyReply,
	store: RouteContext['store'],
): { account: DepositAccount; idempotencyKey: string; body: Record<string, unknown> } | undefined {
	const auth = authenticateDepositApi(request, reply, true);
	if (!auth) return undefined;
	const { account, idempotencyKey } = auth;
	if (store.isIdempotencyKeyUsed(account.merchantId, idempotencyKey)) {
		const message = `Idempotency key '${idempotencyKey}' was already used`;
		apiError(reply, 400, 104, message, 'IDEMPOTENCY_KEY_ALREADY_USED');
		return undefined;
	}
	const parsed = parseJson(rawBodyOf(request));
	if (!parsed.ok || !isPlainObject(parsed.value)) {
		apiError(reply, 400, DEPOSIT_VALIDATION_CODE, 'Invalid request', 'INVALID_REQUEST', [
			'body: must be a JSON object',
		]);
		return undefined;
	}
	return { account, idempotencyKey, body: parsed.value };
}

/** Method-specific payment data of a ONE_SHOT answer. */
function paymentArtefacts(
	method: PaymentMethodInfo,
	country: CountryInfo,
	depositId: number,
	localAmount: number,
	merchantName: string,
	payer: Record<string, unknown>,
): { metadata: Record<string, string>; qrText: string; line: string } {
	const reference = String(depositId);
	const payerDocument = typeof payer.document === 'string' ? payer.document : '';
	const payerDocumentType = typeof payer.document_type === 'string' ? payer.document_type : '';
	switch (method.code) {
		case 'PX': {
			const code = pixCopyPaste(
				`pix-${depositId}@sandbox.example`,
				localAmount,
				merchantName,
				`D${depositId}`,
			);
			return {
				metadata: {
					beneficiary_name: merchantName,
					reference,
					payer_document: payerDocument,
					payer_document_type: payerDocumentType,
				},
				qrText: code,
				line: code,
			};
		}
		case 'BL': {
			const line = digitableLine(depositId, localAmount);
			const barCode = line.replace(/\D/g, '').slice(0, 44);
			return {
				metadata: {
					bar_code: barCode,
					digitable_line: line,
					reference,
					Bank: 'Banco do Brasil',
					payer_document: payerDocument,
					payer_document_type: payerDocumentType,
				},
				qrText: barCode,
				line,
			};
		}
		case 'SE': {
			const clabe = `646180${String(depositId).padStart(12, '0')}`.slice(0, 18);
			return {
				metadata: { Beneficiary_Name: merchantName, account: clabe, Bank: 'STP', reference },
				qrText: `SPEI|${clabe}|${localAmount.toFixed(2)}|${reference}`,
				line: clabe,
			};
		}
		case 'OX': {
			const barCode = `9300${String(depositId).padStart(10, '0')}${String(Math.round(localAmount * 100)).padStart(10, '0')}`;
			return { metadata: { reference, bar_code: barCode }, qrText: barCode, line: barCode };
		}
		default: {
			const providerReference = `${method.code}${String(depositId).padStart(10, '0')}`;
			return {
				metadata: {
					provider_reference: providerReference,
					reference,
					Bank: country.banks[0]?.name ?? method.name,
				},
				qrText: `${method.name}|${providerReference}|${localAmount.toFixed(2)}`,
				line: providerReference,
			};
		}
	}
}

/** v3 view status of a reporting status (APPROVED shows as COMPLETED; others unchanged). */
export function v3Status(status: string): string {
	return status === 'APPROVED' ? 'COMPLETED' : status;
}

/** Registers POST /v3/deposits, GET /v3/deposits/:id, GET /checkout/:token and GET /payment/:token. */
export function registerDepositRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store } = ctx;
	const pages = new Map<string, number>();

	app.post('/v3/deposits', async (request, reply) => {
		const started = startKeyedCreation(request, reply, store);
		if (!started) return reply;
		const { account, idempotencyKey, body } = started;
		const { details, effective } = validateDepositBody(body);
		if (details.length > 0)
			return apiError(
				reply,
				400,
				DEPOSIT_VALIDATION_CODE,
				'Invalid request',
				'INVALID_REQUEST',
				details,
			);

		const merchant = merchantById(account.merchantId);
		const country = COUNTRIES[effective.country as string];
		const currency = effective.currency as string;
		const amount = Number(decimalText(effective.amount));
		const localAmount = currency === 'USD' ? round2(amount * country.fxRate) : amount;
		const usdAmount = currency === 'USD' ? amount : round2(amount / country.fxRate);
		const method =
			typeof effective.payment_method === 'string'
				? findMethod(country.code, effective.payment_method)
				: undefined;
		const payer = isPlainObject(effective.payer) ? effective.payer : {};
		const userId =
			typeof payer.id === 'string' && payer.id !== ''
				? payer.id
				: `u${randomBytes(6).toString('hex')}`;
		const invoiceId =
			typeof effective.invoice_id === 'string' && effective.invoice_id !== ''
				? effective.invoice_id
				: `inv${randomBytes(8).toString('hex')}`;
		const oneShot =
			method?.oneShotRequired !== undefined &&
			method.oneShotRequired.every((path) => hasValue(effective, path));
		const nowMs = store.clock.now();

		const entry = store.addDeposit(
			{
				idMerchant: merchant.id,
				visibleAt: nowMs + store.reportLagMs,
				country: country.code,
				paymentMethodCode: method?.code ?? '',
				paymentMethodName: method?.name ?? '',
				requestedPaymentMethod: method?.code ?? '',
				requestedPaymentMethodName: method?.name ?? '',
				amount: usdAmount,
				requestedAmount: amount,
				requestedCurrency: currency,
				localAmount,
				externalId: invoiceId,
				clientId: userId,
				clientDocument: typeof payer.document === 'string' ? payer.document : '',
				idUser: userId,
				status: 'PENDING',
				notificationUrl:
					typeof effective.notification_url === 'string' ? effective.notification_url : undefined,
			},
			{ ...payer, id: userId },
			typeof effective.payment_type === 'string' ? effective.payment_type : (method?.kind ?? 'ALL'),
		);
		store.useIdempotencyKey(merchant.id, idempotencyKey);
		const token = randomBytes(12).toString('hex');
		pages.set(token, entry.id);
		const response: Record<string, unknown> = {
			checkout_type: oneShot ? 'ONE_SHOT' : 'HOSTED',
			redirect_url: `${ctx.baseUrl()}/${oneShot ? 'payment' : 'checkout'}/${token}`,
			deposit_id: entry.id,
			user_id: userId,
			merchant_invoice_id: invoiceId,
		};
		if (oneShot && method) {
			const expirationMinutes =
				effective.expiration === undefined || effective.expiration === null
					? method.defaultExpirationMinutes
					: Number(effective.expiration);
			const art = paymentArtefacts(method, country, entry.id, localAmount, merchant.name, payer);
			response.payment_info = {
				type: method.kind,
				payment_method: method.code,
				payment_method_name: method.name,
				amount: localAmount,
				currency: country.currency,
				expiration_date: toSpaceDateTime(nowMs + expirationMinutes * MS_PER_MINUTE),
				created_at: toSpaceDateTime(nowMs),
				metadata: art.metadata,
				secondary_metadata: {
					reference: String(entry.id),
					qr_code: await qrPngBase64(art.qrText),
					digitable_line: art.line,
				},
			};
		}
		store.createdDeposits.push({
			depositId: entry.id,
			merchantId: merchant.id,
			idempotencyKey,
			checkoutType: oneShot ? 'ONE_SHOT' : 'HOSTED',
			request: structuredClone(body),
			rawBody: rawBodyOf(request),
			response: structuredClone(response),
			createdAt: nowMs,
		});
		return reply.code(201).send(response);
	});

	app.get<{ Params: { id: string } }>('/v3/deposits/:id', async (request, reply) => {
		const auth = authenticateDepositApi(request, reply, false);
		if (!auth) return reply;
		const deposit: DepositEntry | undefined = /^\d+$/.test(request.params.id)
			? store.deposit(Number(request.params.id))
			: undefined;
		if (!deposit || deposit.merchantId !== auth.account.merchantId || !store.isVisible(deposit)) {
			return apiError(
				reply,
				404,
				208,
				`Deposit ${request.params.id} not found`,
				'RESOURCE_NOT_FOUND',
			);
		}
		const rec = deposit.rec;
		return {
			deposit_id: rec.idDeposit,
			invoice_id: rec.externalId,
			user_id: rec.clientId,
			country: rec.country,
			currency: rec.requestedCurrency,
			local_amount: rec.localAmount,
			usd_amount: rec.amount,
			payment_method: rec.paymentMethodCode,
			payment_type: deposit.paymentType,
			status: v3Status(rec.status),
			payer: structuredClone(deposit.payer),
			fee_amount: rec.fee,
			fee_currency: rec.feeCurrency,
		};
	});

	for (const kind of ['checkout', 'payment'] as const) {
		app.get<{ Params: { token: string } }>(`/${kind}/:token`, async (request, reply) => {
			const id = pages.get(request.params.token);
			const deposit = id === undefined ? undefined : store.deposit(id);
			if (!deposit)
				return reply
					.code(404)
					.type('text/html; charset=utf-8')
					.send('<!doctype html><title>Not found</title><p>Unknown checkout link.</p>');
			const title = kind === 'checkout' ? 'Hosted checkout (sandbox)' : 'Payment details (sandbox)';
			return reply
				.type('text/html; charset=utf-8')
				.send(
					`<!doctype html><title>${title}</title><h1>${title}</h1><p>Deposit ${deposit.id}: ${deposit.rec.localAmount} ${deposit.rec.localCurrency} (${deposit.rec.status})</p>`,
				);
		});
	}
}
