import type { INodeProperties } from 'n8n-workflow';

/** The Deposit ID parameter of Get Status and the review shortcuts (service rules §5.3, §8). */
export const depositIdProperty: INodeProperties = {
	displayName: 'Deposit ID',
	name: 'depositId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '300012345',
	description:
		'The deposit_id the service assigned when the deposit was created (idDeposit in the reports)',
};
