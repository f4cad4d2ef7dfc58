/** Deposit → Flag for Review and Flag Reversal for Review through n8n's engine against the sandbox. */
import { nodeWorkflow, useFixture, type FileSpec } from '../../harness/fixtures';
import { sha256, STATEMENT, statementFile, voucherFile } from '../../harness/files';
import { iso } from '../../harness/records';

const SESSION = 'paymentsServiceSessionApi';

/** `operation` of the deposit `depositId` with `files` (Evidence), each attached as its document type. */
const reviewOf = (operation: string, depositId: number, files: FileSpec[], parameters = {}) =>
	nodeWorkflow(
		{
			resource: 'deposit',
			operation,
			depositId: String(depositId),
			attachments: {
				file: files.map((file) => ({
					binaryPropertyName: file.property,
					documentType: file.property === 'voucher' ? 'VOUCHER' : 'BANK_STATEMENT',
				})),
			},
			...parameters,
		},
		SESSION,
		{ files, filesName: 'Evidence' },
	);

describe('Deposit → Flag for Review, Flag Reversal for Review through the n8n engine', () => {
	const fx = useFixture();

	/** A deposit of merchant 1001 created two days ago, with or without a voucher. */
	const oldDeposit = (hasVoucher: boolean) =>
		fx.sandbox.control.addDeposit({
			idMerchant: 1001,
			creationDate: iso(Math.floor(fx.sandbox.clock.now() / 1000) - 2 * 86_400),
			status: 'COMPLETED',
			hasVoucher,
		});

	test('Flag for Review skips the voucher the service attached, uploads the statement and confirms', async () => {
		const deposit = oldDeposit(true);
		const run = await fx.engine.run(
			reviewOf(
				'flagForReview',
				deposit.idDeposit,
				[voucherFile('voucher', 'my-voucher.pdf'), statementFile('statement', 'statement.png')],
				{ confirm: true },
			),
		);
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
		// The first run of the fixture logs in first: only the review's own requests are compared.
		const review = fx.sandbox.log.entries().filter((entry) => !entry.path.startsWith('/v1/auth/'));
		expect(review.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
			`POST /v1/deposits/${deposit.idDeposit}/flagForReview`,
			`POST /v1/tickets/${ticket.idTicket}/addAttachment`,
			`POST /v1/tickets/${ticket.idTicket}/confirmTicket`,
		]);
	});

	test('Flag Reversal for Review opens a reversal ticket and uploads a voucher when the deposit has none', async () => {
		const deposit = oldDeposit(false);
		const run = await fx.engine.run(
			reviewOf('flagReversalForReview', deposit.idDeposit, [voucherFile('voucher', 'voucher.pdf')]),
		);
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
		const run = await fx.engine.run(
			nodeWorkflow(
				{ resource: 'deposit', operation: 'flagForReview', depositId: '={{ $json.id }}' },
				SESSION,
				{
					items: [{ id: recent.idDeposit }, { id: foreign.idDeposit }, { id: 1 }],
					extra: { continueOnFail: true },
				},
			),
		);
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
});
