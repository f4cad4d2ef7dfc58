import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { describeCashoutStatus } from '../../codes/cashoutStatus';
import { explainCashoutRefusal } from '../../transport/cashouts';
import type { Notification } from './parsing';
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
	/** A cashout's answer as the service sent it, without the ids the request added (§6.1). */
	raw?: IDataObject;
}

/** What a notification names, in words, e.g. `deposit 300123` or `cashout with external ID "p-7"`. */
export function describeRecord(notification: Notification): string {
	if (notification.kind === 'deposit') return `deposit ${notification.depositId}`;
	if (notification.cashoutId !== undefined) return `cashout ${notification.cashoutId}`;
	return `cashout with external ID "${notification.externalId ?? ''}"`;
}

/** What a status read found: the state, nothing (the service does not know the record), or ids that disagree. */
export type NotifiedRead =
	| { found: true; read: ReadState }
	| { found: false; mismatch?: undefined }
	| {
			found: false;
			/**
			 * Why the notified ids do not name one record (service rules §10.2), written for logs: ids and
			 * statuses only, never a secret.
			 */
			mismatch: string;
	  };

/**
 * Reads the state of the record `notification` names (service rules §10.1): deposits
 * `GET /v3/deposits/{id}` (§5.3), cashouts `POST /v3/cashout/status` (§6.1); safe reads, retried per
 * {@link NOTIFICATION_READ_RETRY}. A verified cashout is read by the `external_id` its `control`
 * authenticates; when the body also names a `cashout_id` (not authenticated), a second read sends
 * both ids at the same time, and the two answers must agree (§10.2) or the result is a mismatch.
 * @returns `{found: true, read}`; `{found: false}` when the service has no such record (208, 509);
 *   `{found: false, mismatch}` when the ids disagree.
 * @throws NodeApiError for any other failure, built from the service's answer only (never the
 *   request, which holds the secrets); NodeOperationError for a missing credential or Base URL.
 */
export async function readNotifiedState(
	context: RequestContext,
	notification: Notification,
): Promise<NotifiedRead> {
	if (
		notification.kind === 'cashout' &&
		notification.verified === true &&
		notification.externalId !== undefined
	) {
		const externalId = notification.externalId;
		const [byExternalId, byPair] = await Promise.all([
			readOrMiss(context, notification, { external_id: externalId }),
			notification.cashoutId === undefined
				? Promise.resolve(undefined)
				: readOrMiss(context, notification, {
						cashout_id: notification.cashoutId,
						external_id: externalId,
					}),
		]);
		if (!byExternalId) return { found: false };
		const mismatch = cashoutMismatch(notification.cashoutId, externalId, byExternalId, byPair);
		if (mismatch) return { found: false, mismatch };
		const state: IDataObject = { ...byExternalId.state, external_id: externalId };
		if (notification.cashoutId !== undefined) state.cashout_id = notification.cashoutId;
		return { found: true, read: { state, status: byExternalId.status } };
	}
	const body: IDataObject | undefined =
		notification.kind === 'deposit'
			? undefined
			: notification.cashoutId === undefined
				? { external_id: notification.externalId }
				: { cashout_id: notification.cashoutId };
	const read = await readOrMiss(context, notification, body);
	return read ? { found: true, read } : { found: false };
}

/**
 * Why the two reads of a verified cashout notification do not describe one cashout, or undefined
 * when they do (service rules §10.2). `byPair` is undefined when the body named no `cashout_id`
 * (nothing to check), `null` when the service did not find the pair.
 */
export function cashoutMismatch(
	cashoutId: number | undefined,
	externalId: string,
	byExternalId: ReadState,
	byPair: ReadState | null | undefined,
): string | undefined {
	const named = (state: IDataObject, field: string) =>
		state[field] === undefined || state[field] === null || state[field] === ''
			? undefined
			: String(state[field]);
	for (const answer of [byExternalId, byPair]) {
		if (!answer) continue;
		const id = named(answer.raw ?? {}, 'cashout_id');
		if (cashoutId !== undefined && id !== undefined && id !== String(cashoutId))
			return `the service answers cashout_id ${id} for the notified cashout_id ${cashoutId}`;
		const external = named(answer.raw ?? {}, 'external_id');
		if (external !== undefined && external !== externalId)
			return 'the service answers another external_id than the one the control authenticates';
	}
	if (byPair === undefined || cashoutId === undefined) return undefined;
	if (byPair === null)
		return `the service finds no cashout with cashout_id ${cashoutId} and the authenticated external_id`;
	const rejection = (state: IDataObject) => String(state.rejection_code ?? '');
	if (
		byPair.status !== byExternalId.status ||
		rejection(byPair.state) !== rejection(byExternalId.state)
	)
		return `cashout_id ${cashoutId} is ${byPair.status}, the cashout of the authenticated external_id is ${byExternalId.status}`;
	return undefined;
}

/** One read: the state, `null` when the service does not know the record, else throws. */
async function readOrMiss(
	context: RequestContext,
	notification: Notification,
	cashoutBody: IDataObject | undefined,
): Promise<ReadState | null> {
	const outcome = await readRecordState(context, notification, cashoutBody).then(
		(read) => ({ read }),
		(error: unknown) => ({ error }),
	);
	if ('read' in outcome) return outcome.read;
	if (isNotFound(outcome.error, notification)) return null;
	// The client throws only n8n's errors; anything else is wrapped so n8n shows it as the node's.
	if (outcome.error instanceof NodeApiError || outcome.error instanceof NodeOperationError)
		throw outcome.error;
	throw new NodeOperationError(context.getNode(), outcome.error as Error);
}

async function readRecordState(
	context: RequestContext,
	notification: Notification,
	cashoutBody: IDataObject | undefined,
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
	const body = cashoutBody ?? {};
	const answer = await client.request<IDataObject>(
		{ family: 'cashout', method: 'POST', path: '/v3/cashout/status', body, repeat: 'safe' },
		{
			action: `Reading the status of notified ${what}`,
			itemIndex: 0,
			explain: explainCashoutRefusal(
				body.cashout_id !== undefined
					? (body.cashout_id as number)
					: `with external ID "${String(body.external_id ?? '')}"`,
				'read',
				'known',
			),
		},
	);
	// The answer as the service sent it (the spec's has no ids), kept apart from the ids added below.
	const raw: IDataObject = answer && typeof answer === 'object' ? { ...answer } : {};
	const state: IDataObject = describeCashoutStatus({ ...raw });
	for (const field of ['cashout_id', 'external_id'] as const)
		if (state[field] === undefined && body[field] !== undefined) state[field] = body[field];
	const status = state.cashout_status_name ?? state.cashout_status;
	return { state, raw, status: status === undefined || status === null ? '' : String(status) };
}

/** Whether `error` is the service saying the notified record does not exist (service rules §4). */
function isNotFound(error: unknown, notification: Notification): boolean {
	if (!(error instanceof NodeApiError)) return false;
	// Only the service's own code counts: a bare 404 (e.g. a Base URL pointing elsewhere) is a
	// failure to read, answered 5xx, so the notification is not acknowledged by mistake.
	return isServiceCode(error, notification.kind === 'cashout' ? 509 : 208);
}
