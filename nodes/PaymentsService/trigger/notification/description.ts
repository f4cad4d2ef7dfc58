import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	ICredentialsDisplayOptions,
	IHookFunctions,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookDescription,
} from 'n8n-workflow';

import { CASHOUT_STATUS_BY_CODE } from '../../codes/cashoutStatus';
import { codeOptions } from '../../reporting/filters';
import { URL_SECRET_PATTERN } from './authenticity';
import { optionsCollection } from '../../parameters/options';

/** Deposit statuses of the v3 status read (service rules §5.3). */
const DEPOSIT_STATUSES: readonly string[] = [
	'CREATED',
	'PENDING',
	'EARLY_RELEASED',
	'FOR_REVIEW',
	'EXPIRED',
	'CANCELLED',
	'COMPLETED',
	'DECLINED',
];

/** Cashout statuses of the status read, by their names (service rules §6.1). */
const CASHOUT_STATUSES: readonly string[] = Object.values(CASHOUT_STATUS_BY_CODE);

/**
 * The one POST webhook of both versions. Its path is `webhook`, or `webhook/<URL Secret>` when a
 * secret is set, so the URL the editor shows is the one to paste, secret included (service rules
 * §10.3). The response mode follows the Respond option: `onReceived` (the node answers itself) or
 * `lastNode` (n8n answers when the workflow ends: 200 with no body, or 500 when it failed).
 */
const NOTIFICATION_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode:
			'={{$parameter["options"]["respond"] === "whenFinished" ? "lastNode" : "onReceived"}}',
		responseData: 'noData',
		path: '={{$parameter["urlSecret"] ? "webhook/" + $parameter["urlSecret"] : "webhook"}}',
	},
];

/**
 * The service has no API to register a notification URL: it is set per deposit or cashout
 * (`notification_url`) or as the merchant panel's default (service rules §10). So activation
 * finds the webhook "existing" and registers nothing, and deactivation removes nothing.
 *
 * Activation refuses a URL Secret that is not 16–128 of `A–Z a–z 0–9 - _` (service rules §10.3):
 * @throws NodeOperationError naming the field and the fix.
 */
export const NOTIFICATION_WEBHOOK_METHODS = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			const secret = String(this.getNodeParameter('urlSecret', '') ?? '');
			if (secret !== '' && !URL_SECRET_PATTERN.test(secret)) {
				throw new NodeOperationError(
					this.getNode(),
					'URL Secret must be 16 to 128 letters, digits, - or _',
					{
						description: `It has ${secret.length} characters${/^[A-Za-z0-9_-]*$/.test(secret) ? '' : ', some of them not allowed'}. Use a random text, e.g. the output of "openssl rand -hex 16", or leave it empty.`,
					},
				);
			}
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

/** The notice at the top of the panel. */
const NOTICE: INodeProperties = {
	displayName:
		'Paste this node’s Production URL (above) as the notification_url of your deposits or cashouts, or as the merchant panel’s default notification URL (deposits). With a URL Secret set, the URL includes it. Each notification is checked by reading the status from the service.',
	name: 'notice',
	type: 'notice',
	default: '',
};

/** Notifications: the kind of record a node receives (version 1 adds both kinds on one URL). */
const NOTIFICATIONS: INodeProperties = {
	displayName: 'Notifications',
	name: 'notifications',
	type: 'options',
	noDataExpression: true,
	default: 'deposits',
	options: [
		{
			name: 'Cashouts',
			value: 'cashouts',
			description: 'Cashout (payout) status changes, read with the cashout credential',
		},
		{
			name: 'Deposits',
			value: 'deposits',
			description: 'Deposit (pay-in) status changes, read with the deposit credential',
		},
	],
};

/** URL Secret: a path segment only the service knows (service rules §10.3). */
const URL_SECRET: INodeProperties = {
	displayName: 'URL Secret',
	name: 'urlSecret',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	placeholder: 'e.g. 3f9c1a7e5b2d4c8e9a0b1c2d3e4f5a6b',
	description:
		'A random text of 16 to 128 letters, digits, - or _, added to the URL after …/webhook/. Requests to the URL without it are refused by n8n (404) and by the node (401) before anything is read. Strongly advised for deposits, which carry no signature.',
};

/** Deposit and cashout status filters, shown for the kinds selected. */
function statusFilters(depositChoices: string[], cashoutChoices: string[]): INodeProperties[] {
	return [
		{
			displayName: 'Deposit Statuses',
			name: 'depositStatuses',
			type: 'multiOptions',
			default: [],
			displayOptions: { show: { notifications: depositChoices } },
			options: codeOptions(DEPOSIT_STATUSES),
			description:
				'Only deposits in these statuses (as read from the service) start the workflow. Empty: every status.',
		},
		{
			displayName: 'Cashout Statuses',
			name: 'cashoutStatuses',
			type: 'multiOptions',
			default: [],
			displayOptions: { show: { notifications: cashoutChoices } },
			options: codeOptions(CASHOUT_STATUSES),
			description:
				'Only cashouts in these statuses (as read from the service) start the workflow. Empty: every status.',
		},
	];
}

/** The Options collection of both versions. */
const OPTIONS: INodeProperties = optionsCollection([
	{
		displayName: 'Emit Every Notification',
		name: 'emitEveryNotification',
		type: 'boolean',
		default: false,
		description:
			'Whether every notification starts the workflow, also a repeat of a change already handled. Off: once per change (each return to an earlier status is a new change).',
	},
	{
		displayName: 'Respond',
		name: 'respond',
		type: 'options',
		default: 'whenReceived',
		options: [
			{
				name: 'When Received',
				value: 'whenReceived',
				description:
					'Answer 200 once the status is read; repeats are suppressed. If the workflow then fails, the service does not send again.',
			},
			{
				name: 'When Workflow Finished',
				value: 'whenFinished',
				description:
					'Answer when the workflow ends: 200, or 500 when it failed, so the service sends the notification again (at least once). Within one n8n process a change handled successfully is not handled again; with several webhook processes, end the work with the once-per-change recipe.',
			},
		],
		description: 'When the service gets its answer',
	},
	{
		displayName: 'Verify Cashout Control',
		name: 'verifyControl',
		type: 'boolean',
		default: true,
		description:
			'Whether a cashout notification must carry the control the service signs with the cashout credential’s API signature; without it, or with a wrong one, it is refused (401) and nothing is read',
	},
]);

/** Where a version differs: its Notifications choices and when each credential shows. */
export interface NotificationVersion {
	version: number;
	/** The Notifications parameter's default. */
	defaultKind: string;
	/** Choices after Cashouts and Deposits (version 1: Deposits and Cashouts, on one URL). */
	moreKinds?: INodePropertyOptions[];
	/** When each credential is shown, by the Notifications value. */
	credentialRules: { deposits: ICredentialsDisplayOptions; cashouts: ICredentialsDisplayOptions };
	/** The Notifications values under which each status filter shows. */
	statusFilterChoices: { deposits: string[]; cashouts: string[] };
}

/**
 * A version's whole description: what both versions share (subtitle, defaults, the webhook, the
 * notice, the kinds of notification, URL Secret, the status filters, the Options) around what
 * `version` says differs.
 */
export function notificationTriggerDescription(
	base: INodeTypeBaseDescription,
	version: NotificationVersion,
): INodeTypeDescription {
	return {
		...base,
		version: version.version,
		subtitle: '={{"Notifications: " + $parameter["notifications"]}}',
		defaults: { name: 'Payments Service Notification Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'paymentsServiceDepositApi',
				displayName: 'Deposit Credential',
				required: true,
				displayOptions: version.credentialRules.deposits,
			},
			{
				name: 'paymentsServiceCashoutApi',
				displayName: 'Cashout Credential',
				required: true,
				displayOptions: version.credentialRules.cashouts,
			},
		],
		webhooks: NOTIFICATION_WEBHOOKS,
		properties: [
			NOTICE,
			{
				...NOTIFICATIONS,
				default: version.defaultKind,
				options: [...(NOTIFICATIONS.options ?? []), ...(version.moreKinds ?? [])],
			},
			URL_SECRET,
			...statusFilters(version.statusFilterChoices.deposits, version.statusFilterChoices.cashouts),
			OPTIONS,
		],
	};
}
