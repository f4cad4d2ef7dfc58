import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeType, Logger } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { Engine, WorkflowJson } from './engine';
import type { LogLine } from './webhook';

/** The outcome of one poll: the items n8n started an execution with, or the error it shows. */
export interface PollOutcome {
	items: INodeExecutionData[] | null;
	error?: Error;
}

/**
 * n8n's database as far as a polling trigger is concerned: the workflow's saved static data and,
 * in durable-cursor mode, the poll cursors (n8n's `poller_state` rows, by node name here).
 */
export interface PollDatabase {
	staticData: IDataObject;
	cursors?: Record<string, IDataObject>;
}

/**
 * How n8n 2.41 keeps a poll's static data.
 *
 * - `legacy` (the default, `N8N_POLLER_DURABLE_CURSORS_ENABLED` unset): the active workflow lives in
 *   memory for the life of the process, and every poll works on that same Workflow object, so a
 *   poll's changes to static data are seen by the next poll of the process. They reach the database
 *   only when (a) the workflow is activated (after the activation poll, `saveStaticData` in the
 *   activation path) or (b) a poll emits (`__emit` calls `saveStaticData`, fire and forget, before
 *   starting the execution). A poll that returns null saves nothing; a poll that throws saves
 *   nothing. After a restart (or a leadership change, or a re-activation) the workflow is built
 *   again from the database and activated, which runs the activation poll.
 * - `durable` (`N8N_POLLER_DURABLE_CURSORS_ENABLED`): each poll gets a deep copy of the node's
 *   cursor from the database (`getWorkflowStaticData('node')` answers that snapshot); after a poll
 *   that emits, the changed snapshot is committed in one transaction with the execution row
 *   (`commitWithExecution`); after a poll that returns null, on its own (`commitCursorOnly`); after
 *   a poll that throws, not at all. A lost commit therefore loses the execution with the cursor.
 */
export type SavingMode = 'legacy' | 'durable';

/**
 * Polls a trigger node through n8n-core's PollContext and keeps its static data as n8n 2.41 does
 * (see {@link SavingMode}). Switches play the faults n8n can meet: {@link restart} (the process
 * goes away; the next poll is an activation from the database) and {@link loseNextSave} (the next
 * save does not reach the database: n8n only logs a failed `saveStaticData`).
 */
export class PollRunner {
	private polls = 0;

	/** The process's in-memory workflow (legacy mode); undefined until activated, and after a restart. */
	private live?: Workflow;

	private loseSave = false;

	/** Activations (the first poll, and the first after each restart) and saves that did not land. */
	readonly counters = { activations: 0, savesLost: 0 };

	/** Every line the node logged through `this.logger`, across polls. */
	readonly logs: LogLine[] = [];

	/**
	 * @param store n8n's database; give two runners the same store to play two processes (a restart
	 *   or a leadership change: the other process activates the workflow from the database).
	 */
	constructor(
		private readonly engine: Engine,
		private readonly workflow: WorkflowJson,
		private readonly nodeName: string,
		private readonly store: PollDatabase = { staticData: {} },
		private readonly mode: SavingMode = 'legacy',
	) {}

	private get key(): string {
		return `node:${this.nodeName}`;
	}

	/**
	 * A copy of the node's static data as the node would see it on its next poll: in legacy mode the
	 * process's memory (the database's copy before activation); in durable mode the database's cursor.
	 */
	staticData(): IDataObject {
		if (this.mode === 'durable')
			return copy(this.store.cursors?.[this.nodeName] ?? bucket(this.store.staticData[this.key]));
		return copy(bucket((this.live ? this.live.staticData : this.store.staticData)[this.key]));
	}

	/** A copy of the node's static data as saved in the database (what a restart starts from). */
	savedStaticData(): IDataObject {
		if (this.mode === 'durable') return this.staticData();
		return copy(bucket(this.store.staticData[this.key]));
	}

	/** The process stops: memory not saved is gone; the next poll activates the workflow from the database. */
	restart(): void {
		this.live = undefined;
	}

	/** The next save (legacy: `saveStaticData`; durable: the commit with its execution) fails. */
	loseNextSave(): void {
		this.loseSave = true;
	}

	private build(staticData: IDataObject): Workflow {
		return new Workflow({
			id: this.workflow.id ?? 'wf-poll',
			name: this.workflow.name,
			nodes: this.workflow.nodes,
			connections: this.workflow.connections,
			active: true,
			nodeTypes: this.engine.nodeTypes,
			settings: this.workflow.settings ?? {},
			staticData: copy(staticData),
		});
	}

	/** n8n's `saveStaticData`: the whole static data, as JSON, unless this save is to be lost. */
	private save(workflow: Workflow): void {
		if (this.loseSave) {
			this.loseSave = false;
			this.counters.savesLost++;
			return;
		}
		this.store.staticData = copy(workflow.staticData);
	}

	/**
	 * Runs one poll. `mode: 'manual'` is n8n's "Fetch Test Event" (on a copy of the saved data,
	 * saved back afterwards so a node that wrongly writes state on a test run is caught); `budgetMs`
	 * is what `getPollBudgetMs()` answers (omitted: the host has no budget, as before n8n 2.41).
	 */
	async poll(
		options: { mode?: 'trigger' | 'manual'; budgetMs?: number } = {},
	): Promise<PollOutcome> {
		if (options.mode === 'manual') {
			const workflow = this.build(this.store.staticData);
			const outcome = await this.run(workflow, 'manual', options.budgetMs);
			this.store.staticData = copy(workflow.staticData);
			return { items: outcome.emitted, error: outcome.error };
		}
		if (this.mode === 'durable') return await this.pollDurable(options.budgetMs);

		const activation = !this.live;
		const workflow = this.live ?? this.build(this.store.staticData);
		const { emitted, error } = await this.run(workflow, 'trigger', options.budgetMs);
		if (error) {
			// A failed activation poll fails the activation: nothing is kept, n8n retries it later.
			return { items: null, error };
		}
		if (emitted) this.save(workflow); // __emit: saveStaticData, fire and forget
		if (activation) {
			this.live = workflow;
			this.counters.activations++;
			this.save(workflow); // the activation path saves once the triggers are registered
		}
		return { items: emitted };
	}

	private async pollDurable(budgetMs: number | undefined): Promise<PollOutcome> {
		this.store.cursors ??= {};
		// resolveCursor: a node without a cursor row is seeded from its static data.
		const seed = this.store.cursors[this.nodeName] ?? copy(bucket(this.store.staticData[this.key]));
		this.store.cursors[this.nodeName] = seed;
		const snapshot = copy(seed);
		const workflow = this.build(this.store.staticData);
		const { emitted, error } = await this.run(workflow, 'trigger', budgetMs, snapshot);
		if (error) return { items: null, error };
		if (this.loseSave) {
			// The transaction fails: no cursor advance and, for an emitting poll, no execution.
			this.loseSave = false;
			this.counters.savesLost++;
			return { items: null };
		}
		this.store.cursors[this.nodeName] = copy(snapshot);
		// mirrorToStaticData: the committed cursor also lands in static data, for turning the mode off.
		this.store.staticData = { ...this.store.staticData, [this.key]: copy(snapshot) };
		return { items: emitted };
	}

	private async run(
		workflow: Workflow,
		mode: 'trigger' | 'manual',
		budgetMs: number | undefined,
		snapshot?: IDataObject,
	): Promise<{ emitted: INodeExecutionData[] | null; error?: Error }> {
		const node = workflow.getNode(this.nodeName) as INode;
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(
			node.type,
			node.typeVersion,
		) as INodeType;
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
			snapshot ? () => snapshot : undefined,
			budgetMs === undefined ? undefined : () => budgetMs,
		);
		const record =
			(level: LogLine['level']) =>
			(message: string, metadata?: unknown): void => {
				this.logs.push({ level, message, metadata });
			};
		const logger: Logger = {
			error: record('error'),
			warn: record('warn'),
			info: record('info'),
			debug: record('debug'),
		};
		Object.defineProperty(context, 'logger', { value: logger });
		if (budgetMs === undefined) {
			// Hosts before n8n 2.41 have no getPollBudgetMs; the node must feature-detect it.
			(context as unknown as { getPollBudgetMs?: unknown }).getPollBudgetMs = undefined;
		}
		try {
			const result = await nodeType.poll!.call(context);
			if (result !== null) context.__emit(result);
		} catch (error) {
			return { emitted: null, error: error as Error };
		}
		return { emitted };
	}
}

const bucket = (value: unknown): IDataObject =>
	value && typeof value === 'object' ? (value as IDataObject) : {};

function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}
