import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { buildCredentials, buildProperties } from './actions/registry';
import { router } from './actions/router';
import { searchBanks, searchCountries, searchPaymentMethods } from './methods/listSearch';

/**
 * Payments Service: every operation of the merchant payments service (reporting lists, balance,
 * support tickets, deposits, cashouts, refunds, exchange rates, bank codes, payment methods,
 * session), with pickers for countries, payment methods and banks (methods/listSearch.ts).
 * The operations, their action texts and credentials come from the operation registry
 * (actions/registry.ts); README.md lists them.
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
			'Report on deposits, cashouts, refunds, chargebacks, settlements and balances; create deposits, cashouts and refunds; hold or cancel cashouts; open review tickets',
		defaults: { name: 'Payments Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: buildCredentials(),
		properties: buildProperties(),
	};

	methods = {
		listSearch: { searchCountries, searchPaymentMethods, searchBanks },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
