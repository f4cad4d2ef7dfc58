import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { executeReview, reviewDescription } from './review';

/** Deposit → Flag for Review: POST /v1/deposits/{idDeposit}/flagForReview (spec: Flag deposit for review). */
export const description = reviewDescription('flagForReview');

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeReview(this, client, itemIndex, 'flagForReview');
}
