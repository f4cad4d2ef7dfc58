import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { readDeposit } from '../../transport/deposits';
import { readPositiveInteger } from '../common/parameters';
import { depositIdProperty } from './depositId';

export const properties: INodeProperties[] = [depositIdProperty];

/** Deposit → Get Status: signed GET /v3/deposits/{deposit_id} (service rules §5.3). */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const depositId = readPositiveInteger(this, 'depositId', 'Deposit ID', itemIndex);
	const result = await readDeposit(client, depositId, {
		action: `Reading the status of deposit ${depositId}`,
		itemIndex,
	});
	return [{ json: result }];
}
