import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { AttachmentFile, DocumentType } from '../../transport/tickets';

/**
 * Reads a file from the item's binary property, with its file name and MIME type.
 * @throws NodeOperationError naming the property and the item when the item has no such file.
 */
export async function readBinaryFile(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	documentType: DocumentType,
): Promise<AttachmentFile> {
	const name = propertyName.trim();
	const item = context.getInputData()[itemIndex];
	if (!name || !item?.binary?.[name]) {
		const available = Object.keys(item?.binary ?? {});
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex} has no binary property "${name}"`,
			{
				itemIndex,
				description: available.length
					? `Binary properties of this item: ${available.join(', ')}. Set the property name to one of them.`
					: 'This item carries no files. Add a node before this one that reads or downloads the file (e.g. Read/Write Files from Disk or HTTP Request).',
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
		documentType,
	};
}
