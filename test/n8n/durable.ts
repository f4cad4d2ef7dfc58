/**
 * The polling trigger under n8n's durable poll scheduler (n8n 2.41 and later, regular mode). n8n
 * main is restarted with the scheduler on for poll triggers and with durable poll cursors
 * ({@link DURABLE_POLL_ENV}): polls are then occurrences of a job in n8n's database, run by its
 * poll-trigger task handler with a poll budget (about 36 s) and a 45 s timeout, and every successful
 * poll commits the trigger's state to the `poller_state` table, an emitting one in the same
 * transaction as the execution it starts (docs/polling-trigger.md, "Under n8n's saving rule").
 *
 * The rejected-cashout alert (Count New Records as Changes off) is activated with a PENDING cashout;
 * once the scheduler's first poll has taken the starting point, the cashout is rejected: exactly one
 * execution must report it. A second cashout, created next, is seen PENDING by a poll that emits
 * nothing; main is restarted (flags still on) and the cashout rejected meanwhile: exactly one more
 * execution must report it, and nothing is repeated at the next poll. The step also requires what
 * only that scheduler does: its handler's log line after each poll, its task rows in the database,
 * a cursor committed by a poll that emitted nothing, and n8n-core's own poll line only at activation,
 * so it cannot pass under n8n's default scheduler. Last, the workflow is deactivated and main
 * restarted without the flags.
 */
import { execFile } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import path from 'path';
import { promisify } from 'util';

import { mapCredentials } from './catalogue';
import type { N8nInstall } from './install';
import { waitFor } from './processes';
import {
	rejectCashout,
	requireRejectionReported,
	restartMain,
	restartWorkflow,
	TRIGGER,
} from './restart';
import {
	countPolls,
	pollMark,
	settleOnePoll,
	settleStartingPoint,
	type ScenarioContext,
} from './scenarios';
import { finishedExecutions, need, type RunState } from './state';

/**
 * n8n's durable poll scheduler and durable poll cursors (`@n8n/config`, `SchedulerConfig`): the
 * scheduler, its use for poll triggers, and the cursors. All three are off by default in 2.41; the
 * scheduler also needs the workflow publication service (`N8N_USE_WORKFLOW_PUBLICATION_SERVICE`),
 * on by default.
 */
export const DURABLE_POLL_ENV: NodeJS.ProcessEnv = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/** The first n8n release whose scheduler polls poll triggers with durable cursors. */
export const DURABLE_POLL_SINCE = [2, 41];

/** The workflow's name in n8n (its own, so other steps' polls are not counted). */
const WORKFLOW_NAME = 'Rejected cashout alert under the durable poll scheduler';

/** The task type of a poll-trigger job in `scheduled_job` (poll-trigger-task.js). */
const POLL_TASK_TYPE = 'workflow:poll-trigger';

/** The key of the trigger's state in its node's static data (trigger/poll/handler.ts). */
const STATE_KEY = 'paymentsServiceTrigger';

/**
 * What n8n logs when a flag cannot take effect (poll-job-provider.js, poll-cursor.service.js): the
 * polls would then silently run under the default scheduler, or without durable cursors.
 */
const FLAG_REFUSED = [
	'The durable scheduler cannot take over poll triggers',
	'durable poll cursors stay disabled',
];

/** Whether `version` (`major.minor.patch`) has the durable poll scheduler ({@link DURABLE_POLL_SINCE}). */
export function hasDurablePollScheduler(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return (
		major > DURABLE_POLL_SINCE[0] ||
		(major === DURABLE_POLL_SINCE[0] && minor >= DURABLE_POLL_SINCE[1])
	);
}

/**
 * How many polls of workflow `workflowId` n8n's poll-trigger task handler logged in `mainLog`: it
 * logs one of two debug lines once a poll returned (`Poll returned new data; handed off to a new
 * execution`, `Poll returned no new data; nothing to hand off`), with the workflow's id in the
 * metadata. n8n's default scheduler never logs them.
 */
export function countSchedulerPolls(mainLog: string, workflowId: string): number {
	const id = workflowId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return (
		mainLog.match(new RegExp(`Poll returned (?:no )?new data[^\\n]*"workflowId": ?"${id}"`, 'g')) ??
		[]
	).length;
}

/** Throws unless the installed n8n's scheduler settings name the three variables of {@link DURABLE_POLL_ENV}. */
function requireDurableFlags(install: N8nInstall): void {
	const config = path.join(
		path.dirname(install.bin),
		'..',
		'..',
		'@n8n',
		'config',
		'dist',
		'configs',
		'scheduler.config.js',
	);
	const text = existsSync(config) ? readFileSync(config, 'utf8') : '';
	const missing = Object.keys(DURABLE_POLL_ENV).filter((name) => !text.includes(`'${name}'`));
	if (missing.length > 0)
		throw new Error(`n8n ${install.version} does not know ${missing.join(', ')} (${config})`);
}

/**
 * Runs one read-only query on n8n's SQLite database with n8n's own Node.js (its `node:sqlite`;
 * the Node.js of the tests may lack it); resolves the rows.
 */
async function queryDatabase(
	state: RunState,
	sql: string,
	params: string[] = [],
): Promise<Array<Record<string, unknown>>> {
	const file = path.join(need(state.main, 'n8n main').userFolder, '.n8n', 'database.sqlite');
	const script = [
		"const { DatabaseSync } = require('node:sqlite');",
		'const [file, sql, ...params] = process.argv.slice(1);',
		'const db = new DatabaseSync(file, { readOnly: true, timeout: 10000 });',
		'process.stdout.write(JSON.stringify(db.prepare(sql).all(...params)));',
	].join('\n');
	const { stdout } = await promisify(execFile)(
		need(state.install, 'n8n').node.bin,
		['--no-warnings', '-e', script, file, sql, ...params],
		{ timeout: 30_000 },
	);
	return JSON.parse(stdout) as Array<Record<string, unknown>>;
}

/** The durable poll cursor of one trigger node (`poller_state`), as stored. */
interface PollerState {
	cursor: string;
	updatedAt: string;
	consecutiveErrors: number;
	backoffUntil: string | null;
}

/** The `poller_state` row of the workflow's trigger node, undefined when there is none. */
async function pollerState(
	state: RunState,
	workflowId: string,
	nodeId: string,
): Promise<PollerState | undefined> {
	const rows = await queryDatabase(
		state,
		'SELECT cursor, updatedAt, consecutiveErrors, backoffUntil FROM poller_state WHERE workflowId = ? AND nodeId = ?',
		[workflowId, nodeId],
	);
	return rows[0] as unknown as PollerState | undefined;
}

/** The workflow's poll-trigger jobs (`scheduled_job`) and how many of their tasks ended in each status. */
async function schedulerRecord(
	state: RunState,
	workflowId: string,
): Promise<{ crons: string[]; tasks: Record<string, number> }> {
	const jobs = await queryDatabase(
		state,
		"SELECT id, cronExpression FROM scheduled_job WHERE ownerType = 'workflow' AND ownerId = ? AND taskType = ?",
		[workflowId, POLL_TASK_TYPE],
	);
	const tasks: Record<string, number> = {};
	for (const job of jobs) {
		const rows = await queryDatabase(
			state,
			'SELECT status, COUNT(*) AS count FROM scheduled_task WHERE jobId = ? GROUP BY status',
			[String(job.id)],
		);
		for (const row of rows)
			tasks[String(row.status)] = (tasks[String(row.status)] ?? 0) + Number(row.count);
	}
	return { crons: jobs.map((job) => String(job.cronExpression)), tasks };
}

/** What n8n's durable scheduler logs once started (durable-scheduler.js); it is off by default. */
const SCHEDULER_STARTED = 'Scheduler started';

/**
 * Throws when main's log since `from` (a length of it) says a durable poll flag did not take
 * effect, or lacks the line of the durable scheduler's start.
 */
function requireFlagsTookEffect(log: string, from: number): void {
	const since = log.slice(from);
	const refused = FLAG_REFUSED.find((line) => since.includes(line));
	if (refused) throw new Error(`n8n did not take the durable poll flags: it logged "${refused}…"`);
	if (!since.includes(SCHEDULER_STARTED))
		throw new Error(`n8n main did not log "${SCHEDULER_STARTED}" with the durable poll flags`);
}

/**
 * Restarts main with the durable poll flags, activates the rejected-cashout alert and requires one
 * execution per rejection, across a restart, through n8n's durable poll scheduler (see the module's
 * docstring); then deactivates the workflow and restarts main without the flags. Resolves the lines
 * of the step's detail.
 * @throws when n8n lacks the flags or refuses them, when a rejection is reported other than once,
 *   or when the polls did not run through the durable scheduler.
 */
export async function durablePollStep(state: RunState): Promise<string> {
	const install = need(state.install, 'n8n');
	requireDurableFlags(install);
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const mainLog = () => need(state.main, 'n8n main').process.log();
	const lines: string[] = [];
	let restored = false;
	try {
		const logFrom = mainLog().length;
		const up = await restartMain(state, () => undefined, DURABLE_POLL_ENV);
		requireFlagsTookEffect(mainLog(), logFrom);
		lines.push(`n8n main restarted with ${Object.keys(DURABLE_POLL_ENV).join(', ')} in ${up}s`);
		const stored = { ...mapCredentials(restartWorkflow(WORKFLOW_NAME), state.credentialIds) };
		const workflow = { ...stored, ...(await client.createWorkflow(stored)) };
		const nodeId = need(
			workflow.nodes.find((node) => node.name === TRIGGER)?.id,
			`the id of "${TRIGGER}"`,
		);
		const context: ScenarioContext = {
			client,
			sandbox,
			mails: need(state.smtp, 'the SMTP sink').mails,
			n8nUrl: need(state.main, 'n8n main').url,
			mainLog,
			workflow,
			state: {},
			countPolls: (log) => countSchedulerPolls(log, workflow.id),
		};
		const corePolls = () => countPolls(mainLog(), workflow.name);
		const first = sandbox.control.addCashout({
			idMerchant: 1001,
			externalId: `payout-e2e-durable-1-${Date.now()}`,
			country: 'MX',
			amount: 710,
			currency: 'MXN',
		});
		context.activation = pollMark(context);
		await client.activate(workflow);
		try {
			// n8n 2.41.1 also polls at activation (n8n-core's line, counted apart), as a test poll whose
			// state it never commits (activatePollTrigger → executePollTrigger(true): the staged cursor
			// is dropped; poller_state stays {} until the scheduler's first poll, seen in a run). The
			// trigger's starting point is therefore the scheduler's first poll.
			const start = await settleStartingPoint(context, '/v1/cashouts');
			if ((await client.executions(workflow.id)).length !== 0)
				throw new Error('the starting point started an execution');
			lines.push(`starting point: ${start}`);

			rejectCashout(sandbox, first.idCashout);
			await waitFor(
				`"${workflow.name}" to start an execution`,
				async () => (await client.executions(workflow.id)).length > 0,
				{ timeoutMs: 150_000, intervalMs: 1000 },
			);
			const [firstExecution] = await finishedExecutions(client, workflow.id);
			await requireRejectionReported(client, firstExecution, first.idCashout);
			const emitted = need(await pollerState(state, workflow.id, nodeId), 'the poller_state row');

			// Created now, seen PENDING by the next poll, which emits nothing and must commit its state.
			const second = sandbox.control.addCashout({
				idMerchant: 1001,
				externalId: `payout-e2e-durable-2-${Date.now()}`,
				country: 'MX',
				amount: 720,
				currency: 'MXN',
			});
			const quiet = await settleOnePoll(
				context,
				'/v1/cashouts',
				`after it (nothing repeated; cashout ${second.idCashout} seen PENDING)`,
			);
			const executions = await finishedExecutions(client, workflow.id);
			if (executions.length !== 1)
				throw new Error(
					`expected 1 execution after the first rejection, n8n has ${executions.length}`,
				);
			const committed = need(await pollerState(state, workflow.id, nodeId), 'the poller_state row');
			if (committed.cursor === emitted.cursor || committed.updatedAt === emitted.updatedAt)
				throw new Error(
					`the poll that emitted nothing did not commit the trigger's state (poller_state updated ${emitted.updatedAt}, still ${committed.updatedAt})`,
				);
			lines.push(
				`cashout ${first.idCashout} PENDING → REJECTED: execution ${firstExecution.id} reported it once; ${quiet}; that poll committed the cursor without an execution (poller_state updated ${emitted.updatedAt} → ${committed.updatedAt})`,
			);

			// The second cashout is rejected while n8n is down.
			const down = await restartMain(
				state,
				() => rejectCashout(sandbox, second.idCashout),
				DURABLE_POLL_ENV,
			);
			await waitFor(
				`"${workflow.name}" to start a second execution after the restart`,
				async () => (await client.executions(workflow.id)).length > 1,
				{ timeoutMs: 150_000, intervalMs: 1000 },
			);
			const after = await settleOnePoll(
				context,
				'/v1/cashouts',
				'after the alert (nothing repeated)',
			);
			const all = await finishedExecutions(client, workflow.id);
			if (all.length !== 2 || all.some((execution) => execution.status !== 'success'))
				throw new Error(
					`expected 2 successful executions, n8n has ${all.map((execution) => `${execution.id} ${execution.status}`).join(', ')}`,
				);
			await requireRejectionReported(client, all[0], second.idCashout);
			lines.push(
				`n8n stopped, cashout ${second.idCashout} PENDING → REJECTED meanwhile, n8n back in ${down}s (flags on): execution ${all[0].id} reported it once; ${after}`,
			);

			// What only the durable scheduler does.
			const polls = countSchedulerPolls(mainLog(), workflow.id);
			const initiated = corePolls();
			const record = await schedulerRecord(state, workflow.id);
			const cursor = need(await pollerState(state, workflow.id, nodeId), 'the poller_state row');
			const succeeded = record.tasks.succeeded ?? 0;
			if (initiated !== 1)
				throw new Error(
					`n8n-core logged "Poll trigger initiated" ${initiated}× for "${workflow.name}", expected once (the activation poll): polls ran outside the durable scheduler`,
				);
			if (polls < 4 || succeeded < polls)
				throw new Error(
					`the durable scheduler logged ${polls} polls and holds ${succeeded} succeeded tasks (${JSON.stringify(record.tasks)}), expected at least 4 and as many tasks as polls`,
				);
			if (!cursor.cursor.includes(`"${STATE_KEY}"`) || Number(cursor.consecutiveErrors) !== 0)
				throw new Error(
					`poller_state holds ${cursor.cursor.length} characters without the trigger's state, or ${cursor.consecutiveErrors} consecutive errors`,
				);
			lines.push(
				`durable scheduler: job cron "${record.crons.join('", "')}", ${polls} polls logged by its task handler, tasks ${JSON.stringify(record.tasks)}; n8n-core's poll line once (activation); poller_state cursor ${cursor.cursor.length} characters with the trigger's state, ${cursor.consecutiveErrors} consecutive errors`,
			);
		} finally {
			await client.deactivate(workflow);
		}
		const plain = await restartMain(state, () => undefined);
		restored = true;
		lines.push(`workflow deactivated; n8n main restarted without the flags in ${plain}s`);
		return lines.join('\n');
	} catch (error) {
		// Later steps run under n8n's default scheduler; the step fails with its own error.
		if (!restored) await restartMain(state, () => undefined).catch(() => undefined);
		throw error;
	}
}
