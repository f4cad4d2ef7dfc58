import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';

import {
	NOTICE,
	NOTIFICATION_WEBHOOK_METHODS,
	NOTIFICATION_WEBHOOKS,
	OPTIONS,
	statusFilters,
	URL_SECRET,
} from './description';
import { handleNotification } from './handler';

/**
 * Version 1 of the Notification Trigger, kept so that saved workflows keep working: its Notifications
 * can be "Deposits and Cashouts" on one URL, with both credentials. New nodes are version 2 (one kind,
 * one credential per node: n8n's single-credential-per-node rule). Same handling as version 2
 * ({@link handleNotification}).
 */
export class PaymentsServiceNotificationTriggerV1 implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = {
			...baseDescription,
			version: 1,
			subtitle: '={{"Notifications: " + $parameter["notifications"]}}',
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
			webhooks: NOTIFICATION_WEBHOOKS,
			properties: [
				NOTICE,
				{
					displayName: 'Notifications',
					name: 'notifications',
					type: 'options',
					noDataExpression: true,
					default: 'both',
					options: [
						{ name: 'Cashouts', value: 'cashouts', description: 'Cashout (payout) status changes' },
						{ name: 'Deposits', value: 'deposits', description: 'Deposit (pay-in) status changes' },
						{
							name: 'Deposits and Cashouts',
							value: 'both',
							description: 'Both kinds, on the same URL',
						},
					],
				},
				URL_SECRET,
				...statusFilters(['both', 'deposits'], ['both', 'cashouts']),
				OPTIONS,
			],
		};
	}

	webhookMethods = NOTIFICATION_WEBHOOK_METHODS;

	webhook = handleNotification;
}
