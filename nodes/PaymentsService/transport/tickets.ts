import type { IDataObject } from 'n8n-workflow';

import type { PaymentsClient } from './client';
import { buildMultipartBody } from './multipart';

/** Document types an attachment can have (service rules §8). */
export const DOCUMENT_TYPES = ['VOUCHER', 'ID_DOCUMENT', 'BANK_STATEMENT'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** A file to attach to a ticket. */
export interface AttachmentFile {
	data: Buffer;
	fileName: string;
	mimeType: string;
	documentType: DocumentType;
}

/** A ticket as the service returns it; only `idTicket` and `uploadedDocuments` are published. */
export interface TicketRecord extends IDataObject {
	idTicket?: number;
	uploadedDocuments?: unknown[];
}

/**
 * Uploads one file to a draft ticket: POST /v1/tickets/{id}/addAttachment, multipart/form-data
 * with `file` and `documentType` (service rules §8). The body is a Buffer, so n8n can resend it
 * after renewing the session.
 * @throws NodeApiError naming the ticket and file.
 */
export async function addAttachment(
	client: PaymentsClient,
	ticketId: number,
	file: AttachmentFile,
	itemIndex: number,
): Promise<TicketRecord> {
	const { body, contentType } = buildMultipartBody([
		{ name: 'documentType', value: file.documentType },
		{ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data },
	]);
	const answer = await client.request<TicketRecord>(
		{
			family: 'tickets',
			method: 'POST',
			path: `/v1/tickets/${ticketId}/addAttachment`,
			body,
			headers: { 'Content-Type': contentType },
		},
		{
			action: `Attaching "${file.fileName}" (${file.documentType}) to ticket ${ticketId}`,
			itemIndex,
		},
	);
	return answer && typeof answer === 'object' ? answer : {};
}

/**
 * Submits a draft ticket: POST /v1/tickets/{id}/confirmTicket (service rules §8).
 * @throws NodeApiError naming the ticket.
 */
export async function confirmTicket(
	client: PaymentsClient,
	ticketId: number,
	itemIndex: number,
): Promise<TicketRecord> {
	const answer = await client.request<TicketRecord>(
		{
			family: 'tickets',
			method: 'POST',
			path: `/v1/tickets/${ticketId}/confirmTicket`,
			headers: { 'Content-Type': 'application/json' },
		},
		{ action: `Confirming ticket ${ticketId}`, itemIndex },
	);
	return answer && typeof answer === 'object' ? answer : {};
}

/** Type and file name of an entry of `uploadedDocuments`; entries may be objects or plain strings. */
function describeDocument(entry: unknown): { documentType?: string; fileName?: string } {
	if (typeof entry === 'string') return { documentType: entry.toUpperCase() };
	if (entry && typeof entry === 'object') {
		const doc = entry as Record<string, unknown>;
		const type = doc.documentType ?? doc.type;
		const name = doc.fileName ?? doc.name ?? doc.filename;
		return {
			documentType: typeof type === 'string' ? type.toUpperCase() : undefined,
			fileName: typeof name === 'string' ? name : undefined,
		};
	}
	return {};
}

/**
 * Whether `uploadedDocuments` already holds `file`, so uploading it would duplicate it
 * (service rules §8: clients check `uploadedDocuments` before uploading a duplicate).
 * A VOUCHER counts as present when any voucher is attached (the service attaches the deposit's
 * voucher by itself); other types when one of the same type has the same file name.
 */
export function isAlreadyUploaded(
	uploadedDocuments: unknown,
	file: Pick<AttachmentFile, 'documentType' | 'fileName'>,
): boolean {
	if (!Array.isArray(uploadedDocuments)) return false;
	return uploadedDocuments.map(describeDocument).some((doc) => {
		if (doc.documentType !== file.documentType) return false;
		return (
			file.documentType === 'VOUCHER' ||
			doc.fileName === undefined ||
			doc.fileName === file.fileName
		);
	});
}
