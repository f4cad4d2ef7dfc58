import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { WorkflowJson } from './engine';
import { CREDENTIAL_IDS, WorkflowBuilder, type CredentialTypeName } from './fixtures';

/**
 * The creations' engine tests' building blocks: Deposit, Cashout and Refund → Create nodes whose
 * fields come from the input item, and the workflows that feed them rows.
 */

export const CASHOUT: CredentialTypeName = 'paymentsServiceCashoutApi';
export const DEPOSIT: CredentialTypeName = 'paymentsServiceDepositApi';

/** The answers a creation can lose before its item fails: the first and the node's 2 resends. */
export const LOST_ANSWERS = 3;

/** A Brazilian payout whose fields come from the input item (`name`, `amount`, `document`). */
export const payoutFromRow = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'cashout',
	operation: 'create',
	externalId: '',
	country: { __rl: true, mode: 'list', value: 'BR' },
	amount: '={{ $json.amount }}',
	documentId: '={{ $json.document }}',
	beneficiaryName: '={{ $json.name }}',
	notificationUrl: 'https://shop.example.com/payouts/notify',
	...extra,
});

/** A Brazilian deposit (BRL) whose amount and description come from the input item (`amount`, `name`). */
export const depositFromRow = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'deposit',
	operation: 'create',
	amount: '={{ $json.amount }}',
	currency: 'BRL',
	country: 'BR',
	additionalFields: { description: '={{ $json.name }}' },
	...extra,
});

/** A refund of the input item's `deposit` for its `amount`. */
export const refundFromRow = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'refund',
	operation: 'create',
	depositId: '={{ $json.deposit }}',
	amount: '={{ $json.amount }}',
	...extra,
});

/** `node` with the optional Session credential selected, for looking earlier records up. */
export const withSession = (node: INode): INode => ({
	...node,
	credentials: {
		...node.credentials,
		paymentsServiceSessionApi: {
			id: CREDENTIAL_IDS.paymentsServiceSessionApi,
			name: 'paymentsServiceSessionApi',
		},
	},
});

/** Rows → Loop Over Items (batch size 1) → `node`. */
export function loopWorkflow(id: string, rows: IDataObject[], node: INode): WorkflowJson {
	const builder = new WorkflowBuilder('Loop over rows');
	builder.items('Rows', rows);
	builder.loopOverItems('Loop Over Items', node);
	return { ...builder.build(), id };
}

/** Rows → `node` (all rows in one run). */
export function itemsWorkflow(id: string, rows: IDataObject[], node: INode): WorkflowJson {
	const builder = new WorkflowBuilder('Rows at once');
	builder.items('Rows', rows);
	builder.then(node);
	return { ...builder.build(), id };
}
