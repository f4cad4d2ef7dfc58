/**
 * Checks of queue mode: which process ran what (n8n workers log `Worker started execution <id>
 * (job <n>)`, main logs each poll of a trigger at debug level), that the session token stored in
 * the credential serves every worker, and that nothing ran twice.
 */
import type { Steps } from './report';
import { countPolls } from './scenarios';
import { logins, need, runOnce, sessionWorkflow, type RunState } from './state';

/** Execution ids a worker's log says it started. */
export function startedExecutions(log: string): string[] {
	return [...log.matchAll(/Worker started execution (\S+) \(job/g)].map((match) => match[1]);
}

/** The worker (by name) that started each execution id, from the workers' logs. */
function workerOf(state: RunState): Map<string, string[]> {
	const byExecution = new Map<string, string[]>();
	for (const worker of state.workers) {
		for (const id of startedExecutions(worker.process.log()))
			byExecution.set(id, [...(byExecution.get(id) ?? []), worker.process.name]);
	}
	return byExecution;
}

/**
 * Runs the session workflow `2 × workers` times at once (each worker takes one job at a time, so
 * every worker gets some) and requires: every worker ran some, no new login (the token the
 * credential stores serves every worker).
 */
async function concurrentRound(state: RunState): Promise<string> {
	const sandbox = need(state.sandbox, 'the sandbox');
	const file = sessionWorkflow(state);
	const before = logins(sandbox);
	const runs = await Promise.all(
		Array.from({ length: state.workers.length * 2 }, async () => await runOnce(state, file)),
	);
	const owners = workerOf(state);
	const tally = new Map<string, number>(state.workers.map((worker) => [worker.process.name, 0]));
	for (const run of runs) {
		const ran = owners.get(run.executionId) ?? [];
		if (ran.length !== 1)
			throw new Error(
				`execution ${run.executionId} was started by ${ran.length} workers (${ran.join(', ') || 'none'}), expected exactly one`,
			);
		tally.set(ran[0], (tally.get(ran[0]) ?? 0) + 1);
	}
	const idle = [...tally].filter(([, count]) => count === 0).map(([name]) => name);
	if (idle.length)
		throw new Error(`${idle.join(', ')} ran none of ${runs.length} simultaneous executions`);
	const added = logins(sandbox) - before;
	if (added !== 0)
		throw new Error(
			`${runs.length} executions on ${state.workers.length} workers logged in ${added} more time(s); the stored token should serve them all`,
		);
	const perWorker = [...tally]
		.map(([name, count]) => `${name.replace('n8n ', '')} ${count}`)
		.join(', ');
	return `${runs.length} simultaneous runs of ${file}: ${perWorker}; 0 new logins (total ${logins(sandbox)})`;
}

/** The queue-mode steps run after the manual workflows. */
export async function workerChecks(steps: Steps, state: RunState): Promise<void> {
	await steps.run(
		'Queue mode: every worker runs executions with the stored session',
		async () => await concurrentRound(state),
	);
}

/** The queue-mode steps run after the session re-login. */
export async function workerChecksAfterRelogin(steps: Steps, state: RunState): Promise<void> {
	await steps.run(
		'Queue mode: the renewed session serves every worker',
		async () => await concurrentRound(state),
	);
}

/**
 * After the alert scenarios: main polled and no worker did; every execution of the run was started
 * by exactly one worker; the alert executions ran on workers; each alert e-mail was sent once.
 */
export async function executionsByWorker(state: RunState): Promise<string> {
	const main = need(state.main, 'n8n main');
	const names = [...state.workflows.values()]
		.filter((workflow) =>
			workflow.nodes.some(
				(node) => /Trigger$/.test(node.type) && !/manualTrigger$/.test(node.type),
			),
		)
		.map((workflow) => workflow.name);
	const mainPolls = names.reduce((sum, name) => sum + countPolls(main.process.log(), name), 0);
	if (mainPolls === 0) throw new Error('n8n main logged no poll of the alert workflows');
	for (const worker of state.workers) {
		const polls = names.reduce((sum, name) => sum + countPolls(worker.process.log(), name), 0);
		if (polls)
			throw new Error(`${worker.process.name} polled ${polls} times; polls belong to main`);
	}
	if (startedExecutions(main.process.log()).length)
		throw new Error('n8n main ran executions itself in queue mode');
	const owners = workerOf(state);
	const twice = [...owners].filter(([, workers]) => workers.length > 1);
	if (twice.length)
		throw new Error(
			`executions started by more than one worker: ${twice.map(([id, workers]) => `${id} (${workers.join(', ')})`).join('; ')}`,
		);
	const alertOwners = state.alertExecutions.map(
		(id) => `${id} on ${(owners.get(id) ?? ['no worker']).join(', ').replace('n8n ', '')}`,
	);
	if (state.alertExecutions.some((id) => !owners.has(id)))
		throw new Error(`an alert execution ran on no worker: ${alertOwners.join(', ')}`);
	const perWorker = state.workers
		.map(
			(worker) =>
				`${worker.process.name.replace('n8n ', '')} ran ${startedExecutions(worker.process.log()).length}`,
		)
		.join(', ');
	return `main polled ${mainPolls}×, workers 0×; ${owners.size} executions each on exactly one worker (${perWorker}); alert execution ${alertOwners.join(', ')}`;
}
