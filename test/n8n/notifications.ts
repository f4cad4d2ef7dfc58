/**
 * The Notification Trigger under concurrency in a real n8n (regular mode; queue mode with the
 * notifications sent to two `n8n webhook` processes): how often each change starts the workflow when
 * copies of a notification arrive at the same moment, with the trigger alone, and (queue mode only:
 * in one process the trigger's claim already stops every copy before them) with the README's recipe
 * (docs/recipes/notifications-once-per-change.json: the change key recorded under a unique key in
 * the merchant's own PostgreSQL) and, with `--remove-duplicates`, n8n's Remove Duplicates node after
 * the trigger. Then at-least-once:
 * with Respond "When Workflow Finished", a workflow that fails gets the notification again from the
 * service's retry and handles it once.
 *
 * The trigger alone, in one process (regular mode), must handle each change once: its in-process
 * claim (trigger/notification/claims.ts) covers copies at the same moment and repeats after a burst,
 * so that step fails unless none is handled twice or again. With several `n8n webhook` processes
 * (queue mode) the claim cannot cover copies reaching different processes: there the trigger alone
 * and Remove Duplicates are measurements of that limit, reported in the step's output, failing only
 * when a check that must hold does not (forged ones refused, every change started at least once).
 * The recipe's step fails unless every change was handled exactly once; in regular mode the recipe
 * runs in the at-least-once step.
 */
import { createHmac, randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import path from 'path';

import type { INodeParameters } from 'n8n-workflow';

import type { WorkflowJson } from '../harness/engine';
import { PACKAGE_NAME } from '../harness/packageInfo';
import { mapCredentials } from './catalogue';
import { waitFor } from './processes';
import type { Steps } from './report';
import { isFinished, type N8nClient, type ExecutionSummary, type StoredWorkflow } from './rest';
import { createMerchantDatabase, startPostgres, type MerchantDatabase } from './services';
import { need, type RunState } from './state';
import { inTurn } from './turns';

const SECRET = 'e2e-notification-url-secret-0123';
/** The recipe shipped for users; the step runs this very file. */
const RECIPE_FILE = path.join(
	__dirname,
	'..',
	'..',
	'docs',
	'recipes',
	'notifications-once-per-change.json',
);
/** The recipe's table, as its sticky note tells the user to create it. */
const RECIPE_TABLE =
	'CREATE TABLE handled_notifications (change_key text PRIMARY KEY, handled_at timestamptz NOT NULL DEFAULT now())';
/** The credential id the recipe's Postgres node names. */
const RECIPE_CREDENTIAL = 'merchant-db';

type Variant = 'alone' | 'removeDuplicates' | 'recipe';

const LABELS: Record<Variant, string> = {
	alone: 'trigger alone',
	removeDuplicates: 'trigger + Remove Duplicates',
	recipe: 'trigger + unique key in the merchant database (recipe)',
};

/** A local HTTP server the workflows call: `/hit/<key>` counts; `/fail-once/<key>` answers 500 the first time. */
interface Counter {
	url: string;
	hits: Map<string, number>;
	close(): Promise<void>;
}

async function startCounter(): Promise<Counter> {
	const hits = new Map<string, number>();
	const server = http.createServer((req, res) => {
		const [, route, ...rest] = (req.url ?? '').split('/');
		const key = decodeURIComponent(rest.join('/'));
		const seen = hits.get(key) ?? 0;
		hits.set(key, seen + 1);
		const fail = route === 'fail-once' && seen === 0;
		res
			.writeHead(fail ? 500 : 200, { 'content-type': 'application/json' })
			.end(fail ? '{"error":"first call fails"}' : '{"ok":true}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		hits,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** An HTTP Request node calling the counter with `keyExpression` (an n8n expression without `=`). */
function counterNode(
	name: string,
	url: string,
	position: [number, number],
): WorkflowJson['nodes'][number] {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position,
		parameters: { url, options: {} },
	};
}

/** A version-2 cashout trigger with the URL secret. */
function triggerNode(name: string, options: INodeParameters = {}): WorkflowJson['nodes'][number] {
	return {
		id: randomUUID(),
		name,
		type: `${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { notifications: 'cashouts', urlSecret: SECRET, options },
		credentials: { paymentsServiceCashoutApi: { id: 'cred-cashout', name: 'Cashout' } },
	};
}

/** Cashout trigger → [Remove Duplicates on the change key] → GET the counter. */
function limitsWorkflow(counterUrl: string, removeDuplicates: boolean): WorkflowJson {
	const trigger = 'Cashout Notification';
	const hit = 'Count';
	const nodes = [
		triggerNode(trigger),
		counterNode(hit, `=${counterUrl}/hit/{{ $json.notification.changeKey }}`, [440, 0]),
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
				dedupeValue: '={{ $json.notification.changeKey }}',
				options: {},
			},
		});
		connections[trigger] = { main: [[{ node: 'Remove Duplicates', type: 'main', index: 0 }]] };
		connections['Remove Duplicates'] = { main: [[{ node: hit, type: 'main', index: 0 }]] };
	} else {
		connections[trigger] = { main: [[{ node: hit, type: 'main', index: 0 }]] };
	}
	return {
		name: `Notification limits (${LABELS[removeDuplicates ? 'removeDuplicates' : 'alone']})`,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/**
 * The recipe as shipped, with test changes: every status passes (the sandbox's payouts are
 * PENDING), the URL secret is set, `triggerOptions` are added, and its placeholder "Handle the
 * change" calls the counter at `/<route>/<change key>` (keeping its name, error output and wiring).
 */
function recipeWorkflow(
	counterUrl: string,
	route: 'hit' | 'fail-once',
	triggerOptions: INodeParameters = {},
): WorkflowJson {
	const recipe = JSON.parse(readFileSync(RECIPE_FILE, 'utf8')) as WorkflowJson;
	let work = 0;
	const nodes = recipe.nodes.map((node) => {
		if (node.type === `${PACKAGE_NAME}.paymentsServiceNotificationTrigger`) {
			const options = { ...(node.parameters.options as INodeParameters), ...triggerOptions };
			return {
				...node,
				webhookId: randomUUID(),
				parameters: { ...node.parameters, cashoutStatuses: [], urlSecret: SECRET, options },
			};
		}
		if (node.name === 'Handle the change') {
			work++;
			const counter = counterNode(
				node.name,
				`=${counterUrl}/${route}/{{ $('Cashout Notification').item.json.notification.changeKey }}`,
				node.position,
			);
			return {
				...node,
				type: counter.type,
				typeVersion: counter.typeVersion,
				parameters: counter.parameters,
			};
		}
		return node;
	});
	if (work !== 1) throw new Error(`${RECIPE_FILE} has no "Handle the change" node`);
	return {
		...recipe,
		name: `Notification recipe (${route === 'hit' ? 'once per change' : 'at least once'})`,
		nodes,
	};
}

/** The merchant database of the recipe: on queue mode's PostgreSQL, else on one started for it. */
async function merchantDatabase(state: RunState): Promise<MerchantDatabase> {
	const port =
		state.backends?.postgres.port ?? (await startPostgres(state.runDir, state.logDir)).port;
	return await createMerchantDatabase(port, `merchant_${Date.now()}`, RECIPE_TABLE);
}

/** Creates n8n's Postgres credential for `database` and maps the recipe's credential id to it. */
async function postgresCredential(state: RunState, database: MerchantDatabase): Promise<void> {
	const client = need(state.client, 'the REST client');
	const id = await client.createCredential({
		name: 'Merchant database',
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port: database.port,
			database: database.database,
			user: database.user,
			password: '',
			ssl: 'disable',
			maxConnections: 100,
		},
	});
	state.credentialIds.set(RECIPE_CREDENTIAL, id);
}

/**
 * The base URLs that receive production webhooks: queue mode's `n8n webhook` processes when
 * started (a load balancer would spread notifications over them), else n8n main.
 */
function receivers(state: RunState): string[] {
	return state.webhooks.length
		? state.webhooks.map((webhook) => webhook.url)
		: [need(state.main, 'n8n main').url];
}

/**
 * The workflow's newest 100 executions (n8n's page limit) and how many it has in all: executions
 * start in order, so when the newest 100 have finished, the older ones have too.
 */
async function newestExecutions(
	client: N8nClient,
	workflowId: string,
): Promise<{ count: number; results: ExecutionSummary[] }> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return await client.request<{ count: number; results: ExecutionSummary[] }>(
		'GET',
		`/executions?filter=${filter}&limit=100`,
	);
}

/** Waits (up to 5 minutes: queue-mode workers on a loaded machine are slow) until every execution of the workflow finished and none was added for 2 s; resolves how many. */
async function quiet(
	client: N8nClient,
	workflowId: string,
): Promise<{ count: number; results: ExecutionSummary[] }> {
	let seen = -1;
	return await waitFor(
		'the executions to finish',
		async () => {
			const page = await newestExecutions(client, workflowId);
			const done = page.results.every(isFinished);
			const stable = done && page.count === seen;
			seen = done ? page.count : -1;
			return stable && page;
		},
		{ timeoutMs: 300_000, intervalMs: 2000 },
	);
}

/** Unix ms as ISO 8601 UTC to the second, as the change key writes it. */
function isoSeconds(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A form-encoded cashout notification as the service sends it (control made with `secret`), with
 * the `date` of its change (`YYYY-MM-DD HH:MM:SS`, GMT): every delivery of one change carries the
 * same one.
 */
function cashoutForm(cashoutId: number, externalId: string, secret: string, at: number): string {
	const control = createHmac('sha256', secret)
		.update(`Be4${externalId}Bo7`)
		.digest('hex')
		.toUpperCase();
	return new URLSearchParams({
		date: isoSeconds(at).slice(0, 19).replace('T', ' '),
		external_id: externalId,
		control,
		cashout_id: String(cashoutId),
	}).toString();
}

/**
 * POSTs a form to `url`; resolves the HTTP status, or 0 when no answer came (the connection refused,
 * reset or timed out: n8n under a burst on a loaded machine). The service then delivers the
 * notification again, as the bursts below do for every one.
 */
async function post(url: string, form: string): Promise<number> {
	try {
		return (
			await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: form,
			})
		).status;
	} catch (error) {
		if (error instanceof TypeError && error.message === 'fetch failed') return 0;
		throw error;
	}
}

/** Activates `workflow` and waits until every receiver serves its trigger's production URL; resolves those URLs. */
async function activateOn(
	state: RunState,
	workflow: StoredWorkflow & WorkflowJson,
): Promise<string[]> {
	const client = need(state.client, 'the REST client');
	const trigger = workflow.nodes.find(
		(node) => node.type === `${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
	);
	if (!trigger?.webhookId)
		throw new Error(`"${workflow.name}" has no notification trigger with a webhookId`);
	const urls = receivers(state).map(
		(base) => `${base}/webhook/${trigger.webhookId}/webhook/${SECRET}`,
	);
	await client.activate(workflow);
	for (const url of urls) {
		// A body without an id: a live trigger answers 400 and starts nothing.
		await waitFor(
			`the webhook ${url} to be registered`,
			async () => (await post(url, 'x')) === 400,
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
	}
	return urls;
}

/** What one variant did. */
interface Figures {
	/** Of 10 changes each notified twice at the same instant: how many were handled twice. */
	doubles: number;
	/** Times the 200 changes notified at once were handled. */
	burst: number;
	/**
	 * Of those 200 notifications, how many n8n answered other than 2xx (e.g. 503 "Database is not
	 * ready" on a loaded machine: the node never saw them; the service would send them again).
	 */
	refused: number;
	/** Times they were handled when each was notified once more (first handlings of the refused included). */
	repeats: number;
	/** Of the 200 changes, how many were handled more than once in all: handled again. */
	again: number;
	/** Of the 200 changes, how many were never handled (both deliveries refused by n8n). */
	never: number;
	executions: number;
}

/**
 * Runs the measurements on one workflow: 10 changes each notified twice at the same instant (the
 * copies to different receivers when there are several), then 200 changes notified at once (50 in
 * flight) and each notified again, to another receiver, once they were answered. A burst that
 * loads the machine for minutes: in the burst turn (turns.ts), so that runs side by side do not
 * overload it together (three at once timed out, load average above 20).
 */
async function measure(state: RunState, variant: Variant): Promise<Figures> {
	return await inTurn(
		`the Notification Trigger's burst (${variant})`,
		async () => await measureNow(state, variant),
		['burst'],
	);
}

/** measure's work. */
async function measureNow(state: RunState, variant: Variant): Promise<Figures> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const counter = await startCounter();
	try {
		const built =
			variant === 'recipe'
				? recipeWorkflow(counter.url, 'hit')
				: limitsWorkflow(counter.url, variant === 'removeDuplicates');
		const workflow = mapCredentials(built, state.credentialIds);
		const stored = { ...workflow, ...(await client.createWorkflow(workflow)) };
		const urls = await activateOn(state, stored);
		const at = (index: number) => urls[index % urls.length];
		try {
			const secret = sandbox.credentials.cashout.apiSignature;
			const mid = sandbox.credentials.cashout.merchantId;
			const stamp = Date.now();
			const payouts = Array.from({ length: 210 }, (_, index) =>
				sandbox.control.addCashout({ idMerchant: mid, externalId: `limits-${stamp}-${index}` }),
			);
			// Each change dated as the service dates it (GMT, to the second): its change key.
			const dated = new Map(payouts.map((payout) => [payout.idCashout, Date.now()]));
			const form = (payout: (typeof payouts)[number], key = secret) =>
				cashoutForm(payout.idCashout, payout.externalId, key, dated.get(payout.idCashout)!);
			const keyOf = (payout: { idCashout: number }) =>
				`cashout:${payout.idCashout}:PENDING:${isoSeconds(dated.get(payout.idCashout)!)}`;
			const forged = await Promise.all(
				payouts
					.slice(0, 5)
					.map(async (payout, index) => await post(at(index), form(payout, 'forged'))),
			);
			if (forged.some((status) => status !== 401))
				throw new Error(`forged notifications answered ${forged.join(', ')}, not 401`);
			const handled = (list: typeof payouts) =>
				list.reduce((sum, payout) => sum + (counter.hits.get(keyOf(payout)) ?? 0), 0);

			// 2 identical notifications at the same instant, for 10 changes.
			const pairs = payouts.slice(0, 10);
			for (const payout of pairs) {
				const body = form(payout);
				await Promise.all([post(at(0), body), post(at(1), body)]);
			}
			await quiet(client, stored.id);
			const perPair = pairs.map((payout) => counter.hits.get(keyOf(payout)) ?? 0);
			if (perPair.some((hits) => hits < 1))
				throw new Error(`a change notified twice at once was never handled: ${perPair.join(', ')}`);

			// 200 at once, then each again.
			const burst = payouts.slice(10, 210);
			const forms = burst.map((payout) => form(payout));
			const queue = forms.map((form, index) => ({ form, index }));
			const answers: number[] = [];
			await Promise.all(
				Array.from({ length: 50 }, async () => {
					for (let next = queue.shift(); next !== undefined; next = queue.shift())
						answers.push(await post(at(next.index), next.form));
				}),
			);
			await quiet(client, stored.id);
			const firstRound = handled(burst);
			for (const [index, form] of forms.entries()) await post(at(index + 1), form);
			const { count } = await quiet(client, stored.id);
			const never = burst.filter((payout) => (counter.hits.get(keyOf(payout)) ?? 0) < 1).length;
			// One process: n8n may refuse a delivery under load, never both. Several processes on a
			// loaded machine can refuse both (their database connections time out): measured.
			if (never > 0 && urls.length === 1)
				throw new Error(`${never} change(s) of the burst were never handled`);
			return {
				never,
				doubles: perPair.filter((hits) => hits > 1).length,
				burst: firstRound,
				refused: answers.filter((status) => status < 200 || status > 299).length,
				repeats: handled(burst) - firstRound,
				again: burst.filter((payout) => (counter.hits.get(keyOf(payout)) ?? 0) > 1).length,
				executions: count,
			};
		} finally {
			await client.deactivate(stored);
		}
	} finally {
		await counter.close();
	}
}

/** One line of figures. */
function line(variant: Variant, figures: Figures, receiverCount: number): string {
	const where = receiverCount > 1 ? ` (spread over ${receiverCount} webhook processes)` : '';
	const refused = figures.refused
		? ` (${figures.refused} answered non-2xx by n8n or not at all, not seen by the node)`
		: '';
	return `${LABELS[variant]}${where}: 2 identical at once → handled twice for ${figures.doubles} of 10 changes; 200 at once → handled ${figures.burst} times${refused}, their repeats → ${figures.repeats} more, handled again: ${figures.again} of 200${figures.never ? `, never handled (n8n refused both): ${figures.never}` : ''}; ${figures.executions} executions`;
}

/**
 * At-least-once: Respond "When Workflow Finished", a workflow whose call fails the first time. The
 * sandbox (the service) delivers the notification, n8n answers 500, the sandbox's retry 5 minutes
 * later (its clock moved) delivers it again, and the workflow succeeds: handled once. With the
 * recipe, the failed attempt released its claim (its row is deleted), so the retry is not stopped
 * by it, and the table ends with the change's one row.
 */
async function atLeastOnce(state: RunState, database?: MerchantDatabase): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const counter = await startCounter();
	try {
		const trigger = 'Cashout Notification';
		const work = 'Call that fails once';
		const built: WorkflowJson = database
			? recipeWorkflow(counter.url, 'fail-once', { respond: 'whenFinished' })
			: ({
					name: 'Notification: at least once',
					nodes: [
						triggerNode(trigger, { respond: 'whenFinished' }),
						counterNode(
							work,
							`=${counter.url}/fail-once/{{ $json.notification.changeKey }}`,
							[220, 0],
						),
					],
					connections: { [trigger]: { main: [[{ node: work, type: 'main', index: 0 }]] } },
					settings: { executionOrder: 'v1' },
				} as WorkflowJson);
		const workflow = mapCredentials(built, state.credentialIds);
		const stored = { ...workflow, ...(await client.createWorkflow(workflow)) };
		const [url] = await activateOn(state, stored);
		try {
			const payout = sandbox.control.addCashout({
				idMerchant: sandbox.credentials.cashout.merchantId,
				externalId: `at-least-once-${Date.now()}`,
				notificationUrl: url,
			});
			// The change key ends with the change's date, which the sandbox sets when it notifies.
			const key = `cashout:${payout.idCashout}:DELIVERED:`;
			const rows = async () =>
				database
					? await database.count(
							`SELECT count(*) FROM handled_notifications WHERE change_key LIKE '${key}%'`,
						)
					: undefined;
			sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
			await sandbox.control.notifications.settle();
			const mine = () =>
				sandbox.control.notifications
					.list()
					.filter((notification) => notification.recordId === payout.idCashout);
			const answers = () =>
				mine().flatMap((notification) =>
					notification.attempts.map((attempt) => attempt.status ?? 'no answer'),
				);
			if (JSON.stringify(answers()) !== '[500]')
				throw new Error(
					`the first delivery was answered ${JSON.stringify(answers())}, expected [500] (the workflow failed)`,
				);
			const rowsAfterFailure = await rows();
			if (database && rowsAfterFailure !== 0)
				throw new Error(
					`the failed attempt left ${rowsAfterFailure} row(s) for ${key}; its claim should be released`,
				);
			// The retry is due 5 minutes later on the sandbox's clock; it goes back once the retry was
			// sent, so that records made later are not dated ahead of n8n's clock (the polling trigger's
			// windows follow n8n's clock).
			sandbox.clock.advance(5 * 60_000);
			try {
				await waitFor(
					'the sandbox to send its retry',
					async () => (await sandbox.control.notifications.settle(), answers().length >= 2),
					{ timeoutMs: 30_000, intervalMs: 250 },
				);
			} finally {
				sandbox.clock.advance(-5 * 60_000);
			}
			const { results } = await quiet(client, stored.id);
			const statuses = results.map((execution) => execution.status).sort();
			const calls = [...counter.hits]
				.filter(([hit]) => hit.startsWith(key))
				.reduce((sum, [, count]) => sum + count, 0);
			const delivery = mine()[0]?.state;
			if (JSON.stringify(answers()) !== '[500,200]' || delivery !== 'delivered')
				throw new Error(
					`the deliveries were answered ${JSON.stringify(answers())} (${delivery}), expected [500, 200] and delivered`,
				);
			if (JSON.stringify(statuses) !== '["error","success"]')
				throw new Error(
					`executions ${statuses.join(', ')}, expected one failed and one successful`,
				);
			if (calls !== 2)
				throw new Error(
					`the workflow's call ran ${calls} times, expected 2 (failed, then succeeded)`,
				);
			const rowsAtEnd = await rows();
			if (database && rowsAtEnd !== 1)
				throw new Error(`the table holds ${rowsAtEnd} row(s) for ${key}, expected 1`);
			const recipe = database
				? `; the recipe released the failed attempt's claim (0 rows) and holds 1 row at the end`
				: '';
			return `${database ? 'recipe' : 'trigger alone'}: delivery 1 answered 500 (execution failed), the sandbox's retry 5 minutes later answered 200 (execution succeeded): handled once; the call ran ${calls}× (1 failed)${recipe}`;
		} finally {
			await client.deactivate(stored);
		}
	} finally {
		await counter.close();
	}
}

/** The Notification Trigger steps of a run (README, "Notification Trigger"). */
export async function notificationSteps(steps: Steps, state: RunState): Promise<void> {
	const count = receivers(state).length;
	if (count === 1)
		await steps.run(
			'Notification Trigger alone, one process: copies at the same moment and repeats after a burst handled once',
			async () => {
				const alone = await measure(state, 'alone');
				if (alone.doubles !== 0 || alone.again !== 0)
					throw new Error(
						`the trigger alone did not handle each change once in one process: ${line('alone', alone, count)}`,
					);
				return line('alone', alone, count);
			},
		);
	else
		await steps.run(
			`Notification Trigger alone, ${count} webhook processes: copies at the same moment (measured; the in-process claim covers one process)`,
			async () => {
				const alone = await measure(state, 'alone');
				if (!state.options.removeDuplicates) return line('alone', alone, count);
				const deduplicated = await measure(state, 'removeDuplicates');
				return [line('alone', alone, count), line('removeDuplicates', deduplicated, count)].join(
					'\n',
				);
			},
		);
	let database: MerchantDatabase | undefined;
	const recipeDatabase = async (): Promise<MerchantDatabase> => {
		if (!database) {
			database = await merchantDatabase(state);
			await postgresCredential(state, database);
		}
		return database;
	};
	// The recipe is for several webhook processes: in one process the trigger's claim stops every
	// copy before the recipe's insert, so its burst is measured where copies reach different
	// processes. Regular mode runs the recipe in the at-least-once step.
	if (count > 1)
		await steps.run(
			'Notification Trigger + the recipe (unique key in the merchant database): once per change',
			async () => {
				await recipeDatabase();
				const figures = await measure(state, 'recipe');
				if (figures.doubles !== 0 || figures.again !== 0)
					throw new Error(
						`the recipe did not give once per change: ${line('recipe', figures, count)}`,
					);
				return line('recipe', figures, count);
			},
		);
	await steps.run(
		'Notification Trigger, Respond When Workflow Finished: a failed workflow gets the notification again',
		async () => {
			const alone = await atLeastOnce(state);
			const withRecipe = await atLeastOnce(state, await recipeDatabase());
			return [alone, withRecipe].join('\n');
		},
	);
}
