import { WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	Logger,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { jsonParse, Workflow } from 'n8n-workflow';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseForm } from 'node:querystring';

import type { Engine, WorkflowJson, WorkflowRun } from './engine';

/** One line the node logged through `this.logger`. */
export interface LogLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

/** What n8n did with one request to a webhook trigger. */
export interface WebhookOutcome {
	/** HTTP status answered. */
	status: number;
	/** Body answered, as text. */
	body: string;
	/** Body answered, parsed when it is JSON. */
	json: unknown;
	/** The items an execution starts with; null when none starts. */
	items: INodeExecutionData[] | null;
	/** What `webhook()` threw: n8n then answers 500 and records a failed execution. */
	error?: Error;
	/** Whether n8n saved the workflow's static data after this request. */
	staticDataSaved: boolean;
	/** Lines the node logged while handling this request. */
	logs: LogLine[];
	/** Response mode lastNode: nothing answered yet; n8n answers when the execution ends. */
	answerWhenFinished?: boolean;
}

/** A request as a sender makes it. */
export interface WebhookCall {
	contentType?: string;
	body: string | Buffer;
	method?: string;
	headers?: Record<string, string>;
}

/** n8n's answer when `webhook()` throws (WebhookHelpers.executeWebhook, n8n 2.41.1). */
export const WEBHOOK_ERROR_ANSWER = {
	code: 0,
	message: 'Workflow Webhook Error: Workflow could not be started!',
};

/** The parts of an express request a webhook node reads, as n8n's body parser leaves them. */
interface ParsedRequest {
	method: string;
	url: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	params: Record<string, string>;
	query: Record<string, unknown>;
	contentType?: string;
	encoding: BufferEncoding;
	rawBody: Buffer;
	body?: unknown;
}

/** The parts of an express response a webhook node writes (node's own API plus express' status/json/send). */
interface AnswerSink {
	headersSent: boolean;
	writeHead(status: number, headers?: Record<string, string>): AnswerSink;
	setHeader(name: string, value: string): void;
	status(code: number): AnswerSink;
	json(body: unknown): AnswerSink;
	send(body: unknown): AnswerSink;
	end(body?: string | Buffer): void;
}

/** An in-memory response: records what was answered. */
class RecordedAnswer implements AnswerSink {
	statusCode = 200;

	headersSent = false;

	text = '';

	readonly headers: Record<string, string> = {};

	writeHead(status: number, headers: Record<string, string> = {}): this {
		this.statusCode = status;
		for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
		this.headersSent = true;
		return this;
	}

	setHeader(name: string, value: string): void {
		this.headers[name.toLowerCase()] = value;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		this.setHeader('content-type', 'application/json; charset=utf-8');
		this.end(JSON.stringify(body));
		return this;
	}

	send(body: unknown): this {
		if (typeof body === 'string' || Buffer.isBuffer(body)) this.end(body);
		else this.json(body);
		return this;
	}

	end(body?: string | Buffer): void {
		if (body !== undefined) this.text += body.toString();
		this.headersSent = true;
	}
}

/** A node:http response with express' status/json/send, as n8n's webhook server hands it to nodes. */
function expressLike(res: http.ServerResponse): AnswerSink {
	const sink = res as unknown as AnswerSink & http.ServerResponse;
	sink.status = (code: number) => {
		res.statusCode = code;
		return sink;
	};
	sink.json = (body: unknown) => {
		res.setHeader('content-type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return sink;
	};
	sink.send = (body: unknown) => {
		if (typeof body === 'string' || Buffer.isBuffer(body)) res.end(body);
		else sink.json(body);
		return sink;
	};
	return sink;
}

/** Content type and charset of a request, as n8n's parseIncomingMessage reads them. */
function contentTypeOf(headers: http.IncomingHttpHeaders): {
	contentType?: string;
	encoding: BufferEncoding;
} {
	const header = headers['content-type'];
	if (!header) return { encoding: 'utf8' };
	const [type, ...parameters] = header.split(';');
	const charset = parameters
		.map((part) => part.trim())
		.find((part) => part.toLowerCase().startsWith('charset='));
	const encoding = (charset?.slice('charset='.length).toLowerCase() ?? 'utf-8') as BufferEncoding;
	return {
		contentType: type.trim().toLowerCase(),
		encoding: Buffer.isEncoding(encoding) ? encoding : 'utf8',
	};
}

/**
 * Parses the body the way n8n 2.41.1 does for webhook nodes of version 1 (middlewares/body-parser
 * `parseBody`): JSON (a parse failure is answered 422 before the node runs), form-urlencoded (texts,
 * at most 1,000 fields), text/plain (the text); other types are left unparsed (`body` undefined, the
 * bytes in `rawBody`).
 * @returns the 422 answer when JSON does not parse.
 */
function parseBody(request: ParsedRequest): { status: number; json: unknown } | undefined {
	const { rawBody, contentType, encoding } = request;
	if (!rawBody.length) return undefined;
	const text = rawBody.toString(encoding).replace(/^\uFEFF/, '');
	try {
		if (contentType === 'application/json') request.body = jsonParse(text);
		else if (contentType === 'application/x-www-form-urlencoded')
			request.body = parseForm(text, undefined, undefined, { maxKeys: 1000 });
		else if (contentType === 'text/plain') request.body = text;
	} catch (error) {
		return {
			status: 422,
			json: { code: 422, message: 'Failed to parse request body', hint: (error as Error).message },
		};
	}
	return undefined;
}

/**
 * Calls a webhook trigger node through n8n-core's WebhookContext, the way n8n 2.41.1 serves a
 * production webhook (cli: webhooks/live-webhooks.ts, webhooks/webhook-helpers.ts, workflow-runner.ts):
 *
 * - every request builds the Workflow from the static data last saved (n8n reads it from the database
 *   per request), so two runners sharing a store play two processes of one instance;
 * - the body is parsed as n8n parses it;
 * - when `webhook()` throws, the answer is 500 with n8n's generic message and the static data is
 *   not saved;
 * - when the node answered itself (`noWebhookResponse`) or starts nothing, the static data is saved
 *   if it changed;
 * - when the node returns items and leaves the answer to n8n (response mode onReceived), n8n first
 *   registers the execution — whose WorkflowRunner builds a second Workflow over the same static
 *   data object (establishContextForPersistence), which clears its "changed" flag — then answers
 *   200 `{message: 'Workflow was started'}` and saves only if the flag is still set: so the change
 *   is lost whenever static data had been saved before. Reproduced here with n8n-workflow's own
 *   Workflow class.
 */
export class WebhookRunner {
	private calls = 0;

	/**
	 * @param store where the static data is saved between requests (n8n's database): absent until
	 *   something is saved, as for a new workflow.
	 * @param mode 'webhook' (production URL) or 'manual' (the editor's test URL).
	 */
	constructor(
		private readonly engine: Engine,
		readonly workflow: WorkflowJson,
		readonly nodeName: string,
		readonly store: { staticData?: IDataObject } = {},
		private readonly mode: WorkflowExecuteMode = 'webhook',
	) {}

	/** The webhook's production path, as n8n serves it: `/webhook/<webhookId>/<path>` (path evaluated as n8n does). */
	get path(): string {
		return `/webhook/${this.node().webhookId}/${this.describe('path', 'webhook')}`;
	}

	/**
	 * A field of the node's webhook description, evaluated against the node's parameters as n8n does
	 * (`evaluateSimpleWebhookDescriptionExpression`): `path`, `responseMode`…
	 */
	describe(field: 'path' | 'responseMode', fallback: string): string {
		const node = this.node();
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(
			node.type,
			node.typeVersion,
		) as INodeType;
		const value = nodeType.description.webhooks![0][field] as string | undefined;
		if (value === undefined) return fallback;
		const workflow = this.workflowWith(undefined);
		return String(
			workflow.expression.getSimpleParameterValue(
				workflow.getNode(node.name)!,
				value,
				this.mode,
				{},
				undefined,
				fallback,
			),
		);
	}

	/** A copy of the node's saved static data. */
	staticData(): IDataObject {
		return JSON.parse(
			JSON.stringify(this.store.staticData?.[`node:${this.nodeName}`] ?? {}),
		) as IDataObject;
	}

	private node(): INode {
		const node = this.workflow.nodes.find((candidate) => candidate.name === this.nodeName);
		if (!node) throw new Error(`No node "${this.nodeName}" in workflow "${this.workflow.name}"`);
		return node;
	}

	/** Sends one request to the node, in process. */
	async call(request: WebhookCall): Promise<WebhookOutcome> {
		const rawBody = Buffer.isBuffer(request.body)
			? request.body
			: Buffer.from(request.body, 'utf8');
		const headers: http.IncomingHttpHeaders = { ...(request.headers ?? {}) };
		if (request.contentType) headers['content-type'] = request.contentType;
		const parsed: ParsedRequest = {
			method: request.method ?? 'POST',
			url: this.path,
			path: this.path,
			headers,
			params: {},
			query: {},
			rawBody,
			...contentTypeOf(headers),
		};
		const answer = new RecordedAnswer();
		const outcome = await this.handle(parsed, answer);
		return { ...outcome, status: answer.statusCode, body: answer.text, json: asJson(answer.text) };
	}

	/** Handles one HTTP request received by {@link startWebhookServer}. */
	async serve(
		req: http.IncomingMessage,
		res: http.ServerResponse,
	): Promise<Omit<WebhookOutcome, 'status' | 'body' | 'json'>> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const url = new URL(req.url ?? '/', 'http://localhost');
		const parsed: ParsedRequest = {
			method: req.method ?? 'GET',
			url: req.url ?? '/',
			path: url.pathname,
			headers: req.headers,
			params: {},
			query: Object.fromEntries(url.searchParams),
			rawBody: Buffer.concat(chunks),
			...contentTypeOf(req.headers),
		};
		// The request object the node sees is the real one, with what n8n's middlewares add.
		Object.assign(req, {
			path: parsed.path,
			params: parsed.params,
			query: parsed.query,
			rawBody: parsed.rawBody,
			contentType: parsed.contentType,
			encoding: parsed.encoding,
		});
		return await this.handle(parsed, expressLike(res), req as unknown as ParsedRequest);
	}

	private async handle(
		parsed: ParsedRequest,
		res: AnswerSink,
		request: ParsedRequest = parsed,
	): Promise<Omit<WebhookOutcome, 'status' | 'body' | 'json'>> {
		const logs: LogLine[] = [];
		const none = { items: null, staticDataSaved: false, logs };
		const node = this.node();
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(
			node.type,
			node.typeVersion,
		) as INodeType;
		const description = nodeType.description.webhooks![0];
		if (parsed.method !== description.httpMethod || parsed.path !== this.path) {
			res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
			res.end(
				JSON.stringify({
					code: 404,
					message: `The requested webhook "${parsed.method} ${parsed.path}" is not registered.`,
				}),
			);
			return none;
		}
		const refused = parseBody(parsed);
		if (refused) {
			res.writeHead(refused.status, { 'content-type': 'application/json; charset=utf-8' });
			res.end(JSON.stringify(refused.json));
			return none;
		}
		request.body = parsed.body;

		// As the database hands it over: null until the first save, then an object.
		const loaded =
			this.store.staticData === undefined
				? undefined
				: (JSON.parse(JSON.stringify(this.store.staticData)) as IDataObject);
		const workflow = this.workflowWith(loaded);
		const executionId = `webhook-${++this.calls}`;
		const additionalData = this.engine.additionalData(executionId, this.workflow);
		additionalData.httpRequest = request as never;
		additionalData.httpResponse = res as never;
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: `${node.webhookId}/${this.describe('path', 'webhook')}`,
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
			isTest: this.mode === 'manual',
		};
		const context = new WebhookContext(
			workflow,
			workflow.getNode(node.name)!,
			additionalData,
			this.mode,
			webhookData,
			[],
			null,
		);
		const record =
			(level: LogLine['level']) =>
			(message: string, metadata?: unknown): void => {
				logs.push({ level, message, metadata });
			};
		const logger: Logger = {
			error: record('error'),
			warn: record('warn'),
			info: record('info'),
			debug: record('debug'),
		};
		Object.defineProperty(context, 'logger', { value: logger });

		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			if (!res.headersSent) {
				res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
				res.end(JSON.stringify(WEBHOOK_ERROR_ANSWER));
			}
			return { ...none, error: error as Error };
		}
		const save = () => {
			if (workflow.staticData.__dataChanged !== true) return false;
			this.store.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			return true;
		};
		const items = result.workflowData?.[0] ?? null;
		if (result.noWebhookResponse === true) return { items, staticDataSaved: save(), logs };
		if (result.workflowData === undefined) {
			res.writeHead(Number(description.responseCode ?? 200), {
				'content-type': 'application/json; charset=utf-8',
			});
			res.end(JSON.stringify(result.webhookResponse ?? { message: 'Webhook call received' }));
			return { items: null, staticDataSaved: save(), logs };
		}
		// Response mode lastNode: n8n answers when the execution ends (startWebhookServer does), and
		// saves the static data then.
		if (this.describe('responseMode', 'onReceived') === 'lastNode')
			return { items, staticDataSaved: save(), logs, answerWhenFinished: true };
		// The execution is registered first: WorkflowRunner.run builds a Workflow over the same
		// static data object (establishContextForPersistence), then n8n answers and saves.
		if (loaded !== undefined) this.workflowWith(loaded);
		res.writeHead(Number(description.responseCode ?? 200), {
			'content-type': 'application/json; charset=utf-8',
		});
		res.end(JSON.stringify({ message: 'Workflow was started' }));
		return { items, staticDataSaved: save(), logs };
	}

	private workflowWith(staticData: IDataObject | undefined): Workflow {
		return new Workflow({
			id: this.workflow.id ?? 'wf-webhook',
			name: this.workflow.name,
			nodes: this.workflow.nodes,
			connections: this.workflow.connections,
			active: this.mode !== 'manual',
			nodeTypes: this.engine.nodeTypes,
			settings: this.workflow.settings ?? {},
			staticData,
		});
	}
}

function asJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** One request {@link startWebhookServer} received, and the execution it started. */
export interface Delivery extends Omit<WebhookOutcome, 'status' | 'body' | 'json'> {
	/** The status answered. */
	status: number;
	/** The execution that started with the items (none when no items). */
	run?: WorkflowRun;
}

/** An HTTP server in front of a {@link WebhookRunner}, as n8n's webhook server is. */
export interface WebhookServer {
	/** The production URL of the node's webhook (on 127.0.0.1). */
	url: string;
	deliveries: Delivery[];
	/** The deliveries that started an execution. */
	runs(): WorkflowRun[];
	/**
	 * Resolves once every request received so far is answered and its execution finished; rejects
	 * with the first fault of the harness itself.
	 */
	idle(): Promise<void>;
	close(): Promise<void>;
}

/**
 * Serves a webhook trigger over HTTP on 127.0.0.1: each POST to the node's production path is a
 * webhook call through n8n-core's WebhookContext ({@link WebhookRunner}); when it returns items, the
 * workflow runs from them on n8n's engine, as n8n starts an execution (mode 'webhook').
 */
export async function startWebhookServer(
	engine: Engine,
	runner: WebhookRunner,
): Promise<WebhookServer> {
	const deliveries: Delivery[] = [];
	const pending = new Set<Promise<void>>();
	const failures: unknown[] = [];
	const server = http.createServer((req, res) => {
		const work = (async () => {
			const outcome = await runner.serve(req, res);
			const delivery: Delivery = { ...outcome, status: res.statusCode };
			deliveries.push(delivery);
			if (outcome.items)
				delivery.run = await engine.run(runner.workflow, {
					triggerItems: outcome.items,
					mode: 'webhook',
				});
			if (outcome.answerWhenFinished) {
				// As n8n answers a lastNode webhook (webhook-helpers executeWebhook, responseData noData):
				// 500 {message: 'Error in workflow'} when the execution failed, else 200 with no body.
				const failed =
					!delivery.run ||
					delivery.run.error !== undefined ||
					delivery.run.run.data.resultData.error !== undefined;
				res.writeHead(failed ? 500 : 200, { 'content-type': 'application/json; charset=utf-8' });
				res.end(failed ? JSON.stringify({ message: 'Error in workflow' }) : '');
				delivery.status = res.statusCode;
			}
		})();
		pending.add(work);
		work.then(
			() => pending.delete(work),
			(error: unknown) => {
				// A fault of the harness itself, not an answer: reported by idle().
				failures.push(error);
				if (!res.headersSent) res.writeHead(599).end();
				pending.delete(work);
			},
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${runner.path}`,
		deliveries,
		runs: () => deliveries.flatMap((delivery) => (delivery.run ? [delivery.run] : [])),
		async idle() {
			while (pending.size) await Promise.allSettled([...pending]);
			if (failures.length) throw failures[0];
		},
		close: async () =>
			await new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
