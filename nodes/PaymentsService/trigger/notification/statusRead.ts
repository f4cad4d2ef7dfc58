import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { cashoutCall, explainCashoutRefusal } from '../../transport/cashouts';
import type { Notification } from './notifications';
import type { RetryPolicy } from '../../transport/retry';
import { PaymentsClient, type RequestContext } from '../../transport/client';
import { isServiceCode } from '../../transport/errors';

/**
 * Retries of a status read while the service waits for the notification's answer: 3 attempts
 * within 3 seconds (backoff ceilings 0.25 s, 0.5 s; a `Retry-After` of up to 2 s honoured). Short,
 * because a failed read is answered 5xx and the service sends the notification again later
 * (service rules §10), and because the sender stops waiting for an answer after a few seconds.
 */
export const NOTIFICATION_READ_RETRY: Readonly<RetryPolicy> = {
	maxAttempts: 3,
	baseDelayMs: 250,
	maxDelayMs: 1_000,
	maxRetryAfterMs: 2_000,
	budgetMs: 3_000,
};

/** The authoritative state of the record a notification names, with its status as text. */
export interface ReadState {
	/**
	 * What the service answered: the deposit status (service rules §5.3), or the cashout status
	 * (§6.1) with `cashout_status_name`, `rejection_code_name` (§6.3), `cashout_id` and `external_id`
	 * added as the action node adds them.
	 */
	state: IDataObject;
	/** The status the record is in: a deposit's `status`, a cashout's `cashout_status_name`. */
	status: string;
}

/** What a notification names, in words, e.g. `deposit 300123` or `cashout with external ID "p-7"`. */
export function describeRecord(notification: Notification): string {
	if (notification.kind === 'deposit') return `deposit ${notification.depositId}`;
	if (notification.cashoutId !== undefined) return `cashout ${notification.cashoutId}`;
	return `cashout with external ID "${notification.externalId ?? ''}"`;
}

/**
 * Reads the state of the record `notification` names: deposits `GET /v3/deposits/{id}` with the
 * deposit credential (service rules §5.3); cashouts `POST /v3/cashout/status` by `cashout_id`, else
 * by `external_id`, with the cashout credential (§6.1). Safe reads: retried per
 * {@link NOTIFICATION_READ_RETRY}.
 *
 * @returns the state, or `undefined` when the service says the record does not exist for this
 *   merchant (deposit: code 208; cashout: code 509).
 * @throws NodeApiError for any other failure (network, 5xx, 429, wrong credential…), built from the
 *   service's answer only, never from the request (it holds the secrets).
 * @throws NodeOperationError when the credential is missing or its Base URL is not a URL.
 */
export async function readNotifiedState(
	context: RequestContext,
	notification: Notification,
): Promise<ReadState | undefined> {
	const outcome = await readRecordState(context, notification).then(
		(read) => ({ read }),
		(error: unknown) => ({ error }),
	);
	if ('read' in outcome) return outcome.read;
	if (isNotFound(outcome.error, notification)) return undefined;
	// The client throws only n8n's errors; anything else is wrapped so n8n shows it as the node's.
	if (outcome.error instanceof NodeApiError || outcome.error instanceof NodeOperationError)
		throw outcome.error;
	throw new NodeOperationError(context.getNode(), outcome.error as Error);
}

async function readRecordState(
	context: RequestContext,
	notification: Notification,
): Promise<ReadState> {
	const what = describeRecord(notification);
	if (notification.kind === 'deposit') {
		const client = new PaymentsClient(context, 'deposit', { retry: NOTIFICATION_READ_RETRY });
		const answer = await client.request<IDataObject>(
			{ family: 'payments', method: 'GET', path: `/v3/deposits/${notification.depositId}` },
			{ action: `Reading the status of notified ${what}` },
		);
		const state: IDataObject = answer && typeof answer === 'object' ? { ...answer } : {};
		return {
			state,
			status: typeof state.status === 'string' ? state.status : String(state.status ?? ''),
		};
	}
	const client = new PaymentsClient(context, 'cashout', { retry: NOTIFICATION_READ_RETRY });
	// A verified notification's external_id is authenticated (§10.2): sent with cashout_id, the
	// service answers only when both name the same cashout, so a genuine control pasted next to
	// another cashout_id reads nothing.
	const body: IDataObject =
		notification.cashoutId === undefined
			? { external_id: notification.externalId }
			: notification.verified === true && notification.externalId !== undefined
				? { cashout_id: notification.cashoutId, external_id: notification.externalId }
				: { cashout_id: notification.cashoutId };
	const [item] = await cashoutCall(client, 'POST', body, {
		action: `Reading the status of notified ${what}`,
		itemIndex: 0,
		explain: explainCashoutRefusal(
			notification.cashoutId ?? `with external ID "${notification.externalId ?? ''}"`,
			'read',
			'known',
		),
	});
	const state = item.json;
	const status = state.cashout_status_name ?? state.cashout_status;
	return { state, status: status === undefined || status === null ? '' : String(status) };
}

/** Whether `error` is the service saying the notified record does not exist (service rules §4). */
function isNotFound(error: unknown, notification: Notification): boolean {
	if (!(error instanceof NodeApiError)) return false;
	// Only the service's own code counts: a bare 404 (e.g. a Base URL pointing elsewhere) is a
	// failure to read, answered 5xx, so the notification is not acknowledged by mistake.
	return isServiceCode(error, notification.kind === 'cashout' ? 509 : 208);
}
