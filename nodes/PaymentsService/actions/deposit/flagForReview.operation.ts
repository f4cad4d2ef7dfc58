import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { executeReview, reviewProperties } from './review';

/** Deposit → Flag for Review: POST /v1/deposits/{idDeposit}/flagForReview (service rules §8). */
export const properties = reviewProperties;

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeReview(this, client, itemIndex, 'flagForReview');
}
