import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { positiveId } from '../../codes/ids';
import {
	lookUpOfList,
	type LookUp,
	type LookUpTarget,
	type PreparedRequest,
} from '../../idempotency/createOnce';
import { lookUpInList } from '../../idempotency/lookUp';
import { REPORTING_LISTS } from '../../reporting/lists';
import type { PaymentsClient } from '../../transport/client';
import { readDeposit } from '../../transport/deposits';

/**
 * What Deposit → Create adds around the create-once flow (service rules §5.1, §5.2): the QR code
 * of a ONE_SHOT answer as a file, and the reads that find a deposit again after a 104.
 */

/** A deposit request as Deposit → Create built it, with the fields sent unchecked and the options. */
export interface PreparedDeposit extends PreparedRequest {
	/** `{unchecked_fields: [...]}` when the JSON body had fields the node does not know, else `{}`. */
	unchecked: IDataObject;
	options: IDataObject;
}

/** The options that put a ONE_SHOT deposit's QR code into binary data. */
export const qrCodeOptions: INodeProperties[] = [
	{
		displayName: 'Put QR Code in Binary Property',
		name: 'qrCodeToBinary',
		type: 'boolean',
		default: false,
		description: 'Whether to output the QR code of a ONE_SHOT deposit as a PNG file',
	},
	{
		displayName: 'QR Code Binary Property',
		name: 'qrCodeBinaryProperty',
		type: 'string',
		default: 'qrCode',
		displayOptions: { show: { qrCodeToBinary: [true] } },
		description: 'Name of the binary property the PNG is written to',
	},
];

/**
 * The ONE_SHOT answer's QR code (`payment_info.secondary_metadata.qr_code`, base64 PNG) as binary
 * data, when Options → Put QR Code in Binary Property is on and the answer has one; undefined
 * otherwise.
 */
export async function qrCodeBinary(
	context: IExecuteFunctions,
	result: IDataObject,
	request: IDataObject,
	options: IDataObject,
): Promise<INodeExecutionData['binary']> {
	if (options.qrCodeToBinary !== true) return undefined;
	const paymentInfo = result.payment_info as IDataObject | undefined;
	const secondary = paymentInfo?.secondary_metadata as IDataObject | undefined;
	const qrCode = secondary?.qr_code;
	if (typeof qrCode !== 'string' || qrCode === '') return undefined;
	const property = String(options.qrCodeBinaryProperty || 'qrCode');
	const base64 = qrCode.replace(/^data:image\/png;base64,/, '');
	return {
		[property]: await context.helpers.prepareBinaryData(
			Buffer.from(base64, 'base64'),
			`deposit-${String(result.deposit_id ?? request.invoice_id ?? 'qr')}.png`,
			'image/png',
		),
	};
}

/**
 * The deposit list read that finds the deposit of `request` by its invoice ID: the list and the
 * filters that narrow the first read (country, payer document, method).
 */
export function depositLookup(request: IDataObject, invoiceId: string) {
	const payer = (request.payer as IDataObject | undefined) ?? {};
	return {
		list: REPORTING_LISTS.deposit,
		filters: {
			country: request.country,
			clientDocument: payer.document,
			paymentMethod: request.payment_method,
		},
		match: (record: IDataObject) => record.externalId === invoiceId,
	};
}

/**
 * The current status of a deposit found in the list (`GET /v3/deposits/{id}`), or the list's
 * status when that read fails: the deposit exists either way.
 */
export async function currentStatus(
	client: PaymentsClient,
	record: IDataObject,
	itemIndex: number,
): Promise<string | null> {
	const listed = typeof record.status === 'string' ? record.status : null;
	const depositId = positiveId(record.idDeposit);
	if (depositId === undefined) return listed;
	try {
		const current = await readDeposit(client, depositId, {
			action: `Reading the status of deposit ${depositId}`,
			itemIndex,
		});
		return typeof current.status === 'string' ? current.status : listed;
	} catch {
		return listed;
	}
}

/**
 * Looks up the deposit of `target.key` (service rules §5.1, §5.2): by its invoice ID in the deposit
 * list, with a Session credential. A deposit is found by its key only where the invoice ID is the
 * key (derived, or given as the Idempotency Key without an Invoice ID): another window's key is
 * looked up only then. Never throws: a failed read is in the note.
 */
export async function lookUpDeposit(
	context: IExecuteFunctions,
	prepared: PreparedDeposit,
	target: LookUpTarget,
	itemIndex: number,
): Promise<LookUp> {
	const { body, key } = prepared;
	const invoiceId =
		body.invoice_id === key.value
			? target.key
			: target.key === key.value
				? body.invoice_id
				: undefined;
	if (typeof invoiceId !== 'string')
		return {
			exists: false,
			label: '',
			note: ' Without an Invoice ID it cannot be looked up.',
			facts: undefined,
		};
	const result = await lookUpInList(
		context,
		itemIndex,
		depositLookup(body, invoiceId),
		target.period,
		{ reread: target.known },
	);
	return lookUpOfList(result, 'deposit', named);
}

/** A deposit as the messages name it: "deposit 3000000001 (PENDING)". */
const named = (record: IDataObject) =>
	`deposit ${String(record.idDeposit)} (${String(record.status)})`;
