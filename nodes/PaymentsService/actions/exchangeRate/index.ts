import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as get from './get.operation';

export const operations: Record<string, OperationModule> = { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['exchangeRate'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the rate of a country’s local currency against USD, and an amount converted',
				action: 'Get an exchange rate',
			},
		],
		default: 'get',
	},
	...get.description,
];
