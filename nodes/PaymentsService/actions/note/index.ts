import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getMany from './getMany.operation';

export const operations: Record<string, OperationModule> = { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['note'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List credit and debit notes created in a period',
				action: 'Get many credit and debit notes',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
