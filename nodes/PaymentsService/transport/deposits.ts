import type { IDataObject } from 'n8n-workflow';

import type { PaymentsClient } from './client';
import { isFailureKind } from './errors';

/**
 * Reads a deposit: the signed `GET /v3/deposits/{deposit_id}` (service rules §5.3), a safe read
 * that may be repeated. Answers `{deposit_id, invoice_id, status, payer, …}` as the service sends
 * it; a deposit the service does not know (208 / 404) is explained as such.
 * @param failure What the read is for, in words ("Reading the status of deposit 7"), and the item.
 * @throws NodeApiError for a refusal (208 not found) or a failure.
 */
export async function readDeposit(
	client: PaymentsClient,
	depositId: number,
	failure: { action: string; itemIndex?: number },
): Promise<IDataObject> {
	const answer = await client.request<IDataObject>(
		{ family: 'payments', method: 'GET', path: `/v3/deposits/${depositId}` },
		{
			...failure,
			explain: (refusal) =>
				isFailureKind(refusal, 'notFound')
					? `Deposit ${depositId} was not found (${refusal.code ?? 404}): check the Deposit ID and that the credential belongs to the merchant that created it`
					: undefined,
		},
	);
	return answer && typeof answer === 'object' ? answer : {};
}
