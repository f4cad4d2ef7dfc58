import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { TRIGGER_PROPERTIES } from './trigger/poll/description';
import { handlePoll } from './trigger/poll/handler';

/**
 * Payments Service Trigger: polls the reporting lists and emits new records, status changes or any
 * change, each exactly once (see README, "Trigger"). State lives in the node's workflow static data:
 * version 1 remembers every record of the look-back, version 2 the newest ones and, for the
 * others, when their part of the look-back was last read (trigger/poll/ranges.ts).
 */
export class PaymentsServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payments Service Trigger',
		name: 'paymentsServiceTrigger',
		icon: {
			light: 'file:../../icons/payments-service.svg',
			dark: 'file:../../icons/payments-service.dark.svg',
		},
		group: ['trigger'],
		// Version 2 remembers the newest records one by one and re-reads older ones less often
		// (docs/polling-trigger.md, "Versions"); saved workflows keep version 1's behaviour.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["event"] + ": " + $parameter["resource"]}}',
		description:
			'Starts the workflow when deposits, cashouts, refunds, chargebacks, settlements or notes appear or change',
		defaults: { name: 'Payments Service Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paymentsServiceSessionApi', required: true }],
		properties: TRIGGER_PROPERTIES,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await handlePoll(this);
	}
}
