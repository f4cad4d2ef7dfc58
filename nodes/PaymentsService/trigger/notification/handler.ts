import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { claimChange, releaseChange, runSince, confirmChange, type ClaimScope } from './claims';
import {
	bodyLimitProblem,
	isMalformed,
	parseNotification,
	type Notification,
	type NotificationKind,
} from './parsing';
import { changeKey, notifiedChangeTime } from './changeKeys';
import { controlMatches, sameSecret } from './authenticity';
import {
	pruneMemory,
	readMemory,
	recentFinalStatus,
	memoryKey,
	rememberedRun,
	rememberStatus,
	type NotificationMemory,
} from './memory';
import { describeRecord, readNotifiedState, type ReadState } from './statusRead';
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
 * Respond "When Workflow Finished": confirms the claim of `changeKey` when n8n answers 2xx (the
 * workflow succeeded), releases it when n8n answers anything else (500: the workflow failed) or the
 * connection closes before an answer (the sender saw no 2xx and sends again). Service rules §10.5.
 */
function confirmWhenAnswered(
	response: ObservableResponse,
	scope: ClaimScope,
	changeKey: string,
): void {
	let answered = false;
	response.once?.('finish', () => {
		answered = true;
		const status = response.statusCode ?? 0;
		if (status >= 200 && status < 300) confirmChange(scope, changeKey);
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

/** A step's result: the request's answer (the handling ends here), or what the next step needs. */
type Step<T> = { answered: IWebhookResponseData } | { next: T };

/** What the steps of one request share: the node's settings and the log's context. */
interface Delivery {
	context: IWebhookFunctions;
	/** Logged with every line: the node's name and its workflow's id. */
	log: IDataObject;
	/** The Notifications parameter's value, and the kinds it takes ({@link KINDS_BY_CHOICE}). */
	choice: string;
	kinds: readonly NotificationKind[];
	/** Respond: When Workflow Finished (no memory; the claim is held until n8n answers). */
	whenFinished: boolean;
	/** Emit Every Notification: neither the memory nor the claim suppresses a repeat. */
	everyNotification: boolean;
	/** Verify Cashout Control (default on): a cashout's `control` must match (service rules §10.2). */
	verifyControl: boolean;
}

/** What the memory step found: the static data (When Received only) and the record's memory. */
interface Recalled {
	/** When the notification was received, Unix seconds. */
	now: number;
	staticData?: IDataObject;
	memory: NotificationMemory;
	/** The record's key in the memory, e.g. `d:300123` ({@link memoryKey}). */
	key: string;
}

/** What the claim step decided for a notification to emit. */
interface Claimed {
	/** The change key (service rules §10.5), emitted with the item. */
	keyOfChange: string;
	/** The status the memory last read for the record, or null. */
	previousStatus: string | null;
	scope: ClaimScope;
	/** A claim was taken: When Workflow Finished confirms or releases it once n8n answers. */
	claiming: boolean;
	response: ObservableResponse;
}

/**
 * Authenticate: when a URL secret is set, the path's last segment must match it (compared in
 * constant time, service rules §10.3); otherwise the request is answered 401.
 * @returns the 401 answer, or undefined when the request may go on.
 */
function authenticate(
	context: IWebhookFunctions,
	log: IDataObject,
): IWebhookResponseData | undefined {
	const urlSecret = String(context.getNodeParameter('urlSecret', '') ?? '');
	if (urlSecret === '' || sameSecret(urlSecret, lastPathSegment(context))) return undefined;
	context.logger.warn(
		'Payments Service notification refused with 401: the URL secret does not match',
		log,
	);
	return answer(context, 401, { received: false, error: 'Unauthorized' });
}

/**
 * Body: the request's body (n8n's parsed body, else the raw one) within the limits of service
 * rules §10.4: over 16 KiB → 413; deeper than 4 levels or more than 200 values → 400.
 */
function readBody(context: IWebhookFunctions, log: IDataObject): Step<unknown> {
	const request = context.getRequestObject() as unknown as { rawBody?: unknown };
	const rawBody = request.rawBody;
	const parsedBody = context.getBodyData() as unknown;
	const body = parsedBody === undefined || isEmptyObject(parsedBody) ? rawBody : parsedBody;
	const rawSize = Buffer.isBuffer(rawBody)
		? rawBody.length
		: typeof rawBody === 'string'
			? Buffer.byteLength(rawBody)
			: undefined;
	const limit = bodyLimitProblem(rawSize, body === rawBody ? undefined : body);
	if (!limit) return { next: body };
	context.logger.warn(
		`Payments Service notification refused with ${limit.status}: ${limit.problem}`,
		log,
	);
	return { answered: answer(context, limit.status, { received: false, error: limit.problem }) };
}

/** The node's settings for one request (Notifications; default by version: 2 deposits, 1 both). */
function settingsOf(context: IWebhookFunctions, log: IDataObject): Delivery {
	const choice = String(
		context.getNodeParameter(
			'notifications',
			context.getNode().typeVersion >= 2 ? 'deposits' : 'both',
		),
	);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		context,
		log,
		choice,
		// Own keys only: an expression's "__proto__" is no choice.
		kinds: Object.prototype.hasOwnProperty.call(KINDS_BY_CHOICE, choice)
			? KINDS_BY_CHOICE[choice]
			: KINDS_BY_CHOICE.both,
		whenFinished: options.respond === 'whenFinished',
		everyNotification: options.emitEveryNotification === true,
		verifyControl: options.verifyControl !== false,
	};
}

/**
 * Parse: the notification the body describes (service rules §10): no id to read → 400; a kind
 * this trigger does not listen to → 200 `not-selected`, nothing read.
 */
function parse(delivery: Delivery, body: unknown): Step<Notification> {
	const { context, log } = delivery;
	const parsed = parseNotification(body);
	if (isMalformed(parsed)) {
		context.logger.warn(`Payments Service notification refused with 400: ${parsed.problem}`, log);
		return { answered: answer(context, 400, { received: false, error: parsed.problem }) };
	}
	if (delivery.kinds.includes(parsed.kind)) return { next: parsed };
	context.logger.warn(
		`Payments Service ${parsed.kind} notification for ${describeRecord(parsed)} ignored: this trigger listens to ${delivery.choice} only`,
		log,
	);
	return { answered: answer(context, 200, reply(parsed.kind, notifiedId(parsed), 'not-selected')) };
}

/**
 * Verify: a cashout's `control` (service rules §10.2, unless Verify Cashout Control is off) must
 * match the cashout credential's API signature; wrong or missing → 401. A verified cashout is read
 * by the `external_id` the control authenticates (statusRead.ts). Deposits go on unchanged.
 */
async function verify(delivery: Delivery, notification: Notification): Promise<Step<Notification>> {
	if (notification.kind !== 'cashout' || !delivery.verifyControl) return { next: notification };
	const { context, log } = delivery;
	const credentials = await context.getCredentials('paymentsServiceCashoutApi');
	const secret = String(credentials.apiSignature ?? '');
	if (!controlMatches(secret, notification.fields)) {
		context.logger.warn(
			`Payments Service cashout notification for ${describeRecord(notification)} refused with 401: its control does not match the cashout credential's API signature`,
			log,
		);
		const body = { received: false, error: 'The control does not match' };
		return { answered: answer(context, 401, body) };
	}
	// The control authenticates external_id only: the read sends it along (statusRead.ts).
	const externalId = String(notification.fields.external_id).trim();
	return { next: { ...notification, externalId, verified: true } };
}

/**
 * Recall: the memory (response mode "When Received" only). A record read in a final status less
 * than 10 minutes ago is answered 200 `duplicate` without a read (service rules §10.4), unless
 * Emit Every Notification is on.
 */
function recall(delivery: Delivery, notification: Notification): Step<Recalled> {
	const { context, log } = delivery;
	const now = Math.floor(Date.now() / 1000);
	const staticData = delivery.whenFinished ? undefined : context.getWorkflowStaticData('node');
	const memory = readMemory(staticData?.[MEMORY_KEY]);
	const key = memoryKey(notification);
	const final =
		staticData && !delivery.everyNotification
			? recentFinalStatus(memory, notification.kind, key, now)
			: undefined;
	if (final === undefined) return { next: { now, staticData, memory, key } };
	context.logger.debug(
		`Payments Service ${notification.kind} notification for ${describeRecord(notification)}: ${final} read less than 10 minutes ago, not read again`,
		log,
	);
	const body = {
		...reply(notification.kind, notifiedId(notification), 'duplicate'),
		status: final,
	};
	return { answered: answer(context, 200, body) };
}

/**
 * Read: the record's state as the service answers it now (service rules §10.1); the body is never
 * trusted. Ids that do not name the cashout the control authenticates → 401; a record the service
 * does not know for this merchant → 200 `not-found`. A failed read throws: n8n answers 500 (the
 * service sends again) and shows the error.
 */
async function read(delivery: Delivery, notification: Notification): Promise<Step<ReadState>> {
	const { context, log } = delivery;
	const result = await readNotifiedState(context, notification);
	if (result.found) return { next: result.read };
	const record = describeRecord(notification);
	if (result.mismatch !== undefined) {
		context.logger.warn(
			`Payments Service cashout notification for ${record} refused with 401: ${result.mismatch}`,
			log,
		);
		const error = 'The cashout_id does not name the cashout the control authenticates';
		return { answered: answer(context, 401, { received: false, error }) };
	}
	context.logger.warn(
		`Payments Service ${notification.kind} notification for ${record}: the service does not know it for this credential's merchant; answered 200, nothing emitted`,
		log,
	);
	return {
		answered: answer(context, 200, reply(notification.kind, notifiedId(notification), 'not-found')),
	};
}

/**
 * Claim, synchronous from start to end (no `await`: within this process the check-and-set of the
 * record's run and of the change key cannot interleave with another notification's, claims.ts):
 * dates the change (service rules §10.5), writes the memory (When Received), then decides the
 * outcome: a repeat of the status last read → 200 `duplicate` (unless Emit Every Notification);
 * a status outside the Status filter → 200 `filtered`; the in-process claim of the change key →
 * 200 `duplicate` when a copy was handled, 409 `in-progress` while a copy's workflow runs (When
 * Workflow Finished; not 2xx, so the service sends it again once the outcome is known).
 */
function claim(
	delivery: Delivery,
	notification: Notification,
	recalled: Recalled,
	state: ReadState,
): Step<Claimed> {
	const { context, whenFinished, everyNotification } = delivery;
	const { kind } = notification;
	const { memory, key, staticData, now } = recalled;
	const nowMs = Date.now();
	const node = context.getNode();
	const scope: ClaimScope = {
		workflowId: String(context.getWorkflow().id ?? ''),
		nodeId: node.id ?? node.name,
	};
	const dated = kind === 'cashout' ? notifiedChangeTime(notification.fields) : undefined;
	const since = runSince(scope, key, state.status, rememberedRun(memory, key), dated, nowMs);
	const id = notifiedId(notification);
	const keyOfChange = changeKey(kind, id, state.status, since);
	let repeat = false;
	let previousStatus: string | null = null;
	if (staticData) {
		pruneMemory(memory, now);
		({ repeat, previousStatus } = rememberStatus(memory, key, state.status, now, since));
		// Saved by n8n when this call answers without error (README, "Notification Trigger").
		staticData[MEMORY_KEY] = memory as unknown as IDataObject;
	}
	const chosen =
		kind === 'deposit'
			? context.getNodeParameter('depositStatuses', [])
			: context.getNodeParameter('cashoutStatuses', []);
	// An expression may give nothing, or one status as a text.
	const wanted: unknown[] = Array.isArray(chosen)
		? chosen
		: typeof chosen === 'string' && chosen.trim()
			? chosen.split(',').map((status) => status.trim())
			: [];
	let outcome: Outcome = 'emitted';
	if (repeat && !everyNotification) outcome = 'duplicate';
	else if (wanted.length > 0 && !wanted.includes(state.status)) outcome = 'filtered';
	// Where the answer cannot be observed (no response events), When Workflow Finished takes no claim.
	const response = context.getResponseObject() as unknown as ObservableResponse;
	const claiming =
		outcome === 'emitted' &&
		!everyNotification &&
		(!whenFinished || typeof response.once === 'function');
	const claimed = claiming ? claimChange(scope, keyOfChange, nowMs, !whenFinished) : 'claimed';
	if (claimed === 'handled') outcome = 'duplicate';
	else if (claimed === 'in-flight') outcome = 'in-progress';
	context.logger.debug(
		`Payments Service ${kind} notification for ${describeRecord(notification)}: ${state.status}, ${outcome}`,
		delivery.log,
	);
	if (outcome === 'emitted')
		return { next: { keyOfChange, previousStatus, scope, claiming, response } };
	const body = { ...reply(kind, id, outcome), status: state.status };
	return { answered: answer(context, outcome === 'in-progress' ? 409 : 200, body) };
}

/**
 * Emit: the item is the state read, with the notification's fields, its kind, change key, time
 * received (ISO 8601 UTC to the second, service rules §3.4) and the status read before. When
 * Received answers 200 now; When Workflow Finished lets n8n answer once the workflow ends (200, or
 * 500 when it failed) and confirms or releases the claim then.
 */
function emit(
	delivery: Delivery,
	notification: Notification,
	now: number,
	state: ReadState,
	claimed: Claimed,
): IWebhookResponseData {
	const { context, whenFinished } = delivery;
	const { kind } = notification;
	const { keyOfChange, previousStatus, scope } = claimed;
	if (claimed.claiming && whenFinished) confirmWhenAnswered(claimed.response, scope, keyOfChange);
	const item: IDataObject = {
		...state.state,
		notification: {
			...notification.fields,
			kind,
			changeKey: keyOfChange,
			// ISO 8601 UTC to the second, like the service's own dates (service rules §3.4).
			receivedAt: isoSeconds(now),
			previousStatus,
		},
	};
	if (whenFinished) return { workflowData: [[{ json: item }]] };
	const body = { ...reply(kind, notifiedId(notification), 'emitted'), status: state.status };
	answer(context, 200, body);
	return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
}

/**
 * Handles one POST to the Notification Trigger (service rules §10) in steps, each of which answers
 * (and ends) the request or hands the next one what it needs, so that a forged or oversized request
 * costs no status read and no memory write: {@link authenticate} (URL secret, 401), {@link readBody}
 * (limits, 413/400), {@link parse} (400, or 200 for a kind not selected), {@link verify} (`control`,
 * 401), {@link recall} (a final status read < 10 min ago: 200 without a read), {@link read} (the
 * status; a failed read makes n8n answer 500), {@link claim} (memory, filters and the in-process
 * claim, with no `await` since the read: 200 or 409), {@link emit}. Under "When Workflow Finished"
 * the memory is not used, and the claim is confirmed by a 2xx answer or released otherwise.
 */
export async function handleNotification(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const log: IDataObject = { nodeName: this.getNode().name, workflowId: this.getWorkflow().id };
	const refused = authenticate(this, log);
	if (refused) return refused;
	const body = readBody(this, log);
	if ('answered' in body) return body.answered;
	const delivery = settingsOf(this, log);
	const parsed = parse(delivery, body.next);
	if ('answered' in parsed) return parsed.answered;
	const verified = await verify(delivery, parsed.next);
	if ('answered' in verified) return verified.answered;
	const notification = verified.next;
	const recalled = recall(delivery, notification);
	if ('answered' in recalled) return recalled.answered;
	const state = await read(delivery, notification);
	if ('answered' in state) return state.answered;
	const claimed = claim(delivery, notification, recalled.next, state.next);
	if ('answered' in claimed) return claimed.answered;
	return emit(delivery, notification, recalled.next.now, state.next, claimed.next);
}
