import { createHash } from 'node:crypto';

import { bearer, client, login, useSandbox } from './testHelpers';

const NOW = Date.UTC(2025, 3, 1, 12);

function form(
	fields: Record<string, string>,
	file?: { bytes: Buffer; name: string; type: string },
): FormData {
	const fd = new FormData();
	for (const [k, v] of Object.entries(fields)) fd.append(k, v);
	if (file) fd.append('file', new Blob([file.bytes], { type: file.type }), file.name);
	return fd;
}

describe('sandbox tickets', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 4, cashoutsPerDay: 2 });
	let token: string;
	beforeAll(async () => {
		token = await login(sb);
	});

	const post = (path: string, data: unknown, t = token) =>
		client(sb).post(path, data, { headers: bearer(t) });

	it('createTicket returns a DRAFT ticket; missing type/description -> 400 INVALID_TICKET', async () => {
		const res = await post('/v1/tickets/createTicket', {
			type: 'DEPOSIT',
			category: 'FLAG_FOR_REVIEW_DEPOSIT',
			description: 'Customer says paid',
			referenceId: 42,
		});
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			idTicket: expect.any(Number),
			type: 'DEPOSIT',
			category: 'FLAG_FOR_REVIEW_DEPOSIT',
			description: 'Customer says paid',
			referenceId: 42,
			status: 'DRAFT',
			uploadedDocuments: [],
			createdAt: '2025-04-01T12:00:00Z',
		});
		const bad = await post('/v1/tickets/createTicket', { type: 'DEPOSIT' });
		expect(bad.status).toBe(400);
		expect(bad.data).toEqual({
			code: 'INVALID_TICKET',
			message: expect.stringContaining('description'),
		});
	});

	it('addAttachment stores the file (sha256 kept internally) only on own drafts; confirm makes it CONFIRMED', async () => {
		const ticket = (
			await post('/v1/tickets/createTicket', { type: 'DEPOSIT', description: 'with file' })
		).data;
		const bytes = Buffer.from('%PDF-1.4 fake statement \u00e9', 'utf8');
		const res = await post(
			`/v1/tickets/${ticket.idTicket}/addAttachment`,
			form(
				{ documentType: 'BANK_STATEMENT' },
				{ bytes, name: 'statement.pdf', type: 'application/pdf' },
			),
		);
		expect(res.status).toBe(200);
		expect(res.data.uploadedDocuments).toEqual([
			{
				documentType: 'BANK_STATEMENT',
				fileName: 'statement.pdf',
				mimeType: 'application/pdf',
				size: bytes.length,
				uploadedAt: expect.any(String),
			},
		]);
		const stored = sb.control.tickets().find((t) => t.idTicket === ticket.idTicket);
		expect(stored?.uploadedDocuments[0].sha256).toBe(
			createHash('sha256').update(bytes).digest('hex'),
		);
		const logged = sb.log.find('POST', `/v1/tickets/${ticket.idTicket}/addAttachment`).pop();
		expect(logged?.multipart?.fields).toEqual({ documentType: 'BANK_STATEMENT' });
		expect(logged?.multipart?.files[0]).toMatchObject({
			fieldName: 'file',
			fileName: 'statement.pdf',
			size: bytes.length,
		});

		const badType = await post(
			`/v1/tickets/${ticket.idTicket}/addAttachment`,
			form({ documentType: 'SELFIE' }, { bytes, name: 'a.pdf', type: 'application/pdf' }),
		);
		expect(badType.status).toBe(400);
		expect(badType.data.code).toBe('INVALID_DOCUMENT');
		const noFile = await post(
			`/v1/tickets/${ticket.idTicket}/addAttachment`,
			form({ documentType: 'VOUCHER' }),
		);
		expect(noFile.status).toBe(400);
		expect(noFile.data.code).toBe('INVALID_DOCUMENT');

		const other = await login(sb, sb.credentials.otherSession);
		const foreign = await post(
			`/v1/tickets/${ticket.idTicket}/addAttachment`,
			form({ documentType: 'VOUCHER' }, { bytes, name: 'a.pdf', type: 'application/pdf' }),
			other,
		);
		expect(foreign.status).toBe(403);
		expect(foreign.data.code).toBe('FORBIDDEN');
		expect(
			(
				await post(
					'/v1/tickets/999999/addAttachment',
					form({ documentType: 'VOUCHER' }, { bytes, name: 'a.pdf', type: 'application/pdf' }),
				)
			).data.code,
		).toBe('NOT_FOUND');

		const confirmed = await post(`/v1/tickets/${ticket.idTicket}/confirmTicket`, null);
		expect(confirmed.status).toBe(200);
		expect(confirmed.data.status).toBe('CONFIRMED');
		const again = await post(`/v1/tickets/${ticket.idTicket}/confirmTicket`, null);
		expect(again.status).toBe(403);
		expect(again.data.code).toBe('FORBIDDEN');
		const late = await post(
			`/v1/tickets/${ticket.idTicket}/addAttachment`,
			form({ documentType: 'VOUCHER' }, { bytes, name: 'a.pdf', type: 'application/pdf' }),
		);
		expect(late.status).toBe(403);
		expect(late.data.code).toBe('FORBIDDEN');
	});

	it('flagForReview: the three checks, then a DRAFT ticket with the voucher attached', async () => {
		const missing = await post('/v1/deposits/1/flagForReview', null);
		expect(missing.status).toBe(400);
		expect(missing.data).toEqual({
			code: 'DEPOSIT_NOT_REVIEWABLE',
			message: expect.stringContaining('does not exist'),
		});

		const foreignDeposit = sb.control.deposits(2001)[0];
		const foreign = await post(`/v1/deposits/${foreignDeposit.idDeposit}/flagForReview`, null);
		expect(foreign.status).toBe(400);
		expect(foreign.data.message).toContain('does not belong');

		const fresh = sb.control.addDeposit({
			idMerchant: 1001,
			country: 'BR',
			paymentMethodCode: 'BL',
			hasVoucher: true,
		});
		const tooSoon = await post(`/v1/deposits/${fresh.idDeposit}/flagForReviewReversal`, null);
		expect(tooSoon.status).toBe(400);
		expect(tooSoon.data.message).toContain('less than 60 minutes');

		sb.clock.advance(61 * 60_000);
		token = await login(sb);
		const ok = await post(`/v1/deposits/${fresh.idDeposit}/flagForReviewReversal`, null);
		expect(ok.status).toBe(200);
		expect(ok.data).toMatchObject({
			type: 'FLAG_FOR_REVIEW_DEPOSIT_REVERSAL',
			status: 'DRAFT',
			referenceId: fresh.idDeposit,
		});
		expect(ok.data.uploadedDocuments).toEqual([
			expect.objectContaining({
				documentType: 'VOUCHER',
				fileName: `voucher-${fresh.idDeposit}.pdf`,
				mimeType: 'application/pdf',
			}),
		]);
		const noVoucher = sb.control.addDeposit({
			idMerchant: 1001,
			creationDate: new Date(sb.clock.now() - 2 * 3_600_000).toISOString(),
			hasVoucher: false,
		});
		const plain = await post(`/v1/deposits/${noVoucher.idDeposit}/flagForReview`, null);
		expect(plain.data).toMatchObject({ type: 'FLAG_FOR_REVIEW_DEPOSIT', uploadedDocuments: [] });
	});
});
