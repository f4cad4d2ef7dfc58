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
		displayOptions: { show: { resource: ['bank'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the bank codes accepted for cashouts in a country',
				action: 'Get many banks',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
