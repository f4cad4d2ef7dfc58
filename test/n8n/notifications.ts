/**
 * The Notification Trigger under concurrency in a real n8n (single or queue mode): how often each
 * change starts the workflow when copies of a notification arrive at the same moment, with the
 * trigger alone and with n8n's Remove Duplicates node after it (README, "Once per change"). These
 * are measurements of a limit of n8n's static data, reported in the step's output; the step fails
 * only when a check that must hold does not (forged ones refused, every change started at least
 * once, Remove Duplicates never worse than the trigger alone).
 */
import { createHmac, randomUUID } from 'crypto';
import http from 'http';
import type { AddressInfo } from 'net';

import type { WorkflowJson } from '../harness/engine';
import { PACKAGE_NAME } from '../harness/engine';
import { mapCredentials } from './catalogue';
import { waitFor } from './processes';
import type { N8nClient, ExecutionSummary } from './rest';
import { need, type RunState } from './state';

const SECRET = 'e2e-notification-url-secret-0123';

/** Counts GET /hit/<key> requests: the workflow's last node calls it once per change handled. */
async function startHitCounter(): Promise<{ url: string; hits: Map<string, number>; close: () => Promise<void> }> {
	const hits = new Map<string, number>();
	const server = http.createServer((req, res) => {
		const key = decodeURIComponent((req.url ?? '').replace(/^\/hit\//, ''));
		hits.set(key, (hits.get(key) ?? 0) + 1);
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, hits, close: async () => await new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Cashout trigger (version 2, URL secret) → [Remove Duplicates on kind:id:status] → GET the counter. */
function limitsWorkflow(name: string, counterUrl: string, removeDuplicates: boolean): WorkflowJson {
	const trigger = 'Cashout Notification';
	const hit = 'Count';
	const nodes: WorkflowJson['nodes'] = [
		{
			id: randomUUID(),
			name: trigger,
			type: `${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { notifications: 'cashouts', urlSecret: SECRET },
			credentials: { paymentsServiceCashoutApi: { id: 'cred-cashout', name: 'Cashout' } },
		},
		{
			id: randomUUID(),
			name: hit,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [440, 0],
			parameters: { url: `=${counterUrl}/hit/{{ $json.notification.kind }}:{{ $json.cashout_id }}:{{ $json.cashout_status_name }}`, options: {} },
		},
	];
	const connections: WorkflowJson['connections'] = {};
	if (removeDuplicates) {
		nodes.push({
			id: randomUUID(),
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.notification.kind }}:{{ $json.cashout_id }}:{{ $json.cashout_status_name }}',
				options: {},
			},
		});
		connections[trigger] = { main: [[{ node: 'Remove Duplicates', type: 'main', index: 0 }]] };
		connections['Remove Duplicates'] = { main: [[{ node: hit, type: 'main', index: 0 }]] };
	} else {
		connections[trigger] = { main: [[{ node: hit, type: 'main', index: 0 }]] };
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1' } } as WorkflowJson;
}

/**
 * The workflow's newest 100 executions (n8n's page limit) and how many it has in all: executions
 * start in order, so when the newest 100 have finished, the older ones have too.
 */
async function newestExecutions(client: N8nClient, workflowId: string): Promise<{ count: number; results: ExecutionSummary[] }> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return await client.request<{ count: number; results: ExecutionSummary[] }>('GET', `/executions?filter=${filter}&limit=100`);
}

/**
 * Runs the measurements on one workflow: 10 changes each notified twice at the same instant, then
 * 200 changes notified at once (50 in flight) and each notified again once they were answered.
 * @returns a line of figures.
 */
async function measure(state: RunState, removeDuplicates: boolean): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const main = need(state.main, 'n8n main');
	const counter = await startHitCounter();
	const label = removeDuplicates ? 'trigger + Remove Duplicates' : 'trigger alone';
	try {
		const workflow = mapCredentials(limitsWorkflow(`Notification limits (${label})`, counter.url, removeDuplicates), state.credentialIds);
		const stored = { ...workflow, ...(await client.createWorkflow(workflow)) };
		const trigger = stored.nodes[0];
		const url = `${main.url}/webhook/${trigger.webhookId}/webhook/${SECRET}`;
		const secret = sandbox.credentials.cashout.apiSignature;
		const mid = sandbox.credentials.cashout.merchantId;
		const post = async (form: string) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form })).status;
		const notification = (cashoutId: number, externalId: string, key = secret) =>
			new URLSearchParams({ external_id: externalId, control: createHmac('sha256', key).update(`Be4${externalId}Bo7`).digest('hex').toUpperCase(), cashout_id: String(cashoutId) }).toString();
		await client.activate(stored);
		try {
			await waitFor(`the webhook ${url} to be registered`, async () => (await post('x')) === 400, { timeoutMs: 60_000, intervalMs: 500 });
			const stamp = Date.now();
			const payouts = Array.from({ length: 210 }, (_, index) => sandbox.control.addCashout({ idMerchant: mid, externalId: `limits-${stamp}-${index}` }));
			const forged = await Promise.all(payouts.slice(0, 5).map(async (payout) => await post(notification(payout.idCashout, payout.externalId, 'forged'))));
			if (forged.some((status) => status !== 401)) throw new Error(`forged notifications answered ${forged.join(', ')}, not 401`);

			// 2 identical notifications at the same instant, for 10 changes.
			for (const payout of payouts.slice(0, 10)) {
				const form = notification(payout.idCashout, payout.externalId);
				await Promise.all([post(form), post(form)]);
			}
			const keyOf = (payout: { idCashout: number }) => `cashout:${payout.idCashout}:PENDING`;
			/** Waits until every execution finished and none was added for 2 s; resolves them. */
			const quiet = async () => {
				let seen = -1;
				return await waitFor(
					'the executions to finish',
					async () => {
						const { count, results } = await newestExecutions(client, stored.id);
						const done = results.every((execution) => ['success', 'error', 'crashed', 'canceled'].includes(execution.status));
						const stable = done && count === seen;
						seen = done ? count : -1;
						return stable && { count };
					},
					{ timeoutMs: 180_000, intervalMs: 2000 },
				);
			};
			await quiet();
			const pairs = payouts.slice(0, 10).map((payout) => counter.hits.get(keyOf(payout)) ?? 0);
			if (pairs.some((hits) => hits < 1)) throw new Error(`a change notified twice at once was never handled: ${pairs.join(', ')}`);

			// 200 at once, then each again.
			const burst = payouts.slice(10, 210);
			const forms = burst.map((payout) => notification(payout.idCashout, payout.externalId));
			const queue = [...forms];
			await Promise.all(Array.from({ length: 50 }, async () => {
				for (let form = queue.shift(); form !== undefined; form = queue.shift()) await post(form);
			}));
			await quiet();
			const firstRound = burst.reduce((sum, payout) => sum + (counter.hits.get(keyOf(payout)) ?? 0), 0);
			for (const form of forms) await post(form);
			const executions = await quiet();
			const total = burst.reduce((sum, payout) => sum + (counter.hits.get(keyOf(payout)) ?? 0), 0);
			if (burst.some((payout) => (counter.hits.get(keyOf(payout)) ?? 0) < 1)) throw new Error('a change of the burst was never handled');
			const doubles = pairs.filter((hits) => hits > 1).length;
			return `${label}: 2 identical at once → handled twice for ${doubles} of 10 changes; 200 at once → handled ${firstRound} times, their repeats → ${total - firstRound} more (of 200); ${executions.count} executions`;
		} finally {
			await client.deactivate(stored);
		}
	} finally {
		await counter.close();
	}
}

/** The step: both measurements, one line each. */
export async function notificationLimitsStep(state: RunState): Promise<string> {
	const alone = await measure(state, false);
	const deduplicated = await measure(state, true);
	return [alone, deduplicated].join('\n');
}
