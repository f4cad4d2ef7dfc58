/** Ticket → Create Draft, Add Attachment and Confirm through n8n's engine against the sandbox. */
import { nodeWorkflow, paymentsNode, useFixture, WorkflowBuilder } from '../../harness/fixtures';
import { sha256, STATEMENT, statementFile } from '../../harness/files';

const SESSION = 'paymentsServiceSessionApi';

/** Add Attachment of the binary property `data` (`fileName`, the statement) to `ticketId` as `documentType`. */
const attachData = (ticketId: unknown, documentType: string, fileName: string, property = 'data') =>
	nodeWorkflow(
		{
			resource: 'ticket',
			operation: 'addAttachment',
			ticketId: String(ticketId),
			binaryPropertyName: 'data',
			documentType,
		},
		SESSION,
		{ files: [statementFile(property, fileName)], filesName: 'Statement' },
	);

describe('Ticket → Create Draft, Add Attachment, Confirm through the n8n engine', () => {
	const fx = useFixture();

	test('Create Draft, Add Attachment from a binary property, Confirm; the file arrives byte for byte', async () => {
		const builder = new WorkflowBuilder('Ticket');
		builder.files('Statement', [statementFile('statement', 'statement-oct.png')]);
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
		builder.files('Statement again', [statementFile('statement', 'statement-oct.png')]);
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
		const refused = await fx.engine.run(attachData(ticketId, 'VOUCHER', 'late.png'));
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
		const run = await fx.engine.run(attachData(50001, 'VOUCHER', 's.png', 'statement'));
		expect(run.nodeError('Payments Service')).toMatchObject({
			message: 'Item 0 has no binary property "data"',
			description: expect.stringMatching(/statement/),
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test('an upload after the session expired is sent again, whole, once the session is renewed', async () => {
		const create = nodeWorkflow(
			{ resource: 'ticket', operation: 'createDraft', type: 'DEPOSIT', description: 'Expiry test' },
			SESSION,
		);
		const ticketId = (await fx.engine.run(create)).output('Payments Service')[0].json
			.idTicket as number;
		fx.sandbox.clock.advance(16 * 60_000);
		fx.sandbox.log.clear();
		const run = await fx.engine.run(attachData(ticketId, 'BANK_STATEMENT', 'statement.png'));
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
