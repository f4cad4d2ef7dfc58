/**
 * `npm run test:n8n` (and `test:n8n:queue` with `--queue`): the package in a REAL n8n.
 *
 * Installs n8n (cached), packs this package and installs it the way n8n's community-package
 * installer does, starts the sandbox and n8n (SQLite; or PostgreSQL, Redis, main and workers in
 * queue mode), then through n8n's REST API: owner, credentials and their tests, every example
 * workflow imported and the manual ones run and checked like test/demo checks them, n8n's Retry of a
 * failed payout execution (one payout per row), a session re-login after the sandbox expired the
 * sessions, and every alert scenario activated and driven
 * until it fired exactly as often as it must. Prints a summary table; exits 1 on any failure.
 * n8n and everything else started is stopped in every case.
 */
import { randomBytes } from 'crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'fs';
import os from 'os';
import path from 'path';

import { startSmtpSink } from '../demo/smtp-sink';
import { startSandbox } from '../sandbox';
import { agentStep, mcpStep } from './agent';
import { reviewStep } from './review';
import { credentialSpecs, loadCatalogue, mapCredentials, type CatalogueEntry } from './catalogue';
import {
	buildAndPack,
	ensureN8n,
	ensureNode,
	ensureVerdaccio,
	installCommunityPackage,
} from './install';
import { baseEnv, startMain, startWebhookProcess, startWorker } from './n8n-server';
import { parseOptions, type E2eOptions } from './options';
import { exitWith, stopAll } from './processes';
import { notificationSteps } from './notifications';
import { executionsByWorker, workerChecks, workerChecksAfterRelogin } from './queue';
import { logins, need, runOnce, sessionWorkflow, type RunState } from './state';
import { Steps } from './report';
import { pollRestartStep } from './restart';
import { executionRetryStep } from './retry';
import { spreadsheetStep } from './spreadsheet';
import { credentialRestrictionStep, separateRequestsStep } from './separateRequests';
import { N8nClient } from './rest';
import { ALERT_SCENARIOS, sandboxAdmin, type AlertScenario } from './scenarios';
import { alertStep } from './alerts';
import {
	installThroughN8nStep,
	PACKAGE_NODES,
	prepareNodesFolder,
	registryStep,
	updateStep,
} from './installer';
import { n8nRegistryEnv, opensslBinary, VERDACCIO_VERSION } from './registry';
import { postgresBin, redisBinary, startQueueBackends } from './services';
import { clockJumpStep, fakeTimeLibrary } from './clock';
import { durablePollStep, hasDurablePollScheduler } from './durable';
import { demoContext } from './stubs';
import { inTurn } from './turns';

/** Installs Node and n8n into the cache (or finds them there). */
export async function installStep(state: RunState): Promise<string> {
	const { cacheDir, n8nVersion, nodeVersion } = state.options;
	mkdirSync(cacheDir, { recursive: true });
	const started = Date.now();
	const node = await ensureNode(cacheDir, nodeVersion);
	state.install = await ensureN8n(cacheDir, n8nVersion, node);
	const how = state.install.installed
		? `installed in ${Math.round((Date.now() - started) / 1000)}s (cold cache)`
		: 'from the cache';
	return `n8n ${n8nVersion} on Node ${nodeVersion}, ${how}: ${cacheDir}`;
}

/** Builds and packs this package, or copies the tarball given (`--tarball`) into the run folder. */
export async function packStep(state: RunState): Promise<string> {
	const given = state.options.tarball;
	if (given) {
		state.tarball = path.join(state.runDir, path.basename(given));
		copyFileSync(given, state.tarball);
	} else state.tarball = await buildAndPack(state.runDir);
	const size = `${Math.round(statSync(state.tarball).size / 1024)} KiB`;
	return `${path.basename(state.tarball)} (${size}${given ? `, packed before: ${given}` : ''})`;
}

/** Starts the sandbox in-process and the SMTP sink the example workflows send e-mail to. */
export async function sandboxStep(state: RunState): Promise<string> {
	state.sandbox = await startSandbox();
	state.smtp = await startSmtpSink();
	return `sandbox ${state.sandbox.baseUrl}, SMTP sink 127.0.0.1:${state.smtp.port}`;
}

/** The user folder of one n8n process, with the package installed as n8n's installer does. */
async function userFolderWithPackage(state: RunState, name: string): Promise<string> {
	const userFolder = path.join(state.runDir, `user-${name}`);
	await installCommunityPackage(
		path.join(userFolder, '.n8n'),
		need(state.tarball, 'the tarball'),
		need(state.install, 'n8n').node,
	);
	return userFolder;
}

/**
 * Starts n8n: main alone, or (queue mode) PostgreSQL, Redis, main and the workers; in the start
 * turn (turns.ts), since starting loads the CPU.
 */
export async function startN8nStep(state: RunState): Promise<string> {
	return await inTurn('Start n8n', async () => await startN8n(state), ['start']);
}

/** startN8nStep's work. */
async function startN8n(state: RunState): Promise<string> {
	const install = need(state.install, 'n8n');
	const encryptionKey = randomBytes(24).toString('hex');
	if (state.options.queue) state.backends = await startQueueBackends(state.runDir, state.logDir);
	const { registry } = state;
	// With the run's registry, n8n's installer puts the package in main's folder (installThroughN8nStep).
	const mainFolder = registry
		? path.join(state.runDir, 'user-main')
		: await userFolderWithPackage(state, 'main');
	if (registry) prepareNodesFolder(registry, path.join(mainFolder, '.n8n'));
	const started = Date.now();
	state.mainEnv = {
		...baseEnv(install, mainFolder, encryptionKey, state.backends),
		...(registry ? n8nRegistryEnv(registry.proxy.url, registry.certificate.cert) : {}),
	};
	state.main = await startMain(
		install,
		state.mainEnv,
		state.logDir,
		'debug',
		state.options.mainPort,
	);
	const mainSeconds = Math.round((Date.now() - started) / 1000);
	// Queue mode: the workers, then the webhook processes, each with its own user folder.
	const others = [
		{ kind: 'worker', count: state.options.workers, start: startWorker, into: state.workers },
		{
			kind: 'webhook',
			count: state.options.webhookProcesses,
			start: startWebhookProcess,
			into: state.webhooks,
		},
	];
	for (const { kind, count, start, into } of state.options.queue ? others : [])
		for (let index = 1; index <= count; index++) {
			const name = `${kind}-${index}`;
			const folder = await userFolderWithPackage(state, name);
			const env = baseEnv(install, folder, encryptionKey, state.backends);
			into.push(await start(install, env, name, state.logDir));
		}
	state.client = new N8nClient(state.main.url);
	const backends = state.backends
		? `, PostgreSQL :${state.backends.postgres.port}, Redis :${state.backends.redis.port}`
		: ', SQLite';
	const workers = state.workers.length ? `, ${state.workers.length} workers` : '';
	const webhooks = state.webhooks.length
		? `, ${state.webhooks.length} webhook processes (${state.webhooks.map((webhook) => webhook.url).join(', ')})`
		: '';
	const packageFrom = registry
		? "; the package to come from n8n's installer"
		: '; the package installed by hand in each user folder';
	return `main ${state.main.url} ready in ${mainSeconds}s${workers}${webhooks}${backends}${packageFrom}`;
}

/** Creates the owner and signs in. */
export async function ownerStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	await client.setupOwner();
	await client.login();
	return 'POST /rest/owner/setup, POST /rest/login';
}

/** Checks n8n loaded both nodes and the four credential types of the package. */
export async function loadedStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const nodes = await client.typeNames('nodes');
	const credentials = await client.typeNames('credentials');
	const ours = nodes.filter((name) => name.startsWith('n8n-nodes-payments-service.'));
	const ourCredentials = credentials.filter((name) => name.startsWith('paymentsService'));
	const expected = PACKAGE_NODES;
	if (!expected.every((name) => ours.includes(name)) || ourCredentials.length !== 4) {
		throw new Error(
			`n8n loaded the nodes [${ours.join(', ')}] and ${ourCredentials.length} credential types of the package, expected ${expected.join(', ')} and 4`,
		);
	}
	// n8n adds a "…Tool" variant of a node that is usable as an AI agent tool.
	return `${ours.join(', ')}; ${ourCredentials.length} credential types`;
}

/** Creates the credentials and runs the test of each of the package's four. */
export async function credentialsStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const specs = credentialSpecs(
		need(state.sandbox, 'the sandbox'),
		need(state.smtp, 'the SMTP sink').port,
	);
	const results: string[] = [];
	for (const spec of specs) {
		const id = await client.createCredential({ name: spec.name, type: spec.type, data: spec.data });
		state.credentialIds.set(spec.exportedId, id);
		if (!spec.test) continue;
		const result = await client.testCredential({
			id,
			name: spec.name,
			type: spec.type,
			data: spec.data,
		});
		if (result.status !== 'OK')
			throw new Error(`the test of ${spec.type} failed: ${result.message}`);
		results.push(`${spec.type}: ${result.message}`);
	}
	return `${specs.length} created, ${results.length} tests passed\n${results.join('\n')}`;
}

/** A step of a run: its name in the report, and what it does (resolving what it saw). */
export type NamedStep = [string, (state: RunState) => Promise<string>];

/** Runs each of `list` in order as a step of `steps` (critical ones stop the run when they fail). */
export async function runSteps(
	steps: Steps,
	state: RunState,
	list: ReadonlyArray<NamedStep>,
	options: { critical?: boolean } = {},
): Promise<void> {
	for (const [name, step] of list) await steps.run(name, async () => await step(state), options);
}

/**
 * The steps from a packed package to n8n running it with the sandbox's credentials, by name, as
 * `npm run try` and `npm run test:editor` run them (regular mode, the package installed by hand).
 */
export const SETUP_STEPS: ReadonlyArray<NamedStep> = [
	['Build and pack the package', packStep],
	['Start the sandbox and the SMTP sink', sandboxStep],
	['Start n8n', startN8nStep],
	['Set up the owner and log in', ownerStep],
	['n8n loaded the package', loadedStep],
	['Create the credentials and run their tests', credentialsStep],
];

/** Imports every workflow of test/workflows, credentials mapped and sandbox ids prepared. */
export async function importStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const context = demoContext(
		need(state.sandbox, 'the sandbox'),
		need(state.smtp, 'the SMTP sink').mails,
	);
	state.catalogue = loadCatalogue();
	for (const entry of state.catalogue) {
		const scenario = ALERT_SCENARIOS.find((candidate) => candidate.file === entry.file);
		let workflow =
			entry.demo?.prepare && entry.manualTrigger
				? entry.demo.prepare(entry.workflow, context)
				: entry.workflow;
		if (scenario?.prepare) workflow = scenario.prepare(workflow);
		workflow = mapCredentials(workflow, state.credentialIds);
		const stored = await client.createWorkflow(workflow);
		state.workflows.set(entry.file, { ...workflow, ...stored });
	}
	const manual = state.catalogue.filter((entry) => entry.manualTrigger).length;
	return `${state.catalogue.length} workflows imported (${manual} manual, ${state.catalogue.length - manual} started by triggers)`;
}

/** Runs one manual workflow and checks it like test/demo (or, without a demo, that it succeeded). */
async function manualWorkflowStep(state: RunState, entry: CatalogueEntry): Promise<string> {
	const run = await runOnce(state, entry.file);
	const context = demoContext(
		need(state.sandbox, 'the sandbox'),
		need(state.smtp, 'the SMTP sink').mails,
	);
	const lines = entry.demo
		? entry.demo.summarize(run, context)
		: ['succeeded (no demo check for this workflow in test/demo/demos.ts)'];
	return [`execution ${run.executionId}: ${lines[0]}`, ...lines.slice(1)].join('\n');
}

/** Expires the sandbox's sessions and shows n8n logs in again once, by itself, and succeeds. */
async function reloginStep(state: RunState): Promise<string> {
	const sandbox = need(state.sandbox, 'the sandbox');
	const file = sessionWorkflow(state);
	const before = logins(sandbox);
	const refusedBefore = sandbox.log.entries().filter((entry) => entry.status === 401).length;
	await sandboxAdmin(sandbox, '/sessions/expire', {});
	const run = await runOnce(state, file);
	const added = logins(sandbox) - before;
	const refused =
		sandbox.log.entries().filter((entry) => entry.status === 401).length - refusedBefore;
	if (added !== 1)
		throw new Error(
			`expected exactly 1 new login after the sessions expired, the sandbox counted ${added}`,
		);
	return `${file}: 401 answered ${refused}×, then 1 login (${before} → ${before + added}); execution ${run.executionId} succeeded`;
}

/**
 * The polling trigger across a restart of n8n, under a host clock that jumps, then (n8n 2.41 and
 * later) under n8n's durable poll scheduler; each restarts main.
 */
async function pollingRestartSteps(steps: Steps, state: RunState): Promise<void> {
	await runSteps(steps, state, [
		[
			'Polling trigger: a change made while n8n was down is reported once after the restart',
			pollRestartStep,
		],
		["Polling trigger: n8n's clock 8 days ahead and back re-emits nothing", clockJumpStep],
	]);
	if (hasDurablePollScheduler(state.options.n8nVersion)) {
		await steps.run(
			"Polling trigger under n8n's durable poll scheduler: each rejection reported once, across a restart",
			async () => await durablePollStep(state),
		);
	}
}

/**
 * Starts the polling alerts: they wait for n8n's polls (at most one a minute) most of their time,
 * so the alerts of different lists run side by side, and those of one list one after another (the
 * change one makes would be the other's event). Resolves each alert's result in the given order, to
 * be reported as its own step.
 */
function startPollingAlerts(
	state: RunState,
	scenarios: AlertScenario[],
): Map<AlertScenario, Promise<string>> {
	const results = new Map<AlertScenario, Promise<string>>();
	const lastOnList = new Map<string, Promise<unknown>>();
	for (const scenario of scenarios) {
		const list = scenario.watches ?? scenario.file;
		const previous = lastOnList.get(list) ?? Promise.resolve();
		// After the one before it on its list, whether that passed or failed.
		const result = previous.then(
			async () => await alertStep(state, scenario),
			async () => await alertStep(state, scenario),
		);
		// Awaited by its step later; until then a failure must not count as unhandled.
		result.catch(() => undefined);
		results.set(scenario, result);
		lastOnList.set(list, result);
	}
	return results;
}

/** All steps of a run, in order. */
async function allSteps(steps: Steps, state: RunState): Promise<void> {
	const critical = { critical: true };
	await steps.run(
		'Install n8n and Node.js (cache)',
		async () => await installStep(state),
		critical,
	);
	await steps.run('Build and pack the package', async () => await packStep(state), critical);
	// n8n documents installing by hand for queue mode (every worker needs the package in its folder).
	if (!state.options.queue) {
		await steps.run(
			'Start the local npm registry (verdaccio) and publish the package',
			async () => await registryStep(state),
			critical,
		);
	}
	await steps.run(
		'Start the sandbox and the SMTP sink',
		async () => await sandboxStep(state),
		critical,
	);
	await steps.run(
		state.options.queue
			? 'Start PostgreSQL, Redis, n8n main, workers and webhook processes'
			: 'Start n8n',
		async () => await startN8nStep(state),
		critical,
	);
	await steps.run('Set up the owner and log in', async () => await ownerStep(state), critical);
	if (state.registry) {
		await steps.run(
			"Install the package with n8n's installer (Community Nodes → Install)",
			async () => await installThroughN8nStep(state),
			critical,
		);
	}
	await steps.run('n8n loaded the package', async () => await loadedStep(state), critical);
	await steps.run(
		'Create the credentials and run their tests',
		async () => await credentialsStep(state),
		critical,
	);
	const mcp = async () => {
		if (Number(state.options.n8nVersion.split('.')[0]) >= 2) {
			await steps.run(
				'MCP Server Trigger: tools/list and tools/call',
				async () => await mcpStep(state),
			);
		}
		if (Number(state.options.n8nVersion.split('.')[0]) >= 2) {
			await steps.run(
				"Human review of a tool call (Send Email's review tool): disapproved, then approved",
				async () => await reviewStep(state),
			);
		}
	};
	if (state.options.triggersOnly) {
		await notificationSteps(steps, state);
		if (!state.options.queue) await pollingRestartSteps(steps, state);
		return;
	}
	if (state.options.agentOnly) {
		await steps.run(
			'AI Agent with the Payments Service tools (scripted OpenAI mock)',
			async () => await agentStep(state),
		);
		await mcp();
		return;
	}
	await steps.run(
		'Import every workflow of test/workflows',
		async () => await importStep(state),
		critical,
	);
	const loginsBefore = logins(need(state.sandbox, 'the sandbox'));
	for (const entry of state.catalogue.filter((candidate) => candidate.manualTrigger)) {
		await steps.run(`Run ${entry.file}`, async () => await manualWorkflowStep(state, entry));
	}
	await steps.run('One session login served every execution', async () => {
		// The credential test logs in; n8n keeps the token it got when the test passes, so the
		// executions then need none (older n8n versions log in once more at the first execution).
		const total = logins(need(state.sandbox, 'the sandbox'));
		const added = total - loginsBefore;
		if (added > 1)
			throw new Error(`the manual executions logged in ${added} times, expected at most once`);
		return `${total} login(s) in all: credential test ${loginsBefore}, manual executions ${added}`;
	});
	await steps.run(
		"n8n's Retry of a failed payout execution pays each row once",
		async () => await executionRetryStep(state),
	);
	if (!state.options.quick && !state.options.queue) {
		await steps.run(
			"Payouts from a 500-row sheet at Concurrency 8: a lost answer resent in one execution, time against the bound; every answer of a row lost, n8n's Retry sends only what was not made; each row paid once",
			// Timed against a bound: in both turns, so another run's start or burst does not count.
			async () =>
				await inTurn('the 500-row sheet', async () => await spreadsheetStep(state), [
					'burst',
					'start',
				]),
		);
	}
	if (!state.options.queue) {
		await runSteps(steps, state, [
			[
				"Two webhook calls for the same payout make two payouts; n8n's Retry of a third makes none",
				separateRequestsStep,
			],
			['The Session credential is refused to the HTTP Request node', credentialRestrictionStep],
		]);
	}
	if (state.options.queue) await workerChecks(steps, state);
	await steps.run(
		'Automatic re-login after the sessions expired',
		async () => await reloginStep(state),
	);
	if (state.options.queue) await workerChecksAfterRelogin(steps, state);
	if (!state.options.queue) {
		await steps.run(
			'AI Agent with the Payments Service tools (scripted OpenAI mock)',
			async () => await agentStep(state),
		);
		await mcp();
	}
	// The update through n8n's installer, before the steps that follow it run on the new version.
	// In a full run it happens inside the first polling alert, between the trigger's starting
	// point and the change the trigger must report once; that alert is then not run again.
	const polling = state.options.quick
		? undefined
		: ALERT_SCENARIOS.find((candidate) => candidate.kind === 'polling');
	if (state.registry) {
		await steps.run(
			polling
				? `Update with n8n's installer while "${polling.title}" is active: state kept, the change after it reported once, a saved workflow runs`
				: "Update with n8n's installer: n8n reports the new version, a saved workflow runs",
			async () => await updateStep(state, polling),
		);
	}
	const alerts = ALERT_SCENARIOS.filter(
		(candidate) =>
			(!state.options.quick || candidate.kind === 'webhook') &&
			!(state.registry && candidate === polling),
	);
	for (const scenario of alerts.filter((candidate) => candidate.kind === 'webhook'))
		await steps.run(`Alert: ${scenario.title}`, async () => await alertStep(state, scenario));
	const polled = startPollingAlerts(
		state,
		alerts.filter((candidate) => candidate.kind === 'polling'),
	);
	for (const [scenario, result] of polled)
		await steps.run(`Alert: ${scenario.title}`, async () => await result);
	if (state.options.quick) return;
	await notificationSteps(steps, state);
	// Last in regular mode: they restart n8n main.
	if (!state.options.queue) await pollingRestartSteps(steps, state);
	if (state.options.queue) {
		await steps.run(
			'Queue mode: polls on main, executions on workers',
			async () => await executionsByWorker(state),
		);
	}
}

/**
 * `--install-only`: what a run of this mode needs, into the cache (n8n, Node.js, and verdaccio in
 * regular mode) and onto the machine (its Debian packages), and nothing started.
 */
async function installOnlySteps(steps: Steps, state: RunState): Promise<void> {
	const critical = { critical: true };
	await steps.run(
		'Install n8n and Node.js (cache)',
		async () => await installStep(state),
		critical,
	);
	if (!state.options.queue) {
		await steps.run(`Install verdaccio ${VERDACCIO_VERSION} (cache)`, async () => {
			const verdaccio = await ensureVerdaccio(state.options.cacheDir, VERDACCIO_VERSION);
			return `${verdaccio.installed ? 'installed' : 'from the cache'}: ${verdaccio.bin}`;
		});
	}
	const debian = state.options.queue
		? [postgresBin, redisBinary]
		: [opensslBinary, fakeTimeLibrary, postgresBin];
	await steps.run('Debian packages of this mode', async () => {
		const found: string[] = [];
		for (const binary of debian) found.push(await binary());
		return found.join(', ');
	});
}

/** Stops n8n, the backends, the sandbox and the sink; removes the run folder unless kept. */
export async function cleanUp(state: RunState, keep: boolean): Promise<void> {
	await stopAll();
	// The requests n8n sent to the sandbox, for whoever reads a failed run's logs.
	if (state.sandbox)
		writeFileSync(
			path.join(state.logDir, 'sandbox-requests.json'),
			JSON.stringify(state.sandbox.log.entries(), null, 1),
		);
	await state.registry?.proxy.close();
	await state.smtp?.close();
	await state.sandbox?.close();
	if (keep) console.log(`\nRun folder kept (logs, user folders): ${state.runDir}`);
	else rmSync(state.runDir, { recursive: true, force: true });
}

/** A fresh run: its temporary folder (with logs/) and empty state. */
export function newRunState(options: E2eOptions): RunState {
	const runDir = mkdtempSync(path.join(os.tmpdir(), 'payments-n8n-e2e-'));
	const logDir = path.join(runDir, 'logs');
	mkdirSync(logDir);
	return {
		options,
		runDir,
		logDir,
		workers: [],
		webhooks: [],
		credentialIds: new Map(),
		workflows: new Map(),
		catalogue: [],
		alertExecutions: [],
	};
}

async function main(): Promise<number> {
	const options = parseOptions(process.argv.slice(2));
	const state = newRunState(options);
	const { logDir } = state;
	const steps = new Steps();
	const started = Date.now();
	const interrupted = () => {
		void cleanUp(state, true).then(() => process.exit(130));
	};
	process.once('SIGINT', interrupted);
	process.once('SIGTERM', interrupted);
	console.log(
		`n8n ${options.n8nVersion}${options.queue ? ` in queue mode (${options.workers} workers)` : ''}; logs in ${logDir}\n`,
	);
	try {
		if (options.installOnly) await installOnlySteps(steps, state);
		else await allSteps(steps, state);
	} catch (error) {
		if (!Steps.isAbort(error))
			await steps.run('Unexpected error', async () => Promise.reject(error));
	} finally {
		await cleanUp(state, options.keep || !steps.passed());
	}
	const mode = options.queue ? `queue mode, ${options.workers} workers` : 'regular mode';
	console.log(
		steps.table(
			`n8n ${options.n8nVersion} (${mode}) — ${Math.round((Date.now() - started) / 1000)}s`,
		),
	);
	return steps.passed() ? 0 : 1;
}

if (require.main === module) exitWith(main);
