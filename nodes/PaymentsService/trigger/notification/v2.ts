import type { INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';

import { NOTIFICATION_WEBHOOK_METHODS, notificationTriggerDescription } from './description';
import { handleNotification } from './handler';

/**
 * Version 2 of the Notification Trigger (new nodes): one kind per node, so one credential per node.
 * Deposits use the deposit credential, cashouts the cashout credential (whose API signature also
 * verifies each notification's `control`). A merchant with both kinds adds two trigger nodes, each
 * with its own URL. The rest of the description is shared with version 1 (description.ts).
 */
export class PaymentsServiceNotificationTriggerV2 implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = notificationTriggerDescription(baseDescription, {
			version: 2,
			defaultKind: 'deposits',
			credentialRules: {
				deposits: { show: { notifications: ['deposits'] } },
				cashouts: { show: { notifications: ['cashouts'] } },
			},
			statusFilterChoices: { deposits: ['deposits'], cashouts: ['cashouts'] },
		});
	}

	webhookMethods = NOTIFICATION_WEBHOOK_METHODS;

	webhook = handleNotification;
}
