import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { codeOptions } from '../../parameters/codeOptions';
import type { PaymentsClient } from '../../transport/client';
import {
	addAttachment,
	confirmTicket,
	DOCUMENT_TYPES,
	isAlreadyUploaded,
	type AttachmentFile,
	type DocumentType,
	type TicketRecord,
} from '../../transport/tickets';
import { isServiceCode } from '../../transport/errors';
import { readBinaryFile } from '../common/binary';
import { toNodeError } from '../common/nodeError';
import { readPositiveInteger } from '../common/parameters';
import { depositIdProperty } from './depositId';
import { positiveId } from '../../codes/ids';

/** The two review shortcuts (service rules §8). */
export type ReviewKind = 'flagForReview' | 'flagForReviewReversal';

/** The parameters of Flag for Review and Flag Reversal for Review. */
export const reviewProperties: INodeProperties[] = [
	depositIdProperty,
	{
		displayName: 'Attachments',
		name: 'attachments',
		type: 'fixedCollection',
		placeholder: 'Add Attachment',
		default: {},
		typeOptions: { multipleValues: true },
		description:
			'Files from binary properties of the input item to attach to the ticket. A voucher the service already attached is not uploaded again.',
		options: [
			{
				displayName: 'File',
				name: 'file',
				values: [
					{
						displayName: 'Input Binary Field',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						description: 'Name of the binary property holding the file',
					},
					{
						displayName: 'Document Type',
						name: 'documentType',
						type: 'options',
						default: 'VOUCHER',
						options: codeOptions(DOCUMENT_TYPES),
					},
				],
			},
		],
	},
	{
		displayName: 'Confirm Ticket',
		name: 'confirm',
		type: 'boolean',
		default: false,
		description:
			'Whether to submit the ticket to the support team after attaching the files. A confirmed ticket can no longer be changed.',
	},
];

/**
 * Flags a deposit (or its reversal) for review and optionally attaches files and confirms the
 * ticket, for one item. Files are read before anything is sent. Returns the ticket as last answered
 * by the service plus `attachmentsUploaded`, `attachmentsSkipped` and `confirmed`.
 *
 * When a step after the ticket's creation fails, the error names the ticket so the work can be
 * finished with Ticket → Add Attachment / Confirm instead of flagging again.
 */
export async function executeReview(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	kind: ReviewKind,
): Promise<INodeExecutionData[]> {
	const depositId = readPositiveInteger(context, 'depositId', 'Deposit ID', itemIndex);
	const confirm = context.getNodeParameter('confirm', itemIndex, false) as boolean;
	const files = await readAttachments(context, itemIndex);
	const what = kind === 'flagForReview' ? 'for review' : 'as a reversal for review';
	const created = await client.request<TicketRecord>(
		{
			family: 'tickets',
			method: 'POST',
			path: `/v1/deposits/${depositId}/${kind}`,
			headers: { 'Content-Type': 'application/json' },
		},
		{
			action: `Flagging deposit ${depositId} ${what}`,
			itemIndex,
			explain: (failure) =>
				isServiceCode(failure, 'DEPOSIT_NOT_REVIEWABLE')
					? `Deposit ${depositId} cannot be flagged ${what}: ${failure.message ?? 'refused by the service'}`
					: undefined,
		},
	);
	const ticket: TicketRecord = created && typeof created === 'object' ? created : {};
	const ticketId = positiveId(ticket.idTicket);
	if (ticketId === undefined) {
		if (files.length || confirm) {
			throw new NodeOperationError(
				context.getNode(),
				`Deposit ${depositId} was flagged ${what}, but the service returned no ticket ID, so nothing could be attached or confirmed`,
				{ itemIndex, description: 'Find the ticket in the merchant panel to finish it.' },
			);
		}
		return [
			{ json: reviewItem(ticket, depositId, { uploaded: [], skipped: [], confirmed: false }) },
		];
	}
	const finished = await finishTicket(context, client, itemIndex, {
		ticket,
		ticketId,
		depositId,
		files,
		confirm,
	});
	return [{ json: reviewItem(finished.ticket, depositId, finished) }];
}

/** The files the Attachments option names, read from the item's binary data before anything is sent. */
async function readAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<AttachmentFile[]> {
	const attachmentParams = context.getNodeParameter('attachments.file', itemIndex, []) as Array<{
		binaryPropertyName: string;
		documentType: DocumentType;
	}>;
	const files: AttachmentFile[] = [];
	for (const entry of attachmentParams) {
		files.push(
			await readBinaryFile(context, itemIndex, entry.binaryPropertyName, entry.documentType),
		);
	}
	return files;
}

/** The output item: the ticket as last answered, the deposit, and what was attached or confirmed. */
function reviewItem(
	ticket: TicketRecord,
	depositId: number,
	done: { uploaded: IDataObject[]; skipped: IDataObject[]; confirmed: boolean },
): IDataObject {
	return {
		...ticket,
		depositId,
		attachmentsUploaded: done.uploaded,
		attachmentsSkipped: done.skipped,
		confirmed: done.confirmed,
	};
}

/**
 * Attaches the files the ticket does not hold yet (a voucher the service attached itself is listed
 * in `uploadedDocuments` and skipped) and confirms it when asked.
 * @throws the failing step's error, renamed to say the ticket exists and how to finish it with
 *   Ticket → Add Attachment / Confirm rather than flagging again.
 */
async function finishTicket(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	work: {
		ticket: TicketRecord;
		ticketId: number;
		depositId: number;
		files: AttachmentFile[];
		confirm: boolean;
	},
): Promise<{
	ticket: TicketRecord;
	uploaded: IDataObject[];
	skipped: IDataObject[];
	confirmed: boolean;
}> {
	let ticket = work.ticket;
	const uploaded: IDataObject[] = [];
	const skipped: IDataObject[] = [];
	let step = '';
	try {
		for (const file of work.files) {
			const summary = { fileName: file.fileName, documentType: file.documentType };
			if (isAlreadyUploaded(ticket.uploadedDocuments, file)) {
				skipped.push({ ...summary, reason: 'already in uploadedDocuments' });
				continue;
			}
			step = `attaching "${file.fileName}"`;
			const answer = await addAttachment(client, work.ticketId, file, itemIndex);
			if (Array.isArray(answer.uploadedDocuments)) ticket = { ...ticket, ...answer };
			else
				ticket = { ...ticket, uploadedDocuments: [...(ticket.uploadedDocuments ?? []), summary] };
			uploaded.push(summary);
		}
		if (work.confirm) {
			step = 'confirming it';
			ticket = { ...ticket, ...(await confirmTicket(client, work.ticketId, itemIndex)) };
		}
	} catch (error) {
		if (error instanceof NodeApiError || error instanceof NodeOperationError) {
			const done = uploaded.length
				? ` (already attached: ${uploaded.map((file) => file.fileName).join(', ')})`
				: '';
			error.message = `Ticket ${work.ticketId} was created for deposit ${work.depositId}${done}, but ${step} failed: ${error.message}`;
			error.description = `${error.description ? `${error.description} ` : ''}Finish ticket ${work.ticketId} with Ticket → Add Attachment and Ticket → Confirm rather than flagging the deposit again.`;
		}
		throw toNodeError(context.getNode(), error, itemIndex);
	}
	return { ticket, uploaded, skipped, confirmed: work.confirm };
}
