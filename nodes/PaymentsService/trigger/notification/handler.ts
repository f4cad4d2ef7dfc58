import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	bodyLimitProblem,
	controlMatches,
	isMalformed,
	parseNotification,
	pruneMemory,
	readMemory,
	recentFinalStatus,
	memoryKey,
	rememberStatus,
	sameSecret,
	type Notification,
	type NotificationKind,
} from './notifications';
import { describeRecord, readNotifiedState } from './statusRead';
import { isoSeconds } from '../../codes/dates';

/** Key of the trigger's memory in the node's workflow static data. */
export const MEMORY_KEY = 'notifications';

/** The Notifications parameter's values and the kinds each one takes (`both`: version 1 only). */
export const KINDS_BY_CHOICE: Readonly<Record<string, readonly NotificationKind[]>> = {
	both: ['deposit', 'cashout'],
	deposits: ['deposit'],
	cashouts: ['cashout'],
};

/** What the trigger did with a notification, as its answer says. */
type Outcome = 'emitted' | 'duplicate' | 'filtered' | 'not-found' | 'not-selected';

/**
 * Writes the answer to the notification's request: `status` with a small JSON body of ids and
 * outcome only (never a secret, never the body received). The node answers itself, as n8n's Webhook
 * node does, so that n8n saves the static data at once (see README, "Notification Trigger").
 */
function answer(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const response = context.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/** The id a notification names, for answers and logs. */
function notifiedId(notification: Notification): number | string {
	if (notification.kind === 'deposit') return notification.depositId;
	return notification.cashoutId ?? notification.externalId ?? '';
}

/** The answer body of a handled notification. */
function reply(kind: NotificationKind, id: number | string, outcome: Outcome): IDataObject {
	return { received: true, kind, id, outcome };
}

/**
 * The change a notification reports, as one string: `<kind>:<id>:<status>`, e.g.
 * `cashout:4711:REJECTED` or `deposit:300123:COMPLETED`. The status is the one read from the
 * service; the id is the deposit id, the cashout id, or (a cashout notification naming only its
 * `external_id`, whose status answer carries no id) the external ID. So every copy of a notification
 * for the same change gives the same key, and another change another one. A workflow records it under a unique key in its own database to act once per change (README,
 * "Once per change, guaranteed").
 */
export function changeKey(
	kind: NotificationKind,
	read: { state: IDataObject; status: string },
	notifiedId: number | string,
): string {
	const readId = kind === 'cashout' ? read.state.cashout_id : read.state.deposit_id;
	const id =
		typeof readId === 'number' || (typeof readId === 'string' && readId !== '')
			? readId
			: notifiedId;
	return `${kind}:${String(id)}:${read.status}`;
}

function isEmptyObject(value: unknown): boolean {
	return (
		!!value &&
		typeof value === 'object' &&
		!Buffer.isBuffer(value) &&
		Object.keys(value).length === 0
	);
}

/** The last segment of the request's path: where the URL secret sits (`…/webhook/<secret>`). */
function lastPathSegment(context: IWebhookFunctions): string {
	const request = context.getRequestObject() as unknown as { path?: unknown; url?: unknown };
	const path =
		typeof request.path === 'string'
			? request.path
			: typeof request.url === 'string'
				? request.url.split('?')[0]
				: '';
	return path.split('/').pop() ?? '';
}

/**
 * Handles one POST to the Notification Trigger (service rules §10), in this order, so that a forged
 * or oversized request costs no status read and no memory write:
 *
 * 1. URL secret (when set): the path's last segment compared in constant time; wrong → 401.
 * 2. Body limits (§10.4): over 16 KiB → 413; deeper than 4 levels or more than 200 values → 400.
 * 3. Parsing: no id to read → 400.
 * 4. Kind not selected → 200, nothing read.
 * 5. Cashout `control` (§10.2, unless Verify Cashout Control is off): wrong or missing → 401; a
 *    verified cashout is read by the `external_id` the control authenticates, never by the body's
 *    `cashout_id`.
 * 6. Memory (response mode "When Received" only): a record read in a final status less than 10
 *    minutes ago is answered 200 `duplicate` without a read.
 * 7. Status read (a failed read throws: n8n answers 500, the service sends again), then the filters
 *    and the memory decide whether to start the workflow.
 *
 * In response mode "When Workflow Finished" the memory is neither read nor written: every authentic
 * notification starts the workflow, and n8n answers 200 once it succeeded or 500 when it failed, so
 * the service sends the notification again (README, "Choosing when to answer").
 */
export async function handleNotification(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const node = this.getNode();
	const logContext = { nodeName: node.name, workflowId: this.getWorkflow().id };
	const urlSecret = String(this.getNodeParameter('urlSecret', '') ?? '');
	if (urlSecret !== '' && !sameSecret(urlSecret, lastPathSegment(this))) {
		this.logger.warn(
			'Payments Service notification refused with 401: the URL secret does not match',
			logContext,
		);
		return answer(this, 401, { received: false, error: 'Unauthorized' });
	}

	const request = this.getRequestObject() as unknown as { rawBody?: unknown };
	const rawBody = request.rawBody;
	const parsedBody = this.getBodyData() as unknown;
	const body = parsedBody === undefined || isEmptyObject(parsedBody) ? rawBody : parsedBody;
	const rawSize = Buffer.isBuffer(rawBody)
		? rawBody.length
		: typeof rawBody === 'string'
			? Buffer.byteLength(rawBody)
			: undefined;
	const limit = bodyLimitProblem(rawSize, body === rawBody ? undefined : body);
	if (limit) {
		this.logger.warn(
			`Payments Service notification refused with ${limit.status}: ${limit.problem}`,
			logContext,
		);
		return answer(this, limit.status, { received: false, error: limit.problem });
	}

	const choice = String(
		this.getNodeParameter('notifications', node.typeVersion >= 2 ? 'deposits' : 'both'),
	);
	const kinds = KINDS_BY_CHOICE[choice] ?? KINDS_BY_CHOICE.both;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const whenFinished = options.respond === 'whenFinished';

	const parsed = parseNotification(body);
	if (isMalformed(parsed)) {
		this.logger.warn(
			`Payments Service notification refused with 400: ${parsed.problem}`,
			logContext,
		);
		return answer(this, 400, { received: false, error: parsed.problem });
	}
	let notification: Notification = parsed;
	const { kind } = notification;
	if (!kinds.includes(kind)) {
		this.logger.warn(
			`Payments Service ${kind} notification for ${describeRecord(notification)} ignored: this trigger listens to ${choice} only`,
			logContext,
		);
		return answer(this, 200, reply(kind, notifiedId(notification), 'not-selected'));
	}

	if (notification.kind === 'cashout' && options.verifyControl !== false) {
		const credentials = await this.getCredentials('paymentsServiceCashoutApi');
		const secret = String(credentials.apiSignature ?? '');
		if (!controlMatches(secret, notification.fields)) {
			this.logger.warn(
				`Payments Service cashout notification for ${describeRecord(notification)} refused with 401: its control does not match the cashout credential's API signature`,
				logContext,
			);
			return answer(this, 401, { received: false, error: 'The control does not match' });
		}
		// The control authenticates external_id only: the read sends it along (statusRead.ts).
		notification = {
			...notification,
			externalId: String(notification.fields.external_id).trim(),
			verified: true,
		};
	}
	const id = notifiedId(notification);

	const now = Math.floor(Date.now() / 1000);
	const staticData = whenFinished ? undefined : this.getWorkflowStaticData('node');
	const memory = readMemory(staticData?.[MEMORY_KEY]);
	const key = memoryKey(notification);
	if (staticData && options.emitEveryNotification !== true) {
		const final = recentFinalStatus(memory, kind, key, now);
		if (final !== undefined) {
			this.logger.debug(
				`Payments Service ${kind} notification for ${describeRecord(notification)}: ${final} read less than 10 minutes ago, not read again`,
				logContext,
			);
			return answer(this, 200, { ...reply(kind, id, 'duplicate'), status: final });
		}
	}

	// Never trust the body: the state emitted is the one the service answers now. A failed read
	// throws, so n8n answers 500 (the service tries again) and shows the error.
	const read = await readNotifiedState(this, notification);
	if (!read) {
		this.logger.warn(
			`Payments Service ${kind} notification for ${describeRecord(notification)}: the service does not know it for this credential's merchant; answered 200, nothing emitted`,
			logContext,
		);
		return answer(this, 200, reply(kind, id, 'not-found'));
	}

	let repeat = false;
	let previousStatus: string | null = null;
	if (staticData) {
		pruneMemory(memory, now);
		({ repeat, previousStatus } = rememberStatus(memory, key, read.status, now));
		// Saved by n8n when this call answers without error (README, "Notification Trigger").
		staticData[MEMORY_KEY] = memory as unknown as IDataObject;
	}

	const wanted = (
		kind === 'deposit'
			? this.getNodeParameter('depositStatuses', [])
			: this.getNodeParameter('cashoutStatuses', [])
	) as string[];
	let outcome: Outcome = 'emitted';
	if (repeat && options.emitEveryNotification !== true) outcome = 'duplicate';
	else if (wanted.length > 0 && !wanted.includes(read.status)) outcome = 'filtered';
	this.logger.debug(
		`Payments Service ${kind} notification for ${describeRecord(notification)}: ${read.status}, ${outcome}`,
		logContext,
	);
	if (outcome !== 'emitted')
		return answer(this, 200, { ...reply(kind, id, outcome), status: read.status });

	const item: IDataObject = {
		...read.state,
		notification: {
			...notification.fields,
			kind,
			changeKey: changeKey(kind, read, id),
			// ISO 8601 UTC to the second, like the service's own dates (service rules §3.4).
			receivedAt: isoSeconds(now),
			previousStatus,
		},
	};
	// When Workflow Finished: n8n answers once the workflow ends (200, or 500 when it failed).
	if (whenFinished) return { workflowData: [[{ json: item }]] };
	answer(this, 200, { ...reply(kind, id, outcome), status: read.status });
	return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
}
