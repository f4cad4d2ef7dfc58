/**
 * Running an alert scenario (scenarios.ts) in a real n8n: activate its workflow, drive the sandbox,
 * and require exactly the executions it must start, each judged like the demo judges it.
 */
import { toWorkflowRun } from './execution';
import { waitFor } from './processes';
import type { ExecutionSummary } from './rest';
import { pollMark, type AlertScenario, type ScenarioContext } from './scenarios';
import { EXECUTION_TIMEOUT_MS, finishedExecutions, need, type RunState } from './state';
import { demoContext } from './stubs';

/**
 * What runs while the scenario's trigger is live, after it took its starting point and before the
 * sandbox produces the event (the package updated, for example); resolves what it showed.
 */
export type WhileLive = (context: ScenarioContext) => Promise<string>;

/** The context a scenario with the imported `workflow` works in. */
export function scenarioContext(
	state: RunState,
	workflow: ScenarioContext['workflow'],
): ScenarioContext {
	return {
		client: need(state.client, 'the REST client'),
		sandbox: need(state.sandbox, 'the sandbox'),
		mails: need(state.smtp, 'the SMTP sink').mails,
		n8nUrl: need(state.main, 'n8n main').url,
		// Read at each call: a restart of main (restart.ts, clock.ts) replaces its process.
		mainLog: () => need(state.main, 'n8n main').process.log(),
		workflow,
		state: {},
	};
}

/**
 * Activates the scenario's workflow, drives the sandbox, waits for the first execution and lets
 * n8n settle; resolves every execution of the workflow once all have finished, and what was seen.
 */
async function activateAndDrive(
	scenario: AlertScenario,
	context: ScenarioContext,
	whileLive?: WhileLive,
): Promise<{ executions: ExecutionSummary[]; seen: string }> {
	const { client, workflow } = context;
	await scenario.beforeActivation?.(context);
	const activatedAt = Date.now();
	context.activation = pollMark(context);
	await client.activate(workflow);
	try {
		const live = await scenario.afterActivation(context);
		const meanwhile = whileLive ? await whileLive(context) : undefined;
		await scenario.drive(context);
		await waitFor(
			`"${workflow.name}" to start an execution`,
			async () => (await client.executions(workflow.id)).length > 0,
			{
				timeoutMs: scenario.timeoutMs,
				intervalMs: 1000,
			},
		);
		const firstSeconds = Math.round((Date.now() - activatedAt) / 1000);
		const settled = await scenario.settle(context);
		const executions = await finishedExecutions(
			client,
			workflow.id,
			`the executions of "${workflow.name}" to finish`,
		);
		return {
			executions,
			seen:
				meanwhile === undefined
					? `first execution ${firstSeconds}s after activation; ${live}; ${settled}`
					: `${live}\n${meanwhile}\nfirst execution ${firstSeconds}s after activation; ${settled}`,
		};
	} finally {
		await client.deactivate(workflow);
	}
}

/** Activates an alert workflow, drives the sandbox, and requires exactly the expected executions. */
export async function alertStep(
	state: RunState,
	scenario: AlertScenario,
	whileLive?: WhileLive,
): Promise<string> {
	const context = scenarioContext(
		state,
		need(state.workflows.get(scenario.file), `the imported ${scenario.file}`),
	);
	const { executions, seen } = await activateAndDrive(scenario, context, whileLive);
	const listed = executions
		.map((execution) => `${execution.id} ${execution.mode} ${execution.status}`)
		.join(', ');
	if (executions.length !== scenario.expectedExecutions) {
		throw new Error(
			`expected ${scenario.expectedExecutions} execution(s) of "${context.workflow.name}", n8n has ${executions.length}: ${listed}`,
		);
	}
	const demo = state.catalogue.find((entry) => entry.file === scenario.file)?.demo;
	const lines = [`executions: ${listed}; ${seen}`];
	for (const summary of executions) {
		if (summary.status !== 'success')
			throw new Error(`execution ${summary.id} ended "${summary.status}"`);
		const run = await toWorkflowRun(
			context.client,
			await context.client.waitForExecution(summary.id, EXECUTION_TIMEOUT_MS),
		);
		lines.push(
			...(scenario.summarize
				? scenario.summarize(run, context)
				: (demo?.summarize(run, demoContext(context.sandbox, context.mails)) ?? [])),
		);
	}
	state.alertExecutions.push(...executions.map((execution) => execution.id));
	return lines.join('\n');
}
