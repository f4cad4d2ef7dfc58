/**
 * The package installed and updated through n8n's own community-package installer (regular mode),
 * the REST calls the Community Nodes page makes, from the run's npm registry (registry.ts):
 * `POST /rest/community-packages {name}` (Install), `GET /rest/community-packages` (the list, with
 * the update npm reports) and `PATCH /rest/community-packages {name}` (Update).
 *
 * What n8n's installer checks on the way (read in n8n 1.100.1, 1.123.81, 2.35.3 and 2.41.1), and how
 * the run meets each:
 * - the package's name (`n8n-nodes-…`, not a built-in package's): as published;
 * - unverified packages allowed (`N8N_UNVERIFIED_PACKAGES_ENABLED=true`, n8n's default): the
 *   package is installed unverified, as from the page's Install field, with no checksum (a
 *   checksum comes only with a package n8n vetted, from n8n's servers);
 * - the package's status from n8n's servers (`POST https://api.n8n.io/api/package`): the run has no
 *   internet, the proxy refuses the address, and n8n installs when that check is not answered;
 * - the registry: n8n's default (another needs n8n's Enterprise licence), served by the run's
 *   verdaccio; from 1.123 n8n first asks it whether the version exists;
 * - 2.41: the n8n node API version the package declares (`n8nNodesApiVersion`: 1);
 * - 1.100 updates to `latest` whatever version is asked; the run asks for none (as the page does
 *   when unverified packages are allowed), so every release updates to `latest`.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'fs';
import path from 'path';

import { PACKAGE_NAME } from '../harness/packageInfo';
import { alertStep } from './alerts';
import { ensureVerdaccio } from './install';
import type { InstalledPackage } from './rest';
import {
	fileSize,
	n8nNpmConfig,
	publish,
	registryStatus,
	repack,
	servedTarballs,
	startLocalRegistry,
	updateVersion,
	REGISTRY_HOST,
	VERDACCIO_VERSION,
	type LocalRegistry,
} from './registry';
import { runCommand, waitFor } from './processes';
import type { AlertScenario, ScenarioContext } from './scenarios';
import { need, runOnce, type RunState } from './state';
import { demoContext } from './stubs';

/** The package's nodes, as n8n names them once it loaded the package. */
export const PACKAGE_NODES = [
	`${PACKAGE_NAME}.paymentsService`,
	`${PACKAGE_NAME}.paymentsServiceTrigger`,
	`${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
];

/** The manual workflow run again after the update. */
const AFTER_UPDATE_WORKFLOW = 'rates-and-banks.json';

/** The package.json packed into `tarball`. */
async function tarballManifest(tarball: string): Promise<{ name: string; version: string }> {
	const text = await runCommand('tar', ['-xOzf', tarball, 'package/package.json'], {
		what: `Reading package.json from ${path.basename(tarball)}`,
	});
	return JSON.parse(text) as { name: string; version: string };
}

/**
 * Starts the run's npm registry (verdaccio, and the proxy through which it answers for
 * registry.npmjs.org), publishes the packed package as `latest`, packs the same build again with
 * a higher version for the update (published later), and checks the registry has no uplink.
 */
export async function registryStep(state: RunState): Promise<string> {
	const install = need(state.install, 'n8n');
	const tarball = need(state.tarball, 'the tarball');
	const installStarted = Date.now();
	const verdaccio = await ensureVerdaccio(state.options.cacheDir, VERDACCIO_VERSION);
	const installed = verdaccio.installed
		? `installed in ${Math.round((Date.now() - installStarted) / 1000)}s (cold cache)`
		: 'from the cache';
	const started = Date.now();
	const registry = await startLocalRegistry(state.runDir, state.logDir, install.node, verdaccio);
	state.registry = registry;
	const startSeconds = ((Date.now() - started) / 1000).toFixed(1);
	const { version } = await tarballManifest(tarball);
	await publish(registry, tarball);
	state.updateTarball = await repack(tarball, updateVersion(version), state.runDir);
	// No uplink: a package the registry was not given is not found (nothing comes from npmjs.org).
	const probe = await registryStatus(registry, '/lodash');
	if (probe !== 404)
		throw new Error(`the local registry answered ${probe} for lodash, which it was never given`);
	return [
		`verdaccio ${registry.version} (${installed}) on ${registry.url} (ready in ${startSeconds}s; storage in the run folder; no uplinks: lodash → 404), answering for ${REGISTRY_HOST} through the proxy ${registry.proxy.url}`,
		`${PACKAGE_NAME}@${version} published (latest); ${path.basename(state.updateTarball)} packed for the update`,
	].join('\n');
}

/**
 * Prepares the n8n folder of main for n8n's installer: npm's settings for the nodes folder (the
 * proxy, the certificate, a cache in the run folder). n8n itself creates `nodes/package.json`.
 */
export function prepareNodesFolder(registry: LocalRegistry, n8nFolder: string): void {
	const nodesDir = path.join(n8nFolder, 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(
		path.join(nodesDir, '.npmrc'),
		n8nNpmConfig(registry.proxy.url, registry.certificate.cert, registry.cacheDir),
	);
}

/** Where n8n main installs community packages (`<user folder>/.n8n/nodes`). */
function nodesDir(state: RunState): string {
	return path.join(need(state.main, 'n8n main').userFolder, '.n8n', 'nodes');
}

/**
 * What n8n's installer left on disk and in its records: the version in the installed package's
 * package.json and in n8n's `nodes/package.json`, and the list n8n answers.
 */
function onDisk(state: RunState): { installed?: string; recorded?: string } {
	const folder = nodesDir(state);
	const manifest = path.join(folder, 'node_modules', PACKAGE_NAME, 'package.json');
	const ledger = path.join(folder, 'package.json');
	return {
		installed: existsSync(manifest)
			? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
			: undefined,
		recorded: existsSync(ledger)
			? (JSON.parse(readFileSync(ledger, 'utf8')) as { dependencies?: Record<string, string> })
					.dependencies?.[PACKAGE_NAME]
			: undefined,
	};
}

/**
 * Requires that n8n's answer, its list, the files it installed, the registry's log and the proxy's
 * log all say `version` of the package was installed from the run's registry.
 */
async function checkInstalled(
	state: RunState,
	answer: InstalledPackage,
	version: string,
	tarball: string,
	servedBefore: number,
): Promise<string> {
	const client = need(state.client, 'the REST client');
	const registry = need(state.registry, 'the local registry');
	if (answer.packageName !== PACKAGE_NAME || answer.installedVersion !== version)
		throw new Error(
			`n8n answered ${answer.packageName}@${answer.installedVersion}, expected ${PACKAGE_NAME}@${version}`,
		);
	const nodeTypes = answer.installedNodes.map((node) => node.type).sort();
	if (JSON.stringify(nodeTypes) !== JSON.stringify([...PACKAGE_NODES].sort()))
		throw new Error(`n8n recorded the nodes [${nodeTypes.join(', ')}]`);
	const listed = (await client.installedPackages()).find(
		(entry) => entry.packageName === PACKAGE_NAME,
	);
	if (listed?.installedVersion !== version || listed.failedLoading)
		throw new Error(
			`n8n's list of community packages shows ${JSON.stringify(listed ?? 'nothing')}, expected ${version} loaded`,
		);
	if (listed.updateAvailable)
		throw new Error(`n8n still offers an update to ${listed.updateAvailable}`);
	const disk = onDisk(state);
	if (disk.installed !== version || disk.recorded !== version)
		throw new Error(
			`on disk: the installed package.json says ${disk.installed ?? 'nothing'}, nodes/package.json records ${disk.recorded ?? 'nothing'}; expected ${version}`,
		);
	// verdaccio logs a request once it has answered it: give its log a moment.
	const size = fileSize(tarball);
	const served = () => servedTarballs(registry.requests(), PACKAGE_NAME).slice(servedBefore);
	await waitFor(
		`the local registry's log to show the ${version} tarball (${size} bytes) sent`,
		() => served().some((entry) => entry.version === version && entry.bytes === size),
		{ timeoutMs: 5_000, intervalMs: 100, detail: () => `it sent ${JSON.stringify(served())}` },
	);
	const loaded = await client.typeNames('nodes');
	const missing = PACKAGE_NODES.filter((name) => !loaded.includes(name));
	if (missing.length) throw new Error(`n8n does not offer ${missing.join(', ')}`);
	return `n8n answered ${PACKAGE_NAME}@${version} with ${answer.installedNodes.length} nodes; its list, the installed package.json and nodes/package.json say ${version}; the registry sent the ${version} tarball (${size} bytes)`;
}

/** What the proxy was asked, in short: connected and refused addresses with counts. */
function proxySummary(registry: LocalRegistry): string {
	const counts = new Map<string, number>();
	for (const request of registry.proxy.requests) {
		const key = `${request.target.replace(/^https?:\/\/([^/]+).*$/, '$1')} ${request.connected ? 'connected' : 'refused'}`;
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return [...counts].map(([key, count]) => `${key} ×${count}`).join(', ') || 'nothing';
}

/**
 * Has n8n's installer install (POST) or update (PATCH) the package to `version` (`tarball`), and
 * checks it (checkInstalled); resolves the seconds it took, as text, and what was checked.
 */
async function installedBy(
	state: RunState,
	action: 'install' | 'update',
	version: string,
	tarball: string,
): Promise<{ seconds: string; checked: string }> {
	const client = need(state.client, 'the REST client');
	const registry = need(state.registry, 'the local registry');
	const servedBefore = servedTarballs(registry.requests(), PACKAGE_NAME).length;
	const started = Date.now();
	const answer =
		action === 'install'
			? await client.installPackage(PACKAGE_NAME)
			: await client.updatePackage(PACKAGE_NAME);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	return { seconds, checked: await checkInstalled(state, answer, version, tarball, servedBefore) };
}

/**
 * Installs the package with n8n's installer, as the Community Nodes page does, and checks n8n,
 * the files and the registry agree on the version installed.
 */
export async function installThroughN8nStep(state: RunState): Promise<string> {
	const registry = need(state.registry, 'the local registry');
	const tarball = need(state.tarball, 'the tarball');
	const { version } = await tarballManifest(tarball);
	const { seconds, checked } = await installedBy(state, 'install', version, tarball);
	return [
		`POST /rest/community-packages {name: "${PACKAGE_NAME}"}: installed in ${seconds}s`,
		checked,
		`through the proxy: ${proxySummary(registry)}`,
	].join('\n');
}

/**
 * Publishes the higher version, requires n8n's list to offer it as an update, updates through
 * n8n's installer (PATCH) and checks the new version is what n8n, the files and the registry say.
 */
async function updateThroughN8n(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const registry = need(state.registry, 'the local registry');
	const tarball = need(state.updateTarball, 'the update tarball');
	const { version } = await tarballManifest(tarball);
	const before = (await client.installedPackages()).find(
		(entry) => entry.packageName === PACKAGE_NAME,
	);
	await publish(registry, tarball);
	const offered = (await client.installedPackages()).find(
		(entry) => entry.packageName === PACKAGE_NAME,
	);
	if (offered?.updateAvailable !== version)
		throw new Error(
			`after ${version} was published, n8n's list offers ${offered?.updateAvailable ?? 'no update'} for ${PACKAGE_NAME}`,
		);
	const { seconds, checked } = await installedBy(state, 'update', version, tarball);
	return [
		`${before?.installedVersion ?? '?'} installed; ${version} published, n8n's list offers it (updateAvailable); PATCH /rest/community-packages {name}: updated in ${seconds}s`,
		checked,
		`through the proxy since n8n started: ${proxySummary(registry)}`,
	].join('\n');
}

/** The trigger's static data, by node, as n8n stores it with the workflow. */
async function nodeStaticData(context: ScenarioContext): Promise<string[]> {
	const data = await context.client.workflowStaticData(context.workflow.id);
	return Object.keys(data).filter((key) => key.startsWith('node:'));
}

/**
 * The update while a polling alert is live: the trigger took its starting point (n8n stored its
 * static data), the package is updated, the static data is still stored; the scenario then makes
 * the change the trigger must report once (alerts.ts checks the executions).
 */
function updateWhileLive(state: RunState): (context: ScenarioContext) => Promise<string> {
	return async (context) => {
		const before = await nodeStaticData(context);
		if (before.length === 0)
			throw new Error(
				`"${context.workflow.name}" has no static data after its starting point; nothing to keep across the update`,
			);
		const updated = await updateThroughN8n(state);
		const after = await nodeStaticData(context);
		const lost = before.filter((key) => !after.includes(key));
		if (lost.length) throw new Error(`the update dropped the static data of ${lost.join(', ')}`);
		return `${updated}\nthe trigger's static data (${before.join(', ')}) is still stored after the update`;
	};
}

/** Runs the example that must still work after the update, judged by its demo check. */
async function runAfterUpdate(state: RunState): Promise<string> {
	const run = await runOnce(state, AFTER_UPDATE_WORKFLOW);
	const entry = state.catalogue.find((candidate) => candidate.file === AFTER_UPDATE_WORKFLOW);
	const lines = entry?.demo?.summarize(
		run,
		demoContext(need(state.sandbox, 'the sandbox'), need(state.smtp, 'the SMTP sink').mails),
	) ?? ['succeeded'];
	return `${AFTER_UPDATE_WORKFLOW} after the update: execution ${run.executionId}: ${lines.join('; ')}`;
}

/**
 * The update through n8n's installer. With `scenario` (a polling alert), inside it: activated with
 * its record known, starting point taken, package updated, the change made, exactly the expected
 * executions (alerts.ts); without (`--quick`), on its own. Then a saved manual workflow runs.
 */
export async function updateStep(state: RunState, scenario?: AlertScenario): Promise<string> {
	const updated = scenario
		? await alertStep(state, scenario, updateWhileLive(state))
		: await updateThroughN8n(state);
	return `${updated}\n${await runAfterUpdate(state)}`;
}
