import type { INode } from 'n8n-workflow';

/**
 * The second node of what a user builds today for a report (issue 25's baseline): n8n's Summarize
 * node after Get Many (Return All, Simplify), counting the deposits and summing `amount` by status.
 * Used by `npm run bench -- report` (n8n's engine) and `npm run bench:n8n` (a real n8n).
 */
export const N8N_SUMMARIZE_NODE: INode = {
	id: 'summarize',
	name: 'Summarize',
	type: 'n8n-nodes-base.summarize',
	typeVersion: 1.1,
	position: [440, 0],
	parameters: {
		fieldsToSummarize: {
			values: [
				{ aggregation: 'count', field: 'idDeposit' },
				{ aggregation: 'sum', field: 'amount' },
			],
		},
		fieldsToSplitBy: 'status',
		options: {},
	},
};
