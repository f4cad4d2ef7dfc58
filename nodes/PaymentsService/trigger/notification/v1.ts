import type { INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';

import { NOTIFICATION_WEBHOOK_METHODS, notificationTriggerDescription } from './description';
import { handleNotification } from './handler';

/**
 * Version 1 of the Notification Trigger, kept so that saved workflows keep working: its Notifications
 * can be "Deposits and Cashouts" on one URL, with both credentials. New nodes are version 2 (one kind,
 * one credential per node: n8n's single-credential-per-node rule). Same handling as version 2
 * ({@link handleNotification}); the rest of the description is shared (description.ts).
 */
export class PaymentsServiceNotificationTriggerV1 implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = notificationTriggerDescription(baseDescription, {
			version: 1,
			defaultKind: 'both',
			moreKinds: [
				{
					name: 'Deposits and Cashouts',
					value: 'both',
					description: 'Both kinds, on the same URL',
				},
			],
			// Rules on `hide`: n8n's editor takes a parameter named in a credential's `show` rule for
			// the node's authentication selector and removes it from the panel. Version 2 wants that
			// (v2.ts: one credential per kind); here "Deposits and Cashouts" takes both credentials.
			credentialRules: {
				deposits: { hide: { notifications: ['cashouts'] } },
				cashouts: { hide: { notifications: ['deposits'] } },
			},
			statusFilterChoices: { deposits: ['both', 'deposits'], cashouts: ['both', 'cashouts'] },
		});
	}

	webhookMethods = NOTIFICATION_WEBHOOK_METHODS;

	webhook = handleNotification;
}
