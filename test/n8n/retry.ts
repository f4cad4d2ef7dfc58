/**
 * n8n's Retry of a failed execution, in a real n8n: the executions list's Retry button
 * (`POST /rest/executions/:id/retry`) starts a new execution from the failed one's data. A payout
 * run whose second creation answer is lost, and the answers to the node's two resends too, fails
 * there; the retry must make the remaining payouts and report the lost one as found, so the
 * sandbox holds one payout per row.
 */
import type { INode } from 'n8n-workflow';

import { lostCashoutAnswers } from '../sandbox/faults';
import { mapCredentials } from './catalogue';
import { catalogueEntry, EXECUTION_TIMEOUT_MS, need, type RunState } from './state';
import { waitFor } from './processes';
import { isFinished } from './rest';

/** The example workflow the check runs, and the comment that marks this check's payouts. */
const FILE = 'payouts-loop-over-items.json';
const COMMENT = 'Payroll 2026-11, retried execution (real n8n)';

/** Runs the check; resolves what it saw, throws when a row was paid twice or not at all. */
export async function executionRetryStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const entry = catalogueEntry(state, FILE);
	// Its own comment, so its requests differ from the plain run's (derived keys follow the request).
	const nodes = entry.workflow.nodes.map((node): INode =>
		node.name === 'Pay out'
			? { ...node, parameters: { ...node.parameters, additionalFields: { comments: COMMENT } } }
			: node,
	);
	const workflow = mapCredentials(
		{ ...entry.workflow, name: `${entry.workflow.name} (execution retry check)`, nodes },
		state.credentialIds,
	);
	const stored = await client.createWorkflow(workflow);
	const made = () =>
		sandbox.control.createdCashouts().filter((cashout) => cashout.request.comments === COMMENT)
			.length;

	// The service makes the second payout, but its answer is lost, and so are the answers to the
	// node's two resends.
	sandbox.faults.add(lostCashoutAnswers(3, { skip: 1 }));
	const failedId = await client.runManually(
		{ ...workflow, ...stored },
		need(entry.manualTrigger, 'the manual trigger'),
	);
	const failed = await client.waitForExecution(failedId, EXECUTION_TIMEOUT_MS);
	sandbox.faults.clear();
	if (failed.status !== 'error')
		throw new Error(
			`execution ${failedId} should have failed on the lost answer; it ended "${failed.status}"`,
		);
	const afterFailure = made();

	await client.request('POST', `/executions/${failedId}/retry`, { loadWorkflow: false });
	const retried = await waitFor(
		'the retried execution to finish',
		async () => {
			const list = await client.executions(stored.id);
			const retry = list.find(
				(execution) => execution.id !== failedId && execution.mode === 'retry',
			);
			return retry && isFinished(retry) && retry;
		},
		{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 250 },
	);
	if (retried.status !== 'success')
		throw new Error(`the retry (execution ${retried.id}) ended "${retried.status}"`);
	const payouts = made();
	if (payouts !== 3)
		throw new Error(
			`3 rows should make 3 payouts; the sandbox holds ${payouts} (${afterFailure} after the failed execution)`,
		);
	const posts = sandbox.log
		.find('POST', '/v3/cashout')
		.filter((request) => String(request.rawBody).includes(COMMENT)).length;
	return `execution ${failedId} failed on answers all lost after ${afterFailure} payouts; Retry made execution ${retried.id} (mode retry): 3 rows, ${payouts} payouts, ${posts} creation requests`;
}
