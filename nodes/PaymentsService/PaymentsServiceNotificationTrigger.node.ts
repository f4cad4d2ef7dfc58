import { VersionedNodeType } from 'n8n-workflow';
import type { INodeTypeBaseDescription } from 'n8n-workflow';

import { PaymentsServiceNotificationTriggerV1 } from './trigger/notification/v1';
import { PaymentsServiceNotificationTriggerV2 } from './trigger/notification/v2';

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
				2: new PaymentsServiceNotificationTriggerV2(BASE_DESCRIPTION),
			},
			BASE_DESCRIPTION,
		);
	}
}
