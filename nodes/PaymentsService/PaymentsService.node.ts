import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import * as balance from './actions/balance';
import * as bank from './actions/bank';
import * as cashout from './actions/cashout';
import * as chargeback from './actions/chargeback';
import * as deposit from './actions/deposit';
import * as exchangeRate from './actions/exchangeRate';
import * as note from './actions/note';
import * as refund from './actions/refund';
import { router } from './actions/router';
import * as session from './actions/session';
import * as settlement from './actions/settlement';
import * as ticket from './actions/ticket';

/**
 * Payments Service: every operation of the merchant payments service (reporting lists, balance,
 * support tickets, deposits, cashouts, exchange rates, bank codes, session).
 * See README.md for the operations table and the credential each one uses.
 */
export class PaymentsService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payments Service',
		name: 'paymentsService',
		icon: { light: 'file:../../icons/payments-service.svg', dark: 'file:../../icons/payments-service.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Report on deposits, cashouts, refunds, chargebacks, settlements and balances; create deposits; hold or cancel cashouts; open review tickets',
		defaults: { name: 'Payments Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'paymentsServiceSessionApi',
				required: true,
				displayOptions: {
					show: {
						resource: [
							'balance',
							'cashout',
							'chargeback',
							'deposit',
							'note',
							'refund',
							'session',
							'settlement',
							'ticket',
						],
						operation: [
							'addAttachment',
							'confirm',
							'createDraft',
							'flagForReview',
							'flagReversalForReview',
							'get',
							'getDailyReport',
							'getMany',
							'logOut',
						],
					},
				},
			},
			{
				name: 'paymentsServiceDepositApi',
				required: true,
				displayOptions: { show: { resource: ['deposit'], operation: ['create', 'getStatus'] } },
			},
			{
				name: 'paymentsServiceCashoutApi',
				required: true,
				displayOptions: {
					show: { resource: ['cashout'], operation: ['cancel', 'getStatus', 'putOnHold', 'releaseHold'] },
				},
			},
			{
				name: 'paymentsServiceReadOnlyApi',
				required: true,
				displayOptions: { show: { resource: ['bank', 'exchangeRate'] } },
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Balance', value: 'balance' },
					{ name: 'Bank', value: 'bank' },
					{ name: 'Cashout', value: 'cashout' },
					{ name: 'Chargeback', value: 'chargeback' },
					{ name: 'Credit/Debit Note', value: 'note' },
					{ name: 'Deposit', value: 'deposit' },
					{ name: 'Exchange Rate', value: 'exchangeRate' },
					{ name: 'Refund', value: 'refund' },
					{ name: 'Session', value: 'session' },
					{ name: 'Settlement', value: 'settlement' },
					{ name: 'Ticket', value: 'ticket' },
				],
				default: 'deposit',
			},
			...balance.description,
			...bank.description,
			...cashout.description,
			...chargeback.description,
			...deposit.description,
			...exchangeRate.description,
			...note.description,
			...refund.description,
			...session.description,
			...settlement.description,
			...ticket.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
