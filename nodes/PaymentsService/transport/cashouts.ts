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

/** What a failed cashout call says: the action in words, the item, and a refusal's meaning. */
export interface CashoutCallFailure {
	action: string;
	itemIndex?: number;
	explain?: (failure: ServiceFailure) => string | undefined;
}

/**
 * Reads a cashout's status: `POST /v3/cashout/status` by `cashout_id` or `external_id` (service
 * rules §6.1). Changes nothing, so it may be repeated (retried on its own).
 * @returns One item: the status result with readable names added (`cashout_status_name`,
 *   `rejection_code_name`) and the id it was read by.
 * @throws NodeApiError for a refusal (509 not found) or a failure.
 */
export async function readCashoutStatus(
	client: PaymentsClient,
	by: { cashout_id: number } | { external_id: string },
	failure: CashoutCallFailure,
): Promise<INodeExecutionData[]> {
	return await cashoutCall(client, 'POST', '/v3/cashout/status', by, failure);
}

/**
 * Puts a cashout on hold or releases it: `PUT /v3/cashout/status` with `status` ON_HOLD or PENDING
 * (service rules §6.1). Sent again only when no answer came back (a resend that finds the change
 * made is refused with 510). `onSend` is called as each attempt is sent.
 * @throws NodeApiError for a refusal (509, 510) or a failure.
 */
export async function updateCashoutStatus(
	client: PaymentsClient,
	body: { cashout_id: number; status: 'ON_HOLD' | 'PENDING' },
	failure: CashoutCallFailure,
	onSend?: () => void,
): Promise<INodeExecutionData[]> {
	return await cashoutCall(client, 'PUT', '/v3/cashout/status', body, failure, onSend);
}

/**
 * Cancels a cashout: `DELETE /v3/cashout/cancel` with its `cashout_id` and `external_id` (service
 * rules §6.1). Sent again only when no answer came back (a resend that finds it cancelled is
 * refused with 510). `onSend` is called as each attempt is sent.
 * @throws NodeApiError for a refusal (509, 510) or a failure.
 */
export async function cancelCashout(
	client: PaymentsClient,
	body: { cashout_id: number; external_id: string },
	failure: CashoutCallFailure,
	onSend?: () => void,
): Promise<INodeExecutionData[]> {
	return await cashoutCall(client, 'DELETE', '/v3/cashout/cancel', body, failure, onSend);
}

/**
 * Sends a cashout API call and returns its status result with readable names added
 * (`cashout_status_name`, `rejection_code_name`) and the cashout id for reference.
 */
async function cashoutCall(
	client: PaymentsClient,
	method: 'PUT' | 'POST' | 'DELETE',
	path: string,
	body: IDataObject,
	failure: CashoutCallFailure,
	onSend?: () => void,
): Promise<INodeExecutionData[]> {
	// The status read changes nothing, so it may be repeated; hold, release and cancel are sent
	// again only when no answer came back: each names the status it leads to (service rules §11).
	const read = method === 'POST';
	const result = await client.request<IDataObject>(
		{ family: 'cashout', method, path, body, repeat: read ? 'safe' : 'targetStatus' },
		failure,
		{ onSend },
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
