import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { claimChange, releaseChange, runSince, settleChange, type ClaimScope } from './claims';
import {
	bodyLimitProblem,
	changeKey,
	controlMatches,
	isMalformed,
	parseNotification,
	pruneMemory,
	readMemory,
	recentFinalStatus,
	memoryKey,
	notifiedChangeTime,
	rememberedRun,
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
type Outcome = 'emitted' | 'duplicate' | 'in-progress' | 'filtered' | 'not-found' | 'not-selected';

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

/** The parts of n8n's response (node's http.ServerResponse) that show how a request was answered. */
interface ObservableResponse {
	statusCode?: number;
	once?: (event: 'finish' | 'close', listener: () => void) => unknown;
}

/**
 * Respond "When Workflow Finished": settles the claim of `changeKey` when n8n answers 2xx (the
 * workflow succeeded), releases it when n8n answers anything else (500: the workflow failed) or the
 * connection closes before an answer (the sender saw no 2xx and sends again). Service rules §10.5.
 */
function settleWhenAnswered(
	response: ObservableResponse,
	scope: ClaimScope,
	changeKey: string,
): void {
	let answered = false;
	response.once?.('finish', () => {
		answered = true;
		const status = response.statusCode ?? 0;
		if (status >= 200 && status < 300) settleChange(scope, changeKey);
		else releaseChange(scope, changeKey);
	});
	response.once?.('close', () => {
		if (!answered) releaseChange(scope, changeKey);
	});
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
 *    verified cashout is read by the `external_id` the control authenticates, and a `cashout_id`
 *    that does not name the same cashout → 401, nothing emitted (statusRead.ts).
 * 6. Memory (response mode "When Received" only): a record read in a final status less than 10
 *    minutes ago is answered 200 `duplicate` without a read.
 * 7. Status read (a failed read throws: n8n answers 500, the service sends again), then the memory
 *    and the filters decide whether to start the workflow.
 * 8. The in-process claim of the change key (§10.5, claims.ts), taken with no `await` since the
 *    read ended: a copy of a change this process already handled → 200 `duplicate`.
 *
 * In response mode "When Workflow Finished" the memory is neither read nor written. The claim is
 * held until n8n answers: a 2xx settles it; any other answer (the workflow failed) or a connection
 * closed before the answer releases it, so the service's next delivery handles the change again.
 * A copy arriving while the claim is held is answered 409 `in-progress` (not 2xx: the service sends
 * it again later, when the outcome is known). Where the response cannot be observed, no claim is
 * taken in this mode.
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
	const result = await readNotifiedState(this, notification);
	if (!result.found && result.mismatch !== undefined) {
		this.logger.warn(
			`Payments Service cashout notification for ${describeRecord(notification)} refused with 401: ${result.mismatch}`,
			logContext,
		);
		return answer(this, 401, {
			received: false,
			error: 'The cashout_id does not name the cashout the control authenticates',
		});
	}
	if (!result.found) {
		this.logger.warn(
			`Payments Service ${kind} notification for ${describeRecord(notification)}: the service does not know it for this credential's merchant; answered 200, nothing emitted`,
			logContext,
		);
		return answer(this, 200, reply(kind, id, 'not-found'));
	}
	const { read } = result;

	// From here to the claim, nothing awaits: within this process the claim's check and set cannot
	// interleave with another notification's (claims.ts).
	const nowMs = Date.now();
	const scope: ClaimScope = {
		workflowId: String(this.getWorkflow().id ?? ''),
		nodeId: node.id ?? node.name,
	};
	const since = runSince(
		scope,
		key,
		read.status,
		rememberedRun(memory, key),
		notification.kind === 'cashout' ? notifiedChangeTime(notification.fields) : undefined,
		nowMs,
	);
	const keyOfChange = changeKey(
		kind,
		notification.kind === 'deposit'
			? notification.depositId
			: (notification.cashoutId ?? notification.externalId ?? ''),
		read.status,
		since,
	);

	let repeat = false;
	let previousStatus: string | null = null;
	if (staticData) {
		pruneMemory(memory, now);
		({ repeat, previousStatus } = rememberStatus(memory, key, read.status, now, since));
		// Saved by n8n when this call answers without error (README, "Notification Trigger").
		staticData[MEMORY_KEY] = memory as unknown as IDataObject;
	}

	const wanted = (
		kind === 'deposit'
			? this.getNodeParameter('depositStatuses', [])
			: this.getNodeParameter('cashoutStatuses', [])
	) as string[];
	const everyNotification = options.emitEveryNotification === true;
	let outcome: Outcome = 'emitted';
	if (repeat && !everyNotification) outcome = 'duplicate';
	else if (wanted.length > 0 && !wanted.includes(read.status)) outcome = 'filtered';
	// Where the answer cannot be observed (no response events), When Workflow Finished takes no claim.
	const response = this.getResponseObject() as unknown as ObservableResponse;
	const claiming =
		outcome === 'emitted' &&
		!everyNotification &&
		(!whenFinished || typeof response.once === 'function');
	if (claiming) {
		const claim = claimChange(scope, keyOfChange, nowMs, !whenFinished);
		if (claim === 'handled') outcome = 'duplicate';
		else if (claim === 'in-flight') outcome = 'in-progress';
	}
	this.logger.debug(
		`Payments Service ${kind} notification for ${describeRecord(notification)}: ${read.status}, ${outcome}`,
		logContext,
	);
	// Not 2xx: the service sends it again once the copy in flight has its outcome.
	if (outcome === 'in-progress')
		return answer(this, 409, { ...reply(kind, id, outcome), status: read.status });
	if (outcome !== 'emitted')
		return answer(this, 200, { ...reply(kind, id, outcome), status: read.status });
	if (claiming && whenFinished) settleWhenAnswered(response, scope, keyOfChange);

	const item: IDataObject = {
		...read.state,
		notification: {
			...notification.fields,
			kind,
			changeKey: keyOfChange,
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
