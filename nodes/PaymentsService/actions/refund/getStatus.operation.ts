import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PaymentsClient } from '../../transport/client';
import { isFailureKind } from '../../transport/errors';
import { readPositiveInteger } from '../common/parameters';
import { optionsCollection } from '../../parameters/options';

export const properties: INodeProperties[] = [
	{
		displayName: 'Refund ID',
		name: 'refundId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '168284',
		description:
			'The refund_id returned when the refund was requested (its ID in Refund → Get Many)',
	},
	optionsCollection([
		{
			displayName: 'Put Voucher in Binary Property',
			name: 'voucherToBinary',
			type: 'boolean',
			default: false,
			description: 'Whether to read the refund’s voucher too and output it as a PDF file',
		},
		{
			displayName: 'Voucher Binary Property',
			name: 'voucherBinaryProperty',
			type: 'string',
			default: 'voucher',
			displayOptions: { show: { voucherToBinary: [true] } },
			description: 'Name of the binary property the PDF is written to',
		},
	]),
];

/**
 * Refund → Get Status: `GET /v3/refunds/{id}`, signed with an empty body (service rules §7).
 * Outputs `{deposit_id, merchant_invoice_id, status, amount}` as the service answers it (statuses
 * PENDING, INCORRECT_DETAILS, DELIVERED, COMPLETED, CANCELLED, REJECTED); with the voucher option,
 * `?voucher=true` and the base64 PDF becomes a binary file `refund-<id>.pdf`.
 * @throws NodeOperationError for a Refund ID that is not a positive whole number (nothing is
 *   sent); NodeApiError for an unknown refund (208).
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const refundId = readPositiveInteger(this, 'refundId', 'Refund ID', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const withVoucher = options.voucherToBinary === true;
	const result = await client.request<IDataObject>(
		{
			family: 'payments',
			method: 'GET',
			path: `/v3/refunds/${refundId}`,
			qs: withVoucher ? { voucher: 'true' } : undefined,
		},
		{
			action: `Reading the status of refund ${refundId}`,
			itemIndex,
			explain: (failure) =>
				isFailureKind(failure, 'notFound')
					? `Refund ${refundId} was not found (${failure.code ?? 404}): check the Refund ID and that the credential belongs to the merchant that requested it`
					: undefined,
		},
	);
	const json: IDataObject = { refund_id: refundId, ...(result ?? {}) };
	const output: INodeExecutionData = { json };
	if (withVoucher && typeof json.voucher === 'string' && json.voucher !== '') {
		const property = String(options.voucherBinaryProperty || 'voucher');
		const base64 = json.voucher.replace(/^data:application\/pdf;base64,/, '');
		delete json.voucher;
		output.binary = {
			[property]: await this.helpers.prepareBinaryData(
				Buffer.from(base64, 'base64'),
				`refund-${refundId}.pdf`,
				'application/pdf',
			),
		};
	}
	return [output];
}
