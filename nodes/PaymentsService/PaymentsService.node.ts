import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { buildCredentials, buildProperties } from './actions/registry';
import { planRun } from './actions/router';
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
		icon: {
			light: 'file:../../icons/payments-service.svg',
			dark: 'file:../../icons/payments-service.dark.svg',
		},
		group: ['transform'],
		// 1.1: Get Many's Simplify defaults to on (off on 1, so saved workflows keep their output).
		version: [1, 1.1],
		defaultVersion: 1.1,
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

	/**
	 * Runs the selected operation for every input item (once for operations that act once per run),
	 * each output item paired with its input item. With Continue On Fail, or as an AI agent's tool, a
	 * failed item yields an error item (router.ts, RunPlan.errorItem, RunPlan.asTool) and the next item
	 * proceeds; otherwise the error, carrying its item index, stops the node. Items run one after another.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const run = planRun.call(this);
		const returnData: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < run.count; itemIndex++) {
			try {
				returnData.push(...(await run.runItem(itemIndex)));
			} catch (caught) {
				const error = run.toNodeError(caught, itemIndex);
				if (this.continueOnFail() || run.asTool) {
					returnData.push(run.errorItem(error, itemIndex));
					continue;
				}
				throw error;
			}
		}
		return [returnData];
	}
}
