import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { DOCUMENT_TYPES, type AttachmentFile, type DocumentType } from '../../transport/tickets';
import { showValue } from '../../parameters/values';

/**
 * Reads a file from the item's binary property, with its file name and MIME type, as an attachment
 * of `documentType` (service rules §8).
 * @throws NodeOperationError naming the parameter, the value and the item when the property name is
 *   not a text, the item has no such file, or the document type is not one the service takes;
 *   nothing has been sent.
 */
export async function readBinaryFile(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: unknown,
	documentType: unknown,
): Promise<AttachmentFile> {
	const name = typeof propertyName === 'string' ? propertyName.trim() : '';
	const item = context.getInputData()[itemIndex];
	const binary = item?.binary ?? {};
	if (!name || !Object.prototype.hasOwnProperty.call(binary, name) || !binary[name]) {
		const available = Object.keys(binary);
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex} has no binary property ${showValue(typeof propertyName === 'string' ? name : propertyName)}`,
			{
				itemIndex,
				description: available.length
					? `Binary properties of this item: ${available.join(', ')}. Set the property name to one of them.`
					: 'This item carries no files. Add a node before this one that reads or downloads the file (e.g. Read/Write Files from Disk or HTTP Request).',
			},
		);
	}
	if (!DOCUMENT_TYPES.includes(documentType as DocumentType)) {
		throw new NodeOperationError(
			context.getNode(),
			`Document Type must be one of ${DOCUMENT_TYPES.join(', ')}, got ${showValue(documentType)} (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Choose the kind of document the file is: a voucher, an ID document or a bank statement.',
			},
		);
	}
	const meta = context.helpers.assertBinaryData(itemIndex, name);
	const data = await context.helpers.getBinaryDataBuffer(itemIndex, name);
	const extension = meta.fileExtension ? `.${meta.fileExtension}` : '';
	return {
		data,
		fileName: meta.fileName || `${name}${extension}`,
		mimeType: meta.mimeType || 'application/octet-stream',
		documentType: documentType as DocumentType,
	};
}
