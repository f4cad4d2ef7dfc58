import type { IDataObject, INodeParameters, INodeType, IWebhookFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { forgetAllClaims } from '../../../../nodes/PaymentsService/trigger/notification/claims';
import { createEngine } from '../../../harness/engine';
import { startFixture, storeSandboxCredentials, type Fixture } from '../../../harness/fixtures';
import {
	cashoutNotification,
	depositNotification,
	NOTIFICATION_TRIGGER,
	notificationWorkflow,
	sandboxSecrets,
} from '../../../harness/notifications';
import { sharedClock } from '../../../harness/trigger';
import { WEBHOOK_ERROR_ANSWER, WebhookRunner, type WebhookOutcome } from '../../../harness/webhook';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MID = 1001; // the merchant of the sandbox's deposit and cashout credentials

type Clock = ReturnType<typeof sharedClock>;

describe('Payments Service Notification Trigger, called through n8n-core’s WebhookContext', () => {
	let fx: Fixture;
	let clock: Clock;

	beforeEach(async () => {
		// Each test starts as a new n8n process would: no claim held (claims.ts).
		forgetAllClaims();
		// Only the records each test makes are read; the generated history of deposits and cashouts
		// is left out (generating it was a large part of this file's time).
		fx = await startFixture({ sandbox: { now: START, depositsPerDay: 0, cashoutsPerDay: 0 } });
		clock = sharedClock(fx.sandbox, START);
	});
	afterEach(async () => {
		clock.restore();
		await fx.close();
	});

	// Version 1 with Verify Cashout Control off: these tests cover what follows the control check
	// (reading by cashout_id, memory, filters); the check itself is covered in notification-security.
	const runner = (parameters: INodeParameters = {}, store: { staticData?: IDataObject } = {}) =>
		new WebhookRunner(
			fx.engine,
			notificationWorkflow({ options: { verifyControl: false }, ...parameters }),
			NOTIFICATION_TRIGGER,
			store,
		);
	const deposit = (status = 'PENDING') =>
		fx.sandbox.control.addDeposit({ idMerchant: MID, status });
	const cashout = (extra: Record<string, unknown> = {}) =>
		fx.sandbox.control.addCashout({ idMerchant: MID, ...extra });
	const memory = (trigger: WebhookRunner) =>
		(trigger.staticData().notifications as { records: Record<string, [string, number]> }).records;

	test('a deposit notification emits the deposit status read from the service, with what was received', async () => {
		const record = deposit('PENDING');
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		const trigger = runner();
		const outcome = await trigger.call(depositNotification(record.idDeposit));
		expect(outcome.error).toBeUndefined();
		expect([outcome.status, outcome.json]).toEqual([
			200,
			{
				received: true,
				kind: 'deposit',
				id: record.idDeposit,
				outcome: 'emitted',
				status: 'COMPLETED',
			},
		]);
		expect(outcome.items).toHaveLength(1);
		expect(outcome.items![0].json).toMatchObject({
			deposit_id: record.idDeposit,
			status: 'COMPLETED',
			notification: {
				kind: 'deposit',
				changeKey: `deposit:${record.idDeposit}:COMPLETED:2026-11-02T12:00:00Z`,
				deposit_id: record.idDeposit,
				receivedAt: '2026-11-02T12:00:00Z',
				previousStatus: null,
			},
		});
		// Signed GET with the deposit credential (service rules §2.3, §5.3).
		const reads = fx.sandbox.log.find('GET', '/v3/deposits/*');
		expect(reads.map((entry) => [entry.path, entry.status])).toEqual([
			[`/v3/deposits/${record.idDeposit}`, 200],
		]);
		expect(outcome.staticDataSaved).toBe(true);
		expect(memory(trigger)).toEqual({
			[`d:${record.idDeposit}`]: ['COMPLETED', START / 1000, START / 1000],
		});
	});

	test('a cashout notification is only a hint: the status emitted is the one the service answers, with readable names', async () => {
		const payout = cashout({ externalId: 'payout-hint-1' });
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		fx.sandbox.control.advanceCashout(payout.idCashout, 'REJECTED', {
			code: 801,
			reason: 'Beneficiary account closed',
		});
		const trigger = runner();
		const outcome = await trigger.call(
			cashoutNotification({
				cashout_id: payout.idCashout,
				external_id: 'payout-hint-1',
				bank_reference_id: 'bank-ref-1',
				status_reason: 'whatever the body says',
			}),
		);
		expect(outcome.json).toEqual({
			received: true,
			kind: 'cashout',
			id: payout.idCashout,
			outcome: 'emitted',
			status: 'REJECTED',
		});
		expect(outcome.items![0].json).toEqual({
			cashout_status: 3,
			cashout_status_description: 'Rejected',
			cashout_status_name: 'REJECTED',
			rejection_code: 801,
			rejection_code_name: 'ERROR_ACCOUNT_CLOSED',
			rejection_reason: 'Beneficiary account closed',
			cashout_id: payout.idCashout,
			notification: {
				kind: 'cashout',
				changeKey: `cashout:${payout.idCashout}:REJECTED:2026-11-02T12:00:00Z`,
				date: '2026-11-02 12:00:00',
				bank_reference_id: 'bank-ref-1',
				comments: '',
				external_id: 'payout-hint-1',
				control: 'C0FFEE',
				cashout_id: String(payout.idCashout),
				status_reason: 'whatever the body says',
				receivedAt: '2026-11-02T12:00:00Z',
				previousStatus: null,
			},
		});
		// Read by cashout_id only, through the signed cashout API (service rules §2.4, §6.1).
		const [read] = fx.sandbox.log.find('POST', '/v3/cashout/status');
		expect(JSON.parse(String(read.rawBody))).toMatchObject({ cashout_id: payout.idCashout });
		expect(JSON.parse(String(read.rawBody)).external_id).toBeUndefined();
	});

	test('a forged notification is harmless: it emits the real state, which the status filter judges', async () => {
		const payout = cashout({ externalId: 'payout-forged' });
		const trigger = runner({ notifications: 'cashouts', cashoutStatuses: ['REJECTED'] });
		const forged = await trigger.call(
			cashoutNotification({
				cashout_id: payout.idCashout,
				external_id: 'payout-forged',
				status_reason: 'REJECTED',
				control: 'FORGED',
			}),
		);
		expect(forged.json).toEqual({
			received: true,
			kind: 'cashout',
			id: payout.idCashout,
			outcome: 'filtered',
			status: 'PENDING',
		});
		expect(forged.items).toBeNull();
	});

	test('a cashout notified without its id is read by external_id', async () => {
		const payout = cashout({ externalId: 'payout-by-external' });
		const outcome = await runner().call(cashoutNotification({ external_id: 'payout-by-external' }));
		// The status answer carries no cashout id, so the change key names the cashout by the external ID.
		expect(outcome.items![0].json).toMatchObject({
			cashout_status_name: 'PENDING',
			external_id: 'payout-by-external',
			notification: { changeKey: 'cashout:payout-by-external:PENDING:2026-11-02T12:00:00Z' },
		});
		const [read] = fx.sandbox.log.find('POST', '/v3/cashout/status');
		expect(JSON.parse(String(read.rawBody))).toMatchObject({ external_id: 'payout-by-external' });
		expect(JSON.parse(String(read.rawBody)).cashout_id).toBeUndefined();
		expect(payout.externalId).toBe('payout-by-external');
	});

	test('repeats of a notification emit once per record and status; a new status emits again, with the previous one', async () => {
		const payout = cashout({ externalId: 'payout-dup' });
		const trigger = runner();
		// As the service sends them: each change dated when it happened (GMT, to the second).
		let changedAt = clock.now();
		const change = (status: string) => {
			clock.advance(1000);
			changedAt = clock.now();
			fx.sandbox.control.setStatus('cashout', payout.idCashout, status);
		};
		const notify = () =>
			trigger.call(
				cashoutNotification({
					cashout_id: payout.idCashout,
					external_id: 'payout-dup',
					date: new Date(changedAt).toISOString().slice(0, 19).replace('T', ' '),
				}),
			);
		const first = await notify();
		const again = await notify();
		clock.advance(MINUTE);
		const third = await notify();
		expect(
			[first, again, third].map((outcome) => [
				outcome.status,
				(outcome.json as IDataObject).outcome,
				outcome.items?.length ?? 0,
			]),
		).toEqual([
			[200, 'emitted', 1],
			[200, 'duplicate', 0],
			[200, 'duplicate', 0],
		]);
		change('ON_HOLD');
		const held = await notify();
		expect(held.items![0].json).toMatchObject({
			cashout_status_name: 'ON_HOLD',
			notification: { previousStatus: 'PENDING' },
		});
		change('PENDING');
		change('ON_HOLD');
		expect((await notify()).json).toMatchObject({ outcome: 'duplicate', status: 'ON_HOLD' });
		// Back to PENDING, then ON_HOLD again, each notified: both are new changes.
		change('PENDING');
		expect((await notify()).json).toMatchObject({ outcome: 'emitted', status: 'PENDING' });
		change('ON_HOLD');
		expect((await notify()).json).toMatchObject({ outcome: 'emitted', status: 'ON_HOLD' });
		// [last status read, last notified, first read in that status], Unix seconds.
		const last = clock.now() / 1000;
		expect(memory(trigger)).toEqual({ [`c:${payout.idCashout}`]: ['ON_HOLD', last, last] });
	});

	test('Emit Every Notification emits repeats too (and still remembers the status)', async () => {
		const record = deposit('PENDING');
		const trigger = runner({ options: { emitEveryNotification: true } });
		const outcomes = [
			await trigger.call(depositNotification(record.idDeposit)),
			await trigger.call(depositNotification(record.idDeposit)),
		];
		expect(
			outcomes.map((outcome) => [(outcome.json as IDataObject).outcome, outcome.items?.length]),
		).toEqual([
			['emitted', 1],
			['emitted', 1],
		]);
		expect(outcomes[1].items![0].json.notification).toMatchObject({ previousStatus: 'PENDING' });
		expect(memory(trigger)).toEqual({
			[`d:${record.idDeposit}`]: ['PENDING', START / 1000, START / 1000],
		});
	});

	test('status filters: only the statuses chosen start the workflow; the others are answered 200', async () => {
		const record = deposit('PENDING');
		const payout = cashout({ externalId: 'payout-filter' });
		const trigger = runner({
			depositStatuses: ['COMPLETED'],
			cashoutStatuses: ['REJECTED', 'COMPLETED'],
		});
		const pending = await trigger.call(depositNotification(record.idDeposit));
		expect([pending.status, pending.json, pending.items]).toEqual([
			200,
			{
				received: true,
				kind: 'deposit',
				id: record.idDeposit,
				outcome: 'filtered',
				status: 'PENDING',
			},
			null,
		]);
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		expect(
			(await trigger.call(depositNotification(record.idDeposit))).items![0].json,
		).toMatchObject({ status: 'COMPLETED', notification: { previousStatus: 'PENDING' } });
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		expect(
			(await trigger.call(cashoutNotification({ cashout_id: payout.idCashout }))).json,
		).toMatchObject({ outcome: 'filtered', status: 'DELIVERED' });
		fx.sandbox.control.advanceCashout(payout.idCashout, 'COMPLETED');
		expect(
			(await trigger.call(cashoutNotification({ cashout_id: payout.idCashout }))).items![0].json,
		).toMatchObject({ cashout_status_name: 'COMPLETED' });
	});

	test('a kind not chosen is answered 200 without reading anything, and logged', async () => {
		const payout = cashout();
		const record = deposit();
		const deposits = runner({ notifications: 'deposits' });
		const outcome = await deposits.call(cashoutNotification({ cashout_id: payout.idCashout }));
		expect([outcome.status, outcome.json, outcome.items]).toEqual([
			200,
			{ received: true, kind: 'cashout', id: payout.idCashout, outcome: 'not-selected' },
			null,
		]);
		expect(outcome.logs).toEqual([
			expect.objectContaining({
				level: 'warn',
				message: expect.stringMatching(
					/cashout notification.*ignored: this trigger listens to deposits only/,
				),
			}),
		]);
		const cashouts = runner({ notifications: 'cashouts' });
		expect((await cashouts.call(depositNotification(record.idDeposit))).json).toMatchObject({
			outcome: 'not-selected',
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test.each([
		[
			'an empty JSON object',
			{ contentType: 'application/json', body: '{}' },
			'The body has no deposit_id, cashout_id or external_id',
		],
		[
			'a deposit id that is not a number',
			{ contentType: 'application/json', body: '{"deposit_id":"30000x"}' },
			'deposit_id is not a positive whole number',
		],
		[
			'a cashout id that is not a number',
			cashoutNotification({ cashout_id: 'seven', external_id: 'x' }),
			'cashout_id is not a positive whole number',
		],
		[
			'a cashout form with neither id',
			cashoutNotification({}),
			'The body has no deposit_id, cashout_id or external_id',
		],
		[
			'an empty body',
			{ contentType: 'application/json', body: '' },
			'The body is not a JSON object or a form: expected {"deposit_id": N} or the cashout form fields',
		],
		[
			'a JSON array',
			{ contentType: 'application/json', body: '[1]' },
			'The body is not a JSON object or a form: expected {"deposit_id": N} or the cashout form fields',
		],
	])(
		'%s is answered 400, starts nothing, reads nothing and is logged',
		async (_name, request, problem) => {
			const outcome = await runner().call(request);
			expect([outcome.status, outcome.json, outcome.items, outcome.staticDataSaved]).toEqual([
				400,
				{ received: false, error: problem },
				null,
				false,
			]);
			expect(outcome.logs).toEqual([
				{
					level: 'warn',
					message: `Payments Service notification refused with 400: ${problem}`,
					metadata: expect.objectContaining({ nodeName: NOTIFICATION_TRIGGER }),
				},
			]);
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		},
	);

	test('a body sent as another content type is read from its raw bytes', async () => {
		const record = deposit('PENDING');
		const outcome = await runner().call({
			contentType: 'application/octet-stream',
			body: JSON.stringify({ deposit_id: record.idDeposit }),
		});
		expect(outcome.items![0].json).toMatchObject({
			deposit_id: record.idDeposit,
			status: 'PENDING',
		});
	});

	test('JSON that does not parse is refused by n8n itself (422) before the node runs', async () => {
		const outcome = await runner().call({
			contentType: 'application/json',
			body: '{"deposit_id":',
		});
		expect([outcome.status, outcome.items]).toEqual([422, null]);
		expect(outcome.json).toMatchObject({ code: 422, message: 'Failed to parse request body' });
	});

	test('an id the service does not know is answered 200, emits nothing and is logged', async () => {
		const trigger = runner();
		const unknownDeposit = await trigger.call(depositNotification(999_999_999));
		const unknownCashout = await trigger.call(
			cashoutNotification({ cashout_id: 9_999_999, external_id: 'nobody' }),
		);
		expect([unknownDeposit.status, unknownDeposit.json, unknownDeposit.items]).toEqual([
			200,
			{ received: true, kind: 'deposit', id: 999_999_999, outcome: 'not-found' },
			null,
		]);
		expect([unknownCashout.status, unknownCashout.json, unknownCashout.items]).toEqual([
			200,
			{ received: true, kind: 'cashout', id: 9_999_999, outcome: 'not-found' },
			null,
		]);
		expect(unknownDeposit.logs.map((line) => [line.level, line.message])).toEqual([
			[
				'warn',
				"Payments Service deposit notification for deposit 999999999: the service does not know it for this credential's merchant; answered 200, nothing emitted",
			],
		]);
		expect(unknownCashout.logs[0].message).toMatch(/cashout 9999999: the service does not know it/);
		// Another merchant's deposit is unknown to this credential too.
		const theirs = fx.sandbox.control.addDeposit({ idMerchant: 2001 });
		expect((await trigger.call(depositNotification(theirs.idDeposit))).json).toMatchObject({
			outcome: 'not-found',
		});
		expect(trigger.staticData()).toEqual({});
	});

	test('a status read that fails is answered 500 and saves nothing; the next delivery emits the item', async () => {
		const record = deposit('COMPLETED');
		const trigger = runner();
		// Three attempts within the webhook (NOTIFICATION_READ_RETRY), all refused.
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v3/deposits/*',
			kind: 'status',
			status: 503,
			times: 3,
		});
		const failed = await trigger.call(depositNotification(record.idDeposit));
		expect([failed.status, failed.json, failed.items, failed.staticDataSaved]).toEqual([
			500,
			WEBHOOK_ERROR_ANSWER,
			null,
			false,
		]);
		expect(failed.error?.message).toBe(
			`Reading the status of notified deposit ${record.idDeposit} failed: Injected fault (sandbox) (503)`,
		);
		expect(fx.sandbox.log.find('GET', '/v3/deposits/*')).toHaveLength(3);
		expect(trigger.staticData()).toEqual({});
		const retried = await trigger.call(depositNotification(record.idDeposit));
		expect([retried.status, retried.items?.length]).toEqual([200, 1]);
	});

	test('a read failing once or twice is retried within the same delivery', async () => {
		const payout = cashout();
		fx.sandbox.faults.add({ method: 'POST', path: '/v3/cashout/status', kind: 'reset', times: 2 });
		const outcome = await runner().call(cashoutNotification({ cashout_id: payout.idCashout }));
		expect([outcome.status, outcome.items?.length]).toEqual([200, 1]);
	});

	test('a wrong credential fails the read (5xx, the error names the credential), never a 2xx', async () => {
		const record = deposit();
		fx.engine.addCredential({
			id: 'cred-deposit',
			name: 'Wrong deposit secret',
			type: 'paymentsServiceDepositApi',
			data: {
				baseUrl: fx.sandbox.apiUrl,
				apiKey: fx.sandbox.credentials.deposit.apiKey,
				apiSignature: 'not-the-secret',
			},
		});
		const outcome = await runner().call(depositNotification(record.idDeposit));
		expect([outcome.status, outcome.json, outcome.items]).toEqual([
			500,
			WEBHOOK_ERROR_ANSWER,
			null,
		]);
		expect(outcome.error?.message).toMatch(
			/Reading the status of notified deposit \d+ failed: .*\(102\)/,
		);
	});

	test('no answer and no log line holds a secret, whatever happens', async () => {
		const record = deposit('COMPLETED');
		const payout = cashout({ externalId: 'payout-secrets' });
		const trigger = runner({ depositStatuses: ['PENDING'] });
		const outcomes: WebhookOutcome[] = [];
		outcomes.push(await trigger.call(depositNotification(record.idDeposit)));
		outcomes.push(
			await trigger.call(
				cashoutNotification({ cashout_id: payout.idCashout, external_id: 'payout-secrets' }),
			),
		);
		outcomes.push(
			await trigger.call(
				cashoutNotification({ cashout_id: payout.idCashout, external_id: 'payout-secrets' }),
			),
		);
		outcomes.push(await trigger.call(depositNotification(123)));
		outcomes.push(await trigger.call({ contentType: 'application/json', body: '{"nothing":1}' }));
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout/status',
			kind: 'status',
			status: 500,
			times: 3,
		});
		outcomes.push(await trigger.call(cashoutNotification({ cashout_id: payout.idCashout })));
		fx.engine.addCredential({
			id: 'cred-cashout',
			name: 'Wrong cashout pass',
			type: 'paymentsServiceCashoutApi',
			data: {
				baseUrl: fx.sandbox.apiUrl,
				login: fx.sandbox.credentials.cashout.login,
				pass: 'wrong-pass',
				apiSignature: fx.sandbox.credentials.cashout.apiSignature,
			},
		});
		outcomes.push(await trigger.call(cashoutNotification({ cashout_id: payout.idCashout })));
		const said = outcomes
			.flatMap((outcome) => [
				outcome.body,
				...outcome.logs.map((line) => `${line.message} ${JSON.stringify(line.metadata)}`),
				outcome.error?.message ?? '',
			])
			.join('\n');
		expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200, 200, 200, 400, 500, 500]);
		for (const secret of [...sandboxSecrets(fx.sandbox), 'wrong-pass', 'C0FFEE'])
			expect(said).not.toContain(secret);
	});

	test('the memory is pruned by age: a record last notified more than 7 days ago emits again', async () => {
		const record = deposit('PENDING');
		const trigger = runner();
		await trigger.call(depositNotification(record.idDeposit));
		clock.advance(7 * DAY + MINUTE);
		const other = deposit('PENDING');
		const late = await trigger.call(depositNotification(record.idDeposit));
		expect(late.json).toMatchObject({ outcome: 'emitted' });
		await trigger.call(depositNotification(other.idDeposit));
		clock.advance(7 * DAY - MINUTE);
		expect((await trigger.call(depositNotification(other.idDeposit))).json).toMatchObject({
			outcome: 'duplicate',
		});
		expect(Object.keys(memory(trigger)).sort()).toEqual(
			[`d:${other.idDeposit}`, `d:${record.idDeposit}`].sort(),
		);
	});

	test('queue mode: two processes share nothing but the saved static data, so a repeat reaching the other one is still suppressed', async () => {
		const store: { staticData?: IDataObject } = {};
		const record = deposit('PENDING');
		const other = await createEngine();
		storeSandboxCredentials(other, fx.sandbox);
		const first = new WebhookRunner(
			fx.engine,
			notificationWorkflow({}),
			NOTIFICATION_TRIGGER,
			store,
		);
		const second = new WebhookRunner(other, notificationWorkflow({}), NOTIFICATION_TRIGGER, store);
		// Processes share no claims (claims.ts): forgotten before each call, so only the saved static
		// data can suppress the repeat.
		const call = async (runner: WebhookRunner) => {
			forgetAllClaims();
			return await runner.call(depositNotification(record.idDeposit));
		};
		expect((await call(first)).items).toHaveLength(1);
		expect((await call(second)).json).toMatchObject({ outcome: 'duplicate' });
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		expect((await call(second)).items).toHaveLength(1);
		expect((await call(first)).json).toMatchObject({ outcome: 'duplicate' });
	});

	test('the description: one POST webhook, nothing to register, each credential shown and required for its kind only', async () => {
		const type = fx.engine.nodeTypes.getByNameAndVersion(
			notificationWorkflow({}).nodes[0].type,
		) as INodeType;
		const { description } = type;
		expect(description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				// onReceived unless Respond is When Workflow Finished; webhook/<URL Secret> when one is set.
				responseMode:
					'={{$parameter["options"]["respond"] === "whenFinished" ? "lastNode" : "onReceived"}}',
				responseData: 'noData',
				path: '={{$parameter["urlSecret"] ? "webhook/" + $parameter["urlSecret"] : "webhook"}}',
			},
		]);
		expect([runner().path, runner().describe('responseMode', '')]).toEqual([
			'/webhook/b8f1c3de-5a7e-4f0a-9c21-6d2f1e0a7b11/webhook',
			'onReceived',
		]);
		// Which credential each choice shows (n8n's display logic) is checked in test/unit/editorCredentials.spec.ts.
		expect(
			description.credentials?.map((credential) => [credential.name, credential.required]),
		).toEqual([
			['paymentsServiceDepositApi', true],
			['paymentsServiceCashoutApi', true],
		]);
		// No registration API (service rules §10): activation finds it "existing" and creates nothing.
		const hooks = type.webhookMethods!.default!;
		const withSecret = (urlSecret: string) =>
			({
				getNodeParameter: () => urlSecret,
				getNode: () => notificationWorkflow({}).nodes[0],
			}) as never;
		const context = withSecret('');
		expect([
			await hooks.checkExists.call(context),
			await hooks.create.call(context),
			await hooks.delete.call(context),
		]).toEqual([true, true, true]);
		expect(await hooks.checkExists.call(withSecret('k3Y-for_deposits-0123456789'))).toBe(true);
		// A URL Secret too short or with characters a path cannot hold refuses activation, saying why.
		await expect(hooks.checkExists.call(withSecret('short'))).rejects.toThrow(
			'URL Secret must be 16 to 128 letters, digits, - or _',
		);
		await expect(
			hooks.checkExists.call(withSecret('with spaces and / slashes!')),
		).rejects.toMatchObject({ description: expect.stringContaining('some of them not allowed') });
	});

	test('the item starts the workflow on n8n’s engine like any webhook execution', async () => {
		const record = deposit('COMPLETED');
		const workflow = notificationWorkflow({});
		const outcome = await new WebhookRunner(fx.engine, workflow, NOTIFICATION_TRIGGER).call(
			depositNotification(record.idDeposit),
		);
		const run = await fx.engine.run(workflow, { triggerItems: outcome.items!, mode: 'webhook' });
		expect(run.error).toBeUndefined();
		expect(run.output('Then').map((item) => item.json.deposit_id)).toEqual([record.idDeposit]);
	});
});

describe('what n8n 2.41.1 saves of static data changed in webhook() (reproduced by the harness)', () => {
	/**
	 * A webhook node that counts its calls in static data and returns the count as an item; it
	 * answers the request itself or leaves the answer to n8n.
	 */
	const counter = (answersItself: boolean): INodeType => ({
		description: {
			displayName: 'Counter',
			name: 'counter',
			group: ['trigger'],
			version: 1,
			description: 'Counts its calls',
			defaults: { name: 'Counter' },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
			],
			properties: [],
		},
		async webhook(this: IWebhookFunctions) {
			const data = this.getWorkflowStaticData('node');
			data.count = Number(data.count ?? 0) + 1;
			const workflowData = [[{ json: { count: data.count } }]];
			if (!answersItself) return { workflowData };
			const response = this.getResponseObject();
			response.writeHead(200);
			response.end('ok');
			return { noWebhookResponse: true, workflowData };
		},
	});

	const counting = async (answersItself: boolean) => {
		const engine = await createEngine();
		engine.nodeTypes.register('test.counter', counter(answersItself));
		const workflow = {
			id: 'wf-counter',
			name: 'Counter',
			nodes: [
				{
					id: 'c',
					name: 'Counter',
					type: 'test.counter',
					typeVersion: 1,
					position: [0, 0] as [number, number],
					webhookId: 'counter',
					parameters: {},
				},
			],
			connections: {},
		};
		const runner = new WebhookRunner(engine, workflow, 'Counter');
		const counts: unknown[] = [];
		for (let call = 0; call < 3; call++)
			counts.push(
				(await runner.call({ contentType: 'application/json', body: '{}' })).items![0].json.count,
			);
		return counts;
	};

	test('items left for n8n to answer (onReceived): the change is saved only while the stored static data was empty', async () => {
		expect(await counting(false)).toEqual([1, 2, 2]);
	});

	test('items with the node’s own answer (noWebhookResponse): every change is saved', async () => {
		expect(await counting(true)).toEqual([1, 2, 3]);
	});
});
