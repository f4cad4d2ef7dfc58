/**
 * Support ticket routes (service rules §8: draft ticket, attachment, confirmation, flag deposit
 * (reversal) for review; §4 ticket error codes).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toIsoSeconds } from '../clock';
import { MAX_ATTACHMENT_BYTES, MS_PER_MINUTE } from '../constants';
import type { DepositEntry } from '../data';
import {
	isPlainObject,
	parseJson,
	rawBodyOf,
	requireSession,
	ticketError,
	type RouteContext,
} from '../http';
import { tinyPdf } from '../pdf';
import { setMultipartLog } from '../requestState';
import { DOCUMENT_TYPES } from '../reference';
import type { Session } from '../store';
import type { TicketDocument, TicketRecord } from '../types';

/** Ticket as sent to clients: without idMerchant and the documents' sha256. */
export function publicTicket(ticket: TicketRecord): Record<string, unknown> {
	return {
		idTicket: ticket.idTicket,
		type: ticket.type,
		category: ticket.category,
		description: ticket.description,
		referenceId: ticket.referenceId,
		status: ticket.status,
		uploadedDocuments: ticket.uploadedDocuments.map(
			({ documentType, fileName, mimeType, size, uploadedAt }) => ({
				documentType,
				fileName,
				mimeType,
				size,
				uploadedAt,
			}),
		),
		createdAt: ticket.createdAt,
	};
}

/** Deterministic bytes of the automatic voucher of a deposit (a tiny PDF). */
export function voucherBytes(deposit: DepositEntry): Buffer {
	return tinyPdf(
		`Voucher of deposit ${deposit.id} - ${deposit.rec.localAmount} ${deposit.rec.localCurrency} - ${deposit.rec.creationDate}`,
	);
}

function sha256Hex(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

interface ParsedUpload {
	fields: Record<string, string>;
	file?: { fileName: string; mimeType: string; bytes: Buffer };
	error?: string;
}

/** Reads the whole multipart body (first `file` part kept; other files only logged). */
async function readMultipart(request: FastifyRequest): Promise<ParsedUpload> {
	const result: ParsedUpload = { fields: {} };
	const logged: Array<{
		fieldName: string;
		fileName: string;
		mimeType: string;
		size: number;
		sha256: string;
	}> = [];
	try {
		for await (const part of request.parts({ limits: { fileSize: MAX_ATTACHMENT_BYTES } })) {
			if (part.type === 'file') {
				const bytes = await part.toBuffer();
				logged.push({
					fieldName: part.fieldname,
					fileName: part.filename,
					mimeType: part.mimetype,
					size: bytes.length,
					sha256: sha256Hex(bytes),
				});
				if (part.fieldname === 'file' && !result.file)
					result.file = { fileName: part.filename, mimeType: part.mimetype, bytes };
			} else {
				result.fields[part.fieldname] =
					typeof part.value === 'string' ? part.value : String(part.value);
			}
		}
	} catch (error) {
		const tooLarge = error instanceof Error && /too large|limit/i.test(error.message);
		result.error = tooLarge
			? `file exceeds ${MAX_ATTACHMENT_BYTES} bytes`
			: 'malformed multipart body';
	}
	setMultipartLog(request, { fields: { ...result.fields }, files: logged });
	return result;
}

/**
 * Registers:
 * - POST /v1/tickets/createTicket `{type, category?, description, referenceId?}` -> 200 DRAFT ticket; 400 INVALID_TICKET.
 * - POST /v1/tickets/:id/addAttachment multipart (`file`, `documentType`) -> 200 ticket; 400 INVALID_DOCUMENT,
 *   403 FORBIDDEN (another merchant's ticket or not a draft), 404 NOT_FOUND.
 * - POST /v1/tickets/:id/confirmTicket -> 200 CONFIRMED ticket; 403 when not a draft / another merchant's; 404.
 * - POST /v1/deposits/:id/flagForReview and /flagForReviewReversal -> 200 DRAFT ticket; 400 DEPOSIT_NOT_REVIEWABLE.
 * Without a live token: 401 `{code: 'UNAUTHORIZED', message}`.
 */
export function registerTicketRoutes(app: FastifyInstance, ctx: RouteContext): void {
	const { store } = ctx;

	function newTicket(
		session: Session,
		fields: Pick<TicketRecord, 'type' | 'category' | 'description' | 'referenceId'>,
	): TicketRecord {
		const ticket: TicketRecord = {
			idTicket: store.allocateId('ticket'),
			idMerchant: session.merchantId,
			...fields,
			status: 'DRAFT',
			uploadedDocuments: [],
			createdAt: toIsoSeconds(store.clock.now()),
		};
		store.tickets.set(ticket.idTicket, ticket);
		return ticket;
	}

	/** The session's ticket `rawId`, or an answered 404/403. */
	function ownTicket(
		session: Session,
		rawId: string,
		reply: FastifyReply,
	): TicketRecord | undefined {
		const ticket = /^\d+$/.test(rawId) ? store.tickets.get(Number(rawId)) : undefined;
		if (!ticket) {
			ticketError(reply, 404, 'NOT_FOUND', `Ticket ${rawId} not found`);
			return undefined;
		}
		if (ticket.idMerchant !== session.merchantId) {
			ticketError(reply, 403, 'FORBIDDEN', `Ticket ${rawId} belongs to another merchant`);
			return undefined;
		}
		if (ticket.status !== 'DRAFT') {
			ticketError(
				reply,
				403,
				'FORBIDDEN',
				`Ticket ${rawId} is ${ticket.status}; only DRAFT tickets can be modified`,
			);
			return undefined;
		}
		return ticket;
	}

	app.post('/v1/tickets/createTicket', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'ticket');
		if (!session) return reply;
		const parsed = parseJson(rawBodyOf(request));
		if (!parsed.ok || !isPlainObject(parsed.value))
			return ticketError(reply, 400, 'INVALID_TICKET', 'Body must be a JSON object');
		const body = parsed.value;
		const problems: string[] = [];
		if (typeof body.type !== 'string' || body.type.trim() === '') problems.push('type is required');
		if (typeof body.description !== 'string' || body.description.trim() === '')
			problems.push('description is required');
		if (body.category !== undefined && body.category !== null && typeof body.category !== 'string')
			problems.push('category must be a string');
		if (
			body.referenceId !== undefined &&
			body.referenceId !== null &&
			!Number.isInteger(body.referenceId)
		)
			problems.push('referenceId must be an integer');
		if (problems.length > 0) return ticketError(reply, 400, 'INVALID_TICKET', problems.join('; '));
		const ticket = newTicket(session, {
			type: body.type as string,
			category: typeof body.category === 'string' ? body.category : null,
			description: body.description as string,
			referenceId: typeof body.referenceId === 'number' ? body.referenceId : null,
		});
		return publicTicket(ticket);
	});

	app.post<{ Params: { id: string } }>('/v1/tickets/:id/addAttachment', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'ticket');
		if (!session) return reply;
		const upload: ParsedUpload = request.isMultipart()
			? await readMultipart(request)
			: { fields: {}, error: 'Content-Type must be multipart/form-data' };
		const ticket = ownTicket(session, request.params.id, reply);
		if (!ticket) return reply;
		if (upload.error) return ticketError(reply, 400, 'INVALID_DOCUMENT', upload.error);
		const documentType = upload.fields.documentType;
		if (documentType === undefined || !DOCUMENT_TYPES.includes(documentType)) {
			return ticketError(
				reply,
				400,
				'INVALID_DOCUMENT',
				`documentType must be one of ${DOCUMENT_TYPES.join(', ')}`,
			);
		}
		if (!upload.file)
			return ticketError(reply, 400, 'INVALID_DOCUMENT', "A file part named 'file' is required");
		if (upload.file.bytes.length === 0)
			return ticketError(reply, 400, 'INVALID_DOCUMENT', 'The file is empty');
		const doc: TicketDocument = {
			documentType,
			fileName: upload.file.fileName,
			mimeType: upload.file.mimeType,
			size: upload.file.bytes.length,
			uploadedAt: toIsoSeconds(store.clock.now()),
			sha256: sha256Hex(upload.file.bytes),
		};
		ticket.uploadedDocuments.push(doc);
		return publicTicket(ticket);
	});

	app.post<{ Params: { id: string } }>('/v1/tickets/:id/confirmTicket', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'ticket');
		if (!session) return reply;
		const ticket = ownTicket(session, request.params.id, reply);
		if (!ticket) return reply;
		ticket.status = 'CONFIRMED';
		return publicTicket(ticket);
	});

	for (const [suffix, type] of [
		['flagForReview', 'FLAG_FOR_REVIEW_DEPOSIT'],
		['flagForReviewReversal', 'FLAG_FOR_REVIEW_DEPOSIT_REVERSAL'],
	] as const) {
		app.post<{ Params: { id: string } }>(`/v1/deposits/:id/${suffix}`, async (request, reply) => {
			const session = requireSession(ctx, request, reply, 'ticket');
			if (!session) return reply;
			const rawId = request.params.id;
			const deposit = /^\d+$/.test(rawId) ? store.deposit(Number(rawId)) : undefined;
			if (!deposit)
				return ticketError(reply, 400, 'DEPOSIT_NOT_REVIEWABLE', `Deposit ${rawId} does not exist`);
			if (deposit.merchantId !== session.merchantId) {
				return ticketError(
					reply,
					400,
					'DEPOSIT_NOT_REVIEWABLE',
					`Deposit ${rawId} does not belong to merchant ${session.merchantId}`,
				);
			}
			const minAge = ctx.options.flagReviewMinAgeMs;
			const reviewableFrom = deposit.createdMs + minAge;
			if (store.clock.now() < reviewableFrom) {
				return ticketError(
					reply,
					400,
					'DEPOSIT_NOT_REVIEWABLE',
					`Deposit ${rawId} was created less than ${Math.round(minAge / MS_PER_MINUTE)} minutes ago; it can be flagged from ${toIsoSeconds(reviewableFrom)}`,
				);
			}
			const ticket = newTicket(session, {
				type,
				category: 'DEPOSIT',
				description: `Deposit ${deposit.id} flagged for review${type.endsWith('REVERSAL') ? ' (reversal)' : ''}`,
				referenceId: deposit.id,
			});
			if (deposit.hasVoucher) {
				const bytes = voucherBytes(deposit);
				ticket.uploadedDocuments.push({
					documentType: 'VOUCHER',
					fileName: `voucher-${deposit.id}.pdf`,
					mimeType: 'application/pdf',
					size: bytes.length,
					uploadedAt: ticket.createdAt,
					sha256: sha256Hex(bytes),
				});
			}
			return publicTicket(ticket);
		});
	}
}
