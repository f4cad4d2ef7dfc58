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
		// 1.2: the creations send 8 items at once by default (1 on 1 and 1.1).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
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
	 * Runs the selected operation for every input item, each output item paired with its input item
	 * and in input order. The creations run up to Options → Concurrency items at once; every other
	 * operation one after another. With Continue On Fail, or as an AI agent's tool, a failed item
	 * yields an error item (router.ts, RunPlan.errorItem, RunPlan.asTool) and the other items
	 * proceed. Otherwise the node stops: no further item starts, the items already sent finish (each
	 * key's history was started before it was sent, so n8n's Retry reads them as sent), and the
	 * first failing item's error, carrying its item index, is thrown.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const run = planRun.call(this);
		const outputs: INodeExecutionData[][] = [];
		let failed: { itemIndex: number; error: Error } | undefined;
		await run.forEachItem(
			async (itemIndex) => {
				try {
					outputs[itemIndex] = await run.runItem(itemIndex);
				} catch (caught) {
					const error = run.toNodeError(caught, itemIndex);
					if (this.continueOnFail() || run.asTool) {
						outputs[itemIndex] = [run.errorItem(error, itemIndex)];
					} else if (!failed || itemIndex < failed.itemIndex) {
						failed = { itemIndex, error };
					}
				}
			},
			() => failed !== undefined,
		);
		if (failed) throw failed.error;
		run.afterRun();
		return [outputs.flat()];
	}
}
