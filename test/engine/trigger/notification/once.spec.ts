import { readFileSync } from 'fs';
import path from 'path';

import type { IDataObject, IExecuteFunctions, INode, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forgetAllClaims } from '../../../../nodes/PaymentsService/trigger/notification/claims';
import type { SandboxNotification } from '../../../sandbox';
import { startFixture, type Fixture } from '../../../harness/fixtures';
import {
	cashoutNotificationForm,
	NOTIFICATION_TRIGGER,
	notificationWorkflow,
	postNotification,
} from '../../../harness/notifications';
import { sharedClock } from '../../../harness/trigger';
import { startWebhookServer, WebhookRunner, type WebhookServer } from '../../../harness/webhook';

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const MINUTE = 60_000;
const MID = 1001;
const FORM = 'application/x-www-form-urlencoded';

type Clock = ReturnType<typeof sharedClock>;

/** The recipe users import (docs/recipes/notifications-once-per-change.json). */
const RECIPE = JSON.parse(
	readFileSync(
		path.join(
			__dirname,
			'..',
			'..',
			'..',
			'..',
			'docs',
			'recipes',
			'notifications-once-per-change.json',
		),
		'utf8',
	),
) as { nodes: Array<{ name: string; parameters: IDataObject }> };

/**
 * The recipe's logic on the items the trigger emits: its "Record the change once" node inserts the
 * value of its query parameter into a table whose primary key is the change key (`ON CONFLICT DO
 * NOTHING RETURNING`), and "First time only" lets through the items that got a row. Its query and
 * parameter are read from the file, so a recipe keyed on anything else fails here.
 */
function recipeTable(): { admit(item: IDataObject): boolean; rows: Set<string> } {
	const record = RECIPE.nodes.find((node) => node.name === 'Record the change once')!;
	expect(record.parameters.query).toBe(
		'INSERT INTO handled_notifications (change_key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING change_key',
	);
	expect((record.parameters.options as IDataObject).queryReplacement).toBe(
		'={{ [$json.notification.changeKey] }}',
	);
	const rows = new Set<string>();
	return {
		rows,
		admit(item) {
			const key = String((item.notification as IDataObject).changeKey);
			if (rows.has(key)) return false;
			rows.add(key);
			return true;
		},
	};
}

// Once per change within one n8n process, without a database (service rules §10.5): the trigger's
// in-process claim, on n8n's engine, with the static data loaded and saved per request as n8n does.
describe('Notification Trigger: once per change in one process', () => {
	let fx: Fixture;
	let clock: Clock;
	let server: WebhookServer | undefined;
	let served: WebhookRunner | undefined;

	beforeEach(async () => {
		// Each test starts as a new n8n process would: no claim held.
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

	const listen = async (parameters: INodeParameters = {}) => {
		served = new WebhookRunner(fx.engine, notificationWorkflow(parameters), NOTIFICATION_TRIGGER);
		server = await startWebhookServer(fx.engine, served);
		return server;
	};
	const work = (): INode => served!.workflow.nodes.find((node) => node.name === 'Then')!;
	/**
	 * The work after the trigger becomes a gate: each execution waits until {@link openGate}, then
	 * fails ("Mail server down") while `failing`, else passes its items on.
	 */
	let failing = false;
	let opened: Promise<void> = Promise.resolve();
	let openGate = () => {};
	const gatedWork = () => {
		opened = new Promise<void>((resolve) => (openGate = resolve));
		fx.engine.nodeTypes.registerLazy('test.gate', () => ({
			description: {
				displayName: 'Gate',
				name: 'gate',
				group: ['transform'],
				version: 1,
				description: 'Waits for the test, then fails or passes its items on',
				defaults: { name: 'Gate' },
				inputs: ['main'],
				outputs: ['main'],
				properties: [],
			},
			async execute(this: IExecuteFunctions) {
				await opened;
				if (failing) throw new NodeOperationError(this.getNode(), 'Mail server down');
				return [this.getInputData()];
			},
		}));
		Object.assign(work(), { type: 'test.gate', typeVersion: 1, parameters: {} });
	};
	const delivered = async () => {
		await fx.sandbox.control.notifications.settle();
		await server!.idle();
	};
	const emitted = () =>
		server!.runs().flatMap((run) => run.output('Then').map((item) => item.json));
	const send = async (contentType: string, body: string) =>
		await postNotification(server!.url, contentType, body);
	/** A cashout notification as the service sends it, dated `at` (GMT). */
	const cashoutForm = (payout: { idCashout: number; externalId: string }, at = START) =>
		cashoutNotificationForm(fx.sandbox, payout, at);
	const resend = async (notification: SandboxNotification) =>
		await send(notification.contentType, notification.body);

	test('hold, release, hold: three changes, three keys; every delivery of one change shares its key, and the recipe handles each change once', async () => {
		const hook = await listen();
		const payout = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-hold-twice',
			notificationUrl: hook.url,
		});
		for (const status of ['ON_HOLD', 'PENDING', 'ON_HOLD']) {
			clock.advance(MINUTE);
			fx.sandbox.control.setStatus('cashout', payout.idCashout, status);
			await delivered();
		}
		const sent = fx.sandbox.control.notifications.list();
		const keys = emitted().map((item) => (item.notification as IDataObject).changeKey);
		expect(keys).toEqual([
			`cashout:${payout.idCashout}:ON_HOLD:2026-11-02T12:01:00Z`,
			`cashout:${payout.idCashout}:PENDING:2026-11-02T12:02:00Z`,
			`cashout:${payout.idCashout}:ON_HOLD:2026-11-02T12:03:00Z`,
		]);
		// The service sends each notification again (a retry, a re-send from the panel): the trigger
		// answers 200 and starts nothing, in any order.
		const again = [];
		for (const notification of [...sent].reverse()) again.push(await resend(notification));
		expect(again.map((answer) => (answer.json as IDataObject).outcome)).toEqual([
			'duplicate',
			'duplicate',
			'duplicate',
		]);
		expect(server!.runs()).toHaveLength(3);

		// With Emit Every Notification every delivery reaches the workflow, so the recipe decides: each
		// notification delivered twice as it happens, then all again later (read after the last
		// change, they report it). The recipe's table admits each of the three changes once.
		await server!.close();
		forgetAllClaims();
		const again2 = await listen({ options: { emitEveryNotification: true } });
		const other = fx.sandbox.control.addCashout({
			idMerchant: MID,
			externalId: 'payout-hold-twice-recipe',
			notificationUrl: again2.url,
		});
		fx.sandbox.control.notifications.clear();
		for (const status of ['ON_HOLD', 'PENDING', 'ON_HOLD']) {
			clock.advance(MINUTE);
			fx.sandbox.control.setStatus('cashout', other.idCashout, status);
			await delivered();
			await resend(fx.sandbox.control.notifications.list().at(-1)!);
		}
		for (const notification of fx.sandbox.control.notifications.list()) await resend(notification);
		await server!.idle();
		const table = recipeTable();
		const admitted = emitted().filter((item) => table.admit(item));
		expect(emitted()).toHaveLength(9);
		expect(admitted.map((item) => (item.notification as IDataObject).changeKey)).toEqual([
			`cashout:${other.idCashout}:ON_HOLD:2026-11-02T12:04:00Z`,
			`cashout:${other.idCashout}:PENDING:2026-11-02T12:05:00Z`,
			`cashout:${other.idCashout}:ON_HOLD:2026-11-02T12:06:00Z`,
		]);
	});

	test('a deposit: a status that comes back later gets a new key, a repeat keeps its key', async () => {
		const hook = await listen({ options: { emitEveryNotification: true } });
		const record = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
		const notify = async () =>
			await send('application/json', JSON.stringify({ deposit_id: record.idDeposit }));
		await notify();
		clock.advance(MINUTE);
		await notify();
		clock.advance(MINUTE);
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'EXPIRED');
		await notify();
		clock.advance(MINUTE);
		fx.sandbox.control.setStatus('deposit', record.idDeposit, 'PENDING');
		await notify();
		await hook.idle();
		// Nothing the service sends or answers dates a deposit change: the key's time is when the
		// trigger first read the deposit in that status.
		expect(emitted().map((item) => (item.notification as IDataObject).changeKey)).toEqual([
			`deposit:${record.idDeposit}:PENDING:2026-11-02T12:00:00Z`,
			`deposit:${record.idDeposit}:PENDING:2026-11-02T12:00:00Z`,
			`deposit:${record.idDeposit}:EXPIRED:2026-11-02T12:02:00Z`,
			`deposit:${record.idDeposit}:PENDING:2026-11-02T12:03:00Z`,
		]);
	});

	test('two identical notifications at the same instant start one execution (cashout and deposit)', async () => {
		await listen();
		const pairs = 10;
		for (let index = 0; index < pairs; index++) {
			const payout = fx.sandbox.control.addCashout({
				idMerchant: MID,
				externalId: `payout-pair-${index}`,
			});
			const record = fx.sandbox.control.addDeposit({ idMerchant: MID, status: 'PENDING' });
			const form = cashoutForm(payout);
			const json = JSON.stringify({ deposit_id: record.idDeposit });
			const answers = await Promise.all([
				send(FORM, form),
				send(FORM, form),
				send('application/json', json),
				send('application/json', json),
			]);
			expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
		}
		await server!.idle();
		expect(server!.runs()).toHaveLength(2 * pairs);
		const outcomes = server!.deliveries.map((delivery) => (delivery.items ? 'emitted' : 'not'));
		expect(outcomes.filter((outcome) => outcome === 'emitted')).toHaveLength(2 * pairs);
	});

	test('Respond When Workflow Finished: a copy arriving while the first runs is answered 409; a failed workflow is handled again on redelivery, a successful one is not', async () => {
		await listen({ options: { respond: 'whenFinished' } });
		gatedWork();
		failing = true;
		const payout = fx.sandbox.control.addCashout({ idMerchant: MID, externalId: 'payout-wf' });
		const form = cashoutForm(payout);
		const first = send(FORM, form);
		// The copy arrives while the first one's workflow runs: told to come back later (not 2xx).
		const waitRuns = async (count: number) => {
			while (server!.deliveries.length < count) await new Promise((r) => setTimeout(r, 10));
		};
		await waitRuns(1);
		expect(await send(FORM, form)).toEqual({
			status: 409,
			json: {
				received: true,
				kind: 'cashout',
				id: payout.idCashout,
				outcome: 'in-progress',
				status: 'PENDING',
			},
		});
		openGate();
		// n8n answers the one that ran once it failed.
		expect((await first).status).toBe(500);
		await server!.idle();
		expect(server!.runs()).toHaveLength(1);

		// The failure released the claim: the service's next delivery runs the workflow again.
		failing = false;
		expect((await send(FORM, form)).status).toBe(200);
		await server!.idle();
		expect(server!.runs()).toHaveLength(2);
		expect(emitted()).toHaveLength(1);
		// Handled: a later delivery of the same change starts nothing.
		expect(await send(FORM, form)).toMatchObject({
			status: 200,
			json: { outcome: 'duplicate', status: 'PENDING' },
		});
		await server!.idle();
		expect(server!.runs()).toHaveLength(2);
	});
});
