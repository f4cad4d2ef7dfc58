import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as create from './create.operation';
import * as flagForReview from './flagForReview.operation';
import * as flagReversalForReview from './flagReversalForReview.operation';
import * as getMany from './getMany.operation';
import * as getStatus from './getStatus.operation';

export const operations: Record<string, OperationModule> = {
	create,
	flagForReview,
	flagReversalForReview,
	getMany,
	getStatus,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deposit'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a deposit (pay-in), ONE_SHOT or HOSTED',
				action: 'Create a deposit',
			},
			{
				name: 'Flag for Review',
				value: 'flagForReview',
				description: 'Open a review ticket for a deposit, optionally with files, and confirm it',
				action: 'Flag a deposit for review',
			},
			{
				name: 'Flag Reversal for Review',
				value: 'flagReversalForReview',
				description: 'Open a review ticket for a deposit reversal, optionally with files, and confirm it',
				action: 'Flag a deposit reversal for review',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List deposits created in a period',
				action: 'Get many deposits',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Read the current status of a created deposit',
				action: 'Get the status of a deposit',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...create.description,
	...getStatus.description,
	...flagForReview.description,
	...flagReversalForReview.description,
];
