/**
 * Money at the edges in a real n8n (regular mode):
 * - two webhook calls asking for the same payout are two requests: two payouts; a call whose
 *   creation answers are all lost (the node's resends too) fails, and n8n's Retry of that execution
 *   makes no second payout;
 * - the package's credentials are refused to any other node (n8n's HTTP Request node here) where the
 *   running n8n supports `restrictToSupportedNodes` (2.x; checked from 2.35.3).
 */
import { randomUUID } from 'crypto';

import type { WorkflowJson } from '../harness/engine';
import { manualTrigger, paymentsServiceNode, workflowNode } from '../harness/nodes';
import { lostCashoutAnswers } from '../sandbox/faults';
import { mapCredentials } from './catalogue';
import { waitFor } from './processes';
import { isFinished } from './rest';
import { EXECUTION_TIMEOUT_MS, need, type RunState } from './state';

/** Marks this check's payouts in the sandbox (the beneficiary's name). */
const BENEFICIARY = 'Ana Souza (separate requests, real n8n)';

/** Webhook (POST /webhook/<path>) → Payments Service: Cashout → Create with fixed fields. */
function withdrawalWorkflow(path: string): WorkflowJson {
	const webhook = workflowNode(
		'Withdrawal request',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
		{ webhookId: randomUUID() },
	);
	const payout = paymentsServiceNode(
		'Pay out',
		{
			resource: 'cashout',
			operation: 'create',
			externalId: '',
			country: { __rl: true, mode: 'list', value: 'BR' },
			// The amount comes from the call: a probe without one is refused before anything is sent.
			amount: '={{ $json.body.amount }}',
			documentId: '84932495016',
			beneficiaryName: BENEFICIARY,
			notificationUrl: 'https://shop.example.com/payouts/notify',
		},
		{
			position: [220, 0],
			credentials: {
				paymentsServiceCashoutApi: { id: 'cred-cashout', name: 'Payments Service Cashout API' },
			},
		},
	);
	return {
		name: 'Withdrawal requests (separate requests check)',
		nodes: [webhook, payout],
		connections: {
			'Withdrawal request': { main: [[{ node: 'Pay out', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Two webhook calls for the same payout, a third whose answer is lost, then n8n's Retry of the
 * third: resolves what it saw, throws when a call was not paid or one was paid twice.
 */
export async function separateRequestsStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const n8nUrl = need(state.main, 'n8n main').url;
	const path = `withdrawals-${randomUUID().slice(0, 8)}`;
	const stored = await client.createWorkflow(
		mapCredentials(withdrawalWorkflow(path), state.credentialIds),
	);
	const made = () =>
		sandbox.control
			.createdCashouts()
			.filter((cashout) => cashout.request.beneficiary_name === BENEFICIARY);
	const call = async (body: object) =>
		await fetch(`${n8nUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	await client.activate({ ...withdrawalWorkflow(path), ...stored });
	try {
		// Registered once a call is answered by the workflow (the probe has no amount: nothing is sent).
		await waitFor('the webhook to be registered', async () => (await call({})).status !== 404, {
			timeoutMs: 60_000,
			intervalMs: 500,
		});
		const first = await call({ withdrawalId: 'W-1001', amount: '250.00' });
		const second = await call({ withdrawalId: 'W-1002', amount: '250.00' });
		if (!first.ok || !second.ok)
			throw new Error(`the two calls answered ${first.status} and ${second.status}`);
		const afterTwo = made().length;
		if (afterTwo !== 2)
			throw new Error(`two webhook calls for the same payout made ${afterTwo} payouts, not 2`);

		const before = new Set((await client.executions(stored.id)).map((execution) => execution.id));
		// Every answer lost: the first and the node's two resends.
		sandbox.faults.add(lostCashoutAnswers(3));
		await call({ withdrawalId: 'W-1003', amount: '250.00' });
		sandbox.faults.clear();
		const failed = await waitFor(
			'the execution of the third call to fail',
			async () =>
				(await client.executions(stored.id)).find(
					(execution) => !before.has(execution.id) && execution.status === 'error',
				),
			{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 250 },
		);
		await client.request('POST', `/executions/${failed.id}/retry`, { loadWorkflow: false });
		const retried = await waitFor(
			'the retried execution to finish',
			async () =>
				(await client.executions(stored.id)).find(
					(execution) => execution.mode === 'retry' && isFinished(execution),
				),
			{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 250 },
		);
		if (retried.status !== 'success')
			throw new Error(`the Retry (execution ${retried.id}) ended "${retried.status}"`);
		const total = made().length;
		if (total !== 3)
			throw new Error(`3 calls should make 3 payouts; the sandbox holds ${total} after the Retry`);
		return `calls W-1001 and W-1002 for the same payout: ${afterTwo} payouts; W-1003's answers all lost (execution ${failed.id}), n8n's Retry (execution ${retried.id}) made none: ${total} payouts for 3 calls`;
	} finally {
		await client.deactivate({ ...withdrawalWorkflow(path), ...stored });
	}
}

/** Whether `version` (major.minor.patch) is at least `major.minor`. */
function atLeast(version: string, major: number, minor: number): boolean {
	const [a, b] = version.split('.').map(Number);
	return a > major || (a === major && b >= minor);
}

/**
 * n8n's HTTP Request node with the Session credential as a predefined credential type, pointed at
 * the sandbox: n8n 2.x (checked from 2.35.3) must refuse it (on save or at run time) and the
 * sandbox must receive no request from it. n8n 1.x has no such setting: the step says so and runs
 * nothing.
 */
export async function credentialRestrictionStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	if (!atLeast(state.options.n8nVersion, 2, 0))
		return `n8n ${state.options.n8nVersion} has no credential restriction (n8n 2.x has): not run`;
	const marker = `/v1/balance`;
	const workflow = mapCredentials(
		{
			name: 'HTTP Request with the Session credential (restriction check)',
			nodes: [
				manualTrigger('Start'),
				{
					id: 'http',
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: [220, 0],
					parameters: {
						method: 'GET',
						url: `${sandbox.baseUrl}${marker}?restriction-check=1`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'paymentsServiceSessionApi',
						options: {},
					},
					credentials: {
						paymentsServiceSessionApi: { id: 'cred-session', name: 'Payments Service Session API' },
					},
				},
			],
			connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		state.credentialIds,
	);
	const reached = () =>
		sandbox.log.find('GET', marker).filter((entry) => entry.query['restriction-check'] === '1')
			.length;
	let outcome: string;
	try {
		const stored = await client.createWorkflow(workflow);
		const id = await client.runManually({ ...workflow, ...stored }, 'Start');
		const execution = await client.waitForExecution(id, EXECUTION_TIMEOUT_MS);
		if (execution.status === 'success')
			throw new Error('the HTTP Request node ran with the Session credential');
		outcome = `saved; the execution ended "${execution.status}"`;
	} catch (error) {
		if (!/restrict|not allowed|cannot use|supported/i.test(String(error))) throw error;
		outcome = `refused on save: ${String((error as Error).message).slice(0, 160)}`;
	}
	const requests = reached();
	if (requests > 0)
		throw new Error(`the sandbox received ${requests} request(s) from the HTTP Request node`);
	return `${outcome}; the sandbox received ${requests} requests from it`;
}
