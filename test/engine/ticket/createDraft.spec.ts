/** Ticket → Create Draft, Add Attachment and Confirm through n8n's engine against the sandbox. */
import { createHash } from 'crypto';
import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../../harness/fixtures';

const SESSION = 'paymentsServiceSessionApi';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const STATEMENT = Buffer.from([
	0x89,
	0x50,
	0x4e,
	0x47,
	...Array.from({ length: 300 }, (_, index) => index % 256),
]);

describe('Ticket → Create Draft, Add Attachment, Confirm through the n8n engine', () => {
	let fx: Fixture;

	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => await fx.close());
	beforeEach(() => fx.sandbox.log.clear());

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
