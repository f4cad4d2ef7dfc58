import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../transport/client';

/**
 * One operation of the action node: its parameters (shown only for its resource and operation)
 * and what it does for one input item. The router loops over items, pairs outputs with their
 * input item and handles Continue On Fail; an operation only handles `itemIndex`.
 */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number): Promise<INodeExecutionData[]>;
	/** True for operations that act once per node run whatever the number of items (Log Out). */
	oncePerRun?: boolean;
}
