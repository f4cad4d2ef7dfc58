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
 * Payments Service Notification Trigger: a webhook URL for the service's deposit or cashout
 * notifications (service rules §10). It refuses forged ones before anything is read (§10.2–§10.4),
 * reads each record's status (§5.3, §6.1) and starts the workflow with it, and answers 2xx only
 * once a notification is handled, so the service sends the rest again (each answer:
 * docs/notifications.md, "Answers"). Version 2: one kind and one credential per node; version 1
 * (saved workflows): both kinds on one URL. State: the last status read per record, in static data
 * (memory.ts), and the one documented module-level exception, the in-process claims (claims.ts).
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
