/**
 * Refund API (service rules §7; signed like deposit creation, §2.3; idempotency §5.2):
 * POST /v3/refunds and GET /v3/refunds/:id.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { toSpaceDateTime } from '../clock';
import { INVOICE_ID_MAX_LENGTH, REFUND_COMMENTS_MAX_LENGTH, URL_MAX_LENGTH } from '../constants';
import { refundTypeOf, type DepositEntry, type RefundEntry } from '../data';
import { decimalText } from '../depositValidation';
import { apiError, isPlainObject, queryParam, rawBodyOf, type RouteContext } from '../http';
import { tinyPdf } from '../pdf';
import { COUNTRIES, findMethod } from '../reference';
import type { SandboxStore } from '../store';
import { authenticateDepositApi, DEPOSIT_VALIDATION_CODE, startKeyedCreation } from './deposits';

/** Deposit statuses that can be refunded (service rules §7). */
const REFUNDABLE_DEPOSIT_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'APPROVED']);
/** Keys of `bank_account` a bank-transfer refund needs (missing -> 804). */
const REQUIRED_BANK_KEYS = ['beneficiary', 'bank_code', 'account_number'] as const;

/** v3 view of a stored refund status: WAITING_DETAILS (reporting) is INCORRECT_DETAILS in the v3 API. */
export function v3RefundStatus(status: string): string {
	return status === 'WAITING_DETAILS' ? 'INCORRECT_DETAILS' : status;
}

/** Deterministic voucher of a refund (a tiny PDF). */
export function refundVoucherBytes(refund: RefundEntry): Buffer {
	return tinyPdf(
		`Refund ${refund.id} of deposit ${refund.rec.idBoleto} - ${refund.rec.amount} ${refund.rec.refundCurrency} - ${refund.rec.status} - ${refund.rec.date}`,
	);
}

function hasText(value: unknown): boolean {
	return (
		(typeof value === 'string' && value.trim() !== '') ||
		(typeof value === 'number' && Number.isFinite(value))
	);
}

function isHttpsUrl(text: string): boolean {
	try {
		return new URL(text).protocol === 'https:';
	} catch {
		return false;
	}
}

/** The merchant's visible deposit named by deposit_id and/or invoice_id (both must agree), else undefined. */
function findDeposit(
	store: SandboxStore,
	merchantId: number,
	depositId: number | undefined,
	invoiceId: string | undefined,
): DepositEntry | undefined {
	const own = (d: DepositEntry | undefined): d is DepositEntry =>
		d !== undefined && d.merchantId === merchantId && store.isVisible(d);
	if (depositId !== undefined) {
		const byId = store.deposit(depositId);
		if (!own(byId) || (invoiceId !== undefined && byId.rec.externalId !== invoiceId))
			return undefined;
		return byId;
	}
	// Invoice ids are not unique: the newest deposit with that invoice id wins.
	const matches = store.deposits.filter((d) => own(d) && d.rec.externalId === invoiceId);
	return matches.reduce<DepositEntry | undefined>(
		(best, d) =>
			best === undefined ||
			d.createdMs > best.createdMs ||
			(d.createdMs === best.createdMs && d.id > best.id)
				? d
				: best,
		undefined,
	);
}

/**
 * Registers:
 * - POST /v3/refunds (headers of deposit creation, X-Idempotency-Key required). Checks in order:
 *   header checks (101/105/100/103/102) -> key already used by a deposit or refund creation ->
 *   400/104; body not a JSON object or invalid fields -> 400/300 with `details`; deposit unknown,
 *   another merchant's, or deposit_id and invoice_id naming different deposits -> 404/208; deposit
 *   not COMPLETED/APPROVED -> 400/300; amount <= 0, over 2 decimals, not a decimal, or above what
 *   remains refundable (or nothing remains) -> 400/802 INVALID_AMOUNT_TO_REFUND; bank-transfer
 *   deposit without a complete bank_account -> 400/804 MISSING_BANK_ACCOUNT. Success: 201
 *   `{refund_id}` (+ `refund_info` for card deposits); a PENDING refund in /v1/refund; the key is used up.
 * - GET /v3/refunds/:id (signed with an empty body) -> `{deposit_id, merchant_invoice_id, status,
 *   amount}`, plus `voucher` (base64 PDF) with `?voucher=true`; unknown or another merchant's -> 404/208.
 */
export function registerRefundRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store } = ctx;
	const invalid = (reply: FastifyReply, details: string[]): FastifyReply =>
		apiError(reply, 400, DEPOSIT_VALIDATION_CODE, 'Invalid request', 'INVALID_REQUEST', details);

	app.post('/v3/refunds', async (request, reply) => {
		const started = startKeyedCreation(request, reply, store);
		if (!started) return reply;
		const { account, idempotencyKey, body } = started;
		const value = (key: string): unknown => (body[key] === null ? undefined : body[key]);

		const details: string[] = [];
		const depositIdValue = value('deposit_id');
		const invoiceIdValue = value('invoice_id');
		if (
			depositIdValue !== undefined &&
			!(
				typeof depositIdValue === 'number' &&
				Number.isInteger(depositIdValue) &&
				depositIdValue > 0
			)
		) {
			details.push('deposit_id: must be a positive integer');
		}
		if (
			invoiceIdValue !== undefined &&
			(typeof invoiceIdValue !== 'string' ||
				invoiceIdValue === '' ||
				invoiceIdValue.length > INVOICE_ID_MAX_LENGTH)
		) {
			details.push(
				`invoice_id: must be a non-empty string of at most ${INVOICE_ID_MAX_LENGTH} characters`,
			);
		}
		if (depositIdValue === undefined && invoiceIdValue === undefined)
			details.push('deposit_id: deposit_id or invoice_id is required');
		const comments = value('comments');
		if (
			comments !== undefined &&
			(typeof comments !== 'string' || comments.length > REFUND_COMMENTS_MAX_LENGTH)
		) {
			details.push(
				`comments: must be a string of at most ${REFUND_COMMENTS_MAX_LENGTH} characters`,
			);
		}
		const notificationUrl = value('notification_url');
		if (
			notificationUrl !== undefined &&
			(typeof notificationUrl !== 'string' ||
				notificationUrl.length > URL_MAX_LENGTH ||
				!isHttpsUrl(notificationUrl))
		) {
			details.push('notification_url: must be a valid HTTPS URL');
		}
		const bankAccount = value('bank_account');
		if (bankAccount !== undefined && !isPlainObject(bankAccount))
			details.push('bank_account: must be an object');
		if (details.length > 0) return invalid(reply, details);

		const deposit = findDeposit(
			store,
			account.merchantId,
			typeof depositIdValue === 'number' ? depositIdValue : undefined,
			typeof invoiceIdValue === 'string' ? invoiceIdValue : undefined,
		);
		if (!deposit) return apiError(reply, 404, 208, 'Deposit not found', 'RESOURCE_NOT_FOUND');
		if (!REFUNDABLE_DEPOSIT_STATUSES.has(deposit.rec.status)) {
			return invalid(reply, [
				`deposit_id: deposit ${deposit.id} is ${deposit.rec.status}; only COMPLETED deposits can be refunded`,
			]);
		}

		const remaining = store.refundableCents(deposit);
		const amountValue = value('amount');
		let cents: number;
		if (amountValue === undefined) {
			cents = remaining;
		} else {
			const text = decimalText(amountValue);
			cents = text === undefined ? NaN : Math.round(Number(text) * 100);
		}
		if (!Number.isFinite(cents) || cents <= 0 || cents > remaining) {
			const left = `${(remaining / 100).toFixed(2)} ${deposit.rec.localCurrency}`;
			return apiError(
				reply,
				400,
				802,
				`Invalid amount to refund: must be a positive amount with at most 2 decimals, at most ${left} (left to refund)`,
				'INVALID_AMOUNT_TO_REFUND',
			);
		}

		const type = refundTypeOf(deposit.rec);
		const bank = isPlainObject(bankAccount) ? bankAccount : undefined;
		if (type === 'BANK_TRANSFER') {
			const missing = REQUIRED_BANK_KEYS.filter((key) => !hasText(bank?.[key]));
			if (missing.length > 0) {
				const what = bank
					? `bank_account.${missing.join(', bank_account.')} missing`
					: 'bank_account missing';
				return apiError(
					reply,
					400,
					804,
					`Missing bank account: deposits paid with ${deposit.rec.paymentMethodName || 'this method'} are refunded by bank transfer (${what})`,
					'MISSING_BANK_ACCOUNT',
				);
			}
			const code = String(bank?.bank_code);
			if (!COUNTRIES[deposit.rec.country]?.banks.some((b) => String(b.code) === code)) {
				return invalid(reply, [
					`bank_account.bank_code: must be a bank of ${deposit.rec.country} (see GET /v3/banks)`,
				]);
			}
		}

		const amount = cents / 100;
		const full = cents === Math.round(deposit.rec.localAmount * 100);
		const bankFields =
			type === 'BANK_TRANSFER' && bank
				? {
						beneficiary: String(bank.beneficiary),
						bankCode: String(bank.bank_code),
						bankName:
							COUNTRIES[deposit.rec.country]?.banks.find(
								(b) => String(b.code) === String(bank.bank_code),
							)?.name ?? '',
						branchNumber: hasText(bank.branch) ? String(bank.branch) : '',
						bankAccount: String(bank.account_number),
						accountType: hasText(bank.account_type) ? String(bank.account_type) : '',
					}
				: {};
		const entry = store.addRefund({
			idMerchant: account.merchantId,
			visibleAt: store.clock.now() + store.reportLagMs,
			idBoleto: deposit.id,
			status: 'PENDING',
			amount,
			amountType: full ? 'FULL' : 'PARTIAL',
			comments: typeof comments === 'string' ? comments : '',
			...bankFields,
		});
		entry.viaApi = true;
		if (typeof notificationUrl === 'string') entry.notificationUrl = notificationUrl;
		deposit.rec.refundAttempted = true;
		store.useIdempotencyKey(account.merchantId, idempotencyKey);

		const nowMs = store.clock.now();
		const response: Record<string, unknown> = { refund_id: entry.id };
		if (type === 'CREDIT_CARD') {
			const method = findMethod(deposit.rec.country, deposit.rec.paymentMethodCode);
			response.refund_info = {
				type: 'CREDIT_CARD',
				result: 'SUCCESS',
				reason: 'Refund accepted by the card acquirer',
				reason_code: '00',
				payment_method: deposit.rec.paymentMethodCode,
				payment_method_name: method?.name ?? deposit.rec.paymentMethodName,
				amount,
				currency: deposit.rec.localCurrency,
				created_at: toSpaceDateTime(nowMs),
			};
		}
		store.createdRefunds.push({
			refundId: entry.id,
			depositId: deposit.id,
			merchantId: account.merchantId,
			idempotencyKey,
			request: structuredClone(body),
			rawBody: rawBodyOf(request),
			response: structuredClone(response),
			createdAt: nowMs,
		});
		return reply.code(201).send(response);
	});

	app.get<{ Params: { id: string } }>('/v3/refunds/:id', async (request, reply) => {
		const auth = authenticateDepositApi(request, reply, false);
		if (!auth) return reply;
		const refund = /^\d+$/.test(request.params.id)
			? store.refund(Number(request.params.id))
			: undefined;
		if (!refund || refund.merchantId !== auth.account.merchantId || !store.isVisible(refund)) {
			return apiError(
				reply,
				404,
				208,
				`Refund ${request.params.id} not found`,
				'RESOURCE_NOT_FOUND',
			);
		}
		const result: Record<string, unknown> = {
			deposit_id: refund.rec.idBoleto,
			merchant_invoice_id: store.deposit(refund.rec.idBoleto)?.rec.externalId ?? '',
			status: v3RefundStatus(refund.rec.status),
			amount: refund.rec.amount,
		};
		if (queryParam(request, 'voucher') === 'true')
			result.voucher = refundVoucherBytes(refund).toString('base64');
		return result;
	});
}
