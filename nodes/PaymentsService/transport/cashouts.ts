import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { describeCashoutStatus } from '../codes/cashoutStatus';
import type { PaymentsClient } from './client';
import { isFailureKind, type ServiceFailure } from './errors';

/** Why a cashout change was refused, in words: 509 not found, 510 wrong current status. */
export function explainCashoutRefusal(
	cashoutId: number | string,
	verb: string,
	allowedFrom: string,
): (failure: ServiceFailure) => string | undefined {
	return (failure) => {
		if (isFailureKind(failure, 'invalidTransition'))
			return `Cashout ${cashoutId} can no longer be ${verb}: it is not ${allowedFrom} (510)`;
		if (isFailureKind(failure, 'notFound'))
			return `Cashout ${cashoutId} was not found for this merchant (${failure.code ?? failure.httpStatus})`;
		return undefined;
	};
}

/**
 * Sends a cashout API call and returns its status result with readable names added
 * (`cashout_status_name`, `rejection_code_name`) and the cashout id for reference.
 */
export async function cashoutCall(
	client: PaymentsClient,
	method: 'PUT' | 'POST' | 'DELETE',
	body: IDataObject,
	failure: {
		action: string;
		itemIndex: number;
		explain?: (failure: ServiceFailure) => string | undefined;
	},
): Promise<INodeExecutionData[]> {
	const path = method === 'DELETE' ? '/v3/cashout/cancel' : '/v3/cashout/status';
	// The status read changes nothing, so it may be repeated; hold, release and cancel never are.
	const result = await client.request<IDataObject>(
		{ family: 'cashout', method, path, body, safeToRepeat: method === 'POST' },
		failure,
	);
	const described: IDataObject = describeCashoutStatus(
		result && typeof result === 'object' ? result : {},
	);
	if (described.cashout_id === undefined && body.cashout_id !== undefined)
		described.cashout_id = body.cashout_id;
	if (described.external_id === undefined && body.external_id !== undefined)
		described.external_id = body.external_id;
	return [{ json: described }];
}
