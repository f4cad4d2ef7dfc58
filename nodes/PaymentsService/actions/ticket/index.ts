import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as addAttachment from './addAttachment.operation';
import * as confirm from './confirm.operation';
import * as createDraft from './createDraft.operation';

export const operations: Record<string, OperationModule> = { addAttachment, confirm, createDraft };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['ticket'] } },
		options: [
			{
				name: 'Add Attachment',
				value: 'addAttachment',
				description: 'Attach a file to a draft ticket',
				action: 'Add an attachment to a ticket',
			},
			{
				name: 'Confirm',
				value: 'confirm',
				description: 'Submit a draft ticket to the support team',
				action: 'Confirm a ticket',
			},
			{
				name: 'Create Draft',
				value: 'createDraft',
				description: 'Create a support ticket in draft state',
				action: 'Create a draft ticket',
			},
		],
		default: 'createDraft',
	},
	...createDraft.description,
	...addAttachment.description,
	...confirm.description,
];
