/**
 * Turns an execution read from n8n's REST API into the `WorkflowRun` the demo checks read
 * (test/demo/demos.ts), so the same checks judge a run on n8n-core in-process and on a real n8n.
 */
import { parse } from 'flatted';
import type { INodeExecutionData, IRun, IRunExecutionData, ITaskData } from 'n8n-workflow';

import type { WorkflowRun } from '../harness/engine';
import type { ExecutionRecord, N8nClient } from './rest';

/** An error as n8n serialises it into the run data: a plain object with a message. */
function toError(serialised: unknown): Error | undefined {
	if (!serialised || typeof serialised !== 'object') return undefined;
	const { message } = serialised as { message?: unknown };
	return Object.assign(
		new Error(typeof message === 'string' ? message : JSON.stringify(serialised)),
		serialised,
	);
}

/**
 * Replaces the references to binary data n8n stored apart (filesystem or database mode: an `id`
 * instead of the base64 `data`) with the bytes, downloaded as the editor does.
 */
async function resolveBinaries(
	client: N8nClient,
	runData: Record<string, ITaskData[]>,
): Promise<void> {
	for (const tasks of Object.values(runData)) {
		for (const task of tasks) {
			for (const items of task.data?.main ?? []) {
				for (const item of items ?? []) {
					for (const binary of Object.values(item.binary ?? {})) {
						if (binary.id) binary.data = (await client.binaryData(binary.id)).toString('base64');
					}
				}
			}
		}
	}
}

/** Reads an execution's run data (flatted JSON, as n8n stores and serves it). */
export function runDataOf(execution: ExecutionRecord): IRunExecutionData {
	return parse(execution.data) as IRunExecutionData;
}

/** The execution as a {@link WorkflowRun}: outputs and errors by node name, binaries resolved. */
export async function toWorkflowRun(
	client: N8nClient,
	execution: ExecutionRecord,
): Promise<WorkflowRun> {
	const data = runDataOf(execution);
	const runData = data.resultData.runData;
	await resolveBinaries(client, runData);
	const run = {
		data,
		finished: execution.finished,
		mode: execution.mode,
		status: execution.status,
		startedAt: new Date(execution.startedAt ?? Date.now()),
	} as unknown as IRun;
	return {
		executionId: execution.id,
		run,
		error: toError(data.resultData.error),
		output(nodeName: string, outputIndex = 0): INodeExecutionData[] {
			return (runData[nodeName] ?? []).flatMap((task) => task.data?.main?.[outputIndex] ?? []);
		},
		nodeError(nodeName: string): Error | undefined {
			return (runData[nodeName] ?? []).map((task) => toError(task.error)).find(Boolean);
		},
	};
}
