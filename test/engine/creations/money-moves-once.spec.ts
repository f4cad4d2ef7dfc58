import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness/engine';
import { dateStopped, fakeDate, realDate, setDate } from '../../harness/clock';
import {
	CASHOUT,
	DEPOSIT,
	depositFromRow,
	itemsWorkflow,
	LOST_ANSWERS,
	loopWorkflow,
	payoutFromRow,
	refundFromRow,
	withSession,
} from '../../harness/creations';
import { paymentsNode, startFixture, WorkflowBuilder, type Fixture } from '../../harness/fixtures';

/**
 * Money moves once on every path n8n can take (service rules §5.2): Loop Over Items, Retry On
 * Fail, n8n's Retry of a failed execution, a manual re-run, and the inputs that used to be
 * altered or misread on the way. Each test counts the records the sandbox holds.
 */

/** Rows as a spreadsheet gives them: two identical rows are two payouts. */
const ROWS = [
	{ name: 'Ana Souza', amount: '250.00', document: '84932495016' },
	{ name: 'Ana Souza', amount: '250.00', document: '84932495016' },
	{ name: 'Bia Lima', amount: '400.00', document: '52998224725' },
];

describe('money moves once on every path n8n takes', () => {
	let fx: Fixture;

	// Only the records the tests make: a generated history would fill the day's list past a page
	// by the evening (UTC), and a look-up's count of reads with it.
	beforeAll(async () => {
		fx = await startFixture({ sandbox: { depositsPerDay: 0, cashoutsPerDay: 0 } });
	});
	afterAll(async () => await fx.close());
	beforeEach(() => {
		fx.sandbox.log.clear();
		fx.sandbox.faults.clear();
	});
	afterEach(() => realDate());
	/**
	 * Every answer of the next creation lost, the node's resends included (the first answer and
	 * the node's resends), so the item fails; n8n's clock stands still meanwhile, so
	 * the node's backoffs end at once.
	 */
	const loseEveryAnswer = (method: string, path: string, skip = 0) => {
		if (!dateStopped()) fakeDate(Date.now());
		fx.sandbox.faults.add({
			method,
			path,
			kind: 'reset',
			phase: 'after',
			skip,
			times: LOST_ANSWERS,
		});
	};

	const cashoutsMade = (salt: string) =>
		fx.sandbox.control
			.createdCashouts()
			.filter((entry) => String(entry.request.beneficiary_name).endsWith(salt));
	const depositsMade = (salt: string) =>
		fx.sandbox.control
			.createdDeposits()
			.filter((entry) => String(entry.request.description).endsWith(salt));
	const salted = (salt: string) => ROWS.map((row) => ({ ...row, name: `${row.name} ${salt}` }));
	/** A COMPLETED Pix deposit of 100 USD (543.00 BRL). */
	const completedDeposit = () =>
		fx.sandbox.control.addDeposit({
			idMerchant: 1001,
			status: 'COMPLETED',
			country: 'BR',
			paymentMethodCode: 'PX',
			amount: 100,
		});

	describe('Loop Over Items (every pass sees item index 0)', () => {
		test('3 rows, two of them identical, make 3 cashouts, each reported as created', async () => {
			const run = await fx.engine.run(
				loopWorkflow('wf-loop-cashouts', salted('#loop-c'), paymentsNode(payoutFromRow(), CASHOUT)),
			);
			expect(run.error).toBeUndefined();
			const items = run.output('Payments Service').map((item) => item.json);
			expect(items.map((item) => item.already_created)).toEqual([false, false, false]);
			expect(new Set(items.map((item) => item.external_id)).size).toBe(3);
			expect(cashoutsMade('#loop-c')).toHaveLength(3);
			expect(fx.sandbox.log.find('POST', '/v3/cashout')).toHaveLength(3);
		});

		test('3 rows, two of them identical, make 3 deposits', async () => {
			const run = await fx.engine.run(
				loopWorkflow(
					'wf-loop-deposits',
					salted('#loop-d'),
					paymentsNode(depositFromRow(), DEPOSIT),
				),
			);
			expect(run.error).toBeUndefined();
			const items = run.output('Payments Service').map((item) => item.json);
			expect(items.map((item) => item.already_created ?? false)).toEqual([false, false, false]);
			expect(items.every((item) => typeof item.deposit_id === 'number')).toBe(true);
			expect(depositsMade('#loop-d')).toHaveLength(3);
		});

		test('3 rows, two of them identical partial refunds of one deposit, make 3 refunds', async () => {
			const first = completedDeposit();
			const second = completedDeposit();
			const rows = [
				{ deposit: first.idDeposit, amount: '10.00' },
				{ deposit: first.idDeposit, amount: '10.00' },
				{ deposit: second.idDeposit, amount: '5.00' },
			];
			const run = await fx.engine.run(
				loopWorkflow('wf-loop-refunds', rows, paymentsNode(refundFromRow(), DEPOSIT)),
			);
			expect(run.error).toBeUndefined();
			expect(run.output('Payments Service').map((item) => item.json.already_requested)).toEqual([
				false,
				false,
				false,
			]);
			const made = fx.sandbox.control
				.createdRefunds()
				.filter(
					(refund) => refund.depositId === first.idDeposit || refund.depositId === second.idDeposit,
				);
			expect(made.map((refund) => [refund.depositId, String(refund.request.amount)])).toEqual(
				rows.map((row) => [row.deposit, row.amount]),
			);
		});
	});

	test('as an AI agent’s tool, a call repeated with the same request (a model retrying after a lost answer) is one payout', async () => {
		// The tool variant n8n makes of the node runs the same code under a type ending in "Tool".
		fx.engine.nodeTypes.register(
			'n8n-nodes-payments-service.paymentsServiceTool',
			fx.engine.nodeTypes.getByName('n8n-nodes-payments-service.paymentsService'),
		);
		const tool = {
			...paymentsNode(payoutFromRow(), CASHOUT),
			type: 'n8n-nodes-payments-service.paymentsServiceTool',
		};
		const rows = salted('#tool').slice(0, 2);
		const run = await fx.engine.run(loopWorkflow('wf-tool-calls', rows, tool));
		expect(run.output('Payments Service').map((item) => item.json.already_created)).toEqual([
			false,
			true,
		]);
		expect(cashoutsMade('#tool')).toHaveLength(1);
	});

	describe("n8n's Retry of a failed execution (a new execution id, the same input)", () => {
		test.each([
			['cashout', () => paymentsNode(payoutFromRow(), CASHOUT), 'POST', '/v3/cashout', '#retry-c'],
			[
				'deposit',
				() => withSession(paymentsNode(depositFromRow(), DEPOSIT)),
				'POST',
				'/v3/deposits',
				'#retry-d',
			],
		] as const)(
			'after every answer is lost, a %s is made once and the retry outputs it, found and compared',
			async (kind, node, method, path, salt) => {
				loseEveryAnswer(method, path);
				const workflow = itemsWorkflow(`wf-retry-${kind}`, [salted(salt)[0]], node());
				const failed = await fx.engine.run(workflow);
				expect(failed.nodeError('Payments Service')?.message).toMatch(
					/could not be reached \(ECONNRESET\)/,
				);

				const retried = await fx.engine.retry(failed, workflow);

				expect(retried.executionId).not.toBe(failed.executionId);
				expect(retried.error).toBeUndefined();
				const [item] = retried.output('Payments Service');
				expect(item.json.already_created).toBe(true);
				expect(item.json.matches_request).toBe(true);
				const made = kind === 'cashout' ? cashoutsMade(salt) : depositsMade(salt);
				expect(made).toHaveLength(1);
				const posts = fx.sandbox.log.find(method, path);
				expect(posts).toHaveLength(LOST_ANSWERS + 1);
				expect(item.json.times_sent).toBe(LOST_ANSWERS + 1);
				if (kind === 'cashout')
					expect(item.json.external_id).toBe(JSON.parse(posts[0].rawBody!).external_id);
				else {
					expect(item.json.idempotency_key).toBe(posts[0].headers['x-idempotency-key']);
					expect(item.json.deposit_id).toBe(depositsMade(salt)[0].depositId);
				}
			},
		);

		test('without a Session credential a deposit cannot be found: the retry fails as unconfirmed, or outputs it unconfirmed when told to', async () => {
			loseEveryAnswer('POST', '/v3/deposits');
			const workflow = itemsWorkflow(
				'wf-retry-unconfirmed',
				[salted('#unconf-d')[0]],
				paymentsNode(depositFromRow(), DEPOSIT),
			);
			const failed = await fx.engine.run(workflow);

			const retried = await fx.engine.retry(failed, workflow);

			expect(retried.nodeError('Payments Service')?.message).toMatch(
				/^Deposit in item 0: idempotency key n8n-[0-9a-f]{40} was already used, and the deposit it belongs to could not be confirmed$/,
			);
			expect(depositsMade('#unconf-d')).toHaveLength(1);

			loseEveryAnswer('POST', '/v3/deposits');
			const told = itemsWorkflow(
				'wf-retry-unconfirmed-output',
				[salted('#unconf-o')[0]],
				paymentsNode(depositFromRow({ options: { unconfirmedRepeat: 'output' } }), DEPOSIT),
			);
			const outputRetry = await fx.engine.retry(await fx.engine.run(told), told);
			expect(outputRetry.output('Payments Service')[0].json).toMatchObject({
				already_created: true,
				matches_request: null,
				deposit_id: null,
			});
			expect(depositsMade('#unconf-o')).toHaveLength(1);
		});

		test('after every answer is lost, a refund is made once and the retry reports it', async () => {
			const deposit = completedDeposit();
			loseEveryAnswer('POST', '/v3/refunds');
			const workflow = itemsWorkflow(
				'wf-retry-refund',
				[{ deposit: deposit.idDeposit, amount: '25.00' }],
				withSession(paymentsNode(refundFromRow(), DEPOSIT)),
			);
			const failed = await fx.engine.run(workflow);
			expect(failed.error).toBeDefined();

			const retried = await fx.engine.retry(failed, workflow);

			const made = fx.sandbox.control
				.createdRefunds()
				.filter((refund) => refund.depositId === deposit.idDeposit);
			expect(made).toHaveLength(1);
			expect(retried.output('Payments Service')[0].json).toMatchObject({
				already_requested: true,
				matches_request: true,
				refund_id: made[0].refundId,
				deposit_id: deposit.idDeposit,
				amount: '25.00',
			});
		});

		test('a loop that failed on its second payout resumes there: 3 payouts in all, the second reported as already created', async () => {
			loseEveryAnswer('POST', '/v3/cashout', 1);
			const workflow = loopWorkflow(
				'wf-retry-loop',
				salted('#retry-loop'),
				paymentsNode(payoutFromRow(), CASHOUT),
			);
			const failed = await fx.engine.run(workflow);
			expect(failed.error).toBeDefined();
			expect(cashoutsMade('#retry-loop')).toHaveLength(2);

			const retried = await fx.engine.retry(failed, workflow);

			expect(retried.error).toBeUndefined();
			// The first pass ran in the failed execution; the retry runs passes 2 and 3.
			expect(retried.output('Payments Service').map((item) => item.json.already_created)).toEqual([
				false,
				true,
				false,
			]);
			expect(cashoutsMade('#retry-loop')).toHaveLength(3);
		});

		test('answers lost after every resend tell the user the service may have acted, the key, and until when a retry is safe', async () => {
			loseEveryAnswer('POST', '/v3/deposits');
			const failed = await fx.engine.run(
				itemsWorkflow(
					'wf-lost-deposit',
					[salted('#lost-d')[0]],
					paymentsNode(depositFromRow(), DEPOSIT),
				),
			);
			const error = failed.nodeError('Payments Service') as unknown as { description: string };
			const [post] = fx.sandbox.log.find('POST', '/v3/deposits');
			expect(error.description).toContain(
				'No answer came back, so the deposit may or may not have been created.',
			);
			expect(error.description).toContain(
				`The idempotency key of this deposit is ${post.headers['x-idempotency-key']} (derived).`,
			);
			expect(error.description).toMatch(
				/Retry On Fail and n8n's Retry of this execution send the same one at any time: the service recognises the repeat \(104\) and this node reports the existing deposit instead of making a second one\. A new execution on the same input before \d{4}-\d{2}-\d{2} 00:00 UTC sends it too, and fails as a repeat without making a second deposit\./,
			);
		});
	});

	test('a 5xx on a creation says the service may have acted and how to retry safely', async () => {
		// A 500 (a 503 is sent again: below).
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout',
			kind: 'status',
			status: 500,
			phase: 'after',
		});
		const run = await fx.engine.run(
			itemsWorkflow(
				'wf-5xx',
				[{ ...ROWS[0], name: 'Ana #5xx' }],
				paymentsNode(payoutFromRow({ externalId: 'payout-5xx-1' }), CASHOUT),
			),
		);
		const error = run.nodeError('Payments Service') as unknown as { description: string };
		expect(error.description).toMatch(
			/^The service failed \(HTTP 500\) and may or may not have created the cashout\. The external ID of this cashout is payout-5xx-1\. Retrying with the same external ID is safe at any time/,
		);
		expect(cashoutsMade('#5xx')).toHaveLength(1);
	});

	describe('a busy service (429, 503) gets the same key again, after a pause', () => {
		const externalIds = () =>
			fx.sandbox.log
				.find('POST', '/v3/cashout')
				.map((entry) => [JSON.parse(entry.rawBody!).external_id as string, entry.status]);

		test('a 429 is sent again with the same external ID: one payout, reported as created', async () => {
			fx.sandbox.faults.add({
				method: 'POST',
				path: '/v3/cashout',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 0,
			});
			const run = await fx.engine.run(
				itemsWorkflow('wf-429', salted('#429').slice(0, 1), paymentsNode(payoutFromRow(), CASHOUT)),
			);
			expect(run.error).toBeUndefined();
			const [item] = run.output('Payments Service').map((entry) => entry.json);
			expect(item.already_created).toBe(false);
			const [[first], [second]] = externalIds();
			expect(externalIds()).toEqual([
				[first, 429],
				[first, 200],
			]);
			expect(second).toBe(first);
			expect(cashoutsMade('#429').map((entry) => entry.request.external_id)).toEqual([first]);
		});

		test('a 503 after the payout was made is sent again; the 511 it gets names this payout: one payout, reported as already created', async () => {
			fx.sandbox.faults.add({
				method: 'POST',
				path: '/v3/cashout',
				kind: 'status',
				status: 503,
				phase: 'after',
			});
			const run = await fx.engine.run(
				itemsWorkflow('wf-503', salted('#503').slice(0, 1), paymentsNode(payoutFromRow(), CASHOUT)),
			);
			expect(run.error).toBeUndefined();
			const [item] = run.output('Payments Service').map((entry) => entry.json);
			const [[key]] = externalIds();
			expect(externalIds()).toEqual([
				[key, 503],
				[key, 400],
			]);
			expect(item).toMatchObject({
				already_created: true,
				matches_request: true,
				external_id: key,
			});
			expect(cashoutsMade('#503')).toHaveLength(1);
		});

		test('a deposit answered 503 after it was made is found with the Session credential and reported once', async () => {
			fx.sandbox.faults.add({
				method: 'POST',
				path: '/v3/deposits',
				kind: 'status',
				status: 503,
				phase: 'after',
			});
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-503-d',
					salted('#503-d').slice(0, 1),
					withSession(paymentsNode(depositFromRow(), DEPOSIT)),
				),
			);
			expect(run.error).toBeUndefined();
			const [item] = run.output('Payments Service').map((entry) => entry.json);
			const [made] = depositsMade('#503-d');
			expect(depositsMade('#503-d')).toHaveLength(1);
			expect(item).toMatchObject({
				already_created: true,
				matches_request: true,
				deposit_id: made.depositId,
			});
			const keys = fx.sandbox.log
				.find('POST', '/v3/deposits')
				.map((entry) => entry.headers['x-idempotency-key']);
			expect(keys).toHaveLength(2);
			expect(new Set(keys).size).toBe(1);
		});
	});

	describe('a refund Amount that resolves to nothing is refused, never read as a full refund', () => {
		test.each([
			['missing', {}],
			['null', { refundAmount: null }],
			['empty', { refundAmount: '' }],
		])(
			'%s: nothing is sent, and the error names the item, the field and the expression',
			async (_what, row) => {
				const deposit = completedDeposit();
				const run = await fx.engine.run(
					itemsWorkflow(
						'wf-refund-empty',
						[{ deposit: deposit.idDeposit, ...row }],
						paymentsNode(refundFromRow({ amount: '={{ $json.refundAmount }}' }), DEPOSIT),
					),
				);
				const error = run.nodeError('Payments Service') as unknown as {
					message: string;
					description: string;
				};
				expect(error.message).toBe(
					'Refund in item 0 is invalid: Amount is an expression that resolved to nothing',
				);
				expect(error.description).toMatch(
					/^Nothing was sent\. Amount is \{\{ \$json\.refundAmount \}\}, which gave (undefined|null|empty text) for this item/,
				);
				expect(fx.sandbox.log.entries()).toHaveLength(0);
			},
		);

		test('an Amount left empty on purpose is a full refund', async () => {
			const deposit = completedDeposit();
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-refund-full',
					[{ deposit: deposit.idDeposit }],
					paymentsNode(refundFromRow({ amount: '' }), DEPOSIT),
				),
			);
			expect(run.output('Payments Service')[0].json).toMatchObject({
				already_requested: false,
				amount: null,
			});
			expect(JSON.parse(fx.sandbox.log.find('POST', '/v3/refunds')[0].rawBody!)).toEqual({
				deposit_id: deposit.idDeposit,
			});
		});
	});

	describe('keys are sent as given, or refused', () => {
		test('idempotency keys with characters a header cannot carry are refused before anything is sent', async () => {
			const rows = [
				{ key: 'order-Łukasz-1' },
				{ key: 'order-Żukasz-1' },
				{ key: 'k'.repeat(10_240) },
			];
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-keys',
					rows,
					paymentsNode(
						{
							...depositFromRow(),
							amount: '10.00',
							options: { idempotencyKey: '={{ $json.key }}' },
						},
						DEPOSIT,
						{ continueOnFail: true },
					),
				),
			);
			expect(run.output('Payments Service').map((item) => item.json.error)).toEqual([
				'Deposit in item 0 is invalid: Idempotency Key contains "Ł" (U+0141), which an HTTP header cannot carry: use only visible ASCII characters (letters, digits and punctuation, no spaces)',
				'Deposit in item 1 is invalid: Idempotency Key contains "Ż" (U+017B), which an HTTP header cannot carry: use only visible ASCII characters (letters, digits and punctuation, no spaces)',
				'Deposit in item 2 is invalid: Idempotency Key is 10240 characters long; at most 128 are accepted',
			]);
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		});

		test('external IDs that differ only in non-Latin-1 letters stay distinct: two cashouts, each with its ID exactly', async () => {
			const rows = [
				{ ...ROWS[0], name: 'Ana #latin', id: 'order-Łukasz-1' },
				{ ...ROWS[0], name: 'Ana #latin', id: 'order-Żukasz-1' },
			];
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-external-ids',
					rows,
					paymentsNode(payoutFromRow({ externalId: '={{ $json.id }}' }), CASHOUT),
				),
			);
			expect(
				run
					.output('Payments Service')
					.map((item) => [item.json.external_id, item.json.already_created]),
			).toEqual([
				['order-Łukasz-1', false],
				['order-Żukasz-1', false],
			]);
			expect(cashoutsMade('#latin').map((entry) => entry.request.external_id)).toEqual([
				'order-Łukasz-1',
				'order-Żukasz-1',
			]);
		});

		test('an External ID with a line break is refused, not stripped', async () => {
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-external-lf',
					[{ ...ROWS[0], id: 'payout\n7' }],
					paymentsNode(payoutFromRow({ externalId: '={{ $json.id }}' }), CASHOUT),
				),
			);
			expect(run.nodeError('Payments Service')?.message).toBe(
				'Cashout in item 0 is invalid: External ID contains a line break (U+000A); control characters and line breaks cannot be part of an external ID',
			);
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		});
	});

	describe('amounts arrive exactly as given', () => {
		test.each(['123456789012345678', '9007199254740993.01'])(
			'a JSON-mode amount %s written as a number is refused, written as text it arrives exactly',
			async (amount) => {
				const json = (value: string) => `{"amount": ${value}, "currency": "BRL", "country": "BR"}`;
				const refused = await fx.engine.run(
					itemsWorkflow(
						'wf-json-amount',
						[{}],
						paymentsNode(
							{
								resource: 'deposit',
								operation: 'create',
								specifyBody: 'json',
								jsonBody: json(amount),
							},
							DEPOSIT,
						),
					),
				);
				expect(refused.nodeError('Payments Service')?.message).toBe(
					`JSON Body of item 0 has the number ${amount}, which a JavaScript number cannot carry exactly`,
				);
				expect(fx.sandbox.log.entries()).toHaveLength(0);

				await fx.engine.run(
					itemsWorkflow(
						'wf-json-amount',
						[{}],
						paymentsNode(
							{
								resource: 'deposit',
								operation: 'create',
								specifyBody: 'json',
								jsonBody: json(`"${amount}"`),
							},
							DEPOSIT,
						),
					),
				);
				const [post] = fx.sandbox.log.find('POST', '/v3/deposits');
				expect(post.rawBody).toContain(`"amount":"${amount}"`);
			},
		);

		test('an amount mapped as a number past what a double carries is refused in Fields mode too', async () => {
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-number-amount',
					[{ amount: Number('123456789012345678') }],
					paymentsNode(depositFromRow({ amount: '={{ $json.amount }}' }), DEPOSIT),
				),
			);
			expect(run.nodeError('Payments Service')?.message).toMatch(
				/^Deposit in item 0 is invalid: amount is the number 123456789012345680, which has more significant digits than a JavaScript number carries exactly/,
			);
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		});
	});

	describe('hold, release and cancel read back a refused repeat', () => {
		test.each([
			['putOnHold', 'ON_HOLD', false],
			['releaseHold', 'PENDING', true],
			['cancel', 'CANCELLED', false],
		] as const)(
			'%s whose answer was lost is sent again by the node: it ends in %s with a note and no error, sent twice',
			async (operation, target, onHold) => {
				const cashout = fx.sandbox.control.addCashout({ idMerchant: 1001, onHold });
				const method = operation === 'cancel' ? 'DELETE' : 'PUT';
				const path = operation === 'cancel' ? '/v3/cashout/cancel' : '/v3/cashout/status';
				fakeDate(Date.now());
				fx.sandbox.faults.add({ method, path, kind: 'reset', phase: 'after' });
				const parameters: INodeParameters = {
					resource: 'cashout',
					operation,
					cashoutId: String(cashout.idCashout),
				};
				if (operation === 'cancel') parameters.externalId = cashout.externalId;
				const run = await fx.engine.run(
					itemsWorkflow(`wf-${operation}`, [{}], paymentsNode(parameters, CASHOUT)),
				);

				expect(run.error).toBeUndefined();
				expect(run.output('Payments Service')[0].json).toMatchObject({
					cashout_id: cashout.idCashout,
					cashout_status_name: target,
					already_in_status: true,
					message: `Cashout ${cashout.idCashout} is already ${target}: nothing was changed. An earlier attempt whose answer was lost (or another change) already did it.`,
					times_sent: 2,
				});
				const calls = fx.sandbox.log
					.entries()
					.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
				expect(calls).toEqual([
					`${method} ${path} 0`,
					`${method} ${path} 412`,
					'POST /v3/cashout/status 200',
				]);
			},
		);

		test('a hold refused when the status cannot be read back fails with the service’s refusal', async () => {
			const cashout = fx.sandbox.control.addCashout({ idMerchant: 1001 });
			fx.sandbox.control.advanceCashout(cashout.idCashout, 'DELIVERED');
			fx.sandbox.faults.add({
				method: 'POST',
				path: '/v3/cashout/status',
				kind: 'status',
				status: 400,
			});
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-hold-unread',
					[{}],
					paymentsNode(
						{ resource: 'cashout', operation: 'putOnHold', cashoutId: String(cashout.idCashout) },
						CASHOUT,
					),
				),
			);
			expect(run.nodeError('Payments Service')?.message).toBe(
				`Cashout ${cashout.idCashout} can no longer be put on hold: it is not PENDING (510)`,
			);
			expect(
				fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
			).toEqual(['PUT /v3/cashout/status 412', 'POST /v3/cashout/status 400']);
		});

		test('a hold refused from another status still fails, naming the status read back', async () => {
			const cashout = fx.sandbox.control.addCashout({ idMerchant: 1001 });
			fx.sandbox.control.advanceCashout(cashout.idCashout, 'DELIVERED');
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-hold-delivered',
					[{}],
					paymentsNode(
						{ resource: 'cashout', operation: 'putOnHold', cashoutId: String(cashout.idCashout) },
						CASHOUT,
					),
				),
			);
			expect(run.nodeError('Payments Service')?.message).toBe(
				`Cashout ${cashout.idCashout} can no longer be put on hold: it is not PENDING (it is DELIVERED) (510)`,
			);
		});
	});

	describe('with a Session credential, the record an earlier attempt made comes back and is compared', () => {
		const retry = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 };
		// n8n's clock stands still: the node's backoffs and re-reads end at once.
		beforeEach(() => fakeDate(Date.now()));
		afterEach(() => {
			jest.restoreAllMocks();
			fx.sandbox.control.setReportLag(0);
		});

		/** Moves the sandbox's clock `ms` on as the `nth` (from 0) read of the deposit list arrives. */
		const listCatchesUpAt = (nth: number, ms: number) => {
			const log = fx.sandbox.log as unknown as { begin: (fields: IDataObject) => unknown };
			const begin = log.begin.bind(log);
			let seen = 0;
			jest.spyOn(log, 'begin').mockImplementation((fields) => {
				if (fields.method === 'GET' && fields.path === '/v1/deposits' && seen++ === nth)
					fx.sandbox.clock.advance(ms);
				return begin(fields);
			});
		};

		test.each([
			['on the first read again', 2, 'found'],
			['not within the reads again (1, 2 and 4 s)', 99, 'unconfirmed'],
		] as const)(
			'a deposit whose answer was lost and that the list shows only later is read again: %s',
			async (_when, nth, outcome) => {
				fx.sandbox.control.setReportLag(60_000);
				listCatchesUpAt(nth, 60_000);
				fx.sandbox.faults.add({
					method: 'POST',
					path: '/v3/deposits',
					kind: 'reset',
					phase: 'after',
				});
				const salt = `#lag-${outcome}`;
				const run = await fx.engine.run(
					itemsWorkflow(
						`wf-lag-${outcome}`,
						[salted(salt)[0]],
						withSession(
							paymentsNode(depositFromRow({ options: { unconfirmedRepeat: 'output' } }), DEPOSIT),
						),
					),
				);
				expect(run.error).toBeUndefined();
				const [made] = depositsMade(salt);
				// A read is its first page (the list's other pages belong to the same read).
				const reads = fx.sandbox.log
					.find('GET', '/v1/deposits')
					.filter((entry) => entry.query.page === '0');
				const [item] = run.output('Payments Service').map((output) => output.json);
				if (outcome === 'found') {
					// The filtered read, the unfiltered one, then the filtered one again.
					expect(reads).toHaveLength(3);
					expect(item).toMatchObject({
						already_created: true,
						matches_request: true,
						deposit_id: made.depositId,
						times_sent: 2,
					});
				} else {
					// Both reads, then three reads again: the bound.
					expect(reads).toHaveLength(5);
					expect(item).toMatchObject({ already_created: true, matches_request: null });
					expect(item.message).toContain('It was not found in the deposit list (');
					expect(item.message).toContain(' in 5 reads); the list may show it a little later.');
				}
				expect(depositsMade(salt)).toHaveLength(1);
			},
		);

		test('a deposit whose answer was lost comes back with its deposit_id and status', async () => {
			fx.sandbox.faults.add({
				method: 'POST',
				path: '/v3/deposits',
				kind: 'reset',
				phase: 'after',
			});
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-recover-deposit',
					[salted('#rec-d')[0]],
					withSession(paymentsNode(depositFromRow(), DEPOSIT, retry)),
				),
			);
			expect(run.error).toBeUndefined();
			const [made] = depositsMade('#rec-d');
			expect(run.output('Payments Service')[0].json).toMatchObject({
				already_created: true,
				matches_request: true,
				deposit_id: made.depositId,
				status: 'PENDING',
				payment_instructions_recovered: false,
				message: expect.stringContaining(
					`It is deposit ${made.depositId} (PENDING), with the same amount, currency and country.`,
				),
			});
			expect(fx.sandbox.log.find('GET', `/v3/deposits/${made.depositId}`)).toHaveLength(1);
		});

		test('a cashout whose answer was lost comes back with its cashout_id', async () => {
			fx.sandbox.faults.add({ method: 'POST', path: '/v3/cashout', kind: 'reset', phase: 'after' });
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-recover-cashout',
					[salted('#rec-c')[0]],
					withSession(paymentsNode(payoutFromRow(), CASHOUT, retry)),
				),
			);
			const [made] = cashoutsMade('#rec-c');
			expect(run.output('Payments Service')[0].json).toMatchObject({
				already_created: true,
				matches_request: true,
				cashout_id: made.cashoutId,
				cashout_status_name: 'PENDING',
			});
			expect(cashoutsMade('#rec-c')).toHaveLength(1);
		});

		test('a refund whose answer was lost comes back with its refund_id', async () => {
			const deposit = completedDeposit();
			fx.sandbox.faults.add({ method: 'POST', path: '/v3/refunds', kind: 'reset', phase: 'after' });
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-recover-refund',
					[{ deposit: deposit.idDeposit, amount: '30.00' }],
					withSession(paymentsNode(refundFromRow(), DEPOSIT, retry)),
				),
			);
			const [made] = fx.sandbox.control
				.createdRefunds()
				.filter((refund) => refund.depositId === deposit.idDeposit);
			expect(run.output('Payments Service')[0].json).toMatchObject({
				already_requested: true,
				matches_request: true,
				refund_id: made.refundId,
			});
		});

		test('an External ID given again for another payout is refused, naming the field that differs and the fix', async () => {
			const node = withSession(
				paymentsNode(payoutFromRow({ externalId: '={{ $json.id }}' }), CASHOUT, {
					continueOnFail: true,
				}),
			);
			const first = await fx.engine.run(
				itemsWorkflow(
					'wf-given-1',
					[{ ...ROWS[0], name: 'Ana #given', id: 'payout-given-1' }],
					node,
				),
			);
			const cashoutId = first.output('Payments Service')[0].json.cashout_id;
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-given-2',
					[
						{ ...ROWS[0], name: 'Ana #given', id: 'payout-given-1' },
						{ ...ROWS[0], amount: '300.00', name: 'Ana #given', id: 'payout-given-1' },
					],
					node,
				),
			);
			const [same, other] = run.output('Payments Service').map((item) => item.json);
			expect(same).toMatchObject({
				already_created: true,
				matches_request: true,
				cashout_id: cashoutId,
			});
			expect(other).toMatchObject({
				error:
					'Cashout in item 1 was not created: external ID payout-given-1 already belongs to another cashout',
				description: `The service refused it (511): cashout ${String(cashoutId)} (PENDING) differs from this request (amount: 300.00 asked, 250 on the existing cashout). No second cashout was made. Give this cashout its own External ID.`,
			});
			expect(cashoutsMade('#given')).toHaveLength(1);
		});

		test('an Idempotency Key given again for another deposit is refused, naming the field that differs', async () => {
			const node = (amount: string) =>
				withSession(
					paymentsNode(
						{
							...depositFromRow(),
							amount,
							additionalFields: { description: 'Order #given-d' },
							options: { idempotencyKey: 'order-given-7' },
						},
						DEPOSIT,
					),
				);
			await fx.engine.run(itemsWorkflow('wf-given-d1', [{}], node('10.00')));
			const run = await fx.engine.run(itemsWorkflow('wf-given-d2', [{}], node('12.00')));
			const error = run.nodeError('Payments Service') as unknown as {
				message: string;
				description: string;
			};
			expect(error.message).toBe(
				'Deposit in item 0 was not created: idempotency key order-given-7 already belongs to another deposit',
			);
			expect(error.description).toMatch(
				/differs from this request \(amount: 12\.00 asked, 10 on the existing deposit\)\. No second deposit was made\. Give this deposit its own Idempotency Key\./,
			);
			expect(depositsMade('#given-d')).toHaveLength(1);
		});
	});

	describe('separate requests, midnight and reused IDs', () => {
		/** 2026-11-24 23:59:58 UTC and friends: evening payout runs in São Paulo live on this boundary. */
		const at = (time: string, day = '2026-11-24') => Date.parse(`${day}T${time}Z`);
		const NEXT_DAY = '2026-11-25';
		/** Only Date is faked: the sandbox and n8n's engine keep their real timers. */
		const fakeClock = (ms: number) => fakeDate(ms);
		/** Moves the clock to `ms` when the sandbox starts receiving the `nth` (0-based) POST to `path`. */
		const moveClockAtRequest = (path: string, nth: number, ms: number) => {
			let seen = 0;
			const log = fx.sandbox.log as unknown as {
				begin: (fields: { method: string; path: string }) => unknown;
			};
			const begin = log.begin.bind(log);
			jest.spyOn(log, 'begin').mockImplementation((fields) => {
				if (fields.method === 'POST' && fields.path === path && seen++ === nth) setDate(ms);
				return begin(fields);
			});
		};
		afterEach(() => {
			jest.restoreAllMocks();
			realDate();
		});

		/** A payout of fixed fields after the trigger: the trigger item (a webhook call) only names the withdrawal. */
		const fixedPayout = (salt: string, extra: INodeParameters = {}) =>
			paymentsNode(
				{
					...payoutFromRow(extra),
					amount: '250.00',
					documentId: '84932495016',
					beneficiaryName: `Ana Souza ${salt}`,
				},
				CASHOUT,
				{ continueOnFail: true },
			);
		const webhookCall = (body: IDataObject) => ({
			triggerItems: [{ json: { headers: { 'content-type': 'application/json' }, body } }],
			mode: 'webhook' as const,
		});
		const afterTrigger = (id: string, node: INode): WorkflowJson => {
			const builder = new WorkflowBuilder('Withdrawal requests');
			builder.then(node);
			return { ...builder.build(), id };
		};

		test('two webhook calls asking for the same payout make two payouts; a re-run of the first makes none and says so', async () => {
			const workflow = afterTrigger('wf-two-calls', fixedPayout('#two'));
			const first = await fx.engine.run(workflow, webhookCall({ withdrawalId: 'W-1001' }));
			const second = await fx.engine.run(workflow, webhookCall({ withdrawalId: 'W-1002' }));

			const items = [first, second].map((run) => run.output('Payments Service')[0].json);
			expect(items.map((item) => item.already_created)).toEqual([false, false]);
			const made = cashoutsMade('#two');
			expect(made).toHaveLength(2);
			expect(items.map((item) => item.cashout_id).sort()).toEqual(
				made.map((entry) => entry.cashoutId).sort(),
			);

			const rerun = await fx.engine.run(workflow, webhookCall({ withdrawalId: 'W-1001' }));
			const [repeat] = rerun.output('Payments Service').map((item) => item.json);
			expect(repeat.error).toBe(
				'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
			);
			expect(repeat.description).toContain(
				`The service already has the cashout of the external ID derived for this request (${String(items[0].external_id)}): a cashout in status PENDING.`,
			);
			expect(repeat.already_created).toBeUndefined();
			expect(cashoutsMade('#two')).toHaveLength(2);
		});

		test('two orders from one payer for the same amount make two deposits, each with its instructions', async () => {
			const node = paymentsNode(
				{ ...depositFromRow(), amount: '80.00', additionalFields: { description: 'Order #two-d' } },
				DEPOSIT,
			);
			const workflow = afterTrigger('wf-two-orders', node);
			const runs = [
				await fx.engine.run(workflow, webhookCall({ orderId: 'O-1' })),
				await fx.engine.run(workflow, webhookCall({ orderId: 'O-2' })),
			];
			const items = runs.map((run) => run.output('Payments Service')[0].json);
			expect(items.map((item) => item.already_created ?? false)).toEqual([false, false]);
			expect(items.every((item) => typeof item.deposit_id === 'number')).toBe(true);
			expect(depositsMade('#two-d')).toHaveLength(2);
		});

		test('answers lost at 23:59:58 UTC and Retry On Fail at 00:00:01 send the first key: one payout, reported', async () => {
			fakeClock(at('23:59:58'));
			// The node's own resends go out at 23:59:58 too; Retry On Fail after midnight.
			moveClockAtRequest('/v3/cashout', LOST_ANSWERS - 1, at('00:00:01', NEXT_DAY));
			loseEveryAnswer('POST', '/v3/cashout');
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-midnight-rof',
					[salted('#mid-rof')[0]],
					paymentsNode(payoutFromRow(), CASHOUT, {
						retryOnFail: true,
						maxTries: 2,
						waitBetweenTries: 1,
					}),
				),
			);
			expect(Date.now()).toBeGreaterThanOrEqual(at('00:00:01', NEXT_DAY));
			const posts = fx.sandbox.log.find('POST', '/v3/cashout');
			expect(posts.map((post) => JSON.parse(post.rawBody!).external_id)).toEqual(
				Array(LOST_ANSWERS + 1).fill(JSON.parse(posts[0].rawBody!).external_id),
			);
			expect(run.output('Payments Service')[0].json).toMatchObject({
				already_created: true,
				matches_request: true,
			});
			expect(cashoutsMade('#mid-rof')).toHaveLength(1);
		});

		test("n8n's Retry 20 s after midnight sends the first key: one payout, reported", async () => {
			fakeClock(at('23:59:58'));
			loseEveryAnswer('POST', '/v3/cashout');
			const workflow = itemsWorkflow(
				'wf-midnight-retry',
				[salted('#mid-retry')[0]],
				paymentsNode(payoutFromRow(), CASHOUT),
			);
			const failed = await fx.engine.run(workflow);
			setDate(at('00:00:20', NEXT_DAY));

			const retried = await fx.engine.retry(failed, workflow);

			expect(retried.output('Payments Service')[0].json).toMatchObject({
				already_created: true,
				matches_request: true,
			});
			expect(cashoutsMade('#mid-retry')).toHaveLength(1);
		});

		test('a re-run 20 s after midnight of an execution whose answer was lost at 23:59:58 finds the first payout: none made again', async () => {
			fakeClock(at('23:59:58'));
			loseEveryAnswer('POST', '/v3/cashout');
			const workflow = itemsWorkflow(
				'wf-midnight-rerun',
				[salted('#mid-rerun')[0]],
				paymentsNode(payoutFromRow(), CASHOUT),
			);
			await fx.engine.run(workflow);
			setDate(at('00:00:20', NEXT_DAY));

			const rerun = await fx.engine.run(workflow);

			expect(rerun.nodeError('Payments Service')?.message).toBe(
				'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
			);
			// The failed execution's sendings only: the re-run found the payout before sending.
			expect(fx.sandbox.log.find('POST', '/v3/cashout')).toHaveLength(LOST_ANSWERS);
			expect(cashoutsMade('#mid-rerun')).toHaveLength(1);
		});

		test('a deposit whose answers were lost at 23:40 is found by a re-run at 00:30 in the previous day’s list: none made again', async () => {
			const sync = (ms: number) => {
				setDate(ms);
				fx.sandbox.clock.set(ms);
			};
			const sandboxNow = fx.sandbox.clock.now();
			try {
				sync(at('23:40:00'));
				loseEveryAnswer('POST', '/v3/deposits');
				const workflow = itemsWorkflow(
					'wf-midnight-deposit',
					[salted('#mid-dep')[0]],
					withSession(paymentsNode(depositFromRow(), DEPOSIT)),
				);
				expect((await fx.engine.run(workflow)).error).toBeDefined();
				sync(at('00:30:00', NEXT_DAY));

				const rerun = await fx.engine.run(workflow);

				expect(rerun.nodeError('Payments Service')?.message).toBe(
					'Deposit in item 0 was not created: it repeats a deposit an earlier execution requested from the same input',
				);
				expect(
					(rerun.nodeError('Payments Service') as unknown as { description: string }).description,
				).toContain(', created in the previous Duplicate Window.');
				expect(fx.sandbox.log.find('POST', '/v3/deposits')).toHaveLength(LOST_ANSWERS);
				expect(depositsMade('#mid-dep')).toHaveLength(1);
			} finally {
				fx.sandbox.clock.set(sandboxNow);
			}
		});

		test.each([
			[
				'document',
				{ documentId: '52998224725' },
				'document_id: 52998224725 asked, 84932495016 on the existing cashout',
			],
			[
				'country',
				{
					country: { __rl: true, mode: 'list', value: 'MX' },
					amount: '5000.00',
					documentId: 'GOSA850101HDFRRN09',
				},
				'country: MX asked, BR on the existing cashout',
			],
		])(
			'an External ID reused for a payout with another %s fails, naming the field: nothing reads as made',
			async (_what, change, difference) => {
				const externalId = `payout-reuse-${_what}`;
				const node = (extra: INodeParameters) =>
					withSession(
						paymentsNode(
							{
								...payoutFromRow({ externalId }),
								amount: '250.00',
								documentId: '84932495016',
								beneficiaryName: 'Ana Souza #reuse',
								...extra,
							},
							CASHOUT,
						),
					);
				const first = await fx.engine.run(itemsWorkflow('wf-reuse-1', [{}], node({})));
				expect(first.output('Payments Service')[0].json.already_created).toBe(false);

				const run = await fx.engine.run(itemsWorkflow('wf-reuse-2', [{}], node(change)));

				const error = run.nodeError('Payments Service') as unknown as {
					message: string;
					description: string;
				};
				expect(error.message).toBe(
					`Cashout in item 0 was not created: external ID ${externalId} already belongs to another cashout`,
				);
				expect(error.description).toContain(difference);
				expect(
					fx.sandbox.control
						.createdCashouts()
						.filter((entry) => entry.request.external_id === externalId),
				).toHaveLength(1);
			},
		);

		test('an Idempotency Key reused for a deposit of another payer fails, naming the payer document', async () => {
			const node = (document: string) =>
				withSession(
					paymentsNode(
						{
							...depositFromRow(),
							amount: '15.00',
							additionalFields: { description: 'Order #reuse-d' },
							payer: { document },
							options: { idempotencyKey: 'order-reuse-d' },
						},
						DEPOSIT,
					),
				);
			await fx.engine.run(itemsWorkflow('wf-reuse-d1', [{}], node('84932495016')));
			const run = await fx.engine.run(itemsWorkflow('wf-reuse-d2', [{}], node('52998224725')));
			const error = run.nodeError('Payments Service') as unknown as {
				message: string;
				description: string;
			};
			expect(error.message).toBe(
				'Deposit in item 0 was not created: idempotency key order-reuse-d already belongs to another deposit',
			);
			expect(error.description).toContain(
				'payer.document: 52998224725 asked, 84932495016 on the existing deposit',
			);
			expect(depositsMade('#reuse-d')).toHaveLength(1);
		});

		test('a given External ID sent again without a Session credential cannot be compared: the item fails, nothing is made', async () => {
			const node = paymentsNode(
				{
					...payoutFromRow({ externalId: 'payout-unconfirmed-1' }),
					amount: '250.00',
					documentId: '84932495016',
					beneficiaryName: 'Ana #unconf-c',
				},
				CASHOUT,
			);
			await fx.engine.run(itemsWorkflow('wf-unconf-c1', [{}], node));
			const run = await fx.engine.run(itemsWorkflow('wf-unconf-c2', [{}], node));
			expect(run.nodeError('Payments Service')?.message).toBe(
				'Cashout in item 0: external ID payout-unconfirmed-1 was already used, and the cashout it belongs to could not be confirmed',
			);
			expect(cashoutsMade('#unconf-c')).toHaveLength(1);
		});
	});
});
