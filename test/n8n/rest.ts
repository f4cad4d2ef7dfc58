/**
 * A client of n8n's internal REST API (`/rest`), the one the editor uses: the same endpoints and
 * bodies as the editor's API calls (packages/frontend/editor-ui/src/api, packages/@n8n/rest-api-client),
 * with the `n8n-auth` cookie and the `browser-id` header the cookie is bound to.
 */
import { parse } from 'flatted';
import type { IDataObject, IRunExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness/engine';

/**
 * Sends a request up to `attempts` times while no answer comes (fetch's "fetch failed": refused,
 * reset, timed out; n8n on a loaded machine), a second apart: a read is sent again, a change once.
 * The last failure names the call and its cause.
 */
async function untilAnswered(
	call: string,
	attempts: number,
	send: () => Promise<Response>,
): Promise<Response> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await send();
		} catch (error) {
			if (!(error instanceof TypeError && error.message === 'fetch failed')) throw error;
			if (attempt >= attempts) {
				const cause = error.cause as { code?: string; message?: string } | undefined;
				throw new Error(
					`${call}: no answer from n8n (${cause?.code ?? cause?.message ?? 'fetch failed'})${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
					{ cause: error },
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
}

/** The instance owner the runs create. */
export const OWNER = {
	email: 'owner@payments-e2e.example',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Owner-Passw0rd',
};

/** An execution as `GET /rest/executions/:id` answers it; `data` is the run data, flatted. */
export interface ExecutionRecord {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	workflowId: string;
	startedAt: string | null;
	stoppedAt: string | null;
	data: string;
}

/** An execution in `GET /rest/executions` (no run data). */
export interface ExecutionSummary {
	id: string;
	mode: string;
	status: string;
	workflowId: string;
	startedAt: string | null;
}

/** A stored workflow: what later calls need. */
export interface StoredWorkflow {
	id: string;
	versionId: string;
	name: string;
}

/** The answer of the credential test (`POST /rest/credentials/test`). */
export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** A community package as n8n records it (`/rest/community-packages`). */
export interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string; latestVersion: number | string }>;
	/** The newer version npm reports (`npm outdated`), when there is one. */
	updateAvailable?: string;
	/** n8n ≥ 2.x: the package's nodes are not loaded. */
	failedLoading?: boolean;
}

/** Statuses of an execution that will not change any more. */
const FINAL_STATUSES = new Set(['success', 'error', 'crashed', 'canceled']);

/** Whether `execution` has finished: its status (success, error, crashed, canceled) will not change. */
export function isFinished(execution: { status: string }): boolean {
	return FINAL_STATUSES.has(execution.status);
}

/** Whether an execution's saved data holds the run's result (not only its start data). */
function hasRunData(execution: ExecutionRecord): boolean {
	if (typeof execution.data !== 'string') return false;
	const data = parse(execution.data) as Partial<IRunExecutionData> | null;
	const result = data?.resultData;
	if (!result) return false;
	return execution.status !== 'success' || Object.keys(result.runData ?? {}).length > 0;
}

/** An n8n REST API failure: which call, the HTTP status and n8n's message. */
export class RestError extends Error {
	constructor(
		readonly call: string,
		readonly status: number,
		body: string,
	) {
		super(`${call} answered ${status}: ${body.slice(0, 500)}`);
	}
}

/** Logged-in access to one n8n instance's REST API. */
export class N8nClient {
	private cookie = '';

	/** The editor sends a random browser id; the auth cookie is valid only with the same one. */
	private readonly browserId = `payments-e2e-${process.pid}`;

	constructor(readonly baseUrl: string) {}

	/** Calls `/rest<path>`; resolves the `data` of n8n's `{data}` envelope. */
	async request<T>(method: string, restPath: string, body?: unknown): Promise<T> {
		const call = `${method} /rest${restPath}`;
		const response = await untilAnswered(
			call,
			method === 'GET' ? 3 : 1,
			async () =>
				await fetch(`${this.baseUrl}/rest${restPath}`, {
					method,
					headers: {
						'browser-id': this.browserId,
						...(this.cookie ? { cookie: this.cookie } : {}),
						...(body === undefined ? {} : { 'content-type': 'application/json' }),
					},
					body: body === undefined ? undefined : JSON.stringify(body),
				}),
		);
		const authCookie = response.headers
			.getSetCookie()
			.find((cookie) => cookie.startsWith('n8n-auth='));
		if (authCookie) this.cookie = authCookie.split(';')[0];
		const text = await response.text();
		if (!response.ok) throw new RestError(call, response.status, text);
		const parsed = text ? (JSON.parse(text) as { data?: T }) : {};
		return (parsed.data ?? parsed) as T;
	}

	/** Raw bytes of a GET (binary data). */
	async download(restPath: string): Promise<Buffer> {
		const response = await fetch(`${this.baseUrl}/rest${restPath}`, {
			headers: { 'browser-id': this.browserId, cookie: this.cookie },
		});
		if (!response.ok)
			throw new RestError(`GET /rest${restPath}`, response.status, await response.text());
		return Buffer.from(await response.arrayBuffer());
	}

	/** Names of the node or credential types the editor gets (`GET /types/nodes.json`, `credentials.json`). */
	async typeNames(kind: 'nodes' | 'credentials'): Promise<string[]> {
		const response = await fetch(`${this.baseUrl}/types/${kind}.json`, {
			headers: { 'browser-id': this.browserId, cookie: this.cookie },
		});
		if (!response.ok)
			throw new RestError(`GET /types/${kind}.json`, response.status, await response.text());
		return ((await response.json()) as Array<{ name: string }>).map((type) => type.name);
	}

	/** Creates the instance owner (`POST /rest/owner/setup`, what the setup page sends). */
	async setupOwner(): Promise<void> {
		await this.request('POST', '/owner/setup', OWNER);
	}

	/** Signs in as the owner (`POST /rest/login`); the field was `email` before `emailOrLdapLoginId`. */
	async login(): Promise<void> {
		await this.request('POST', '/login', {
			emailOrLdapLoginId: OWNER.email,
			email: OWNER.email,
			password: OWNER.password,
		});
	}

	/** The auth cookie (`n8n-auth=…`) and browser id, for a browser to reuse this session. */
	session(): { cookie: string; browserId: string } {
		return { cookie: this.cookie, browserId: this.browserId };
	}

	/** Creates a credential (`POST /rest/credentials`); resolves its id. */
	async createCredential(credential: {
		name: string;
		type: string;
		data: IDataObject;
	}): Promise<string> {
		const created = await this.request<{ id: string }>('POST', '/credentials', credential);
		return created.id;
	}

	/** Runs a credential's test as the editor's Test button does (`POST /rest/credentials/test`). */
	async testCredential(credential: {
		id: string;
		name: string;
		type: string;
		data: IDataObject;
	}): Promise<CredentialTestResult> {
		return await this.request<CredentialTestResult>('POST', '/credentials/test', {
			credentials: credential,
		});
	}

	/** Saves a new workflow (`POST /rest/workflows`), inactive. */
	async createWorkflow(workflow: WorkflowJson): Promise<StoredWorkflow> {
		const { name, nodes, connections, settings, pinData } = workflow;
		return await this.request<StoredWorkflow>('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings,
			pinData,
			active: false,
		});
	}

	/** Saves changes to a workflow (`PATCH /rest/workflows/:id`); resolves the new version. */
	async updateWorkflow(id: string, changes: IDataObject): Promise<StoredWorkflow> {
		return await this.request<StoredWorkflow>('PATCH', `/workflows/${id}`, changes);
	}

	/**
	 * Runs a saved workflow from `triggerName` as the editor's "Execute workflow" button does
	 * (`POST /rest/workflows/:id/run`); resolves the execution id. `workflowData` is sent as well for
	 * n8n versions that ran the workflow from the request body.
	 */
	async runManually(workflow: StoredWorkflow & WorkflowJson, triggerName: string): Promise<string> {
		const { id, name, nodes, connections, settings, pinData } = workflow;
		const started = await this.request<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${id}/run`,
			{
				triggerToStartFrom: { name: triggerName },
				workflowData: { id, name, nodes, connections, settings, pinData, active: false },
			},
		);
		if (!started.executionId)
			throw new Error(`n8n did not start "${name}": ${JSON.stringify(started)}`);
		return started.executionId;
	}

	/** One execution with its run data (`GET /rest/executions/:id`). */
	async execution(id: string): Promise<ExecutionRecord> {
		return await this.request<ExecutionRecord>('GET', `/executions/${id}`);
	}

	/**
	 * Polls an execution until it has finished (any final status) and its run data is saved; throws
	 * after `timeoutMs`. n8n 1.x on SQLite saves the status and the run data in two statements, outside
	 * a transaction (`ExecutionRepository.updateExistingExecution`), so a read in between sees the final
	 * status with the data of the execution's start.
	 */
	async waitForExecution(id: string, timeoutMs: number): Promise<ExecutionRecord> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.execution(id);
			if (FINAL_STATUSES.has(execution.status) && hasRunData(execution)) return execution;
			if (Date.now() > deadline)
				throw new Error(`Execution ${id} still "${execution.status}" after ${timeoutMs / 1000}s`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** The executions of a workflow, newest first (`GET /rest/executions?filter=…`). */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.request<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return page.results;
	}

	/**
	 * Activates (publishes) a workflow: `POST /rest/workflows/:id/activate {versionId}` on n8n 2.x;
	 * n8n versions without that endpoint activate with `PATCH {active: true}`.
	 */
	async activate(workflow: StoredWorkflow): Promise<void> {
		try {
			await this.request('POST', `/workflows/${workflow.id}/activate`, {
				versionId: workflow.versionId,
			});
		} catch (error) {
			if (!(error instanceof RestError) || error.status !== 404) throw error;
			await this.request('PATCH', `/workflows/${workflow.id}`, {
				active: true,
				versionId: workflow.versionId,
			});
		}
	}

	/** Deactivates a workflow (`POST /rest/workflows/:id/deactivate`, else `PATCH {active: false}`). */
	async deactivate(workflow: StoredWorkflow): Promise<void> {
		try {
			await this.request('POST', `/workflows/${workflow.id}/deactivate`, {});
		} catch (error) {
			if (!(error instanceof RestError) || error.status !== 404) throw error;
			await this.request('PATCH', `/workflows/${workflow.id}`, { active: false });
		}
	}

	/**
	 * Installs a community package with n8n's installer, as the Community Nodes page's Install does
	 * when unverified packages are allowed (`POST /rest/community-packages {name}`: the version npm
	 * tags `latest`); resolves what n8n recorded.
	 */
	async installPackage(name: string): Promise<InstalledPackage> {
		return await this.request<InstalledPackage>('POST', '/community-packages', { name });
	}

	/**
	 * Updates an installed community package as the page's Update button does when unverified
	 * packages are allowed (`PATCH /rest/community-packages {name}`: to `latest`).
	 */
	async updatePackage(name: string): Promise<InstalledPackage> {
		return await this.request<InstalledPackage>('PATCH', '/community-packages', { name });
	}

	/** The installed community packages, with any update npm reports (`GET /rest/community-packages`). */
	async installedPackages(): Promise<InstalledPackage[]> {
		return await this.request<InstalledPackage[]>('GET', '/community-packages');
	}

	/** A stored workflow with its static data (`GET /rest/workflows/:id`). */
	async workflowStaticData(id: string): Promise<IDataObject> {
		const workflow = await this.request<{ staticData?: IDataObject | string | null }>(
			'GET',
			`/workflows/${id}`,
		);
		const data = workflow.staticData;
		if (typeof data === 'string') return JSON.parse(data) as IDataObject;
		return data ?? {};
	}

	/** A binary file an execution stored (`GET /rest/binary-data?id=…&action=download`). */
	async binaryData(binaryDataId: string): Promise<Buffer> {
		return await this.download(
			`/binary-data?id=${encodeURIComponent(binaryDataId)}&action=download`,
		);
	}
}
