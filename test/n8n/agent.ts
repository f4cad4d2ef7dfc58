/**
 * The package as an AI agent's tool in a real n8n, without an LLM: n8n's AI Agent with an OpenAI
 * Chat Model whose credential's Base URL points at a local scripted mock of OpenAI's Chat
 * Completions API. The mock answers each prompt with the tool calls its script names, then with a
 * final message quoting what the tools answered. The step checks what the model was sent (each
 * tool's name, description and parameters), the requests the sandbox received, and what the tools
 * answered the model (including a refusal with its fix).
 */
import Fastify from 'fastify';
import type { IDataObject, INode } from 'n8n-workflow';

import type { WorkflowJson } from '../harness/engine';
import { manualTrigger } from '../harness/nodes';
import { PACKAGE_NAME } from '../harness/packageInfo';
import { CREDENTIAL_IDS } from '../harness/fixtures';
import { TOOL_DESCRIPTIONS } from '../../nodes/PaymentsService/actions/toolDescriptions';
import { toWorkflowRun } from './execution';
import { waitFor } from './processes';
import { sandboxAdmin } from './scenarios';
import { addPayout, EXECUTION_TIMEOUT_MS, need, type RunState } from './state';

/** One tool call the mock makes: the tool's name as n8n gives it and the arguments. */
interface ScriptedCall {
	tool: string;
	args: IDataObject;
}

/** A chat message as the Chat Completions API carries it. */
interface ChatMessage {
	role: string;
	content?: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

/** A request the mock received. */
export interface ChatRequest {
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: {
			name: string;
			description: string;
			parameters: { properties?: Record<string, IDataObject>; required?: string[] };
		};
	}>;
	stream?: boolean;
}

function text(content: ChatMessage['content']): string {
	if (typeof content === 'string') return content;
	return (content ?? []).map((part) => part.text ?? '').join('');
}

/**
 * Starts the mock on 127.0.0.1. `scripts` maps a prompt (the user message) to the calls to make,
 * one per model turn; when they are made, the model answers `DONE:` and the tools' answers.
 */
export async function startOpenAiMock(scripts: Map<string, ScriptedCall[]>) {
	const requests: ChatRequest[] = [];
	const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
	app.get('/v1/models', async () => ({
		object: 'list',
		data: [{ id: 'mock-model', object: 'model', owned_by: 'mock' }],
	}));
	app.post('/v1/chat/completions', async (request, reply) => {
		const body = request.body as ChatRequest;
		requests.push(body);
		const lastUser = body.messages.map((message) => message.role).lastIndexOf('user');
		const prompt = text(body.messages[lastUser]?.content);
		const script = [...scripts.entries()].find(([key]) => prompt.includes(key))?.[1] ?? [];
		const answers = body.messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
		const call = script[answers.length];
		const message = call
			? {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: `call_${requests.length}`,
							type: 'function',
							function: { name: call.tool, arguments: JSON.stringify(call.args) },
						},
					],
				}
			: {
					role: 'assistant',
					content: `DONE: ${answers.map((answer) => text(answer.content)).join(' | ')}`,
				};
		const finish = call ? 'tool_calls' : 'stop';
		const base = {
			id: `chatcmpl-${requests.length}`,
			created: Math.floor(Date.now() / 1000),
			model: 'mock-model',
		};
		if (!body.stream) {
			return {
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish }],
				usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
			};
		}
		const delta = call
			? {
					role: 'assistant',
					tool_calls: message.tool_calls?.map((entry, index) => ({ index, ...entry })),
				}
			: { role: 'assistant', content: message.content };
		const chunks = [
			{
				...base,
				object: 'chat.completion.chunk',
				choices: [{ index: 0, delta, finish_reason: null }],
			},
			{
				...base,
				object: 'chat.completion.chunk',
				choices: [{ index: 0, delta: {}, finish_reason: finish }],
			},
		];
		reply.header('content-type', 'text/event-stream');
		return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
	});
	const url = await app.listen({ host: '127.0.0.1', port: 0 });
	return { url, requests, close: async () => await app.close() };
}

/** What the model is told of the Deposits tool's Period and Status (README, "AI agents"). */
export const AGENT_PERIOD =
	'Which creation dates, in UTC: today, yesterday, last24Hours, last7Days, last30Days, thisMonth or lastMonth (default yesterday)';
export const AGENT_STATUS =
	'Only deposits in this status: PENDING, APPROVED, COMPLETED, CANCELLED or DECLINED; empty for all';

/** A Payments Service Tool node (the tool variant n8n derives from the action node). */
function toolNode(
	name: string,
	parameters: IDataObject,
	credential: keyof typeof CREDENTIAL_IDS,
	y: number,
	credentialIds: Map<string, string>,
): INode {
	return {
		id: `tool-${name.toLowerCase().replace(/\W+/g, '-')}`,
		name,
		type: `${PACKAGE_NAME}.paymentsServiceTool`,
		typeVersion: 1.1,
		position: [600, y],
		parameters: parameters as INode['parameters'],
		credentials: {
			[credential]: {
				id: credentialIds.get(CREDENTIAL_IDS[credential]) ?? CREDENTIAL_IDS[credential],
				name: credential,
			},
		},
	};
}

/** The "Hold cashout" tool: Cashout → Put On Hold, the Cashout ID chosen by the model. */
export function holdCashoutTool(credentialIds: Map<string, string>): INode {
	return toolNode(
		'Hold cashout',
		{
			resource: 'cashout',
			operation: 'putOnHold',
			cashoutId:
				"={{ $fromAI('cashoutId', 'Cashout ID: the whole number the service gave the cashout', 'string') }}",
		},
		'paymentsServiceCashoutApi',
		480,
		credentialIds,
	);
}

/**
 * Manual Trigger "Start" → "AI Agent" (typeVersion `agentVersion`) with the "OpenAI Chat Model"
 * (typeVersion 1.2, Chat Completions) on the mock's credential; tools connect to "AI Agent".
 */
export function agentNodes(
	prompt: string,
	openAiCredentialId: string,
	agentVersion: number,
): INode[] {
	return [
		manualTrigger('Start'),
		{
			id: 'agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: agentVersion,
			position: [240, 0],
			parameters: {
				promptType: 'define',
				text: prompt,
				options: { systemMessage: 'You help a merchant with payments. Use the tools.' },
			},
		},
		{
			id: 'model',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [200, 240],
			parameters: { model: { __rl: true, mode: 'id', value: 'mock-model' }, options: {} },
			credentials: { openAiApi: { id: openAiCredentialId, name: 'OpenAI mock' } },
		},
	];
}

/** The connections of {@link agentNodes}: Start → AI Agent, the model into the agent. */
export const AGENT_CONNECTIONS = {
	Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
	'OpenAI Chat Model': {
		ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
	},
};

/**
 * The agent workflow: Manual Trigger → AI Agent, with an OpenAI Chat Model and three Payments
 * Service tools. Each tool parameter the model fills is a `$fromAI()` with a description and, where
 * the parameter is optional, a default (n8n then does not mark it required).
 */
export function agentWorkflow(
	prompt: string,
	openAiCredentialId: string,
	credentialIds: Map<string, string>,
): WorkflowJson {
	const nodes: INode[] = [
		...agentNodes(prompt, openAiCredentialId, 2),
		toolNode(
			'Exchange rate',
			{
				resource: 'exchangeRate',
				operation: 'get',
				country: {
					__rl: true,
					mode: 'id',
					value:
						"={{ $fromAI('country', 'Country whose currency to convert to: 2-letter ISO code, e.g. MX', 'string') }}",
				},
				amount:
					"={{ $fromAI('amountUsd', 'Amount in USD to convert, a number (default 1)', 'number', 1) }}",
			},
			'paymentsServiceReadOnlyApi',
			240,
			credentialIds,
		),
		toolNode(
			'Deposits',
			{
				resource: 'deposit',
				operation: 'getMany',
				period: `={{ $fromAI('period', '${AGENT_PERIOD}', 'string', 'yesterday') }}`,
				filters: { status: `={{ $fromAI('status', '${AGENT_STATUS}', 'string', '') }}` },
				limit:
					"={{ $fromAI('limit', 'How many deposits at most, 1 to 1000 (default 5)', 'number', 5) }}",
			},
			'paymentsServiceSessionApi',
			360,
			credentialIds,
		),
		holdCashoutTool(credentialIds),
	];
	const tools = ['Exchange rate', 'Deposits', 'Hold cashout'];
	return {
		name: `Agent: ${prompt.slice(0, 40)}`,
		nodes,
		connections: {
			...AGENT_CONNECTIONS,
			...Object.fromEntries(
				tools.map((tool) => [
					tool,
					{ ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				]),
			),
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/** The scripted conversations: a read, a list, a state change and a refusal the model can act on. */
const PROMPTS = {
	rate: 'How many Mexican pesos are 100 USD?',
	deposits: 'Which deposits came in yesterday?',
	hold: 'Hold payout',
	refused: 'Hold the delivered payout',
};

/** Runs one prompt through the agent workflow; resolves the agent's answer. */
async function ask(state: RunState, prompt: string, openAiCredentialId: string): Promise<string> {
	const client = need(state.client, 'the REST client');
	const workflow = agentWorkflow(prompt, openAiCredentialId, state.credentialIds);
	const stored = await client.createWorkflow(workflow);
	const id = await client.runManually({ ...workflow, ...stored }, 'Start');
	const execution = await client.waitForExecution(id, EXECUTION_TIMEOUT_MS);
	const run = await toWorkflowRun(client, execution);
	if (execution.status !== 'success')
		throw new Error(
			`agent execution ${id} ended "${execution.status}": ${run.error?.message ?? 'no error message'}`,
		);
	return String(run.output('AI Agent')[0]?.json.output ?? '');
}

/**
 * The agent step of `npm run test:n8n`: starts the mock, creates the OpenAI credential pointing at
 * it, and runs four prompts. Throws on the first thing that is not as it must be.
 */
export async function agentStep(state: RunState): Promise<string> {
	const sandbox = need(state.sandbox, 'the sandbox');
	const client = need(state.client, 'the REST client');
	const pending = addPayout(sandbox, 'payout-agent', ['MX', 900, 'MXN']);
	const delivered = addPayout(sandbox, 'payout-agent-done', ['MX', 700, 'MXN']);
	await sandboxAdmin(sandbox, `/cashouts/${delivered.idCashout}/advance`, { to: 'DELIVERED' });
	const scripts = new Map<string, ScriptedCall[]>([
		[PROMPTS.rate, [{ tool: 'Exchange_rate', args: { country: 'MX', amountUsd: 100 } }]],
		[
			PROMPTS.deposits,
			[{ tool: 'Deposits', args: { period: 'last7Days', status: 'COMPLETED', limit: 3 } }],
		],
		[PROMPTS.refused, [{ tool: 'Hold_cashout', args: { cashoutId: String(delivered.idCashout) } }]],
		[PROMPTS.hold, [{ tool: 'Hold_cashout', args: { cashoutId: String(pending.idCashout) } }]],
	]);
	const mock = await startOpenAiMock(scripts);
	try {
		const credentialId = await client.createCredential({
			name: 'OpenAI mock',
			type: 'openAiApi',
			data: { apiKey: 'sk-mock', url: `${mock.url}/v1` },
		});
		const lines: string[] = [];

		const rate = await ask(state, PROMPTS.rate, credentialId);
		const rateRequests = sandbox.log
			.find('GET', '/v3/exchange_rates')
			.filter((entry) => entry.query.country === 'MX' && Number(entry.query.amount) === 100);
		if (rateRequests.length !== 1)
			throw new Error(
				`the sandbox received ${rateRequests.length} exchange-rate requests for 100 USD in MX, expected 1; ${mock.requests.length} model requests; the agent answered: ${rate.slice(0, 600)}`,
			);
		if (!/converted_amount/.test(rate))
			throw new Error(`the model was not given the exchange rate: ${rate}`);
		const first = mock.requests[0];
		const sent = new Map((first.tools ?? []).map((tool) => [tool.function.name, tool.function]));
		const expectTool = (name: string, key: string) => {
			const tool = sent.get(name);
			if (!tool)
				throw new Error(
					`the model was not offered ${name} (offered: ${[...sent.keys()].join(', ')})`,
				);
			if (tool.description !== TOOL_DESCRIPTIONS[key])
				throw new Error(
					`${name} was described as "${tool.description}", not by its tool description`,
				);
			return tool;
		};
		const exchange = expectTool('Exchange_rate', 'exchangeRate.get');
		expectTool('Deposits', 'deposit.getMany');
		expectTool('Hold_cashout', 'cashout.putOnHold');
		const country = exchange.parameters.properties?.country;
		if (!String(country?.description ?? '').includes('2-letter ISO code'))
			throw new Error(`the country parameter reached the model as ${JSON.stringify(country)}`);
		const required = exchange.parameters.required ?? [];
		if (!required.includes('country') || required.includes('amountUsd'))
			throw new Error(
				`Exchange_rate marks ${JSON.stringify(required)} required; country is, amountUsd (with a default) is not`,
			);
		lines.push(
			`model offered ${sent.size} tools, each with its tool description; Exchange_rate requires ${JSON.stringify(required)}; GET /v3/exchange_rates?country=MX&amount=100 sent once`,
		);

		const deposits = await ask(state, PROMPTS.deposits, credentialId);
		const listed = sandbox.log.find('GET', '/v1/deposits').at(-1);
		if (!listed) throw new Error('the sandbox received no deposit list request');
		// The model chose the Period and the Status: the last 7 days, completed deposits only.
		const days = (Number(listed.query.to) - Number(listed.query.from)) / 86_400;
		if (listed.query.status !== 'COMPLETED' || Math.round(days) !== 7)
			throw new Error(
				`the deposit list was read with ${JSON.stringify(listed.query)}, not the model's last 7 days of COMPLETED deposits`,
			);
		const depositsTool = sent.get('Deposits');
		for (const parameter of ['period', 'status']) {
			if (!depositsTool?.parameters.properties?.[parameter])
				throw new Error(
					`the Deposits tool did not offer the model ${parameter}: ${JSON.stringify(depositsTool?.parameters)}`,
				);
		}
		if (!/idDeposit/.test(deposits))
			throw new Error(`the model was not given deposits: ${deposits.slice(0, 200)}`);
		// Version 1.1 nodes simplify Get Many by default: the model gets the fields a report needs.
		if (/merchantName|feeCurrency/.test(deposits))
			throw new Error(
				`the model was given whole deposit records, not simplified ones: ${deposits.slice(0, 300)}`,
			);
		lines.push(
			`Deposits: the model chose Period last7Days and Status COMPLETED: GET /v1/deposits (${new URLSearchParams(listed.query).toString()}); the model got ${deposits.length} characters`,
		);

		const holdsBefore = sandbox.log.find('PUT', '/v3/cashout/status').length;
		const refused = await ask(state, PROMPTS.refused, credentialId);
		if (!/"error"/.test(refused) || !/"description"/.test(refused))
			throw new Error(`a refused hold did not reach the model with its explanation: ${refused}`);
		const held = await ask(state, PROMPTS.hold, credentialId);
		const holds = sandbox.log.find('PUT', '/v3/cashout/status').length - holdsBefore;
		const status = sandbox.control
			.cashouts(1001)
			.find((cashout) => cashout.idCashout === pending.idCashout);
		if (!/ON_HOLD/.test(held) || status?.status !== 'ON_HOLD')
			throw new Error(`the pending cashout was not put on hold: ${held.slice(0, 200)}`);
		lines.push(
			`Hold_cashout: refused for a DELIVERED cashout, the model got the refusal and its description; then held cashout ${pending.idCashout} (${holds} hold requests in all)`,
		);
		lines.push(`${mock.requests.length} requests to the model mock`);
		return lines.join('\n');
	} finally {
		await mock.close();
	}
}

/** One JSON-RPC answer of an MCP server: a JSON body, or the first `data:` line of an event stream. */
function mcpAnswer(body: string): IDataObject {
	const trimmed = body.trim();
	if (trimmed.startsWith('{')) return JSON.parse(trimmed) as IDataObject;
	const data = trimmed.split('\n').find((line) => line.startsWith('data:'));
	if (!data)
		throw new Error(`the MCP server answered neither JSON nor an event: ${trimmed.slice(0, 200)}`);
	return JSON.parse(data.slice(5)) as IDataObject;
}

/**
 * n8n's MCP Server Trigger (typeVersion 2, Streamable HTTP) serving the Exchange rate tool, as an
 * MCP client sees it: `initialize`, `tools/list` (the tool's name, description and input schema)
 * and `tools/call` (the sandbox receives the request; the client gets the rate). n8n 2.x only: the
 * trigger's version 2 does not exist on 1.x.
 */
export async function mcpStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const main = need(state.main, 'n8n main');
	const path = `payments-mcp-${Date.now()}`;
	const exchange = agentWorkflow('unused', 'unused', state.credentialIds).nodes.find(
		(node) => node.name === 'Exchange rate',
	) as INode;
	const workflow: WorkflowJson = {
		name: 'MCP: Payments Service tools',
		nodes: [
			{
				id: 'mcp',
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [400, 0],
				webhookId: path,
				parameters: { path },
			},
			{ ...exchange, position: [200, 240] },
		],
		connections: {
			'Exchange rate': { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
	const stored = await client.createWorkflow(workflow);
	await client.activate({ ...workflow, ...stored });
	const url = `${main.url}/mcp/${path}`;
	let session: string | undefined;
	const rpc = async (
		method: string,
		params: IDataObject,
		id?: number,
	): Promise<IDataObject | undefined> => {
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
		};
		if (session) headers['mcp-session-id'] = session;
		const response = await fetch(url, {
			method: 'POST',
			headers,
			body: JSON.stringify({ jsonrpc: '2.0', method, params, ...(id === undefined ? {} : { id }) }),
		});
		session = response.headers.get('mcp-session-id') ?? session;
		const body = await response.text();
		if (!response.ok)
			throw new Error(`MCP ${method} answered ${response.status}: ${body.slice(0, 300)}`);
		return id === undefined ? undefined : mcpAnswer(body);
	};
	try {
		await waitFor(
			`the MCP server at ${url}`,
			async () => {
				try {
					await rpc(
						'initialize',
						{
							protocolVersion: '2025-03-26',
							capabilities: {},
							clientInfo: { name: 'payments-e2e', version: '1' },
						},
						1,
					);
					return true;
				} catch {
					return false;
				}
			},
			{ timeoutMs: 30_000, intervalMs: 500 },
		);
		await rpc('notifications/initialized', {});
		const listed = (await rpc('tools/list', {}, 2))?.result as
			| { tools?: Array<{ name: string; description: string; inputSchema: IDataObject }> }
			| undefined;
		const tool = listed?.tools?.find((candidate) => candidate.name === 'Exchange_rate');
		if (!tool)
			throw new Error(
				`tools/list did not list Exchange_rate: ${JSON.stringify(listed).slice(0, 300)}`,
			);
		if (tool.description !== TOOL_DESCRIPTIONS['exchangeRate.get'])
			throw new Error(`tools/list described Exchange_rate as "${tool.description}"`);
		const before = sandbox.log.find('GET', '/v3/exchange_rates').length;
		const called = (
			await rpc(
				'tools/call',
				{ name: 'Exchange_rate', arguments: { country: 'BR', amountUsd: 20 } },
				3,
			)
		)?.result as IDataObject | undefined;
		const text = JSON.stringify(called ?? {});
		const requests = sandbox.log.find('GET', '/v3/exchange_rates').slice(before);
		if (
			requests.length !== 1 ||
			requests[0].query.country !== 'BR' ||
			Number(requests[0].query.amount) !== 20
		) {
			throw new Error(
				`tools/call sent ${requests.length} exchange-rate requests: ${JSON.stringify(requests.map((entry) => entry.query))}`,
			);
		}
		if (!/converted_amount/.test(text))
			throw new Error(`tools/call answered ${text.slice(0, 300)}`);
		return `${url}: tools/list lists Exchange_rate with its tool description and schema ${JSON.stringify(Object.keys((tool.inputSchema.properties as IDataObject) ?? {}))}; tools/call sent GET /v3/exchange_rates?country=BR&amount=20 once and answered the rate`;
	} finally {
		await client.deactivate({ ...workflow, ...stored });
	}
}
