/**
 * The state of one end-to-end run, shared by its steps, and the helpers they share.
 */
import type { startSmtpSink } from '../demo/smtp-sink';
import type { WorkflowJson, WorkflowRun } from '../harness/engine';
import type { Sandbox } from '../sandbox';
import type { AddCashoutInput, CashoutRecord } from '../sandbox/types';
import type { CatalogueEntry } from './catalogue';
import { toWorkflowRun } from './execution';
import type { N8nInstall } from './install';
import type { N8nProcess, QueueBackends } from './n8n-server';
import type { E2eOptions } from './options';
import type { LocalRegistry } from './registry';
import { waitFor } from './processes';
import { isFinished, type ExecutionSummary, type N8nClient, type StoredWorkflow } from './rest';

/** How long one manual execution may take. */
export const EXECUTION_TIMEOUT_MS = 120_000;

/** Everything one run starts and learns, for the steps that follow. */
export interface RunState {
	options: E2eOptions;
	runDir: string;
	logDir: string;
	install?: N8nInstall;
	tarball?: string;
	/**
	 * Regular mode: the npm registry n8n's installer downloads the package from (registry.ts).
	 * Without one (queue mode, the editor run), each n8n process gets the package by hand.
	 */
	registry?: LocalRegistry;
	/** The same build as `tarball` with a higher version, published for the update. */
	updateTarball?: string;
	sandbox?: Sandbox;
	smtp?: Awaited<ReturnType<typeof startSmtpSink>>;
	backends?: QueueBackends;
	main?: N8nProcess;
	/** The environment main was started with (to restart the same n8n). */
	mainEnv?: NodeJS.ProcessEnv;
	workers: N8nProcess[];
	/** Queue mode: the `n8n webhook` processes (production webhooks; main serves them too). */
	webhooks: N8nProcess[];
	client?: N8nClient;
	/** Created credential ids by the ids the exported workflows use. */
	credentialIds: Map<string, string>;
	/** Imported workflows by file name. */
	workflows: Map<string, StoredWorkflow & WorkflowJson>;
	catalogue: CatalogueEntry[];
	/** Ids of the executions the alert scenarios started. */
	alertExecutions: string[];
}

/** Throws unless `value` is set: a step used something an earlier step should have made. */
export function need<T>(value: T | undefined, what: string): T {
	if (value === undefined)
		throw new Error(`${what} is not available (an earlier step did not make it)`);
	return value;
}

/** The catalogue entry of the example workflow `file` (test/workflows). */
export function catalogueEntry(state: RunState, file: string): CatalogueEntry {
	return need(
		state.catalogue.find((candidate) => candidate.file === file),
		file,
	);
}

/**
 * Adds a PENDING payout of MID 1001 to the sandbox: `amount` in `currency` to `country`, its
 * external ID `<label>-<now in ms>` (unique per run), with `extra` fields; returns the record.
 */
export function addPayout(
	sandbox: Sandbox,
	label: string,
	[country, amount, currency]: [string, number, string],
	extra: Partial<AddCashoutInput> = {},
): CashoutRecord {
	const externalId = `${label}-${Date.now()}`;
	return sandbox.control.addCashout({
		idMerchant: 1001,
		externalId,
		country,
		amount,
		currency,
		...extra,
	});
}

/**
 * The executions of the workflow `workflowId` once every one has finished (asked every 500 ms).
 * @throws when one is still running after {@link EXECUTION_TIMEOUT_MS}; `what` names the wait.
 */
export async function finishedExecutions(
	client: N8nClient,
	workflowId: string,
	what = 'the executions to finish',
): Promise<ExecutionSummary[]> {
	return await waitFor(
		what,
		async () => {
			const list = await client.executions(workflowId);
			return list.every(isFinished) && list;
		},
		{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 500 },
	);
}

/** Number of session logins the sandbox received. */
export function logins(sandbox: Sandbox): number {
	return sandbox.log.find('POST', '/v1/auth/login').length;
}

/** Runs a manual workflow once through n8n and reads the execution back. */
export async function runOnce(state: RunState, file: string): Promise<WorkflowRun> {
	const client = need(state.client, 'the REST client');
	const workflow = need(state.workflows.get(file), `the imported ${file}`);
	const entry = catalogueEntry(state, file);
	const executionId = await client.runManually(
		workflow,
		need(entry.manualTrigger, `the manual trigger of ${file}`),
	);
	const execution = await client.waitForExecution(executionId, EXECUTION_TIMEOUT_MS);
	const run = await toWorkflowRun(client, execution);
	if (execution.status !== 'success')
		throw new Error(
			`execution ${executionId} ended "${execution.status}": ${run.error?.message ?? 'no error message'}`,
		);
	return run;
}

/** The first manual workflow that uses the session credential (for the login checks). */
export function sessionWorkflow(state: RunState): string {
	const entry = state.catalogue.find(
		(candidate) =>
			candidate.manualTrigger &&
			candidate.workflow.nodes.some((node) => node.credentials?.paymentsServiceSessionApi),
	);
	return need(entry, 'a manual workflow using the session credential').file;
}
