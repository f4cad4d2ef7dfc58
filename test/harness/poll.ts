import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { Engine, WorkflowJson } from './engine';

/** The outcome of one poll: the items n8n would start an execution with, or the error it shows. */
export interface PollOutcome {
	items: INodeExecutionData[] | null;
	error?: Error;
}

/**
 * Polls a trigger node through n8n-core's PollContext, the way n8n's poll executor does, and keeps
 * the workflow's static data the way n8n's database does (as JSON): each poll gets a fresh Workflow built
 * from the last saved static data (as a queue-mode worker would), and the node's changes are saved
 * only when the poll succeeded (a failed poll's changes are lost, as n8n does not save them).
 */
export class PollRunner {
	private polls = 0;

	/**
	 * @param store where the workflow's static data is saved between polls (n8n's database); give
	 *   two runners the same store to play two queue-mode workers of one active workflow.
	 */
	constructor(
		private readonly engine: Engine,
		private readonly workflow: WorkflowJson,
		private readonly nodeName: string,
		private readonly store: { staticData: IDataObject } = { staticData: {} },
	) {}

	private get saved(): IDataObject {
		return this.store.staticData;
	}

	private set saved(data: IDataObject) {
		this.store.staticData = data;
	}

	/** A copy of the node's saved static data. */
	staticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.saved[`node:${this.nodeName}`] ?? {})) as IDataObject;
	}

	/**
	 * Runs one poll. `mode: 'manual'` is n8n's "Fetch Test Event"; `budgetMs` is what
	 * `getPollBudgetMs()` answers (omitted: the host has no budget, as before n8n 2.41).
	 */
	async poll(options: { mode?: 'trigger' | 'manual'; budgetMs?: number } = {}): Promise<PollOutcome> {
		const mode = options.mode ?? 'trigger';
		const workflow = new Workflow({
			id: this.workflow.id ?? 'wf-poll',
			name: this.workflow.name,
			nodes: this.workflow.nodes,
			connections: this.workflow.connections,
			active: true,
			nodeTypes: this.engine.nodeTypes,
			settings: this.workflow.settings ?? {},
			staticData: JSON.parse(JSON.stringify(this.saved)) as IDataObject,
		});
		const node = workflow.getNode(this.nodeName) as INode;
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
		let emitted: INodeExecutionData[] | null = null;
		const context = new PollContext(
			workflow,
			node,
			this.engine.additionalData(`poll-${++this.polls}`, this.workflow),
			mode,
			'activate',
			(data) => {
				emitted = data[0] ?? [];
			},
			() => undefined,
			undefined,
			undefined,
			undefined,
			options.budgetMs === undefined ? undefined : () => options.budgetMs!,
		);
		if (options.budgetMs === undefined) {
			// Hosts before n8n 2.41 have no getPollBudgetMs; the node must feature-detect it.
			(context as unknown as { getPollBudgetMs?: unknown }).getPollBudgetMs = undefined;
		}
		try {
			const result = await nodeType.poll!.call(context);
			if (result !== null) context.__emit(result);
		} catch (error) {
			return { items: null, error: error as Error };
		}
		// Saved after manual runs too, so a node that wrongly writes state on a test run is caught.
		this.saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		return { items: emitted };
	}
}
