import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CASHOUT_STATUS_BY_CODE } from './helpers/cashoutStatus';
import { codeOptions } from './helpers/filters';
import {
	isMalformed,
	parseNotification,
	pruneMemory,
	readMemory,
	recordKey,
	rememberStatus,
	type Notification,
	type NotificationKind,
} from './helpers/notifications';
import { describeRecord, readNotifiedState } from './trigger/notificationStatus';

/** Deposit statuses of the v3 status read (service rules §5.3). */
const DEPOSIT_STATUSES: readonly string[] = ['CREATED', 'PENDING', 'EARLY_RELEASED', 'FOR_REVIEW', 'EXPIRED', 'CANCELLED', 'COMPLETED', 'DECLINED'];

/** Cashout statuses of the status read, by their names (service rules §6.1). */
const CASHOUT_STATUSES: readonly string[] = Object.values(CASHOUT_STATUS_BY_CODE);

/** Key of the trigger's memory in the node's workflow static data. */
const MEMORY_KEY = 'notifications';

/** The Notifications parameter's values and the kinds each one takes. */
const KINDS_BY_CHOICE: Readonly<Record<string, readonly NotificationKind[]>> = {
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
function answer(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
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

/**
 * Payments Service Notification Trigger: one webhook URL (POST) that receives the service's deposit
 * and cashout notifications (service rules §10), reads the authoritative status of each (§5.3,
 * §6.1) and starts the workflow with that state.
 *
 * Answers (the service sends again on anything but 2xx):
 * - 200 and one item: the status was read, the item handed to n8n;
 * - 200, nothing started: a repeat of the status last read for the record (unless Emit Every
 *   Notification), a status the filters leave out, a kind not selected, or a record the service
 *   says does not exist (also logged);
 * - 400, nothing started: a body that names nothing to read (no id, or an id that is not a number);
 * - 5xx: the status read failed (the node throws, n8n answers 500 and shows the error); the service
 *   tries again later.
 *
 * State: the last status read per record, in the node's workflow static data, at most 7 days and
 * 10,000 records (helpers/notifications.ts). No module-level state.
 */
export class PaymentsServiceNotificationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payments Service Notification Trigger',
		name: 'paymentsServiceNotificationTrigger',
		icon: { light: 'file:../../icons/payments-service.svg', dark: 'file:../../icons/payments-service.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Notifications: " + $parameter["notifications"]}}',
		description: 'Starts the workflow when the payments service notifies a deposit or cashout status change',
		defaults: { name: 'Payments Service Notification Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Rules on `hide`, never `show`: n8n's editor takes a parameter named in a credential's
		// `show` rule for the node's authentication selector and removes it from the panel.
		credentials: [
			{
				name: 'paymentsServiceDepositApi',
				displayName: 'Deposit Credential',
				required: true,
				displayOptions: { hide: { notifications: ['cashouts'] } },
			},
			{
				name: 'paymentsServiceCashoutApi',
				displayName: 'Cashout Credential',
				required: true,
				displayOptions: { hide: { notifications: ['deposits'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Use this node’s URL as a deposit’s or cashout’s notification_url, or as the merchant panel’s default notification URL (deposits). Each notification is checked by reading the status from the service.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Notifications',
				name: 'notifications',
				type: 'options',
				noDataExpression: true,
				default: 'both',
				options: [
					{ name: 'Cashouts', value: 'cashouts', description: 'Cashout (payout) status changes' },
					{ name: 'Deposits', value: 'deposits', description: 'Deposit (pay-in) status changes' },
					{ name: 'Deposits and Cashouts', value: 'both', description: 'Both kinds, on the same URL' },
				],
			},
			{
				displayName: 'Deposit Statuses',
				name: 'depositStatuses',
				type: 'multiOptions',
				default: [],
				displayOptions: { show: { notifications: ['both', 'deposits'] } },
				options: codeOptions(DEPOSIT_STATUSES),
				description: 'Only deposits in these statuses (as read from the service) start the workflow. Empty: every status.',
			},
			{
				displayName: 'Cashout Statuses',
				name: 'cashoutStatuses',
				type: 'multiOptions',
				default: [],
				displayOptions: { show: { notifications: ['both', 'cashouts'] } },
				options: codeOptions(CASHOUT_STATUSES),
				description: 'Only cashouts in these statuses (as read from the service) start the workflow. Empty: every status.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Emit Every Notification',
						name: 'emitEveryNotification',
						type: 'boolean',
						default: false,
						description:
							'Whether every notification starts the workflow, also one repeating the status last read for the same deposit or cashout. Off: once per deposit or cashout and status.',
					},
				],
			},
		],
	};

	/**
	 * The service has no API to register a notification URL: it is set per deposit or cashout
	 * (`notification_url`) or as the merchant panel's default (service rules §10). So activation
	 * finds the webhook "existing" and registers nothing, and deactivation removes nothing.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const node = this.getNode();
		const logContext = { nodeName: node.name, workflowId: this.getWorkflow().id };
		const choice = String(this.getNodeParameter('notifications', 'both'));
		const kinds = KINDS_BY_CHOICE[choice] ?? KINDS_BY_CHOICE.both;
		const options = this.getNodeParameter('options', {}) as IDataObject;

		const body = this.getBodyData() as unknown;
		const notification = parseNotification(body === undefined || isEmptyObject(body) ? rawBody(this) : body);
		if (isMalformed(notification)) {
			this.logger.warn(`Payments Service notification refused with 400: ${notification.problem}`, logContext);
			return answer(this, 400, { received: false, error: notification.problem });
		}
		const { kind } = notification;
		const id = notifiedId(notification);
		if (!kinds.includes(kind)) {
			this.logger.warn(
				`Payments Service ${kind} notification for ${describeRecord(notification)} ignored: this trigger listens to ${choice} only`,
				logContext,
			);
			return answer(this, 200, reply(kind, id, 'not-selected'));
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

		const now = Math.floor(Date.now() / 1000);
		const staticData = this.getWorkflowStaticData('node');
		const memory = readMemory(staticData[MEMORY_KEY]);
		pruneMemory(memory, now);
		const { repeat, previousStatus } = rememberStatus(memory, recordKey(notification), read.status, now);
		// Saved by n8n when this call answers without error (README, "Notification Trigger").
		staticData[MEMORY_KEY] = memory as unknown as IDataObject;

		const wanted = (kind === 'deposit'
			? this.getNodeParameter('depositStatuses', [])
			: this.getNodeParameter('cashoutStatuses', [])) as string[];
		let outcome: Outcome = 'emitted';
		if (repeat && options.emitEveryNotification !== true) outcome = 'duplicate';
		else if (wanted.length > 0 && !wanted.includes(read.status)) outcome = 'filtered';
		this.logger.debug(`Payments Service ${kind} notification for ${describeRecord(notification)}: ${read.status}, ${outcome}`, logContext);
		if (outcome !== 'emitted') return answer(this, 200, { ...reply(kind, id, outcome), status: read.status });

		const item: IDataObject = {
			...read.state,
			notification: {
				...notification.fields,
				kind,
				// ISO 8601 UTC to the second, like the service's own dates (service rules §3.4).
				receivedAt: new Date(now * 1000).toISOString().replace('.000Z', 'Z'),
				previousStatus,
			},
		};
		answer(this, 200, { ...reply(kind, id, outcome), status: read.status });
		return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
	}
}

/** The answer body of a handled notification. */
function reply(kind: NotificationKind, id: number | string, outcome: Outcome): IDataObject {
	return { received: true, kind, id, outcome };
}

function isEmptyObject(value: unknown): boolean {
	return !!value && typeof value === 'object' && !Buffer.isBuffer(value) && Object.keys(value).length === 0;
}

/** The request's raw bytes, for a body n8n did not parse (a content type other than JSON or form). */
function rawBody(context: IWebhookFunctions): unknown {
	const request = context.getRequestObject() as unknown as { rawBody?: unknown };
	return request.rawBody;
}
