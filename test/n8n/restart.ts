/**
 * The polling trigger across a restart of n8n (regular mode): n8n 2.x saves a poll's static data
 * only when the poll emits (and once at activation), so what the trigger knows at a restart is what
 * the last emitting poll or the activation saved. The step rejects a cashout while n8n is down, with
 * Count New Records as Changes off, and requires the rejection to be reported exactly once after n8n is
 * back (docs/polling-trigger.md, "Guarantees": before issue 15 it was lost).
 */
import { readFileSync } from 'fs';
import path from 'path';

import type { WorkflowJson } from '../harness/engine';
import type { Sandbox } from '../sandbox';
import { mapCredentials } from './catalogue';
import { toWorkflowRun } from './execution';
import { startMain } from './n8n-server';
import { waitFor } from './processes';
import type { ExecutionSummary, N8nClient } from './rest';
import { pollMark, settleOnePoll, settleStartingPoint, type ScenarioContext } from './scenarios';
import { EXECUTION_TIMEOUT_MS, finishedExecutions, need, type RunState } from './state';
import { inTurn } from './turns';

const WORKFLOW_FILE = path.join(__dirname, '..', 'workflows', 'alert-rejected-cashouts.json');
/** The name of the polling trigger in test/workflows/alert-rejected-cashouts.json. */
export const TRIGGER = 'When a cashout is rejected';

/** The rejected-cashout alert with Count New Records as Changes off, under the name `name`. */
export function restartWorkflow(name = 'Rejected cashout alert across a restart'): WorkflowJson {
	const workflow = JSON.parse(readFileSync(WORKFLOW_FILE, 'utf8')) as WorkflowJson;
	const nodes = workflow.nodes.map((node) =>
		node.name === TRIGGER
			? { ...node, parameters: { ...node.parameters, options: { includeFirstSightings: false } } }
			: node,
	);
	return { ...workflow, name, nodes };
}

/**
 * Moves a cashout PENDING → DELIVERED → REJECTED (801, "Beneficiary account closed") in the
 * sandbox, its clock first moved on (never past n8n's clock): the sandbox's clock stands still
 * between moves, and a real rejection is dated after the creation.
 */
export function rejectCashout(sandbox: Sandbox, idCashout: number): void {
	sandbox.clock.set(
		Math.max(sandbox.clock.now() + 1000, Math.floor(Date.now() / 1000) * 1000 - 1000),
	);
	sandbox.control.advanceCashout(idCashout, 'DELIVERED');
	sandbox.control.advanceCashout(idCashout, 'REJECTED', {
		code: 801,
		reason: 'Beneficiary account closed',
	});
}

/**
 * Requires that the execution succeeded and that its trigger emitted exactly one item: cashout
 * `idCashout` REJECTED. @throws naming what it reported instead.
 */
export async function requireRejectionReported(
	client: N8nClient,
	execution: ExecutionSummary,
	idCashout: number,
): Promise<void> {
	if (execution.status !== 'success')
		throw new Error(`execution ${execution.id} ended "${execution.status}"`);
	const run = await toWorkflowRun(
		client,
		await client.waitForExecution(execution.id, EXECUTION_TIMEOUT_MS),
	);
	const items = run.output(TRIGGER).map((item) => item.json);
	if (items.length !== 1 || items[0].idCashout !== idCashout || items[0].status !== 'REJECTED') {
		throw new Error(
			`execution ${execution.id} reported ${JSON.stringify(items.map((item) => [item.idCashout, item.status]))}, expected cashout ${idCashout} REJECTED`,
		);
	}
}

/**
 * What n8n main prints once it has activated the workflows stored as active, at startup (every
 * release checked: `start` prints it after the active workflow manager's init).
 */
const STARTUP_DONE = 'Editor is now accessible via';

/**
 * Stops n8n main, runs `whileDown`, and starts main again on the same port, user folder, database
 * and key (plus `extraEnv`); resolves, once n8n has activated its stored active workflows, the
 * seconds n8n was down.
 */
export async function restartMain(
	state: RunState,
	whileDown: () => void,
	extraEnv: NodeJS.ProcessEnv = {},
): Promise<number> {
	const main = need(state.main, 'n8n main');
	const started = Date.now();
	const startups = () => main.process.log().split(STARTUP_DONE).length - 1;
	const before = startups();
	await main.process.stop();
	whileDown();
	const port = Number(new URL(main.url).port);
	// Starting loads the CPU: in the start turn (turns.ts), as the first start.
	state.main = await inTurn(
		'Restart n8n',
		async () =>
			await startMain(
				need(state.install, 'n8n'),
				{ ...need(state.mainEnv, "main's environment"), ...extraEnv },
				state.logDir,
				'debug',
				port,
			),
		['start'],
	);
	// n8n activates the workflows stored as active after it starts answering HTTP. A workflow
	// activated over REST before that ends is activated twice (seen on 1.123.81): two pollers, each
	// with its own copy of the trigger's state. Wait for the startup activation to finish.
	await waitFor('n8n to finish activating the stored workflows', () => startups() > before, {
		timeoutMs: 60_000,
		intervalMs: 200,
	});
	await need(state.client, 'the REST client').login();
	return Math.round((Date.now() - started) / 1000);
}

/**
 * Activates the workflow with a PENDING cashout known, waits for the starting point, stops n8n,
 * rejects the cashout, starts n8n, and requires exactly one execution reporting that cashout
 * REJECTED (and none after one more poll).
 */
export async function pollRestartStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const stored = { ...mapCredentials(restartWorkflow(), state.credentialIds) };
	const workflow = { ...stored, ...(await client.createWorkflow(stored)) };
	const context: ScenarioContext = {
		client,
		sandbox,
		mails: need(state.smtp, 'the SMTP sink').mails,
		n8nUrl: need(state.main, 'n8n main').url,
		mainLog: () => need(state.main, 'n8n main').process.log(),
		workflow,
		state: {},
	};
	const payout = sandbox.control.addCashout({
		idMerchant: 1001,
		externalId: `payout-e2e-restart-${Date.now()}`,
		country: 'MX',
		amount: 700,
		currency: 'MXN',
	});
	context.activation = pollMark(context);
	await client.activate(workflow);
	try {
		const start = await settleStartingPoint(context, '/v1/cashouts');
		const before = (await client.executions(workflow.id)).length;
		if (before !== 0) throw new Error(`the starting point started ${before} execution(s)`);
		// The cashout is rejected while n8n is down.
		const seconds = await restartMain(state, () => rejectCashout(sandbox, payout.idCashout));
		await waitFor(
			`"${workflow.name}" to start an execution after the restart`,
			async () => (await client.executions(workflow.id)).length > 0,
			{
				timeoutMs: 150_000,
				intervalMs: 1000,
			},
		);
		const after = await settleOnePoll(
			context,
			'/v1/cashouts',
			'after the alert (nothing repeated)',
		);
		const executions = await finishedExecutions(client, workflow.id);
		if (executions.length !== 1 || executions[0].status !== 'success') {
			throw new Error(
				`expected 1 successful execution after the restart, n8n has ${executions.map((execution) => `${execution.id} ${execution.status}`).join(', ') || 'none'}`,
			);
		}
		await requireRejectionReported(client, executions[0], payout.idCashout);
		return `${start}; n8n stopped, cashout ${payout.idCashout} PENDING → REJECTED meanwhile, n8n back in ${seconds}s; execution ${executions[0].id} reported it once; ${after}`;
	} finally {
		await client.deactivate(workflow);
	}
}
