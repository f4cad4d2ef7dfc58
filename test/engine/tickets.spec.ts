import { createHash } from 'crypto';

import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../harness/fixtures';
import { iso } from '../harness/records';

const SESSION = 'paymentsServiceSessionApi';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const STATEMENT = Buffer.from([
	0x89,
	0x50,
	0x4e,
	0x47,
	...Array.from({ length: 300 }, (_, index) => index % 256),
]);
const VOUCHER = Buffer.from('%PDF-1.4\n% customer voucher\n');

describe('Tickets and deposit reviews through the n8n engine', () => {
	let fx: Fixture;

	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => await fx.close());
	beforeEach(() => fx.sandbox.log.clear());

	/** A deposit of merchant 1001 created two days ago, with or without a voucher. */
	const oldDeposit = (hasVoucher: boolean) =>
		fx.sandbox.control.addDeposit({
			idMerchant: 1001,
			creationDate: iso(Math.floor(fx.sandbox.clock.now() / 1000) - 2 * 86_400),
			status: 'COMPLETED',
			hasVoucher,
		});

	test('Create Draft, Add Attachment from a binary property, Confirm; the file arrives byte for byte', async () => {
		const builder = new WorkflowBuilder('Ticket');
		builder.files('Statement', [
			{
				property: 'statement',
				fileName: 'statement-oct.png',
				mimeType: 'image/png',
				data: STATEMENT,
			},
		]);
		builder.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'createDraft',
					type: 'CASHOUT',
					description: 'Payout not received',
					additionalFields: { referenceId: 77 },
				},
				SESSION,
				{
					name: 'Create',
					id: 'create',
				},
			),
		);
		builder.files('Statement again', [
			{
				property: 'statement',
				fileName: 'statement-oct.png',
				mimeType: 'image/png',
				data: STATEMENT,
			},
		]);
		builder.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'addAttachment',
					ticketId: "={{ $('Create').item.json.idTicket }}",
					binaryPropertyName: 'statement',
					documentType: 'BANK_STATEMENT',
				},
				SESSION,
				{ name: 'Attach', id: 'attach' },
			),
		);
		builder.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'confirm',
					ticketId: "={{ $('Create').item.json.idTicket }}",
				},
				SESSION,
				{ name: 'Confirm', id: 'confirm' },
			),
		);
		const run = await fx.engine.run(builder.build());
		expect(run.error).toBeUndefined();
		const ticketId = run.output('Create')[0].json.idTicket as number;
		expect(run.output('Create')[0].json).toMatchObject({
			status: 'DRAFT',
			type: 'CASHOUT',
			referenceId: 77,
		});
		expect(run.output('Attach')[0].json.uploadedDocuments).toEqual([
			expect.objectContaining({
				documentType: 'BANK_STATEMENT',
				fileName: 'statement-oct.png',
				size: STATEMENT.length,
			}),
		]);
		expect(run.output('Confirm')[0].json).toMatchObject({
			idTicket: ticketId,
			status: 'CONFIRMED',
		});
		const stored = fx.sandbox.control.tickets().find((ticket) => ticket.idTicket === ticketId)!;
		expect(stored.status).toBe('CONFIRMED');
		expect(stored.uploadedDocuments[0].sha256).toBe(sha256(STATEMENT));
		const [upload] = fx.sandbox.log.find('POST', `/v1/tickets/${ticketId}/addAttachment`);
		expect(upload.multipart?.fields.documentType).toBe('BANK_STATEMENT');
		expect(upload.multipart?.files[0]).toMatchObject({
			fieldName: 'file',
			fileName: 'statement-oct.png',
			mimeType: 'image/png',
		});

		// A confirmed ticket can no longer be changed: the service's refusal is shown as such.
		const again = new WorkflowBuilder('Attach to confirmed');
		again.files('Statement', [
			{ property: 'data', fileName: 'late.png', mimeType: 'image/png', data: STATEMENT },
		]);
		again.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'addAttachment',
					ticketId: String(ticketId),
					binaryPropertyName: 'data',
					documentType: 'VOUCHER',
				},
				SESSION,
			),
		);
		const refused = await fx.engine.run(again.build());
		expect(refused.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(
				new RegExp(
					`^Attaching "late.png" \\(VOUCHER\\) to ticket ${ticketId} failed: .*\\(FORBIDDEN\\)$`,
				),
			),
			description: expect.stringMatching(/confirmed ticket can no longer be modified/),
		});
	});

	test('a missing binary property fails the item with the properties it has, before anything is sent', async () => {
		const builder = new WorkflowBuilder('No file');
		builder.files('Statement', [
			{ property: 'statement', fileName: 's.png', mimeType: 'image/png', data: STATEMENT },
		]);
		builder.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'addAttachment',
					ticketId: '50001',
					binaryPropertyName: 'data',
					documentType: 'VOUCHER',
				},
				SESSION,
			),
		);
		const run = await fx.engine.run(builder.build());
		expect(run.nodeError('Payments Service')).toMatchObject({
			message: 'Item 0 has no binary property "data"',
			description: expect.stringMatching(/statement/),
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test('Flag for Review skips the voucher the service attached, uploads the statement and confirms', async () => {
		const deposit = oldDeposit(true);
		const builder = new WorkflowBuilder('Review');
		builder.files('Evidence', [
			{
				property: 'voucher',
				fileName: 'my-voucher.pdf',
				mimeType: 'application/pdf',
				data: VOUCHER,
			},
			{ property: 'statement', fileName: 'statement.png', mimeType: 'image/png', data: STATEMENT },
		]);
		builder.then(
			paymentsNode(
				{
					resource: 'deposit',
					operation: 'flagForReview',
					depositId: String(deposit.idDeposit),
					attachments: {
						file: [
							{ binaryPropertyName: 'voucher', documentType: 'VOUCHER' },
							{ binaryPropertyName: 'statement', documentType: 'BANK_STATEMENT' },
						],
					},
					confirm: true,
				},
				SESSION,
			),
		);
		const run = await fx.engine.run(builder.build());
		expect(run.error).toBeUndefined();
		const [item] = run.output('Payments Service');
		expect(item.json).toMatchObject({
			type: 'FLAG_FOR_REVIEW_DEPOSIT',
			referenceId: deposit.idDeposit,
			status: 'CONFIRMED',
			confirmed: true,
			attachmentsUploaded: [{ fileName: 'statement.png', documentType: 'BANK_STATEMENT' }],
			attachmentsSkipped: [
				{
					fileName: 'my-voucher.pdf',
					documentType: 'VOUCHER',
					reason: 'already in uploadedDocuments',
				},
			],
		});
		const ticket = fx.sandbox.control
			.tickets()
			.find((entry) => entry.idTicket === item.json.idTicket)!;
		expect(ticket.uploadedDocuments.map((doc) => doc.documentType)).toEqual([
			'VOUCHER',
			'BANK_STATEMENT',
		]);
		expect(ticket.uploadedDocuments[1].sha256).toBe(sha256(STATEMENT));
		expect(fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path}`)).toEqual([
			`POST /v1/deposits/${deposit.idDeposit}/flagForReview`,
			`POST /v1/tickets/${ticket.idTicket}/addAttachment`,
			`POST /v1/tickets/${ticket.idTicket}/confirmTicket`,
		]);
	});

	test('Flag Reversal for Review opens a reversal ticket and uploads a voucher when the deposit has none', async () => {
		const deposit = oldDeposit(false);
		const builder = new WorkflowBuilder('Reversal');
		builder.files('Evidence', [
			{ property: 'voucher', fileName: 'voucher.pdf', mimeType: 'application/pdf', data: VOUCHER },
		]);
		builder.then(
			paymentsNode(
				{
					resource: 'deposit',
					operation: 'flagReversalForReview',
					depositId: String(deposit.idDeposit),
					attachments: { file: [{ binaryPropertyName: 'voucher', documentType: 'VOUCHER' }] },
				},
				SESSION,
			),
		);
		const run = await fx.engine.run(builder.build());
		const [item] = run.output('Payments Service');
		expect(item.json).toMatchObject({
			type: 'FLAG_FOR_REVIEW_DEPOSIT_REVERSAL',
			status: 'DRAFT',
			confirmed: false,
			attachmentsUploaded: [{ fileName: 'voucher.pdf', documentType: 'VOUCHER' }],
			attachmentsSkipped: [],
		});
	});

	test('the service’s three review checks come back in plain language', async () => {
		const recent = fx.sandbox.control.addDeposit({ idMerchant: 1001, status: 'PENDING' });
		const foreign = fx.sandbox.control.deposits(2001)[0];
		const builder = new WorkflowBuilder('Checks');
		builder.items('Deposits', [{ id: recent.idDeposit }, { id: foreign.idDeposit }, { id: 1 }]);
		builder.then(
			paymentsNode(
				{ resource: 'deposit', operation: 'flagForReview', depositId: '={{ $json.id }}' },
				SESSION,
				{ continueOnFail: true },
			),
		);
		const run = await fx.engine.run(builder.build());
		const errors = run.output('Payments Service').map((item) => String(item.json.error));
		expect(errors[0]).toMatch(
			new RegExp(`^Deposit ${recent.idDeposit} cannot be flagged for review: .*created less than`),
		);
		expect(errors[1]).toMatch(
			new RegExp(`^Deposit ${foreign.idDeposit} cannot be flagged for review: .*does not belong`),
		);
		expect(errors[2]).toMatch(/^Deposit 1 cannot be flagged for review: .*does not exist/);
		expect(
			fx.sandbox.control.tickets().some((ticket) => ticket.referenceId === recent.idDeposit),
		).toBe(false);
	});

	test('an upload after the session expired is sent again, whole, once the session is renewed', async () => {
		const create = new WorkflowBuilder('Draft');
		create.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'createDraft',
					type: 'DEPOSIT',
					description: 'Expiry test',
				},
				SESSION,
			),
		);
		const ticketId = (await fx.engine.run(create.build())).output('Payments Service')[0].json
			.idTicket as number;
		fx.sandbox.clock.advance(16 * 60_000);
		fx.sandbox.log.clear();
		const builder = new WorkflowBuilder('Upload after expiry');
		builder.files('Statement', [
			{ property: 'data', fileName: 'statement.png', mimeType: 'image/png', data: STATEMENT },
		]);
		builder.then(
			paymentsNode(
				{
					resource: 'ticket',
					operation: 'addAttachment',
					ticketId: String(ticketId),
					binaryPropertyName: 'data',
					documentType: 'BANK_STATEMENT',
				},
				SESSION,
			),
		);
		const run = await fx.engine.run(builder.build());
		expect(run.error).toBeUndefined();
		expect(
			fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
		).toEqual([
			`POST /v1/tickets/${ticketId}/addAttachment 401`,
			'POST /v1/auth/login 200',
			`POST /v1/tickets/${ticketId}/addAttachment 200`,
		]);
		const ticket = fx.sandbox.control.tickets().find((entry) => entry.idTicket === ticketId)!;
		expect(ticket.uploadedDocuments).toHaveLength(1);
		expect(ticket.uploadedDocuments[0].sha256).toBe(sha256(STATEMENT));
	});
});
