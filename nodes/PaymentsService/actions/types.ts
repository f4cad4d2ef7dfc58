import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../transport/client';

/**
 * What an `<operation>.operation.ts` file exports: its parameters (the registry shows them only for
 * its resource and operation) and what it does for one input item. The router loops over items,
 * pairs outputs with their input item and handles Continue On Fail; an operation only handles
 * `itemIndex`, with a client bound to the credential of its run policy (actions/registry.ts).
 */
export interface OperationModule {
	properties: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		client: PaymentsClient,
		itemIndex: number,
	): Promise<INodeExecutionData[]>;
	/**
	 * Called once when a run of the node ended without an error (nothing runs it again then): the
	 * creations mark the outcomes they kept for Retry On Fail as reported (idempotency/history.ts).
	 */
	afterRun?(context: IExecuteFunctions): void;
}
