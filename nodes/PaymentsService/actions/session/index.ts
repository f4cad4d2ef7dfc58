import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as logOut from './logOut.operation';

export const operations: Record<string, OperationModule> = { logOut };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
			{
				name: 'Log Out',
				value: 'logOut',
				description: 'End the stored session at once; the next request logs in again',
				action: 'Log out of the session',
			},
		],
		default: 'logOut',
	},
	...logOut.description,
];
