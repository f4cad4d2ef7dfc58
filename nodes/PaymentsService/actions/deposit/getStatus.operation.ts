import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { isFailureKind } from '../../transport/errors';
import { readPositiveInteger } from '../common/parameters';

export const properties: INodeProperties[] = [
	{
		displayName: 'Deposit ID',
		name: 'depositId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '300012345',
		description: 'The deposit_id returned when the deposit was created',
	},
];

/** Deposit → Get Status: signed GET /v3/deposits/{deposit_id} (service rules §5.3). */

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const depositId = readPositiveInteger(this, 'depositId', 'Deposit ID', itemIndex);
	const result = await client.request<IDataObject>(
		{ family: 'payments', method: 'GET', path: `/v3/deposits/${depositId}` },
		{
			action: `Reading the status of deposit ${depositId}`,
			itemIndex,
			explain: (failure) =>
				isFailureKind(failure, 'notFound')
					? `Deposit ${depositId} was not found (${failure.code ?? 404}): check the Deposit ID and that the credential belongs to the merchant that created it`
					: undefined,
		},
	);
	return [{ json: result }];
}
