import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { describeCashoutStatus } from '../../helpers/cashoutStatus';
import { isServiceCode, type ServiceFailure } from '../../transport/errors';
import type { PaymentsClient } from '../../transport/client';

/** The Cashout ID parameter of the cashout operations. */
export const cashoutIdProperty: INodeProperties = {
	displayName: 'Cashout ID',
	name: 'cashoutId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '7700123',
	description: 'The cashout_id the service assigned when the cashout was created (idCashout in the reports)',
};

/** Why a cashout change was refused, in words: 509 not found, 510 wrong current status. */
export function explainCashoutRefusal(
	cashoutId: number | string,
	verb: string,
	allowedFrom: string,
): (failure: ServiceFailure) => string | undefined {
	return (failure) => {
		if (isServiceCode(failure, 510)) {
			const current = /\b(ON_HOLD|PENDING|DELIVERED|COMPLETED|REJECTED|CANCELLED|DECLINED)\b/.exec(failure.message ?? '');
			return `Cashout ${cashoutId} can no longer be ${verb}: it is not ${allowedFrom}${current ? ` (it is ${current[1]})` : ''} (510)`;
		}
		if (isServiceCode(failure, 509)) return `Cashout ${cashoutId} was not found for this merchant (509)`;
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
	failure: { action: string; itemIndex: number; explain?: (failure: ServiceFailure) => string | undefined },
): Promise<INodeExecutionData[]> {
	const path = method === 'DELETE' ? '/v3/cashout/cancel' : '/v3/cashout/status';
	// The status read changes nothing, so it may be repeated; hold, release and cancel never are.
	const result = await client.request<IDataObject>(
		{ family: 'cashout', method, path, body, safeToRepeat: method === 'POST' },
		failure,
	);
	const described: IDataObject = describeCashoutStatus(result && typeof result === 'object' ? result : {});
	if (described.cashout_id === undefined && body.cashout_id !== undefined) described.cashout_id = body.cashout_id;
	if (described.external_id === undefined && body.external_id !== undefined) described.external_id = body.external_id;
	return [{ json: described }];
}
