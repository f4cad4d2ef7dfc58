import { forgetAllClaims } from '../../../../nodes/PaymentsService/trigger/notification/claims';
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
const MID = 1001;
const FORM = 'application/x-www-form-urlencoded';

type Clock = ReturnType<typeof sharedClock>;

// A burst of the service's notifications, each handled once within one n8n process (service rules
// §10.5); the rest of that guarantee is in once.spec.ts.
describe('Notification Trigger: a burst of notifications in one process', () => {
	let fx: Fixture;
	let clock: Clock;
	let server: WebhookServer | undefined;

	beforeEach(async () => {
		// Each test starts as a new n8n process would: no claim held.
		forgetAllClaims();
		fx = await startFixture({ sandbox: { now: START, depositsPerDay: 0, cashoutsPerDay: 0 } });
		clock = sharedClock(fx.sandbox, START);
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		clock.restore();
		await fx.close();
	});

	const listen = async () => {
		const served = new WebhookRunner(fx.engine, notificationWorkflow({}), NOTIFICATION_TRIGGER);
		server = await startWebhookServer(fx.engine, served);
		return server;
	};
	const send = async (contentType: string, body: string) =>
		await postNotification(server!.url, contentType, body);
	/** A cashout notification as the service sends it, dated `at` (GMT). */
	const cashoutForm = (payout: { idCashout: number; externalId: string }, at = START) =>
		cashoutNotificationForm(fx.sandbox, payout, at);

	test('200 distinct notifications at once, then their repeats: none handled again', async () => {
		await listen();
		const payouts = Array.from({ length: 200 }, (_, index) =>
			fx.sandbox.control.addCashout({ idMerchant: MID, externalId: `payout-burst-${index}` }),
		);
		const forms = payouts.map((payout) => cashoutForm(payout));
		const queue = [...forms];
		await Promise.all(
			Array.from({ length: 50 }, async () => {
				for (let form = queue.shift(); form !== undefined; form = queue.shift())
					await send(FORM, form);
			}),
		);
		await server!.idle();
		expect(server!.runs()).toHaveLength(200);
		const repeats = [];
		for (const form of forms) repeats.push(await send(FORM, form));
		await server!.idle();
		expect(server!.runs()).toHaveLength(200);
		expect(repeats.filter((answer) => answer.status !== 200)).toEqual([]);
	});
});
