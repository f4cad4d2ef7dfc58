import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as cancel from './cancel.operation';
import * as getMany from './getMany.operation';
import * as getStatus from './getStatus.operation';
import * as putOnHold from './putOnHold.operation';
import * as releaseHold from './releaseHold.operation';

export const operations: Record<string, OperationModule> = { cancel, getMany, getStatus, putOnHold, releaseHold };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cashout'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a cashout that has not been sent to the bank',
				action: 'Cancel a cashout',
			},
			{ name: 'Get Many', value: 'getMany', description: 'List cashouts created in a period', action: 'Get many cashouts' },
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Read the status of a cashout, with the bank’s rejection reason if any',
				action: 'Get the status of a cashout',
			},
			{
				name: 'Put On Hold',
				value: 'putOnHold',
				description: 'Stop a pending cashout from being processed',
				action: 'Put a cashout on hold',
			},
			{
				name: 'Release Hold',
				value: 'releaseHold',
				description: 'Let a cashout on hold be processed again',
				action: 'Release a cashout from hold',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...getStatus.description,
	...putOnHold.description,
	...releaseHold.description,
	...cancel.description,
];
