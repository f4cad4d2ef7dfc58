/**
 * Payouts from a 500-row spreadsheet at Concurrency 8, in a real n8n: `payouts-from-spreadsheet.json`
 * with its sheet replaced by 500 valid rows and On Error set to stop the workflow. The answer of
 * the 250th creation is lost, so the execution fails there; the items already in flight finish
 * first. n8n's Retry of that execution must pay every row not paid yet and report every row paid
 * before (the lost one included) as already created: the sandbox holds exactly one payout per row.
 * The time of the Create payout node is checked against the bound ⌈rows ÷ 8⌉ × requests per row ×
 * round trip, the round trip measured on a 20-row run at Concurrency 1 first.
 */
import type { INode, IRunExecutionData } from 'n8n-workflow';

import { mapCredentials } from './catalogue';
import { runDataOf, toWorkflowRun } from './execution';
import { waitFor } from './processes';
import { EXECUTION_TIMEOUT_MS, need, type RunState } from './state';

const FILE = 'payouts-from-spreadsheet.json';
const NODE = 'Create payout';
const ROWS = 500;
const LATENCY_MS = 50;
/**
 * Time ÷ bound allowed in a real n8n: the server adds its own work per item (measured 1.56 on
 * n8n 2.41.1); one item after another would be about 8. `npm run bench -- creations` holds the
 * package to 1.25 on n8n's engine.
 */
const MAX_RATIO = 2;

/** A sheet of `count` valid Brazilian payouts, each its own beneficiary, external IDs `<marker>-<n>`. */
function sheet(marker: string, count: number): string {
	const header =
		'external_id,country,amount,currency,document_id,document_type,first_name,last_name,email,phone,bank_code,bank_account';
	const rows = Array.from(
		{ length: count },
		(_, row) =>
			`${marker}-${row},BR,${50 + (row % 50)}.00,BRL,9${String(row).padStart(10, '0')},CPF,Payee,${marker}-${row},payee${row}@example.com,,341,${10000 + row}-6`,
	);
	return `${[header, ...rows].join('\n')}\n`;
}

/** The Create payout node's time in an execution (ms, as n8n recorded it). */
function nodeTime(data: IRunExecutionData): number {
	return (data.resultData.runData[NODE] ?? []).reduce((sum, task) => sum + task.executionTime, 0);
}

/** Runs the check; resolves what it measured, throws when a row is paid twice or not at all. */
export async function spreadsheetStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const entry = need(
		state.catalogue.find((candidate) => candidate.file === FILE),
		FILE,
	);
	const marker = `sheet-${Date.now()}`;
	/** The example with `count` rows, its node at `concurrency`, stopping the workflow on an error. */
	const variant = async (name: string, count: number, concurrency: number) => {
		const nodes = entry.workflow.nodes.map((node): INode => {
			if (node.name === 'Payout sheet (CSV)')
				return {
					...node,
					parameters: {
						...node.parameters,
						jsonOutput: JSON.stringify({ csv: sheet(`${marker}-${name}`, count) }),
					},
				};
			if (node.name === NODE)
				return {
					...node,
					onError: 'stopWorkflow',
					parameters: { ...node.parameters, options: { concurrency } },
				};
			return node;
		});
		const workflow = mapCredentials(
			{ ...entry.workflow, name: `${entry.workflow.name} (${count} rows, ${name})`, nodes },
			state.credentialIds,
		);
		return { ...workflow, ...(await client.createWorkflow(workflow)) };
	};
	const run = async (workflow: Awaited<ReturnType<typeof variant>>) => {
		const id = await client.runManually(workflow, need(entry.manualTrigger, 'the manual trigger'));
		return await client.waitForExecution(id, EXECUTION_TIMEOUT_MS);
	};
	const paidOf = (name: string) => {
		const counts = new Map<string, number>();
		for (const cashout of sandbox.control.createdCashouts()) {
			const externalId = String(cashout.request.external_id);
			if (externalId.startsWith(`${marker}-${name}-`))
				counts.set(externalId, (counts.get(externalId) ?? 0) + 1);
		}
		return counts;
	};

	sandbox.setLatency(LATENCY_MS);
	try {
		// The round trip: 20 rows one after another (every request the sandbox received meanwhile).
		const calibrationWorkflow = await variant('c1', 20, 1);
		sandbox.log.clear();
		const calibration = await run(calibrationWorkflow);
		if (calibration.status !== 'success')
			throw new Error(`the 20-row run ended "${calibration.status}"`);
		const roundTripMs = nodeTime(runDataOf(calibration)) / sandbox.log.entries().length;

		const workflow = await variant('c8', ROWS, 8);
		const postsBefore = sandbox.log.find('POST', '/v3/cashout').length;
		sandbox.faults.add({
			method: 'POST',
			path: '/v3/cashout',
			kind: 'reset',
			phase: 'after',
			skip: ROWS / 2 - 1,
		});
		const failed = await run(workflow);
		sandbox.faults.clear();
		if (failed.status !== 'error')
			throw new Error(
				`the 500-row run should have failed on the lost answer; it ended "${failed.status}"`,
			);
		const paidBeforeRetry = paidOf('c8').size;
		const sentBeforeRetry = sandbox.log.find('POST', '/v3/cashout').length - postsBefore;
		const lostRequest = sandbox.log
			.find('POST', '/v3/cashout')
			.find((request) => request.fault === 'reset:after');

		sandbox.log.clear();
		await client.request('POST', `/executions/${failed.id}/retry`, { loadWorkflow: false });
		const retried = await waitFor(
			'the retried execution to finish',
			async () => {
				const list = await client.executions(workflow.id);
				const retry = list.find(
					(execution) => execution.id !== failed.id && execution.mode === 'retry',
				);
				return retry && ['success', 'error', 'crashed', 'canceled'].includes(retry.status) && retry;
			},
			{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 250 },
		);
		const retry = await client.waitForExecution(retried.id, EXECUTION_TIMEOUT_MS);
		const requests = sandbox.log.entries().length;
		if (retry.status !== 'success')
			throw new Error(`the retry (execution ${retried.id}) ended "${retry.status}"`);

		const paid = paidOf('c8');
		const twice = [...paid].filter(([, times]) => times > 1).map(([id]) => id);
		if (twice.length) throw new Error(`paid twice: ${twice.slice(0, 5).join(', ')}`);
		if (paid.size !== ROWS) throw new Error(`${paid.size} of ${ROWS} rows paid`);
		const items = (await toWorkflowRun(client, retry)).output(NODE).map((item) => item.json);
		const reportedBefore = items.filter((item) => item.already_created === true).length;
		if (items.length !== ROWS || items.some((item) => item.error !== undefined))
			throw new Error(`the retry output ${items.length} items, not ${ROWS} payouts`);
		if (reportedBefore !== sentBeforeRetry)
			throw new Error(
				`${reportedBefore} rows read as already created, but the failed execution sent ${sentBeforeRetry}`,
			);
		if (
			lostRequest &&
			!items.some(
				(item) =>
					item.already_created === true &&
					item.external_id === JSON.parse(String(lostRequest.rawBody)).external_id,
			)
		)
			throw new Error('the row whose answer was lost is not reported as already created');

		const boundMs = Math.ceil(ROWS / 8) * (requests / ROWS) * roundTripMs;
		const ms = nodeTime(runDataOf(retry));
		if (ms > MAX_RATIO * boundMs)
			throw new Error(
				`the retry's ${ROWS} rows took ${(ms / 1000).toFixed(2)} s, ${(ms / boundMs).toFixed(2)} × the bound ${(boundMs / 1000).toFixed(2)} s`,
			);
		return (
			`execution ${failed.id} failed on the lost answer of one of ${sentBeforeRetry} payouts sent (${paidBeforeRetry} made); ` +
			`Retry ${retried.id}: ${ROWS} rows, ${paid.size} payouts, each once, ${reportedBefore} read as already created; ` +
			`Create payout ${(ms / 1000).toFixed(2)} s for ${requests} requests, ${(ms / boundMs).toFixed(2)} × the bound ${(boundMs / 1000).toFixed(2)} s (round trip ${roundTripMs.toFixed(1)} ms at ${LATENCY_MS} ms of latency)`
		);
	} finally {
		sandbox.setLatency(0);
		sandbox.faults.clear();
	}
}
