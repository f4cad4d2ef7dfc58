/**
 * Status-change notifications (service rules §10): the merchants' default notification URLs and the
 * bodies of deposit and cashout notifications, queued on the notification center.
 */
import { toSpaceDateTime } from '../clock';
import type { CashoutEntry, DepositEntry } from '../data';
import { CASHOUT_ACCOUNTS } from '../demo';
import { hmacHex } from '../http';
import { merchantById } from '../reference';
import type { StoreState } from './state';

/** Sets or clears (undefined) the default notification URL of `merchantId`; throws on a bad URL or merchant. */
export function setDefaultNotificationUrl(
	state: StoreState,
	merchantId: number,
	url: string | undefined,
): void {
	merchantById(merchantId);
	if (url === undefined) {
		state.defaultNotificationUrls.delete(merchantId);
		return;
	}
	let protocol = '';
	try {
		protocol = new URL(url).protocol;
	} catch {
		// invalid: handled below
	}
	if (protocol !== 'http:' && protocol !== 'https:')
		throw new Error(`default notification URL must be an absolute http(s) URL, got ${url}`);
	state.defaultNotificationUrls.set(merchantId, url);
}

/** The default notification URL of `merchantId`, if set. */
export function defaultNotificationUrl(state: StoreState, merchantId: number): string | undefined {
	return state.defaultNotificationUrls.get(merchantId);
}

/** Queues `{"deposit_id": N}` (JSON) to the deposit's URL, else the merchant's default; nothing without either. */
export function notifyDeposit(state: StoreState, entry: DepositEntry): void {
	const url = entry.notificationUrl ?? state.defaultNotificationUrls.get(entry.merchantId);
	if (url === undefined) return;
	state.notifier.queue({
		kind: 'deposit',
		merchantId: entry.merchantId,
		recordId: entry.id,
		recordStatus: entry.rec.status,
		url,
		contentType: 'application/json',
		body: JSON.stringify({ deposit_id: entry.id }),
	});
}

/**
 * Queues the form-encoded cashout notification to the cashout's URL (nothing without one):
 * date (`yyyy-MM-dd HH:mm:ss`, GMT, sandbox clock), bank_reference_id (`bank-ref-<id>` once the bank
 * has it: DELIVERED, COMPLETED, REJECTED; else ''), comments (of the creation body, else ''),
 * external_id, control, cashout_id, status_reason (the rejection reason of REJECTED, else '').
 * `control` = upper-case hex HMAC-SHA256 keyed with the merchant's cashout secret over
 * "Be4" + external_id + "Bo7", as the provider publishes it.
 */
export function notifyCashout(state: StoreState, entry: CashoutEntry): void {
	const url = entry.notificationUrl;
	if (url === undefined) return;
	const secret =
		CASHOUT_ACCOUNTS.find((a) => a.merchantId === entry.merchantId)?.apiSignature ??
		`sandbox-cashout-secret-${entry.merchantId}`;
	const status = entry.rec.status;
	const form = new URLSearchParams({
		date: toSpaceDateTime(state.clock.now()),
		bank_reference_id: ['DELIVERED', 'COMPLETED', 'REJECTED'].includes(status)
			? `bank-ref-${entry.id}`
			: '',
		comments: entry.comments ?? '',
		external_id: entry.rec.externalId,
		control: hmacHex(secret, `Be4${entry.rec.externalId}Bo7`).toUpperCase(),
		cashout_id: String(entry.id),
		status_reason: status === 'REJECTED' ? (entry.rejection?.reason ?? entry.rec.reason) : '',
	});
	state.notifier.queue({
		kind: 'cashout',
		merchantId: entry.merchantId,
		recordId: entry.id,
		recordStatus: status,
		url,
		contentType: 'application/x-www-form-urlencoded',
		body: form.toString(),
	});
}
