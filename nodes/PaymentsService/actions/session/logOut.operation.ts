import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';

/**
 * Session → Log Out: DELETE /v1/auth/session/destroy (service rules §2.1). Invalidates the stored
 * session token at once; the next request of the credential logs in again by itself. Runs once per
 * node run, whatever the number of input items.
 */
export const properties: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const answer = await client.request<unknown>(
		{
			family: 'reporting',
			method: 'DELETE',
			path: '/v1/auth/session/destroy',
			headers: { 'Content-Type': 'application/json' },
		},
		{ action: 'Logging out', itemIndex },
	);
	const message =
		typeof answer === 'string'
			? answer
			: typeof (answer as IDataObject | undefined)?.message === 'string'
				? ((answer as IDataObject).message as string)
				: 'Session destroyed';
	return [{ json: { loggedOut: true, message } }];
}
