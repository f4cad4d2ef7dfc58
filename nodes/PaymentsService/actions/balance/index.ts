import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as get from './get.operation';
import * as getDailyReport from './getDailyReport.operation';

export const operations: Record<string, OperationModule> = { get, getDailyReport };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['balance'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get the total available balance', action: 'Get the balance' },
			{
				name: 'Get Daily Report',
				value: 'getDailyReport',
				description: 'Get the balance report, one entry per day of a period',
				action: 'Get the daily balance report',
			},
		],
		default: 'get',
	},
	...get.description,
	...getDailyReport.description,
];
