import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness/engine';
import { dateStopped, fakeDate, realDate, setDate } from '../../harness/clock';
import {
	CASHOUT,
	CREATIONS,
	creationsFixture,
	DEPOSIT,
	depositFromRow,
	itemsWorkflow,
	LOST_ANSWERS,
	loopWorkflow,
	payoutFromRow,
	refundFromRow,
} from '../../harness/creations';
import { paymentsNode, WorkflowBuilder } from '../../harness/fixtures';

/**
 * Money moves once on every path n8n can take (service rules §5.2): Loop Over Items, a lost answer
 * resent by the node, Retry On Fail, n8n's Retry of a failed execution, a manual re-run, and the
 * inputs that used to be altered or misread on the way; and what `already_created` (Refund:
 * `already_requested`) says on each (docs/money-moves-once.md). Each test counts the records the
 * sandbox holds; the cases alike for payouts, deposits and refunds run for the three.
 */

const KINDS = Object.entries(CREATIONS) as Array<
	[keyof typeof CREATIONS, (typeof CREATIONS)['cashout']]
>;
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 };

describe('money moves once on every path n8n takes', () => {
	// Only the records the tests make: a generated history would fill the day's list past a page
	// by the evening (UTC), and a look-up's count of reads with it.
	const fixture = creationsFixture({ sandbox: { depositsPerDay: 0, cashoutsPerDay: 0 } });

	/**
	 * Every answer of the next creation lost, the node's resends included, so the item fails; n8n's
	 * clock stands still meanwhile, so the node's backoffs end at once.
	 */
	const loseEveryAnswer = (method: string, path: string, skip = 0, times = LOST_ANSWERS) => {
		if (!dateStopped()) fakeDate(Date.now());
		fixture().sandbox.faults.add({ method, path, kind: 'reset', phase: 'after', skip, times });
	};
	/** The keys the sandbox received for `path`, in order. */
	const keysSent = (path: string) =>
		fixture()
			.sandbox.log.find('POST', path)
			.map((entry) =>
				path === '/v3/cashout'
					? (JSON.parse(entry.rawBody!) as IDataObject).external_id
					: entry.headers['x-idempotency-key'],
			);

	describe('Loop Over Items (every pass sees item index 0)', () => {
		test.each(KINDS)(
			'3 rows, two of them identical, make 3 records of %s, each made now',
			async (name, kind) => {
				const fx = fixture();
				const rows = kind.rows(fx.sandbox, `#loop-${name}`);
				const run = await fx.engine.run(loopWorkflow(`wf-loop-${name}`, rows, kind.node()));
				expect(run.error).toBeUndefined();
				const items = run.output('Payments Service').map((item) => item.json);
				expect(items.map((item) => item[kind.already])).toEqual([false, false, false]);
				const made = kind.made(fx.sandbox, `#loop-${name}`);
				expect(made).toHaveLength(3);
				expect(items.map((item) => kind.reported(item).id)).toEqual(made.map((entry) => entry.id));
			},
		);

		test('as an AI agent’s tool, a call repeated with the same request (a model retrying after a lost answer) is one payout, made on the first call', async () => {
			const fx = fixture();
			// The tool variant n8n makes of the node runs the same code under a type ending in "Tool".
			fx.engine.nodeTypes.register(
				'n8n-nodes-payments-service.paymentsServiceTool',
				fx.engine.nodeTypes.getByName('n8n-nodes-payments-service.paymentsService'),
			);
			const tool = {
				...paymentsNode(payoutFromRow(), CASHOUT),
				type: 'n8n-nodes-payments-service.paymentsServiceTool',
			};
			const rows = CREATIONS.cashout.rows(fx.sandbox, '#tool', 2);
			const run = await fx.engine.run(loopWorkflow('wf-tool-calls', rows, tool));
			expect(run.output('Payments Service').map((item) => item.json.already_created)).toEqual([
				false,
				true,
			]);
			expect(CREATIONS.cashout.made(fx.sandbox, '#tool')).toHaveLength(1);
		});
	});

	describe('an answer lost: the same key again, one record, and the item made now by this execution', () => {
		/** How the answers get lost, and what recovers the item. */
		const PATHS = [
			['resent by the node', 1, {}, 2],
			['lost on every resend, then Retry On Fail', LOST_ANSWERS, RETRY_ON_FAIL, LOST_ANSWERS + 1],
			["lost on every resend, then n8n's Retry", LOST_ANSWERS, {}, LOST_ANSWERS + 1],
		] as const;
		/** What each creation adds about the record found: its status read, its lost instructions. */
		const FOUND: Record<keyof typeof CREATIONS, IDataObject> = {
			cashout: { cashout_status_name: 'PENDING' },
			deposit: { status: 'PENDING', payment_instructions_recovered: false },
			refund: {},
		};

		test.each(KINDS.flatMap(([name, kind]) => PATHS.map((path) => [name, ...path, kind] as const)))(
			'a %s whose answer was %s',
			async (name, how, lost, settings, sends, kind) => {
				const fx = fixture();
				const salt = `#lost-${name}-${sends}-${how.length}`;
				loseEveryAnswer('POST', kind.path, 0, lost);
				const workflow = itemsWorkflow(
					`wf-lost-${name}`,
					kind.rows(fx.sandbox, salt, 1),
					kind.node({}, settings),
				);
				let run = await fx.engine.run(workflow);
				if (how.endsWith("n8n's Retry")) {
					expect(run.nodeError('Payments Service')?.message).toMatch(/\(ECONNRESET\)/);
					run = await fx.engine.retry(run, workflow);
				}
				expect(run.error).toBeUndefined();
				const [item] = run.output('Payments Service').map((output) => output.json);
				const [made] = kind.made(fx.sandbox, salt);
				expect(kind.made(fx.sandbox, salt)).toHaveLength(1);
				expect(new Set(keysSent(kind.path))).toEqual(new Set([made.key]));
				expect(keysSent(kind.path)).toHaveLength(sends);
				expect(kind.reported(item)).toEqual({ key: made.key, id: made.id });
				expect(item).toMatchObject({
					[kind.already]: false,
					matches_request: true,
					times_sent: sends,
					...FOUND[name],
				});
				expect(item.message).toMatch(
					new RegExp(
						`^\\w+ created \\(${kind.keyName} ${made.key}\\): this execution sent it before without learning the outcome, and the service recognised it sent again \\(\\d+\\); no second \\w+ was made\\. It is \\w+ ${made.id} `,
					),
				);
			},
		);

		test.each([
			['cashout', 'cashout', 'external ID', 511],
			['deposit', 'deposit', 'idempotency key', 104],
			['refund', 'refund of deposit \\d+', 'idempotency key', 104],
		] as const)(
			'lost on every resend without a retry: the %s fails saying the service may have acted, the key, and until when a retry is safe',
			async (name, subject, keyName, code) => {
				const fx = fixture();
				const kind = CREATIONS[name];
				loseEveryAnswer('POST', kind.path);
				const failed = await fx.engine.run(
					itemsWorkflow(`wf-lost-all-${name}`, kind.rows(fx.sandbox, '#lost-all', 1), kind.node()),
				);
				const error = failed.nodeError('Payments Service') as unknown as { description: string };
				const [key] = keysSent(kind.path);
				const noun = name;
				expect(error.description).toMatch(
					new RegExp(
						`^No answer came back, so the ${subject} may or may not have been created\\. The ${keyName} of this ${noun} is ${String(key)} \\(derived\\)\\. Retry On Fail and n8n's Retry of this execution send the same one at any time: the service recognises the repeat \\(${code}\\) and this node reports the existing ${noun} instead of making a second one\\. A new execution on the same input before \\d{4}-\\d{2}-\\d{2} 00:00 UTC sends it too, and fails as a repeat without making a second ${noun}\\..* Tried 3 times\\.$`,
					),
				);
			},
		);

		test.each(KINDS)(
			'a %s answered 503 after it was made is sent again with its key, and the repeat answer names the record: made now',
			async (name, kind) => {
				const fx = fixture();
				fx.sandbox.faults.add({
					method: 'POST',
					path: kind.path,
					kind: 'status',
					status: 503,
					phase: 'after',
				});
				const salt = `#503-${name}`;
				const run = await fx.engine.run(
					itemsWorkflow(`wf-503-${name}`, kind.rows(fx.sandbox, salt, 1), kind.node()),
				);
				expect(run.error).toBeUndefined();
				const [made] = kind.made(fx.sandbox, salt);
				expect(kind.made(fx.sandbox, salt)).toHaveLength(1);
				expect(fx.sandbox.log.find('POST', kind.path)[0].status).toBe(503);
				expect(new Set(keysSent(kind.path))).toEqual(new Set([made.key]));
				expect(run.output('Payments Service')[0].json).toMatchObject({
					[kind.already]: false,
					matches_request: true,
					times_sent: 2,
				});
			},
		);

		test('a 429 is sent again with the same external ID: one payout, made', async () => {
			const fx = fixture();
			fx.sandbox.faults.add({
				method: 'POST',
				path: '/v3/cashout',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 0,
			});
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-429',
					CREATIONS.cashout.rows(fx.sandbox, '#429', 1),
					CREATIONS.cashout.node(),
				),
			);
			expect(run.error).toBeUndefined();
			expect(run.output('Payments Service')[0].json.already_created).toBe(false);
			const [made] = CREATIONS.cashout.made(fx.sandbox, '#429');
			expect(fx.sandbox.log.find('POST', '/v3/cashout').map((entry) => entry.status)).toEqual([
				429, 200,
			]);
			expect(keysSent('/v3/cashout')).toEqual([made.key, made.key]);
		});

		test('a loop that failed on its second payout resumes there with n8n’s Retry: 3 payouts in all, each made now', async () => {
			const fx = fixture();
			loseEveryAnswer('POST', '/v3/cashout', 1);
			const workflow = loopWorkflow(
				'wf-retry-loop',
				CREATIONS.cashout.rows(fx.sandbox, '#retry-loop'),
				paymentsNode(payoutFromRow(), CASHOUT),
			);
			const failed = await fx.engine.run(workflow);
			expect(failed.error).toBeDefined();
			expect(CREATIONS.cashout.made(fx.sandbox, '#retry-loop')).toHaveLength(2);

			const retried = await fx.engine.retry(failed, workflow);

			expect(retried.error).toBeUndefined();
			// The first pass ran in the failed execution; the retry runs passes 2 and 3.
			expect(retried.output('Payments Service').map((item) => item.json.already_created)).toEqual([
				false,
				false,
				false,
			]);
			expect(CREATIONS.cashout.made(fx.sandbox, '#retry-loop')).toHaveLength(3);
		});

		test('without a Session credential a deposit cannot be found: the retry fails as unconfirmed, or outputs it unconfirmed when told to', async () => {
			const fx = fixture();
			const node = (extra: INodeParameters = {}) => paymentsNode(depositFromRow(extra), DEPOSIT);
			loseEveryAnswer('POST', '/v3/deposits');
			const workflow = itemsWorkflow(
				'wf-retry-unconfirmed',
				CREATIONS.deposit.rows(fx.sandbox, '#unconf-d', 1),
				node(),
			);
			const retried = await fx.engine.retry(await fx.engine.run(workflow), workflow);
			expect(retried.nodeError('Payments Service')?.message).toMatch(
				/^Deposit in item 0: idempotency key n8n-[0-9a-f]{40} was already used, and the deposit it belongs to could not be confirmed$/,
			);
			expect(CREATIONS.deposit.made(fx.sandbox, '#unconf-d')).toHaveLength(1);

			loseEveryAnswer('POST', '/v3/deposits');
			const told = itemsWorkflow(
				'wf-retry-unconfirmed-output',
				CREATIONS.deposit.rows(fx.sandbox, '#unconf-o', 1),
				node({ options: { unconfirmedRepeat: 'output' } }),
			);
			const outputRetry = await fx.engine.retry(await fx.engine.run(told), told);
			expect(outputRetry.output('Payments Service')[0].json).toMatchObject({
				already_created: false,
				matches_request: null,
				deposit_id: null,
			});
			expect(CREATIONS.deposit.made(fx.sandbox, '#unconf-o')).toHaveLength(1);
		});
	});

	describe('the list shows a record only later', () => {
		// n8n's clock stands still: the node's backoffs and re-reads end at once.
		beforeEach(() => fakeDate(Date.now()));
		afterEach(() => {
			jest.restoreAllMocks();
			fixture().sandbox.control.setReportLag(0);
		});

		/** Moves the sandbox's clock `ms` on as the `nth` (from 0) read of the deposit list arrives. */
		const listCatchesUpAt = (nth: number, ms: number) => {
			const fx = fixture();
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
				const fx = fixture();
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
						CREATIONS.deposit.rows(fx.sandbox, salt, 1),
						CREATIONS.deposit.node({ options: { unconfirmedRepeat: 'output' } }),
					),
				);
				expect(run.error).toBeUndefined();
				const [made] = CREATIONS.deposit.made(fx.sandbox, salt);
				// A read is its first page (the list's other pages belong to the same read).
				const reads = fx.sandbox.log
					.find('GET', '/v1/deposits')
					.filter((entry) => entry.query.page === '0');
				const [item] = run.output('Payments Service').map((output) => output.json);
				if (outcome === 'found') {
					// The filtered read, the unfiltered one, then the filtered one again.
					expect(reads).toHaveLength(3);
					expect(item).toMatchObject({
						already_created: false,
						matches_request: true,
						deposit_id: made.id,
					});
				} else {
					// Both reads, then three reads again: the bound.
					expect(reads).toHaveLength(5);
					expect(item).toMatchObject({ already_created: false, matches_request: null });
					expect(item.message).toContain(' in 5 reads); the list may show it a little later.');
				}
				expect(CREATIONS.deposit.made(fx.sandbox, salt)).toHaveLength(1);
			},
		);
	});

	describe('a key given again in a new execution: the record found and compared, made before', () => {
		/** The node of a request with a given key and fixed fields, `change` applied. */
		const GIVEN: Array<[string, keyof typeof CREATIONS, INodeParameters, INodeParameters, string]> =
			[
				['the same payout', 'cashout', { externalId: 'payout-given-1' }, {}, ''],
				[
					'a payout of another amount',
					'cashout',
					{ externalId: 'payout-given-2' },
					{ amount: '300.00' },
					'amount: 300.00 asked, 250 on the existing cashout',
				],
				[
					'a payout to another document',
					'cashout',
					{ externalId: 'payout-given-3' },
					{ documentId: '52998224725' },
					'document_id: 52998224725 asked, 84932495016 on the existing cashout',
				],
				[
					'a payout to another country',
					'cashout',
					{ externalId: 'payout-given-4' },
					{
						country: { __rl: true, mode: 'list', value: 'MX' },
						amount: '5000.00',
						documentId: 'GOSA850101HDFRRN09',
					},
					'country: MX asked, BR on the existing cashout',
				],
				['the same deposit', 'deposit', { options: { idempotencyKey: 'order-given-1' } }, {}, ''],
				[
					'a deposit of another amount',
					'deposit',
					{ options: { idempotencyKey: 'order-given-2' } },
					{ amount: '12.00' },
					'amount: 12.00 asked, 250 on the existing deposit',
				],
				[
					'a deposit of another payer',
					'deposit',
					{ options: { idempotencyKey: 'order-given-3' } },
					{ payer: { document: '52998224725' } },
					'payer.document: 52998224725 asked, 84932495016 on the existing deposit',
				],
			];

		test.each(GIVEN)('%s', async (_what, name, key, change, difference) => {
			const fx = fixture();
			const kind = CREATIONS[name];
			const salt = `#given-${key.externalId ?? (key.options as IDataObject).idempotencyKey}`;
			const row = { ...kind.rows(fx.sandbox, salt, 1)[0] };
			const fixed = {
				amount: '250.00',
				documentId: '84932495016',
				payer: { document: '84932495016' },
			};
			const node = (extra: INodeParameters) =>
				kind.node({
					...key,
					...(name === 'cashout' ? { documentId: fixed.documentId } : { payer: fixed.payer }),
					...extra,
				});
			await fx.engine.run(itemsWorkflow(`wf-given-${name}-1`, [row], node({})));
			const run = await fx.engine.run(itemsWorkflow(`wf-given-${name}-2`, [row], node(change)));
			expect(kind.made(fx.sandbox, salt)).toHaveLength(1);
			if (!difference) {
				const [made] = kind.made(fx.sandbox, salt);
				expect(run.output('Payments Service')[0].json).toMatchObject({
					already_created: true,
					matches_request: true,
				});
				expect(kind.reported(run.output('Payments Service')[0].json).id).toBe(made.id);
				return;
			}
			const error = run.nodeError('Payments Service') as unknown as {
				message: string;
				description: string;
			};
			expect(error.message).toMatch(
				new RegExp(
					`^\\w+ in item 0 was not created: ${kind.keyName} \\S+ already belongs to another ${name}$`,
				),
			);
			expect(error.description).toContain(difference);
			expect(error.description).toContain(`Give this ${name} its own `);
		});

		test('a refund re-run in a new execution with its Idempotency Key cannot be confirmed (refund records carry no key): it fails, nothing is made twice', async () => {
			const fx = fixture();
			const kind = CREATIONS.refund;
			const rows = kind.rows(fx.sandbox, '#given-refund', 1);
			const node = kind.node({ options: { idempotencyKey: 'refund-given-1' } });
			await fx.engine.run(itemsWorkflow('wf-given-refund-1', rows, node));
			const run = await fx.engine.run(itemsWorkflow('wf-given-refund-2', rows, node));
			expect(run.nodeError('Payments Service')?.message).toBe(
				'Refund in item 0: idempotency key refund-given-1 was already used, and the refund it belongs to could not be confirmed',
			);
			expect(kind.made(fx.sandbox, '#given-refund')).toHaveLength(1);
		});

		test('a given External ID sent again without a Session credential cannot be compared: the item fails, nothing is made', async () => {
			const fx = fixture();
			const node = paymentsNode(payoutFromRow({ externalId: 'payout-unconfirmed-1' }), CASHOUT);
			const rows = CREATIONS.cashout.rows(fx.sandbox, '#unconf-c', 1);
			await fx.engine.run(itemsWorkflow('wf-unconf-c1', rows, node));
			const run = await fx.engine.run(itemsWorkflow('wf-unconf-c2', rows, node));
			expect(run.nodeError('Payments Service')?.message).toBe(
				'Cashout in item 0: external ID payout-unconfirmed-1 was already used, and the cashout it belongs to could not be confirmed',
			);
			expect(CREATIONS.cashout.made(fx.sandbox, '#unconf-c')).toHaveLength(1);
		});
	});

	describe('separate requests, and midnight', () => {
		/** 2026-11-24 23:59:58 UTC and friends: evening payout runs in São Paulo live on this boundary. */
		const at = (time: string, day = '2026-11-24') => Date.parse(`${day}T${time}Z`);
		const NEXT_DAY = '2026-11-25';
		/** Moves the clock to `ms` when the sandbox starts receiving the `nth` (0-based) POST to `path`. */
		const moveClockAtRequest = (path: string, nth: number, ms: number) => {
			let seen = 0;
			const log = fixture().sandbox.log as unknown as {
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

		const webhookCall = (body: IDataObject) => ({
			triggerItems: [{ json: { headers: { 'content-type': 'application/json' }, body } }],
			mode: 'webhook' as const,
		});
		const afterTrigger = (id: string, node: INode): WorkflowJson => {
			const builder = new WorkflowBuilder('Withdrawal requests');
			builder.then(node);
			return { ...builder.build(), id };
		};

		test.each([
			[
				'payouts',
				'cashout',
				{ amount: '250.00', documentId: '84932495016', beneficiaryName: 'Ana Souza #two-c' },
			],
			[
				'deposits',
				'deposit',
				{ amount: '80.00', additionalFields: { description: 'Order #two-d' } },
			],
		] as const)(
			'two webhook calls asking for the same %s make two; a re-run of the first makes none and says so',
			async (_what, name, fixed) => {
				const fx = fixture();
				const kind = CREATIONS[name];
				const workflow = afterTrigger(
					`wf-two-${name}`,
					kind.node({ ...fixed }, { continueOnFail: true }),
				);
				const runs = [
					await fx.engine.run(workflow, webhookCall({ requestId: 'W-1001' })),
					await fx.engine.run(workflow, webhookCall({ requestId: 'W-1002' })),
				];
				const items = runs.map((run) => run.output('Payments Service')[0].json);
				expect(items.map((item) => item.already_created)).toEqual([false, false]);
				const salt = name === 'cashout' ? '#two-c' : '#two-d';
				expect(kind.made(fx.sandbox, salt)).toHaveLength(2);

				const rerun = await fx.engine.run(workflow, webhookCall({ requestId: 'W-1001' }));
				const [repeat] = rerun.output('Payments Service').map((item) => item.json);
				expect(repeat.error).toBe(
					`${name === 'cashout' ? 'Cashout' : 'Deposit'} in item 0 was not created: it repeats a ${name} an earlier execution requested from the same input`,
				);
				const { key, id } = kind.reported(items[0]);
				expect(repeat.description).toContain(
					`derived for this request (${String(key)}): ${name} ${String(id)} (PENDING).`,
				);
				expect(kind.made(fx.sandbox, salt)).toHaveLength(2);
			},
		);

		test.each([
			['Retry On Fail at 00:00:01', 'retryOnFail'],
			["n8n's Retry at 00:00:20", 'executionRetry'],
		] as const)(
			'answers lost at 23:59:58 UTC and %s send the first key: one payout, made now',
			async (_when, recovery) => {
				const fx = fixture();
				const salt = `#mid-${recovery}`;
				fakeDate(at('23:59:58'));
				if (recovery === 'retryOnFail')
					// The node's own resends go out at 23:59:58 too; Retry On Fail after midnight.
					moveClockAtRequest('/v3/cashout', LOST_ANSWERS - 1, at('00:00:01', NEXT_DAY));
				loseEveryAnswer('POST', '/v3/cashout');
				const workflow = itemsWorkflow(
					`wf-midnight-${recovery}`,
					CREATIONS.cashout.rows(fx.sandbox, salt, 1),
					CREATIONS.cashout.node({}, recovery === 'retryOnFail' ? RETRY_ON_FAIL : {}),
				);
				let run = await fx.engine.run(workflow);
				if (recovery === 'executionRetry') {
					setDate(at('00:00:20', NEXT_DAY));
					run = await fx.engine.retry(run, workflow);
				}
				expect(Date.now()).toBeGreaterThanOrEqual(at('00:00:01', NEXT_DAY));
				const [made] = CREATIONS.cashout.made(fx.sandbox, salt);
				expect(keysSent('/v3/cashout')).toEqual(Array(LOST_ANSWERS + 1).fill(made.key));
				expect(run.output('Payments Service')[0].json).toMatchObject({
					already_created: false,
					matches_request: true,
				});
				expect(CREATIONS.cashout.made(fx.sandbox, salt)).toHaveLength(1);
			},
		);

		test.each([
			['a payout lost at 23:59:58, re-run at 00:00:20', 'cashout', '23:59:58', '00:00:20'],
			[
				'a deposit lost at 23:40, re-run at 00:30 (found in the previous day’s list)',
				'deposit',
				'23:40:00',
				'00:30:00',
			],
		] as const)(
			'%s: the first record is found, none made again',
			async (_case, name, lostAt, rerunAt) => {
				const fx = fixture();
				const kind = CREATIONS[name];
				const sync = (ms: number) => {
					setDate(ms);
					fx.sandbox.clock.set(ms);
				};
				const sandboxNow = fx.sandbox.clock.now();
				try {
					sync(at(lostAt));
					loseEveryAnswer('POST', kind.path);
					const workflow = itemsWorkflow(
						`wf-midnight-${name}`,
						kind.rows(fx.sandbox, `#mid-${name}`, 1),
						kind.node(),
					);
					expect((await fx.engine.run(workflow)).error).toBeDefined();
					sync(at(rerunAt, NEXT_DAY));

					const rerun = await fx.engine.run(workflow);

					const error = rerun.nodeError('Payments Service') as unknown as {
						message: string;
						description: string;
					};
					expect(error.message).toBe(
						`${name === 'cashout' ? 'Cashout' : 'Deposit'} in item 0 was not created: it repeats a ${name} an earlier execution requested from the same input`,
					);
					expect(error.description).toContain(', created in the previous Duplicate Window.');
					// The failed execution's sendings only: the re-run found the record before sending.
					expect(fx.sandbox.log.find('POST', kind.path)).toHaveLength(LOST_ANSWERS);
					expect(kind.made(fx.sandbox, `#mid-${name}`)).toHaveLength(1);
				} finally {
					fx.sandbox.clock.set(sandboxNow);
				}
			},
		);
	});

	test('a 5xx on a creation says the service may have acted and how to retry safely', async () => {
		const fx = fixture();
		// A 500 (a 503 is sent again: above).
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
				CREATIONS.cashout.rows(fx.sandbox, '#5xx', 1),
				paymentsNode(payoutFromRow({ externalId: 'payout-5xx-1' }), CASHOUT),
			),
		);
		const error = run.nodeError('Payments Service') as unknown as { description: string };
		expect(error.description).toMatch(
			/^The service failed \(HTTP 500\) and may or may not have created the cashout\. The external ID of this cashout is payout-5xx-1\. Retrying with the same external ID is safe at any time/,
		);
		expect(CREATIONS.cashout.made(fx.sandbox, '#5xx')).toHaveLength(1);
	});

	describe('hold, release and cancel read back a refused repeat', () => {
		test.each([
			['putOnHold', 'ON_HOLD', false],
			['releaseHold', 'PENDING', true],
			['cancel', 'CANCELLED', false],
		] as const)(
			'%s whose answer was lost is sent again by the node: it ends in %s, made now, with a note and no error, sent twice',
			async (operation, target, onHold) => {
				const fx = fixture();
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
					already_in_status: false,
					message: `Cashout ${cashout.idCashout} is ${target}: the answer to the change was lost, and the service refused it sent again as made already (510).`,
					times_sent: 2,
				});
				expect(
					fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
				).toEqual([`${method} ${path} 0`, `${method} ${path} 412`, 'POST /v3/cashout/status 200']);
			},
		);

		test.each([
			[
				'when the status cannot be read back, with the service’s refusal',
				400,
				'(510)',
				['PUT /v3/cashout/status 412', 'POST /v3/cashout/status 400'],
			],
			[
				'from another status, naming the status read back',
				undefined,
				'(it is DELIVERED) (510)',
				['PUT /v3/cashout/status 412', 'POST /v3/cashout/status 200'],
			],
		] as const)('a hold refused %s still fails', async (_case, readFails, says, calls) => {
			const fx = fixture();
			const cashout = fx.sandbox.control.addCashout({ idMerchant: 1001 });
			fx.sandbox.control.advanceCashout(cashout.idCashout, 'DELIVERED');
			if (readFails)
				fx.sandbox.faults.add({
					method: 'POST',
					path: '/v3/cashout/status',
					kind: 'status',
					status: readFails,
				});
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-hold-refused',
					[{}],
					paymentsNode(
						{ resource: 'cashout', operation: 'putOnHold', cashoutId: String(cashout.idCashout) },
						CASHOUT,
					),
				),
			);
			expect(run.nodeError('Payments Service')?.message).toBe(
				`Cashout ${cashout.idCashout} can no longer be put on hold: it is not PENDING ${says}`,
			);
			expect(
				fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
			).toEqual(calls);
		});
	});

	describe('inputs arrive exactly as given, or are refused before anything is sent', () => {
		test.each([
			['missing', {}],
			['null', { refundAmount: null }],
			['empty', { refundAmount: '' }],
		])(
			'a refund Amount that resolves to nothing (%s) is refused, never read as a full refund',
			async (_what, row) => {
				const fx = fixture();
				const [{ deposit }] = CREATIONS.refund.rows(fx.sandbox, '#refund-empty', 1);
				const run = await fx.engine.run(
					itemsWorkflow(
						'wf-refund-empty',
						[{ deposit, ...row }],
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
			const fx = fixture();
			const [{ deposit }] = CREATIONS.refund.rows(fx.sandbox, '#refund-full', 1);
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-refund-full',
					[{ deposit }],
					paymentsNode(refundFromRow({ amount: '' }), DEPOSIT),
				),
			);
			expect(run.output('Payments Service')[0].json).toMatchObject({
				already_requested: false,
				amount: null,
			});
			expect(JSON.parse(fx.sandbox.log.find('POST', '/v3/refunds')[0].rawBody!)).toEqual({
				deposit_id: deposit,
			});
		});

		test('idempotency keys with characters a header cannot carry are refused before anything is sent', async () => {
			const fx = fixture();
			const rows = [
				{ key: 'order-Łukasz-1' },
				{ key: 'order-Żukasz-1' },
				{ key: 'k'.repeat(10_240) },
			];
			const node = paymentsNode(
				{ ...depositFromRow(), amount: '10.00', options: { idempotencyKey: '={{ $json.key }}' } },
				DEPOSIT,
				{ continueOnFail: true },
			);
			const run = await fx.engine.run(itemsWorkflow('wf-keys', rows, node));
			expect(run.output('Payments Service').map((item) => item.json.error)).toEqual([
				'Deposit in item 0 is invalid: Idempotency Key contains "Ł" (U+0141), which an HTTP header cannot carry: use only visible ASCII characters (letters, digits and punctuation, no spaces)',
				'Deposit in item 1 is invalid: Idempotency Key contains "Ż" (U+017B), which an HTTP header cannot carry: use only visible ASCII characters (letters, digits and punctuation, no spaces)',
				'Deposit in item 2 is invalid: Idempotency Key is 10240 characters long; at most 128 are accepted',
			]);
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		});

		test('external IDs that differ only in non-Latin-1 letters stay distinct: two cashouts, each with its ID exactly; one with a line break is refused, not stripped', async () => {
			const fx = fixture();
			const [row] = CREATIONS.cashout.rows(fx.sandbox, '#latin', 1);
			const ids = ['order-Łukasz-1', 'order-Żukasz-1', 'payout\n7'];
			const node = paymentsNode(payoutFromRow({ externalId: '={{ $json.id }}' }), CASHOUT, {
				continueOnFail: true,
			});
			const run = await fx.engine.run(
				itemsWorkflow(
					'wf-external-ids',
					ids.map((id) => ({ ...row, id })),
					node,
				),
			);
			expect(
				run.output('Payments Service').map((item) => item.json.external_id ?? item.json.error),
			).toEqual([
				'order-Łukasz-1',
				'order-Żukasz-1',
				'Cashout in item 2 is invalid: External ID contains a line break (U+000A); control characters and line breaks cannot be part of an external ID',
			]);
			expect(CREATIONS.cashout.made(fx.sandbox, '#latin').map((entry) => entry.key)).toEqual(
				ids.slice(0, 2),
			);
		});

		test.each(['123456789012345678', '9007199254740993.01'])(
			'a JSON-mode amount %s written as a number is refused, written as text it arrives exactly',
			async (amount) => {
				const fx = fixture();
				const node = (value: string) =>
					paymentsNode(
						{
							resource: 'deposit',
							operation: 'create',
							specifyBody: 'json',
							jsonBody: `{"amount": ${value}, "currency": "BRL", "country": "BR"}`,
						},
						DEPOSIT,
					);
				const refused = await fx.engine.run(itemsWorkflow('wf-json-amount', [{}], node(amount)));
				expect(refused.nodeError('Payments Service')?.message).toBe(
					`JSON Body of item 0 has the number ${amount}, which a JavaScript number cannot carry exactly`,
				);
				expect(fx.sandbox.log.entries()).toHaveLength(0);
				await fx.engine.run(itemsWorkflow('wf-json-amount', [{}], node(`"${amount}"`)));
				expect(fx.sandbox.log.find('POST', '/v3/deposits')[0].rawBody).toContain(
					`"amount":"${amount}"`,
				);
			},
		);

		test('an amount mapped as a number past what a double carries is refused in Fields mode too', async () => {
			const fx = fixture();
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
});
