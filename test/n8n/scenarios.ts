/**
 * Alert scenarios: workflows that n8n starts by itself once active (a polling trigger today, a
 * webhook trigger next), each with how to make the sandbox produce the event and what n8n must do.
 *
 * EXTENSION POINT — a webhook alert (e.g. a `paymentsServiceNotificationTrigger` receiving POSTs
 * from the sandbox): add its workflow to test/workflows and NOT_MANUAL (catalogue.ts), then add an
 * entry to {@link ALERT_SCENARIOS} with `kind: 'webhook'`: `afterActivation` waits until n8n
 * registered the webhook (it activates asynchronously) and tells the sandbox the production URL (`${context.n8nUrl}/webhook/<path>` of the trigger node), `drive` makes the
 * sandbox send the notification, `settle` can be {@link settleNothing}. The run activates it, drives
 * it, waits for `expectedExecutions`, lets it settle, then requires exactly that many executions,
 * all successful, each judged by `summarize` (the demo's check by default).
 */
import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { DEMOS, lastMailTo } from '../demo/demos';
import type { ReceivedMail } from '../demo/smtp-sink';
import type { WorkflowJson, WorkflowRun } from '../harness/engine';
import type { Sandbox } from '../sandbox';
import { waitFor } from './processes';
import type { N8nClient, StoredWorkflow } from './rest';
import { demoContext } from './stubs';
import { addPayout } from './state';

/** What a scenario works with. */
export interface ScenarioContext {
	client: N8nClient;
	sandbox: Sandbox;
	mails: ReceivedMail[];
	/** http://127.0.0.1:<port> of n8n main (webhook URLs start here). */
	n8nUrl: string;
	/** n8n main's log so far (it logs each poll of a trigger at debug level). */
	mainLog(): string;
	/**
	 * How many polls of the workflow `log` (main's log) shows; default {@link countPolls} by the
	 * workflow's name. n8n's durable poll scheduler logs its polls with other lines (durable.ts).
	 */
	countPolls?: (log: string) => number;
	/** The workflow as imported (credentials mapped). */
	workflow: StoredWorkflow & WorkflowJson;
	/** Scenario-private values passed between its phases. */
	state: IDataObject;
	/**
	 * Where the workflow's polls and the sandbox's requests stood just before it was activated (set
	 * by the run): the trigger's starting point is the first complete poll after it.
	 */
	activation?: PollMark;
}

/** Where main's count of a workflow's polls and the sandbox's request log stood at a moment. */
export interface PollMark {
	polls: number;
	seq: number;
}

/** An alert workflow, how to make it fire, and what must follow. */
export interface AlertScenario {
	title: string;
	/** Its workflow in test/workflows. */
	file: string;
	kind: 'polling' | 'webhook';
	/**
	 * The list a polling alert's trigger reads (`/v1/cashouts`). Polling alerts on different lists
	 * run side by side; those on one list one after another, since the change one makes would be
	 * the other's event.
	 */
	watches?: string;
	/** Changes the copy imported into n8n (e.g. poll times). */
	prepare?: (workflow: WorkflowJson) => WorkflowJson;
	/** Runs before activation: records that must be part of the trigger's starting point. */
	beforeActivation?: (context: ScenarioContext) => Promise<void>;
	/**
	 * Resolves once the activated trigger is live: n8n 2.x activates asynchronously (the REST call
	 * returns before the trigger runs), so a polling trigger must have taken its starting point
	 * before the sandbox changes anything. A webhook scenario registers its URL with the sandbox here.
	 */
	afterActivation: (context: ScenarioContext) => Promise<string>;
	/** Makes the sandbox produce the event(s). */
	drive: (context: ScenarioContext) => Promise<void>;
	/** How many executions the event(s) must start, no more, no fewer. */
	expectedExecutions: number;
	/** How long the first execution may take to appear. */
	timeoutMs: number;
	/** Waits until n8n had every chance to start a superfluous execution. */
	settle: (context: ScenarioContext) => Promise<string>;
	/** Judges one execution (throws when wrong); lines to print. Defaults to the demo's check. */
	summarize?: (run: WorkflowRun, context: ScenarioContext) => string[];
}

/** How many polls n8n main logged for `workflowName` (`Poll trigger initiated for workflow "…"`). */
export function countPolls(mainLog: string, workflowName: string): number {
	const quoted = workflowName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return (
		mainLog.match(new RegExp(`Poll(?:ing)? trigger initiated for workflow "${quoted}"`, 'g')) ?? []
	).length;
}

/**
 * Moves the sandbox's cashout `id` to `to` through its admin API (as the service's back office
 * would), with the bank's rejection code and reason for REJECTED.
 */
async function advanceCashout(
	sandbox: Sandbox,
	id: unknown,
	to: 'DELIVERED' | 'REJECTED',
	rejection: { rejectionCode?: number; rejectionReason?: string } = {},
): Promise<void> {
	await sandboxAdmin(sandbox, `/cashouts/${String(id)}/advance`, { to, ...rejection });
}

/** Sends an admin request to the sandbox (`/_sandbox/...`), as a person driving it would. */
export async function sandboxAdmin(
	sandbox: Sandbox,
	route: string,
	body: IDataObject,
): Promise<IDataObject> {
	const response = await fetch(`${sandbox.baseUrl}/_sandbox${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as IDataObject;
	if (!response.ok)
		throw new Error(
			`POST /_sandbox${route} answered ${response.status}: ${JSON.stringify(answer)}`,
		);
	return answer;
}

/** The highest sequence number in the sandbox's request log (0 when empty). */
function lastSeq(sandbox: Sandbox): number {
	return sandbox.log.entries().at(-1)?.seq ?? 0;
}

/** How many polls of the context's workflow main has logged so far. */
function pollsLogged(context: ScenarioContext): number {
	const log = context.mainLog();
	return context.countPolls ? context.countPolls(log) : countPolls(log, context.workflow.name);
}

/** Where the workflow's polls and the sandbox's requests stand now. */
export function pollMark(context: ScenarioContext): PollMark {
	return { polls: pollsLogged(context), seq: lastSeq(context.sandbox) };
}

/**
 * Settling of a polling trigger: waits until main logged one more poll of the workflow than at
 * `since` (default: now) and the sandbox answered, after `since`, that poll's last (short) page of
 * `listPath`; then the poll is over and any execution it started exists.
 */
export async function settleOnePoll(
	context: ScenarioContext,
	listPath: string,
	what = 'after the alert',
	since: PollMark = pollMark(context),
): Promise<string> {
	const name = context.workflow.name;
	const { polls, seq: after } = since;
	await waitFor(
		`one more complete poll of "${name}"`,
		() => {
			if (pollsLogged(context) <= polls) return false;
			return context.sandbox.log.find('GET', listPath).some((entry) => {
				const page = entry.responseBody as { rows?: number; maxRows?: number } | undefined;
				return (
					entry.seq > after &&
					entry.status === 200 &&
					page?.rows !== undefined &&
					page.rows < (page.maxRows ?? 50)
				);
			});
		},
		{ timeoutMs: 150_000, intervalMs: 500 },
	);
	return `poll ${pollsLogged(context)} ${what} read ${listPath} to its end`;
}

/**
 * The trigger's starting point: the first complete poll after the activation began. n8n 1.x and
 * 2.35 poll inside the activation call, 2.41 just after it; counting from before the call, no
 * release waits for the poll after that one.
 */
export async function settleStartingPoint(
	context: ScenarioContext,
	listPath: string,
): Promise<string> {
	return await settleOnePoll(context, listPath, '(the starting point)', context.activation);
}

/** Settling of a trigger that cannot fire again by itself (a webhook answered once). */
export async function settleNothing(): Promise<string> {
	return 'nothing to wait for';
}

/** Every alert scenario the runs activate and drive. */
export const ALERT_SCENARIOS: AlertScenario[] = [
	{
		title: 'Rejected cashout alert (polling trigger)',
		file: 'alert-rejected-cashouts.json',
		kind: 'polling',
		watches: '/v1/cashouts',
		// n8n polls at most once a minute ("The polling interval is too short"), the export's setting.
		async beforeActivation({ sandbox, state }) {
			// Created before activation, PENDING: the trigger (asking for REJECTED cashouts only) must
			// report it once when it is rejected.
			const payout = addPayout(sandbox, 'payout-e2e', ['MX', 1500, 'MXN']);
			state.cashoutId = payout.idCashout;
		},
		async drive({ sandbox, state }) {
			await advanceCashout(sandbox, state.cashoutId, 'DELIVERED');
			// A code and no reason from the bank: the e-mail must not end the line with a dangling dash.
			await advanceCashout(sandbox, state.cashoutId, 'REJECTED', {
				rejectionCode: 801,
				rejectionReason: '',
			});
		},
		afterActivation: async (context) => await settleStartingPoint(context, '/v1/cashouts'),
		expectedExecutions: 1,
		timeoutMs: 150_000,
		settle: async (context) =>
			await settleOnePoll(context, '/v1/cashouts', 'after the alert (nothing repeated)'),
		summarize(run, context) {
			const demo = DEMOS.find((candidate) => candidate.file === 'alert-rejected-cashouts.json');
			const lines = demo?.summarize(run, demoContext(context.sandbox, context.mails)) ?? [];
			// The demo's first line tells its own polls; the e-mail lines are what this run shows too.
			return lines.map((line, index) =>
				index === 0 ? line.replace(/^.*?(alert sent to)/, '$1') : line,
			);
		},
	},
	{
		title: 'Rejected cashout alert (notification trigger)',
		file: 'alert-rejected-cashouts-webhook.json',
		kind: 'webhook',
		async afterActivation({ workflow, n8nUrl, sandbox, state }) {
			// The production URL of the trigger: /webhook/<webhookId>/<path> (n8n registers it
			// asynchronously after activation; it answers 404 until then).
			const trigger = workflow.nodes.find((node) =>
				node.type.endsWith('.paymentsServiceNotificationTrigger'),
			);
			if (!trigger?.webhookId)
				throw new Error(`"${workflow.name}" has no notification trigger with a webhookId`);
			const url = `${n8nUrl}/webhook/${trigger.webhookId}/webhook`;
			await waitFor(
				`the webhook ${url} to be registered`,
				async () => {
					// A body without an id: a live trigger answers 400 and starts nothing.
					const answer = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: '{}',
					});
					return answer.status === 400;
				},
				{ timeoutMs: 60_000, intervalMs: 500 },
			);
			const payout = addPayout(sandbox, 'payout-e2e-hook', ['CO', 90, 'USD'], {
				notificationUrl: url,
			});
			state.cashoutId = payout.idCashout;
			state.url = url;
			state.externalId = payout.externalId;
			return `the webhook answers at ${url.replace(n8nUrl, '')}; cashout ${payout.idCashout} notifies it`;
		},
		async drive({ sandbox, state }) {
			// Forged cashout notifications (no control, a control made with another secret) naming the
			// real cashout: refused 401 before any status read.
			const readsBefore = sandbox.log.find('POST', '/v3/cashout/status').length;
			const forgedControl = createHmac('sha256', 'not-the-cashout-secret')
				.update(`Be4${String(state.externalId)}Bo7`)
				.digest('hex')
				.toUpperCase();
			for (const control of ['', forgedControl]) {
				const form = new URLSearchParams({
					external_id: String(state.externalId),
					control,
					cashout_id: String(state.cashoutId),
				});
				const answer = await fetch(String(state.url), {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					body: form.toString(),
				});
				if (answer.status !== 401)
					throw new Error(`a forged cashout notification was answered ${answer.status}, not 401`);
			}
			const readsAfter = sandbox.log.find('POST', '/v3/cashout/status').length;
			if (readsAfter !== readsBefore)
				throw new Error(`forged notifications cost ${readsAfter - readsBefore} status reads`);
			// DELIVERED is notified, read and filtered out; REJECTED is notified twice (a duplicate).
			await advanceCashout(sandbox, state.cashoutId, 'DELIVERED');
			await sandbox.control.notifications.settle();
			sandbox.control.notifications.duplicate(1);
			await advanceCashout(sandbox, state.cashoutId, 'REJECTED', {
				rejectionCode: 801,
				rejectionReason: 'Beneficiary account closed',
			});
			await sandbox.control.notifications.settle();
		},
		expectedExecutions: 1,
		timeoutMs: 60_000,
		async settle({ sandbox, state }) {
			const notifications = sandbox.control.notifications
				.list()
				.filter((notification) => notification.recordId === state.cashoutId);
			const answers = notifications.map(
				(notification) =>
					`${notification.recordStatus} → ${notification.attempts.at(-1)?.status ?? 'none'}`,
			);
			if (
				notifications.length !== 3 ||
				notifications.some((notification) => notification.state !== 'delivered')
			) {
				throw new Error(
					`the service's notifications were not all answered 2xx: ${answers.join(', ')}`,
				);
			}
			return `3 notifications answered 2xx (${answers.join(', ')}); nothing else can start it`;
		},
		summarize(run, context) {
			const item = run.output('When a cashout is rejected')[0]?.json;
			if (item?.rejection_code_name !== 'ERROR_ACCOUNT_CLOSED')
				throw new Error('the trigger did not read the rejection code');
			const mail = lastMailTo(context.mails, 'payouts-team@acme-store.example');
			if (!mail || !/rejected \(ERROR_ACCOUNT_CLOSED\)$/.test(mail.subject))
				throw new Error('the alert e-mail was not received');
			return [`alert sent to ${mail.to.join(', ')}: ${mail.subject}`];
		},
	},
	{
		title: 'New chargeback alert (polling trigger)',
		file: 'alert-new-chargebacks.json',
		kind: 'polling',
		watches: '/v1/chargeback',
		// Every minute, as the export polls (n8n's shortest interval): the starting point, the poll
		// that reports the chargeback, and one more that must report nothing.
		afterActivation: async (context) =>
			await settleOnePoll(context, '/v1/chargeback', '(the starting point)'),
		async drive({ sandbox, state }) {
			// After the starting point, the service opens a chargeback on a completed deposit.
			const deposit = sandbox.control
				.deposits(1001)
				.find((candidate) => candidate.status === 'COMPLETED' && candidate.country === 'BR');
			if (!deposit) throw new Error('the sandbox has no completed Brazilian deposit');
			const chargeback = sandbox.control.addChargeback({
				idMerchant: 1001,
				idDeposit: deposit.idDeposit,
			});
			state.chargebackId = chargeback.idChargeback;
		},
		expectedExecutions: 1,
		timeoutMs: 150_000,
		settle: async (context) =>
			await settleOnePoll(context, '/v1/chargeback', 'after the alert (nothing repeated)'),
		summarize(run, context) {
			const reported = run
				.output('When a chargeback arrives')
				.map((item) => item.json.idChargeback);
			if (reported.length !== 1 || reported[0] !== context.state.chargebackId)
				throw new Error(
					`the execution reported chargebacks [${reported.join(', ')}], not ${String(context.state.chargebackId)}`,
				);
			const demo = DEMOS.find((candidate) => candidate.file === 'alert-new-chargebacks.json');
			return demo?.summarize(run, demoContext(context.sandbox, context.mails)) ?? [];
		},
	},
	{
		title: 'Re-issue a rejected payout (polling trigger, cashout creation)',
		file: 'reissue-rejected-payout.json',
		kind: 'polling',
		watches: '/v1/cashouts',
		async beforeActivation({ sandbox, state }) {
			const payout = addPayout(sandbox, 'payout-e2e-reissue', ['BR', 320, 'BRL'], {
				clientDocument: '52998224725',
			});
			state.cashoutId = payout.idCashout;
			state.externalId = payout.externalId;
		},
		afterActivation: async (context) => await settleStartingPoint(context, '/v1/cashouts'),
		async drive({ sandbox, state }) {
			await advanceCashout(sandbox, state.cashoutId, 'DELIVERED');
			await advanceCashout(sandbox, state.cashoutId, 'REJECTED', {
				rejectionCode: 800,
				rejectionReason: 'Invalid bank account',
			});
		},
		expectedExecutions: 1,
		timeoutMs: 150_000,
		settle: async (context) =>
			await settleOnePoll(context, '/v1/cashouts', 'after the re-issue (nothing repeated)'),
		summarize(run, { sandbox, state }) {
			const reissued = run.output('Re-issue payout')[0]?.json;
			const externalId = `${String(state.externalId)}-R1`;
			if (reissued?.already_created !== false || reissued.external_id !== externalId)
				throw new Error(`no new payout ${externalId}`);
			const created = sandbox.control
				.createdCashouts()
				.filter((entry) => entry.request.external_id === externalId);
			if (created.length !== 1)
				throw new Error(`the re-issued payout is ${created.length} cashouts`);
			return [
				`rejected payout re-issued once as cashout ${String(reissued.cashout_id)} (${externalId}, ${String(reissued.cashout_status_name)})`,
			];
		},
	},
];
