import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { IDEMPOTENCY_HEADER } from '../../helpers/constants';
import { REFUND_COLLECTIONS, REFUND_FIELDS, validateRefundRequest } from '../../helpers/refundSchema';
import { fieldParameters } from '../../helpers/requestFields';
import type { PaymentsClient } from '../../transport/client';
import { isServiceCode, type ServiceFailure } from '../../transport/errors';
import { creationKey, duplicateWindowOption, explainUncertainCreation, idempotencyKeyOption } from '../common/idempotency';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';

export const properties: INodeProperties[] = [
	{
		displayName: 'Deposit Identified By',
		name: 'identifyBy',
		type: 'options',
		default: 'depositId',
		options: [
			{ name: 'Deposit ID', value: 'depositId', description: 'The ID the service assigned to the deposit' },
			{ name: 'Invoice ID', value: 'invoiceId', description: 'The invoice ID your system gave the deposit' },
		],
	},
	...fieldParameters(REFUND_FIELDS, REFUND_COLLECTIONS),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [duplicateWindowOption, idempotencyKeyOption('the same refund being requested twice')],
	},
];

/**
 * Refund → Create: `POST /v3/refunds`, signed like deposits, with an `X-Idempotency-Key` (service
 * rules §7, §2.3, §5.2).
 *
 * Every field is checked before anything is sent (helpers/refundSchema.ts); an Amount expression
 * that resolves to nothing is refused (only an Amount left empty on purpose is a full refund). The
 * key is given (option Idempotency Key, sent as given or refused) or derived from the workflow,
 * node, run, item, the request and the Duplicate Window, the same on every re-run of the request. One item per input item, the same fields on both paths:
 * `{already_requested, refund_id, deposit_id, invoice_id, amount, idempotency_key, refund_info,
 * message}` — `amount` null for a full refund; `refund_info` the card acquirer's answer of an
 * instant card refund, else null.
 * - First success: the service's `refund_id` (`already_requested: false`).
 * - 104 (key already used): an earlier attempt requested this refund; nothing new is requested
 *   (`already_requested: true`). That answer carries no `refund_id` (null; Refund → Get Many lists
 *   the deposit's refunds, `idBoleto` = the deposit).
 *
 * @throws NodeOperationError for a field that breaks its rule (nothing is sent); NodeApiError for a
 *   refusal (802 amount, 804 bank account, 208 deposit not found, 300 fields), with what it means;
 *   a lost answer names the key Retry On Fail repeats.
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const body = bodyFromFields(this, itemIndex, REFUND_FIELDS, 'Refund');
	const checked = validateRefundRequest(body);
	if (!checked.ok) throw invalidBodyError(this, itemIndex, 'Refund', checked.problems);
	const request = checked.value as IDataObject;

	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const creation = creationKey(this, itemIndex, {
		given: typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : undefined,
		kind: 'idempotencyKey',
		label: 'Idempotency Key',
		noun: 'Refund',
		content: request,
		options,
	});
	const idempotencyKey = creation.key;
	const deposit = request.deposit_id !== undefined ? `deposit ${String(request.deposit_id)}` : `the deposit with invoice ID ${String(request.invoice_id)}`;
	const shape = (alreadyRequested: boolean, refundId: unknown, refundInfo: unknown, message: string): IDataObject => ({
		already_requested: alreadyRequested,
		refund_id: (refundId as IDataObject[string]) ?? null,
		deposit_id: (request.deposit_id as number | undefined) ?? null,
		invoice_id: (request.invoice_id as string | undefined) ?? null,
		amount: (request.amount as string | number | undefined) ?? null,
		idempotency_key: idempotencyKey,
		refund_info: (refundInfo as IDataObject | undefined) ?? null,
		message,
	});

	let result: IDataObject;
	try {
		result = await client.request<IDataObject>(
			{ family: 'payments', method: 'POST', path: '/v3/refunds', body: request, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } },
			{ action: `Requesting the refund of item ${itemIndex}`, itemIndex, explain: explainRefusal(deposit, itemIndex) },
		);
	} catch (error) {
		if (isServiceCode(error, 104)) {
			const message = `Refund of ${deposit} already requested by an earlier attempt (idempotency key ${idempotencyKey}); no second refund was made.`;
			return [{ json: shape(true, null, null, message) }];
		}
		throw error instanceof NodeApiError
			? explainUncertainCreation(error, creation, 'idempotency key', 104, 'refund')
			: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
	}
	const refundId = result?.refund_id;
	const amount = request.amount !== undefined ? `${String(request.amount)}` : 'everything left';
	return [{ json: shape(false, refundId, result?.refund_info, `Refund ${String(refundId)} of ${deposit} requested (${amount}).`) }];
}

/** Why a refund was refused, in words (service rules §7). */
function explainRefusal(deposit: string, itemIndex: number): (failure: ServiceFailure) => string | undefined {
	return (failure) => {
		if (isServiceCode(failure, 802)) return `The amount of the refund of ${deposit} cannot be refunded (802)`;
		if (isServiceCode(failure, 804)) {
			return `The refund of ${deposit} needs the customer’s bank account (804): fill Bank Account with the beneficiary, bank code and account number`;
		}
		if (isServiceCode(failure, 208) || failure.httpStatus === 404) {
			return `${deposit.charAt(0).toUpperCase()}${deposit.slice(1)} was not found (${failure.code ?? 404}): check it, and that the credential belongs to the merchant that received it`;
		}
		if (isServiceCode(failure, 300)) return `The refund of item ${itemIndex} was refused: invalid request (300)`;
		return undefined;
	};
}
