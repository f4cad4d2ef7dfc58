import type { IDataObject, INode, INodeParameters, INodeType } from 'n8n-workflow';

import { forgetAllClaims } from '../../../../nodes/PaymentsService/trigger/notification/claims';
import { cashoutControl } from '../../../../nodes/PaymentsService/trigger/notification/authenticity';
import type { SandboxNotification } from '../../../sandbox';
import { startFixture, type Fixture } from '../../../harness/fixtures';
import {
	NOTIFICATION_TRIGGER,
	notificationWorkflow,
	sandboxSecrets,
} from '../../../harness/notifications';
import { sharedClock } from '../../../harness/trigger';
import {
	startWebhookServer,
	WEBHOOK_ERROR_ANSWER,
	WebhookRunner,
	type WebhookServer,
} from '../../../harness/webhook';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const MINUTE = 60_000;
const MID = 1001;

type Clock = ReturnType<typeof sharedClock>;

// The sandbox sends real notifications (service rules §10) to an HTTP server that hands each one to
// the node through n8n-core's WebhookContext and runs the workflow from the items it returns.
describe('Payments Service Notification Trigger, receiving the sandbox’s notifications over HTTP', () => {
	let fx: Fixture;
	let clock: Clock;
	let server: WebhookServer | undefined;

	beforeEach(async () => {
		// Each test starts as a new n8n process would: no claim held (claims.ts).
		forgetAllClaims();
		// Only the records each test makes are read; the generated history of deposits and cashouts
		// is left out (generating it was a large part of this file's time).
		fx = await startFixture({ sandbox: { now: START, depositsPerDay: 0, cashoutsPerDay: 0 } });
		clock = sharedClock(fx.sandbox, START);
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		clock.restore();
		await fx.close();
	});

	let served: WebhookRunner | undefined;
	const listen = async (parameters: INodeParameters = {}) => {
		served = new WebhookRunner(fx.engine, notificationWorkflow(parameters), NOTIFICATION_TRIGGER);
		server = await startWebhookServer(fx.engine, served);
		return server;
	};
	/** The node after the trigger ("Then"), to change what the work does. */
	const work = (): INode => served!.workflow.nodes.find((node) => node.name === 'Then')!;
	/** Waits until the sandbox sent everything due and the server finished the executions it started. */
	const delivered = async () => {
		await fx.sandbox.control.notifications.settle();
		await server!.idle();
	};
	const emitted = () =>
		server!.runs().flatMap((run) => run.output('Then').map((item) => item.json));
	const answers = (notification: SandboxNotification) =>
		notification.attempts.map((attempt) => attempt.status ?? attempt.error);
	const post = async (contentType: string, body: string) => {
		const answer = await fetch(server!.url, {
			method: 'POST',
			headers: { 'content-type': contentType },
			body,
		});
		return { status: answer.status, json: (await answer.json()) as unknown };
	};

	test('each status change of a cashout gives one execution with the status read', async () => {
		const hook = await listen();
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-1',
			notificationUrl: hook.url,
		});
		const changes: Array<() => void> = [
			() => fx.sandbox.control.setStatus('cashout', payout.idCashout, 'ON_HOLD'),
			() => fx.sandbox.control.setStatus('cashout', payout.idCashout, 'PENDING'),
			() => fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED'),
			() =>
				fx.sandbox.control.advanceCashout(payout.idCashout, 'REJECTED', {
					code: 801,
					reason: 'Beneficiary account closed',
				}),
		];
		for (const [index, change] of changes.entries()) {
			change();
			await delivered();
			expect(server!.runs()).toHaveLength(index + 1);
		}
		expect(
			emitted().map((item) => [
				item.cashout_status_name,
				(item.notification as IDataObject).previousStatus,
			]),
		).toEqual([
			['ON_HOLD', null],
			['PENDING', 'ON_HOLD'],
			['DELIVERED', 'PENDING'],
			['REJECTED', 'DELIVERED'],
		]);
		expect(emitted()[3]).toMatchObject({
			rejection_code: 801,
			rejection_code_name: 'ERROR_ACCOUNT_CLOSED',
			notification: {
				kind: 'cashout',
				external_id: 'payout-http-1',
				cashout_id: String(payout.idCashout),
				bank_reference_id: `bank-ref-${payout.idCashout}`,
				status_reason: 'Beneficiary account closed',
			},
		});
		const notifications = fx.sandbox.control.notifications.list();
		expect(
			notifications.map((notification) => [
				notification.recordStatus,
				notification.state,
				answers(notification),
			]),
		).toEqual([
			['ON_HOLD', 'delivered', [200]],
			['PENDING', 'delivered', [200]],
			['DELIVERED', 'delivered', [200]],
			['REJECTED', 'delivered', [200]],
		]);
		expect(server!.runs().every((run) => run.error === undefined)).toBe(true);
	});

	test('a status read that fails is answered 5xx; the sandbox’s retry 5 minutes later delivers the item', async () => {
		const hook = await listen();
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-retry',
			notificationUrl: hook.url,
		});
		// Every attempt of the first delivery fails: three within the webhook for each of its two
		// reads (by the authenticated external_id, and by both ids).
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout/status',
			kind: 'status',
			status: 503,
			times: 6,
		});
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		await delivered();
		const [first] = fx.sandbox.control.notifications.list();
		expect([first.state, answers(first), first.nextAttemptAt]).toEqual([
			'retrying',
			[500],
			START + 5 * MINUTE,
		]);
		expect(first.attempts[0].responseBody).toBe(JSON.stringify(WEBHOOK_ERROR_ANSWER));
		expect(server!.runs()).toHaveLength(0);
		expect(server!.deliveries[0].error?.message).toMatch(
			/Reading the status of notified cashout \d+ failed/,
		);

		clock.advance(5 * MINUTE);
		await delivered();
		const [retried] = fx.sandbox.control.notifications.list();
		expect([retried.state, answers(retried)]).toEqual(['delivered', [500, 200]]);
		expect(emitted().map((item) => item.cashout_status_name)).toEqual(['DELIVERED']);
	});

	test('a deposit notification is retried the same way when the deposit read fails', async () => {
		const hook = await listen();
		const record = fx.sandbox.control.addDeposit({
			idMerchant: MID,
			status: 'PENDING',
			notificationUrl: hook.url,
		});
		fx.sandbox.faults.add({ method: 'GET', path: '/v3/deposits/*', kind: 'reset', times: 3 });
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		await delivered();
		expect(answers(fx.sandbox.control.notifications.list()[0])).toEqual([500]);
		clock.advance(5 * MINUTE);
		await delivered();
		expect(answers(fx.sandbox.control.notifications.list()[0])).toEqual([500, 200]);
		expect(emitted()).toEqual([
			expect.objectContaining({ deposit_id: record.idDeposit, status: 'COMPLETED' }),
		]);
	});

	test('a notification sent twice gives one execution; the copy is answered 200 as a duplicate', async () => {
		const hook = await listen();
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-dup',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.notifications.duplicate(1);
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		await delivered();
		const copies = fx.sandbox.control.notifications.list();
		expect(
			copies.map((notification) => [notification.duplicateOf ?? null, answers(notification)]),
		).toEqual([
			[null, [200]],
			[copies[0].id, [200]],
		]);
		expect(JSON.parse(copies[1].attempts[0].responseBody!)).toMatchObject({
			outcome: 'duplicate',
			status: 'DELIVERED',
		});
		expect(server!.runs()).toHaveLength(1);
	});

	test('Emit Every Notification: each copy gives an execution', async () => {
		const hook = await listen({ options: { emitEveryNotification: true } });
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-every',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.notifications.duplicate(1);
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		await delivered();
		expect(emitted().map((item) => item.cashout_status_name)).toEqual(['DELIVERED', 'DELIVERED']);
	});

	test('status filters: only REJECTED cashouts and COMPLETED deposits start the workflow; the rest is answered 200', async () => {
		const hook = await listen({ cashoutStatuses: ['REJECTED'], depositStatuses: ['COMPLETED'] });
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-filter',
			notificationUrl: hook.url,
		});
		const record = fx.sandbox.control.addDeposit({
			idMerchant: MID,
			status: 'PENDING',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'EXPIRED');
		await delivered();
		expect(server!.runs()).toHaveLength(0);
		fx.sandbox.control.advanceCashout(payout.idCashout, 'REJECTED', {
			code: 807,
			reason: 'Rejected by bank',
		});
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		await delivered();
		expect(emitted().map((item) => item.cashout_status_name ?? item.status)).toEqual([
			'REJECTED',
			'COMPLETED',
		]);
		expect(
			fx.sandbox.control.notifications.list().map((notification) => answers(notification)),
		).toEqual([[200], [200], [200], [200]]);
	});

	test('both kinds on one URL: deposits through the panel’s default URL, cashouts through their own, each read with its credential', async () => {
		const hook = await listen();
		fx.sandbox.control.setDefaultNotificationUrl(MID, hook.url);
		const record = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-both',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		await delivered();
		expect(
			emitted().map((item) => [
				(item.notification as IDataObject).kind,
				item.deposit_id ?? item.cashout_id,
				item.status ?? item.cashout_status_name,
			]),
		).toEqual([
			['deposit', record.idDeposit, 'COMPLETED'],
			['cashout', payout.idCashout, 'DELIVERED'],
		]);
		expect(fx.sandbox.log.find('GET', '/v3/deposits/*')[0].headers['x-login']).toBe(
			fx.sandbox.credentials.deposit.apiKey,
		);
		expect(
			fx.sandbox.log.find('POST', '/v3/cashout/status')[0].headers['payload-signature'],
		).toMatch(/^[0-9a-f]{64}$/);
	});

	test('a malformed body is answered 400 and an unknown id 200, neither starting anything', async () => {
		await listen();
		expect(await post('application/json', '{"deposit_id":"not-a-number"}')).toEqual({
			status: 400,
			json: { received: false, error: 'deposit_id is not a positive whole number' },
		});
		expect(
			await post('application/x-www-form-urlencoded', 'date=2026-11-02+12%3A00%3A00&comments='),
		).toEqual({
			status: 400,
			json: { received: false, error: 'The body has no deposit_id, cashout_id or external_id' },
		});
		expect(await post('application/json', '{"deposit_id":999999999}')).toEqual({
			status: 200,
			json: { received: true, kind: 'deposit', id: 999999999, outcome: 'not-found' },
		});
		// Without a control that matches, a cashout notification is refused before anything is read.
		expect(
			await post('application/x-www-form-urlencoded', 'cashout_id=9999999&external_id=nobody'),
		).toEqual({
			status: 401,
			json: { received: false, error: 'The control does not match' },
		});
		const control = cashoutControl(fx.sandbox.credentials.cashout.apiSignature, 'nobody');
		expect(
			await post(
				'application/x-www-form-urlencoded',
				`cashout_id=9999999&external_id=nobody&control=${control}`,
			),
		).toEqual({
			status: 200,
			json: { received: true, kind: 'cashout', id: 9999999, outcome: 'not-found' },
		});
		await server!.idle();
		expect(server!.runs()).toHaveLength(0);
		expect(
			server!.deliveries.flatMap((delivery) => delivery.logs.map((line) => line.level)),
		).toEqual(['warn', 'warn', 'warn', 'warn', 'warn']);
	});

	test('no answer and no log line holds a secret', async () => {
		const hook = await listen({ cashoutStatuses: ['REJECTED'] });
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-http-secrets',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.setDefaultNotificationUrl(MID, hook.url);
		const record = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v3/deposits/*',
			kind: 'status',
			status: 500,
			times: 3,
		});
		fx.sandbox.control.notifications.duplicate(1);
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		fx.sandbox.control.advanceCashout(payout.idCashout, 'REJECTED', {
			code: 801,
			reason: 'Beneficiary account closed',
		});
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		await delivered();
		await post('application/json', '{"oops":true}');
		const notifications = fx.sandbox.control.notifications.list();
		const controls = notifications.flatMap((notification) =>
			notification.kind === 'cashout'
				? [new URLSearchParams(notification.body).get('control')!]
				: [],
		);
		const said = [
			...notifications.flatMap((notification) =>
				notification.attempts.map((attempt) => attempt.responseBody ?? ''),
			),
			...server!.deliveries.flatMap((delivery) =>
				delivery.logs.map((line) => `${line.message} ${JSON.stringify(line.metadata)}`),
			),
		].join('\n');
		expect(notifications.map(answers)).toEqual([[200], [200], [200], [500]]);
		for (const secret of [...sandboxSecrets(fx.sandbox), ...controls])
			expect(said).not.toContain(secret);
	});

	/** Status reads the sandbox received, deposits and cashouts. */
	const reads = () =>
		fx.sandbox.log.find('GET', '/v3/deposits/*').length +
		fx.sandbox.log.find('POST', '/v3/cashout/status').length;
	/** The ids each cashout status read sent, in the order received (the pair of one delivery sorted). */
	const statusReadBodies = () =>
		fx.sandbox.log
			.find('POST', '/v3/cashout/status')
			.map((entry) => {
				const { cashout_id, external_id } = JSON.parse(entry.rawBody ?? '{}') as IDataObject;
				return cashout_id === undefined ? { external_id } : { cashout_id, external_id };
			})
			.reduce<IDataObject[]>((sorted, body, index, all) => {
				// The two reads of one delivery are sent at once: the external_id alone first.
				if (index % 2 === 1) return sorted;
				const pair = [body, all[index + 1]].filter(Boolean);
				return [...sorted, ...pair.sort((x) => (x.cashout_id === undefined ? -1 : 1))];
			}, []);
	const BORROWED = 'The cashout_id does not name the cashout the control authenticates';
	const signed = (externalId: string, fields: Record<string, string> = {}) =>
		new URLSearchParams({
			external_id: externalId,
			control: cashoutControl(fx.sandbox.credentials.cashout.apiSignature, externalId),
			...fields,
		}).toString();

	test('forged cashout notifications (wrong, missing or borrowed control) are refused 401 before any status read', async () => {
		await listen();
		const payout = fx.sandbox.control.addCashout({ idMerchant: MID, externalId: 'payout-real' });
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		const form = 'application/x-www-form-urlencoded';
		const refused = { status: 401, json: { received: false, error: 'The control does not match' } };
		expect(await post(form, `cashout_id=${payout.idCashout}&external_id=payout-real`)).toEqual(
			refused,
		);
		expect(
			await post(
				form,
				`cashout_id=${payout.idCashout}&external_id=payout-real&control=${'A'.repeat(64)}`,
			),
		).toEqual(refused);
		// A control made with another secret (the signature of another merchant).
		const other = cashoutControl('not-the-cashout-secret', 'payout-real');
		expect(
			await post(form, `cashout_id=${payout.idCashout}&external_id=payout-real&control=${other}`),
		).toEqual(refused);
		// The control of another external_id does not vouch for this one.
		expect(
			await post(
				form,
				`cashout_id=${payout.idCashout}&external_id=payout-real&control=${cashoutControl(fx.sandbox.credentials.cashout.apiSignature, 'payout-other')}`,
			),
		).toEqual(refused);
		expect(reads()).toBe(0);
		// A genuine control pasted next to another cashout_id: the ids do not name one cashout.
		const unrelated = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-unrelated',
		});
		expect(await post(form, `${signed('payout-real')}&cashout_id=${unrelated.idCashout}`)).toEqual({
			status: 401,
			json: { received: false, error: BORROWED },
		});
		// The genuine notification is read and emitted.
		expect(await post(form, `${signed('payout-real')}&cashout_id=${payout.idCashout}`)).toEqual({
			status: 200,
			json: {
				received: true,
				kind: 'cashout',
				id: payout.idCashout,
				outcome: 'emitted',
				status: 'DELIVERED',
			},
		});
		await server!.idle();
		// Each verified notification: one read by the authenticated external_id, one by both ids.
		expect(statusReadBodies()).toEqual([
			{ external_id: 'payout-real' },
			{ cashout_id: unrelated.idCashout, external_id: 'payout-real' },
			{ external_id: 'payout-real' },
			{ cashout_id: payout.idCashout, external_id: 'payout-real' },
		]);
		expect(
			emitted().map((item) => [item.cashout_id, item.external_id, item.cashout_status_name]),
		).toEqual([[payout.idCashout, 'payout-real', 'DELIVERED']]);
	});

	// Another implementation of the service may read a cashout_id and ignore the external_id sent with
	// it (the spec promises nothing about a pair that disagrees): a captured genuine notification for
	// cashout A with cashout_id changed to B then read B's status under A's External ID.
	test('a genuine control borrowed for another cashout_id is refused 401 and emits nothing, whichever id the service reads first', async () => {
		for (const pair of ['cashout_id', 'both'] as const) {
			await fx.close();
			forgetAllClaims();
			fx = await startFixture({
				sandbox: { now: START, cashoutStatusPair: pair, depositsPerDay: 0, cashoutsPerDay: 0 },
			});
			await listen();
			const a = fx.sandbox.control.addCashout({ idMerchant: MID, externalId: 'payout-a' });
			const b = fx.sandbox.control.addCashout({ idMerchant: MID, externalId: 'payout-b' });
			fx.sandbox.control.advanceCashout(b.idCashout, 'DELIVERED');
			fx.sandbox.control.advanceCashout(b.idCashout, 'REJECTED', {
				code: 801,
				reason: 'Beneficiary account closed',
			});
			const form = 'application/x-www-form-urlencoded';
			expect(await post(form, `${signed('payout-a')}&cashout_id=${b.idCashout}`)).toEqual({
				status: 401,
				json: { received: false, error: BORROWED },
			});
			// The genuine notification of A still goes through.
			expect((await post(form, `${signed('payout-a')}&cashout_id=${a.idCashout}`)).json).toEqual({
				received: true,
				kind: 'cashout',
				id: a.idCashout,
				outcome: 'emitted',
				status: 'PENDING',
			});
			await server!.idle();
			expect(
				emitted().map((item) => [item.cashout_id, item.external_id, item.cashout_status_name]),
			).toEqual([[a.idCashout, 'payout-a', 'PENDING']]);
			await server!.close();
			server = undefined;
		}
	});

	test('Verify Cashout Control off: an unsigned cashout notification is read (the status read still decides)', async () => {
		await listen({ options: { verifyControl: false } });
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-unsigned',
		});
		expect(
			(await post('application/x-www-form-urlencoded', `cashout_id=${payout.idCashout}`)).json,
		).toMatchObject({ outcome: 'emitted', status: 'PENDING' });
		expect(reads()).toBe(1);
	});

	test('URL Secret: the URL served includes it; a deposit notification without it is refused before any read', async () => {
		const secret = 'k3Y-for_deposits-0123456789';
		const hook = await listen({ urlSecret: secret });
		expect(hook.url.endsWith(`/webhook/${secret}`)).toBe(true);
		const record = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'COMPLETED' });
		const body = JSON.stringify({ deposit_id: record.idDeposit });
		const withoutSecret = hook.url.slice(0, -secret.length - 1);
		for (const url of [withoutSecret, `${withoutSecret}/wrong-secret-0123456789`]) {
			const answer = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body,
			});
			expect(answer.status).toBe(404);
		}
		expect(reads()).toBe(0);
		fx.sandbox.control.setDefaultNotificationUrl(MID, hook.url);
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'DECLINED');
		await delivered();
		expect(emitted().map((item) => [item.deposit_id, item.status])).toEqual([
			[record.idDeposit, 'DECLINED'],
		]);
		expect(reads()).toBe(1);
	});

	test('bodies over 16 KiB are answered 413, nested deeper than 4 levels 400, neither read nor started', async () => {
		await listen();
		const large = await post(
			'application/json',
			JSON.stringify({ deposit_id: 1, padding: 'x'.repeat(17 * 1024) }),
		);
		expect(large).toEqual({
			status: 413,
			json: { received: false, error: 'The body is larger than 16384 bytes' },
		});
		const deep = await post(
			'application/json',
			JSON.stringify({ deposit_id: 1, nested: { a: { b: { c: { d: 1 } } } } }),
		);
		expect(deep).toEqual({
			status: 400,
			json: { received: false, error: 'The body is nested deeper than 4 levels' },
		});
		const wide = await post(
			'application/json',
			JSON.stringify({ deposit_id: 1, list: Array.from({ length: 300 }, (_, index) => index) }),
		);
		expect(wide).toEqual({
			status: 400,
			json: { received: false, error: 'The body has more than 200 values' },
		});
		// About 2,000 levels in 10 KB: refused after at most 5 levels walked.
		const nested = `${'{"a":'.repeat(2000)}{"deposit_id":1}${'}'.repeat(2000)}`;
		expect(await post('application/json', nested)).toEqual({
			status: 400,
			json: { received: false, error: 'The body is nested deeper than 4 levels' },
		});
		await server!.idle();
		expect([reads(), server!.runs().length]).toEqual([0, 0]);
	});

	test('a record read in a final status is not read again for 10 minutes: repeats cost no status read', async () => {
		const hook = await listen();
		const record = fx.sandbox.control.addDeposit({
			idMerchant: MID,
			status: 'PENDING',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'COMPLETED');
		await delivered();
		expect(reads()).toBe(1);
		for (let copy = 0; copy < 5; copy++) {
			expect(
				(await post('application/json', JSON.stringify({ deposit_id: record.idDeposit }))).json,
			).toEqual({
				received: true,
				kind: 'deposit',
				id: record.idDeposit,
				outcome: 'duplicate',
				status: 'COMPLETED',
			});
		}
		expect(reads()).toBe(1);
		// A PENDING record is read each time: its status can change at any moment.
		const pending = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
		await post('application/json', JSON.stringify({ deposit_id: pending.idDeposit }));
		await post('application/json', JSON.stringify({ deposit_id: pending.idDeposit }));
		expect(reads()).toBe(3);
		// After 10 minutes the final status is read again.
		clock.advance(10 * MINUTE);
		await post('application/json', JSON.stringify({ deposit_id: record.idDeposit }));
		expect(reads()).toBe(4);
		await server!.idle();
		expect(server!.runs()).toHaveLength(2);
	});

	test('Respond When Workflow Finished: a workflow that fails answers 500, the sandbox’s retry runs it again, handled once', async () => {
		fx.engine.nodeTypes.registerLazy('n8n-nodes-base.stopAndError', () => {
			const file = 'n8n-nodes-base/dist/nodes/StopAndError/StopAndError.node';
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const loaded = require(file) as { StopAndError: new () => INodeType };
			return new loaded.StopAndError();
		});
		const hook = await listen({ options: { respond: 'whenFinished' } });
		// The work fails (the mail server is down): the node after the trigger stops with an error.
		Object.assign(work(), {
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			parameters: { errorMessage: 'Mail server down' },
		});
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-at-least-once',
			notificationUrl: hook.url,
		});
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		await delivered();
		const [first] = fx.sandbox.control.notifications.list();
		expect([first.state, answers(first)]).toEqual(['retrying', [500]]);
		expect(JSON.parse(first.attempts[0].responseBody!)).toEqual({ message: 'Error in workflow' });
		expect(
			server!.runs().map((run) => run.error?.message ?? run.run.data.resultData.error?.message),
		).toEqual(['Mail server down']);

		// The mail server is back: the retry 5 minutes later runs the workflow again, and it succeeds.
		Object.assign(work(), { type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} });
		clock.advance(5 * MINUTE);
		await delivered();
		const [retried] = fx.sandbox.control.notifications.list();
		expect([retried.state, answers(retried), retried.attempts[1].responseBody]).toEqual([
			'delivered',
			[500, 200],
			'',
		]);
		expect(emitted().map((item) => [item.cashout_id, item.cashout_status_name])).toEqual([
			[payout.idCashout, 'DELIVERED'],
		]);
		expect(server!.runs()).toHaveLength(2);
		// Nothing more is sent: the service got its 2xx.
		clock.advance(60 * MINUTE);
		await delivered();
		expect(server!.runs()).toHaveLength(2);
	});

	test('version 2: one kind and one credential per node; cashouts verified with that credential, deposits ignored', async () => {
		served = new WebhookRunner(
			fx.engine,
			notificationWorkflow({ notifications: 'cashouts' }, undefined, 2),
			NOTIFICATION_TRIGGER,
		);
		server = await startWebhookServer(fx.engine, served);
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-v2',
			notificationUrl: server.url,
		});
		fx.sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
		await delivered();
		expect(emitted().map((item) => [item.cashout_id, item.cashout_status_name])).toEqual([
			[payout.idCashout, 'DELIVERED'],
		]);
		const record = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
		expect(
			(await post('application/json', JSON.stringify({ deposit_id: record.idDeposit }))).json,
		).toMatchObject({ outcome: 'not-selected' });
		expect(fx.sandbox.log.find('GET', '/v3/deposits/*')).toHaveLength(0);
	});
});
