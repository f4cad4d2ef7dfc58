import {
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PackageDirectoryLoader,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialType,
	IConnections,
	ILoadOptionsFunctions,
	INode,
	INodeCredentials,
	INodeListSearchResult,
	INodeParameters,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { readFileSync } from 'fs';
import path from 'path';

import { TestCredentialsHelper, type StoredCredential } from './credentials-helper';
import { PACKAGE_NAME, PACKAGE_ROOT } from './packageInfo';

/** Node types by full name ("n8n-nodes-base.manualTrigger"), as n8n's NodeTypes serves them. */
export class NodeRegistry implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	private readonly lazy = new Map<string, () => INodeType | IVersionedNodeType>();

	register(fullName: string, type: INodeType | IVersionedNodeType): void {
		this.types.set(fullName, type);
	}

	/** Registers a node type loaded on first use (some n8n nodes pull heavy dependencies). */
	registerLazy(fullName: string, load: () => INodeType | IVersionedNodeType): void {
		this.lazy.set(fullName, load);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		let type = this.types.get(nodeType);
		const load = this.lazy.get(nodeType);
		if (!type && load) {
			type = load();
			this.types.set(nodeType, type);
		}
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

/** The few n8n-nodes-base nodes the example workflows use, loaded from n8n's own package. */
function registerBaseNodes(registry: NodeRegistry): void {
	/* eslint-disable @typescript-eslint/no-require-imports */
	const base: Array<[string, string, string]> = [
		['manualTrigger', 'ManualTrigger/ManualTrigger.node', 'ManualTrigger'],
		['scheduleTrigger', 'Schedule/ScheduleTrigger.node', 'ScheduleTrigger'],
		['set', 'Set/Set.node', 'Set'],
		['noOp', 'NoOp/NoOp.node', 'NoOp'],
		['if', 'If/If.node', 'If'],
		['filter', 'Filter/Filter.node', 'Filter'],
		['merge', 'Merge/Merge.node', 'Merge'],
		['emailSend', 'EmailSend/EmailSend.node', 'EmailSend'],
		['splitOut', 'Transform/SplitOut/SplitOut.node', 'SplitOut'],
		['convertToFile', 'Files/ConvertToFile/ConvertToFile.node', 'ConvertToFile'],
		['extractFromFile', 'Files/ExtractFromFile/ExtractFromFile.node', 'ExtractFromFile'],
		['limit', 'Transform/Limit/Limit.node', 'Limit'],
		['aggregate', 'Transform/Aggregate/Aggregate.node', 'Aggregate'],
		['summarize', 'Transform/Summarize/Summarize.node', 'Summarize'],
		['splitInBatches', 'SplitInBatches/SplitInBatches.node', 'SplitInBatches'],
	];
	for (const [name, file, exported] of base) {
		registry.registerLazy(`n8n-nodes-base.${name}`, () => {
			const module = require(`n8n-nodes-base/dist/nodes/${file}`) as Record<
				string,
				new () => INodeType
			>;
			return new module[exported]();
		});
	}
	/* eslint-enable @typescript-eslint/no-require-imports */
}

/** Where the package's nodes and credentials come from: the TypeScript sources or the built dist/. */
export type PackageSource = 'source' | 'dist';

async function loadPackage(
	source: PackageSource,
	registry: NodeRegistry,
	credentialTypes: Map<string, ICredentialType>,
) {
	if (source === 'dist') {
		// Exactly how n8n loads a community package: package.json's n8n section, then the files.
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		for (const [name, { type }] of Object.entries(loader.nodeTypes))
			registry.register(`${loader.packageName}.${name}`, type);
		for (const [name, { type }] of Object.entries(loader.credentialTypes))
			credentialTypes.set(name, type);
		return;
	}
	/* eslint-disable @typescript-eslint/no-require-imports */
	const { PaymentsService } = require('../../nodes/PaymentsService/PaymentsService.node');
	const {
		PaymentsServiceTrigger,
	} = require('../../nodes/PaymentsService/PaymentsServiceTrigger.node');
	const {
		PaymentsServiceNotificationTrigger,
	} = require('../../nodes/PaymentsService/PaymentsServiceNotificationTrigger.node');
	const credentials = [
		require('../../credentials/PaymentsServiceSessionApi.credentials').PaymentsServiceSessionApi,
		require('../../credentials/PaymentsServiceReadOnlyApi.credentials').PaymentsServiceReadOnlyApi,
		require('../../credentials/PaymentsServiceDepositApi.credentials').PaymentsServiceDepositApi,
		require('../../credentials/PaymentsServiceCashoutApi.credentials').PaymentsServiceCashoutApi,
	];
	/* eslint-enable @typescript-eslint/no-require-imports */
	registry.register(`${PACKAGE_NAME}.paymentsService`, new PaymentsService());
	registry.register(`${PACKAGE_NAME}.paymentsServiceTrigger`, new PaymentsServiceTrigger());
	registry.register(
		`${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
		new PaymentsServiceNotificationTrigger(),
	);
	for (const Type of credentials) {
		const instance = new Type() as ICredentialType;
		credentialTypes.set(instance.name, instance);
	}
}

/** A workflow as n8n exports it (the JSON files in test/workflows). */
export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: Record<string, unknown>;
}

/** The outcome of one execution. */
export interface WorkflowRun {
	executionId: string;
	run: IRun;
	/** Items of `nodeName`'s output `outputIndex`, all runs of the node concatenated. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error a node ended with, if any. */
	nodeError(nodeName: string): Error | undefined;
	/** The execution's error, if it failed. */
	error: Error | undefined;
}

/** n8n's engine with this package loaded, a credential store, and a way to run workflows. */
export interface Engine {
	nodeTypes: NodeRegistry;
	credentials: TestCredentialsHelper;
	addCredential(credential: StoredCredential): void;
	/**
	 * Executes a workflow from its trigger. `triggerItems` are what a poll emitted: the execution then
	 * starts the way n8n starts one for an active poll trigger (mode 'trigger', the trigger node
	 * passing its emitted items on).
	 */
	run(
		workflow: WorkflowJson,
		options?: {
			executionId?: string;
			mode?: WorkflowExecuteMode;
			triggerItems?: INodeExecutionData[];
		},
	): Promise<WorkflowRun>;
	/**
	 * Retries a failed execution the way n8n's executions list does (`ExecutionService.retry`, n8n
	 * 2.41): a new execution (new id, mode `retry`) that starts from the failed execution's data, with
	 * the failed run of the last node removed, so that node runs again on the same input with the
	 * same run index, and the nodes before it are not run again.
	 */
	retry(
		failed: WorkflowRun,
		workflow: WorkflowJson,
		options?: { executionId?: string },
	): Promise<WorkflowRun>;
	/**
	 * Calls a `methods.listSearch` method of a node type the way n8n's editor does (n8n's
	 * DynamicNodeParametersService): a one-node workflow with the node's current parameters and
	 * credentials, and n8n-core's LoadOptionsContext for the parameter at `path`.
	 */
	listSearch(
		method: string,
		options: {
			parameters: INodeParameters;
			credentials?: INodeCredentials;
			filter?: string;
			path?: string;
			nodeType?: string;
		},
	): Promise<INodeListSearchResult>;
	/** Builds the n8n Workflow object for a workflow JSON (used by the poll runner). */
	workflowOf(workflow: WorkflowJson): Workflow;
	additionalData(executionId: string, workflow: WorkflowJson): IWorkflowExecuteAdditionalData;
}

/** Reads a workflow JSON file from test/workflows. */
export function readWorkflow(fileName: string): WorkflowJson {
	return JSON.parse(
		readFileSync(path.join(PACKAGE_ROOT, 'test', 'workflows', fileName), 'utf8'),
	) as WorkflowJson;
}

/**
 * Creates an engine. `source: 'dist'` loads the built package exactly as n8n does (package.json's
 * n8n section through n8n-core's PackageDirectoryLoader); `'source'` loads the TypeScript classes.
 */
export async function createEngine(options: { source?: PackageSource } = {}): Promise<Engine> {
	const nodeTypes = new NodeRegistry();
	const credentialTypes = new Map<string, ICredentialType>();
	registerBaseNodes(nodeTypes);
	await loadPackage(options.source ?? 'source', nodeTypes, credentialTypes);
	// The credential types of the n8n-nodes-base nodes the example workflows use.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Smtp } = require('n8n-nodes-base/dist/credentials/Smtp.credentials') as {
		Smtp: new () => ICredentialType;
	};
	credentialTypes.set('smtp', new Smtp());
	const credentials = new TestCredentialsHelper(credentialTypes);
	let executions = 0;

	const workflowOf = (json: WorkflowJson) =>
		new Workflow({
			id: json.id ?? 'wf-test',
			name: json.name,
			nodes: json.nodes,
			connections: json.connections,
			active: false,
			nodeTypes,
			settings: json.settings ?? {},
			staticData: {},
		});

	const additionalData = (
		executionId: string,
		json: WorkflowJson,
		hooks?: ExecutionLifecycleHooks,
	) =>
		({
			credentialsHelper: credentials,
			hooks,
			executionId,
			workflowId: json.id ?? 'wf-test',
			currentNodeExecutionIndex: 0,
			variables: {},
			restApiUrl: 'http://localhost:5678/rest',
			instanceBaseUrl: 'http://localhost:5678/',
			formBaseUrl: '',
			formWaitingBaseUrl: '',
			formTestBaseUrl: '',
			webhookBaseUrl: '',
			webhookWaitingBaseUrl: '',
			webhookTestBaseUrl: '',
			mcpBaseUrl: '',
			mcpTestBaseUrl: '',
			logAiEvent: () => undefined,
			executeWorkflow: async () => {
				throw new Error('Sub-workflows are not available in the test engine');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			startRunnerTask: async () => {
				throw new Error('Task runners are not available in the test engine');
			},
		}) as unknown as IWorkflowExecuteAdditionalData;

	const runOf = (executionId: string, run: IRun): WorkflowRun => {
		const runData = run.data.resultData.runData;
		return {
			executionId,
			run,
			error: run.data.resultData.error as Error | undefined,
			output(nodeName, outputIndex = 0) {
				return (runData[nodeName] ?? []).flatMap((task) => task.data?.main?.[outputIndex] ?? []);
			},
			nodeError(nodeName) {
				return (runData[nodeName] ?? [])
					.map((task) => task.error as Error | undefined)
					.find(Boolean);
			},
		};
	};

	return {
		nodeTypes,
		credentials,
		addCredential: (credential) => credentials.add(credential),
		async listSearch(
			method,
			{
				parameters,
				credentials: nodeCredentials,
				filter,
				path,
				nodeType = `${PACKAGE_NAME}.paymentsService`,
			},
		) {
			const node: INode = {
				parameters,
				id: 'uuid-1234',
				name: 'Temp-Node',
				type: nodeType,
				typeVersion: 1,
				position: [0, 0],
			};
			if (nodeCredentials) node.credentials = nodeCredentials;
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
			const data = {
				...additionalData('load-options', { name: 'load options', nodes: [], connections: {} }),
				currentNodeParameters: parameters,
			};
			const context = new LoadOptionsContext(
				workflow,
				workflow.nodes['Temp-Node'],
				data,
				path ?? 'parameters.country',
			);
			const type = nodeTypes.getByNameAndVersion(nodeType, 1);
			const search = type.methods?.listSearch?.[method];
			if (!search) throw new Error(`${nodeType} has no listSearch method ${method}`);
			return await search.call(context as ILoadOptionsFunctions, filter);
		},
		workflowOf,
		additionalData: (executionId, json) => additionalData(executionId, json),
		async retry(failed, json, retryOptions = {}) {
			const executionId = retryOptions.executionId ?? `exec-${++executions}`;
			// The execution's data as n8n stores it (JSON), then ExecutionService.retry's edits.
			const data = JSON.parse(JSON.stringify(failed.run.data)) as IRunExecutionData;
			delete data.resultData.error;
			const last = data.resultData.lastNodeExecuted;
			const runs = last ? data.resultData.runData[last] : undefined;
			if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
			const workflow = workflowOf(json);
			const hooks = new ExecutionLifecycleHooks('retry', executionId, {
				id: workflow.id,
				name: json.name,
				nodes: json.nodes,
				connections: json.connections,
			} as unknown as IWorkflowBase);
			const run = await new WorkflowExecute(
				additionalData(executionId, json, hooks),
				'retry',
				data,
			).processRunExecutionData(workflow);
			return runOf(executionId, run);
		},
		async run(json, runOptions = {}) {
			const executionId = runOptions.executionId ?? `exec-${++executions}`;
			const mode = runOptions.mode ?? (runOptions.triggerItems ? 'trigger' : 'manual');
			const workflow = workflowOf(json);
			const workflowData: IWorkflowBase = {
				id: workflow.id,
				name: json.name,
				nodes: json.nodes,
				connections: json.connections,
				active: false,
				settings: json.settings ?? {},
				createdAt: new Date(),
				updatedAt: new Date(),
				isArchived: false,
				activeVersionId: null,
			} as unknown as IWorkflowBase;
			const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
			const start =
				json.nodes.find((node) => /[tT]rigger$/.test(node.type)) ?? workflow.getStartNode();
			if (!start) throw new Error(`Workflow "${json.name}" has no start node`);
			const runExecutionData = {
				startData: {},
				resultData: { runData: {} },
				executionData: {
					contextData: {},
					metadata: {},
					waitingExecution: {},
					waitingExecutionSource: null,
					nodeExecutionStack: [
						{
							node: start,
							data: { main: [runOptions.triggerItems ?? [{ json: {} }]] },
							source: null,
						},
					],
				},
			} as unknown as IRunExecutionData;
			const execute = new WorkflowExecute(
				additionalData(executionId, json, hooks),
				mode,
				runExecutionData,
			);
			const run = await execute.processRunExecutionData(workflow);
			return runOf(executionId, run);
		},
	};
}
