import { NodeConnectionTypes, VersionedNodeType } from 'n8n-workflow';
import type { INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';

import {
	NOTICE,
	NOTIFICATION_WEBHOOK_METHODS,
	NOTIFICATION_WEBHOOKS,
	OPTIONS,
	statusFilters,
	URL_SECRET,
} from './trigger/notification/description';
import { handleNotification } from './trigger/notification/handler';
import { PaymentsServiceNotificationTriggerV1 } from './trigger/notification/v1';

/** What both versions share: name, icon, group, description; new nodes get version 2. */
const BASE_DESCRIPTION: Readonly<INodeTypeBaseDescription> = {
	displayName: 'Payments Service Notification Trigger',
	name: 'paymentsServiceNotificationTrigger',
	icon: {
		light: 'file:../../icons/payments-service.svg',
		dark: 'file:../../icons/payments-service.dark.svg',
	},
	group: ['trigger'],
	description:
		'Starts the workflow when the payments service notifies a deposit or cashout status change',
	defaultVersion: 2,
};

/**
 * Version 2: one kind per node, so one credential per node. Deposits use the deposit credential,
 * cashouts the cashout credential (whose API signature also verifies each notification's `control`).
 * A merchant with both kinds adds two trigger nodes, each with its own URL.
 */
class PaymentsServiceNotificationTriggerV2 implements INodeType {
	description: INodeTypeDescription = {
		...BASE_DESCRIPTION,
		icon: {
			light: 'file:../../icons/payments-service.svg',
			dark: 'file:../../icons/payments-service.dark.svg',
		},
		group: ['trigger'],
		version: 2,
		subtitle: '={{"Notifications: " + $parameter["notifications"]}}',
		defaults: { name: 'Payments Service Notification Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'paymentsServiceDepositApi',
				displayName: 'Deposit Credential',
				required: true,
				displayOptions: { show: { notifications: ['deposits'] } },
			},
			{
				name: 'paymentsServiceCashoutApi',
				displayName: 'Cashout Credential',
				required: true,
				displayOptions: { show: { notifications: ['cashouts'] } },
			},
		],
		webhooks: NOTIFICATION_WEBHOOKS,
		properties: [
			NOTICE,
			{
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
			},
			URL_SECRET,
			...statusFilters(['deposits'], ['cashouts']),
			OPTIONS,
		],
	};

	webhookMethods = NOTIFICATION_WEBHOOK_METHODS;

	webhook = handleNotification;
}

/**
 * Payments Service Notification Trigger: a webhook URL (POST) that receives the service's deposit or
 * cashout notifications (service rules §10), refuses forged ones before anything is read (§10.2,
 * §10.3, §10.4), reads the authoritative status of each (§5.3, §6.1) and starts the workflow with
 * that state. Version 2 (new nodes): one kind and one credential per node. Version 1 (saved
 * workflows): both kinds on one URL, with both credentials.
 *
 * Answers (the service sends again on anything but 2xx):
 * - 401: wrong URL secret, or a cashout whose `control` does not match (nothing read), or whose
 *   `cashout_id` does not name the cashout the control authenticates (§10.2; nothing emitted);
 * - 413 / 400: a body over 16 KiB / too deep, too many values, or naming nothing to read;
 * - 200 and one item: the status was read, the item handed to n8n (Respond: When Received);
 * - 200, nothing started: a repeat of the status last read for the record or of a change this
 *   process already handled (unless Emit Every Notification), a status the filters leave out, a
 *   kind not selected, or a record the service says does not exist (also logged);
 * - 409, nothing started (Respond: When Workflow Finished): a copy of a change whose workflow is
 *   still running; the service sends it again later;
 * - 5xx: the status read failed, or (Respond: When Workflow Finished) the workflow failed.
 *
 * State: the last status read per record and when it began, in the node's workflow static data, at
 * most 7 days and 10,000 records (trigger/notification/memory.ts); and the one documented
 * module-level exception, the in-process claims of change keys (trigger/notification/claims.ts,
 * service rules §10.5): they only suppress duplicates within one process.
 */
export class PaymentsServiceNotificationTrigger extends VersionedNodeType {
	constructor() {
		super(
			{
				1: new PaymentsServiceNotificationTriggerV1(BASE_DESCRIPTION),
				2: new PaymentsServiceNotificationTriggerV2(),
			},
			BASE_DESCRIPTION,
		);
	}
}
