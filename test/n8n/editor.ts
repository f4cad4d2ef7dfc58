/**
 * `npm run test:editor`: the package in n8n's editor, in a real browser (Debian's Chromium driven by
 * playwright-core). Starts n8n as `npm run test:n8n` does, then checks that both nodes appear in the
 * nodes panel, that the parameter panel of each resource of the action node renders without console
 * errors, and that a credential test passes through the credential dialog. Screenshots go to
 * .e2e-output/editor (git-ignored); the README's two pictures are also copied to docs/images
 * (committed). Exits 1 on any failure; always stops the browser and n8n.
 */
import { copyFileSync, mkdirSync, rmSync } from 'fs';
import os from 'os';
import path from 'path';
import {
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { readWorkflow, type WorkflowJson } from '../harness/engine';
import { credentialsShown } from '../harness/credentialsShown';
import { manualTrigger, paymentsServiceNode } from '../harness/nodes';
import { PACKAGE_NAME, PACKAGE_ROOT } from '../harness/packageInfo';
import { mapCredentials } from './catalogue';
import { parseOptions } from './options';
import { debianBinary } from './processes';
import { Steps } from './report';
import { cleanUp, installStep, newRunState, runSteps, SETUP_STEPS } from './run';
import { need, type RunState } from './state';

/** Where the screenshots go (git-ignored). */
const SCREENSHOTS = path.join(PACKAGE_ROOT, '.e2e-output', 'editor');
/** The README's pictures, taken by this run and committed (docs/images). */
const README_IMAGES = path.join(PACKAGE_ROOT, 'docs', 'images');
/** Debian's Chromium. */
const CHROMIUM = '/usr/bin/chromium';
/** Flags that work on this machine (no GPU, no sandbox as root, nothing fetched from outside). */
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
/** How long one UI expectation may take. */
const UI_TIMEOUT_MS = 30_000;

/**
 * A node's description, from the built package (what n8n loaded); for a versioned node, the
 * description of its newest version (what a new node gets), with every version's display name.
 */
function builtDescription(file: string, exportName: string): INodeTypeDescription {
	type Loaded = {
		description: INodeTypeDescription;
		nodeVersions?: Record<number, { description: INodeTypeDescription }>;
		currentVersion?: number;
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(
		path.join(PACKAGE_ROOT, 'dist', 'nodes', 'PaymentsService', file),
	) as Record<string, new () => Loaded>;
	const loaded = new module[exportName]();
	if (!loaded.nodeVersions || loaded.currentVersion === undefined) return loaded.description;
	return { ...loaded.description, ...loaded.nodeVersions[loaded.currentVersion].description };
}

/** The newest version of a node description (a number, or the last of a list). */
function newestVersion(description: INodeTypeDescription): number {
	return Array.isArray(description.version)
		? Math.max(...description.version)
		: description.version;
}

function actionNodeDescription(): INodeTypeDescription {
	return builtDescription('PaymentsService.node.js', 'PaymentsService');
}

/** The credential ids the exported workflows use, by credential type. */
const EXPORTED_CREDENTIALS: Record<string, string> = {
	paymentsServiceSessionApi: 'cred-session',
	paymentsServiceReadOnlyApi: 'cred-read-only',
	paymentsServiceDepositApi: 'cred-deposit',
	paymentsServiceCashoutApi: 'cred-cashout',
};

/** The node's credentials n8n shows for these parameters (its own display logic), with their ids. */
function shownCredentials(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	credentialIds: Map<string, string>,
): INode['credentials'] {
	const credentials: NonNullable<INode['credentials']> = {};
	for (const name of credentialsShown(description, parameters, newestVersion(description))) {
		const id = credentialIds.get(EXPORTED_CREDENTIALS[name]);
		if (id) credentials[name] = { id, name };
	}
	return credentials;
}

/** A node to open in the editor, and the parameter its panel must show (named in a test id). */
export interface PanelNode {
	node: INode;
	/**
	 * The parameter that chooses what the node does, which the panel must show (Resource); undefined
	 * where the choice is the credential's, as n8n's editor shows an authentication selector (the
	 * Notification Trigger from version 2: Deposits or Cashouts, one credential each).
	 */
	parameter?: string;
}

/**
 * One action node per resource, with its default operation, and the notification trigger: each
 * with the credentials n8n shows for it. Each action panel must show Resource, which n8n's editor
 * would move out of the panel if a credential's display rule made it the node's authentication
 * selector; the Notification Trigger (version 2) chooses its kind by its credential, as n8n shows an
 * authentication selector, so its panel must show the credential.
 */
export function panelNodes(
	action: INodeTypeDescription,
	notification: INodeTypeDescription,
	credentialIds: Map<string, string>,
): PanelNode[] {
	const resource = action.properties.find(
		(property) => property.name === 'resource',
	) as INodeProperties;
	const values = (resource.options ?? []).map((option) =>
		String((option as { value: string }).value),
	);
	const resources = values.map((value, index): PanelNode => {
		const operation = action.properties.find(
			(property) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value),
		);
		const parameters: INodeParameters = {
			resource: value,
			...(operation ? { operation: operation.default } : {}),
		};
		return {
			parameter: 'resource',
			node: {
				id: `resource-${value}`,
				name: `Resource ${value}`,
				type: `${PACKAGE_NAME}.paymentsService`,
				typeVersion: 1,
				position: [240 * (index % 4), 200 * Math.floor(index / 4) + 200],
				parameters,
				credentials: shownCredentials(action, parameters, credentialIds),
			},
		};
	});
	const trigger: PanelNode = {
		parameter: newestVersion(notification) >= 2 ? undefined : 'notifications',
		node: {
			id: 'notification-trigger',
			name: 'Notification trigger',
			type: `${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
			typeVersion: newestVersion(notification),
			position: [0, 0],
			webhookId: '5d0f3a52-6d1e-4c58-9a43-0f3f1e7b2c10',
			parameters: {},
			credentials: shownCredentials(notification, {}, credentialIds),
		},
	};
	return [...resources, trigger];
}

/** Debian's Chromium, installed when missing. */
async function chromiumBinary(): Promise<string> {
	return await debianBinary('chromium', CHROMIUM);
}

/** Console errors and page errors of a page, collected as they happen. */
function collectErrors(page: Page): string[] {
	const errors: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error') errors.push(message.text());
	});
	page.on('pageerror', (error) => errors.push(error.message));
	return errors;
}

/** A browser context signed in as the owner: the REST client's auth cookie and its browser id. */
async function signedInContext(state: RunState, userDataDir: string): Promise<BrowserContext> {
	const client = need(state.client, 'the REST client');
	const main = need(state.main, 'n8n main');
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: await chromiumBinary(),
		headless: true,
		chromiumSandbox: false,
		args: CHROMIUM_FLAGS,
		viewport: { width: 1440, height: 900 },
	});
	const { cookie, browserId } = client.session();
	const [name, ...value] = cookie.split('=');
	await context.addCookies([{ name, value: value.join('='), url: main.url }]);
	// The editor sends this id as `browser-id`; the cookie is valid only with the id it was issued for.
	await context.addInitScript({
		content: `localStorage.setItem('n8n-browserId', ${JSON.stringify(browserId)});`,
	});
	return context;
}

/** Runs a UI check; when it fails, saves what the page showed as failed-<name>.png first. */
async function withScreenshot(
	page: Page,
	name: string,
	check: () => Promise<string>,
): Promise<string> {
	try {
		return await check();
	} catch (error) {
		await page
			.screenshot({ path: path.join(SCREENSHOTS, `failed-${name}.png`) })
			.catch(() => undefined);
		throw new Error(`${(error as Error).message.split('\n')[0]} (see failed-${name}.png)`);
	}
}

/** Opens the nodes panel with `opener` and types `query` into its search field. */
async function searchNodes(
	page: Page,
	opener: ReturnType<Page['locator']>,
	query: string,
): Promise<void> {
	await opener.waitFor({ timeout: UI_TIMEOUT_MS });
	await opener.click({ timeout: UI_TIMEOUT_MS });
	const input = page.locator('[data-test-id="node-creator-search-bar"]').first();
	await input.waitFor({ timeout: UI_TIMEOUT_MS });
	await input.fill(query);
}

/** The action texts of the action node's operations (what the nodes panel lists), in order. */
function operationActions(): string[] {
	return actionNodeDescription()
		.properties.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.options ?? []).map((option) => (option as { action?: string }).action),
		)
		.filter((action): action is string => typeof action === 'string');
}

/**
 * Searches "Payments Service" in the nodes panel twice, as a user adding nodes does: as the first
 * step (trigger nodes: the polling and the notification trigger) and after a Manual Trigger (the action node).
 */
async function nodesPanelStep(page: Page, state: RunState): Promise<string> {
	const main = need(state.main, 'n8n main');
	const creator = page.locator('[data-test-id="node-creator"]');
	await page.goto(`${main.url}/workflow/new`);
	await searchNodes(
		page,
		page.locator('[data-test-id="canvas-add-button"] button').first(),
		'Payments Service',
	);
	const trigger = builtDescription(
		'PaymentsServiceTrigger.node.js',
		'PaymentsServiceTrigger',
	).description;
	await creator.getByText(trigger).first().waitFor({ timeout: UI_TIMEOUT_MS });
	const notification = builtDescription(
		'PaymentsServiceNotificationTrigger.node.js',
		'PaymentsServiceNotificationTrigger',
	).description;
	await creator.getByText(notification).first().waitFor({ timeout: UI_TIMEOUT_MS });
	await page.screenshot({ path: path.join(SCREENSHOTS, 'nodes-panel-trigger.png') });

	const manual = manualTrigger();
	const stored = await need(state.client, 'the REST client').createWorkflow({
		name: 'Editor: nodes panel',
		nodes: [manual],
		connections: {},
		settings: {},
	});
	await page.goto(`${main.url}/workflow/${stored.id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: UI_TIMEOUT_MS });
	await searchNodes(
		page,
		page.locator('[data-test-id="canvas-handle-plus"]').first(),
		'Payments Service',
	);
	// n8n lists a package's nodes as one entry; opening it lists the action node's operations.
	await creator
		.getByText(/^Payments Service$/)
		.first()
		.click({ timeout: UI_TIMEOUT_MS });
	const actions = operationActions();
	for (const action of actions.slice(0, 3))
		await creator.getByText(action, { exact: true }).first().waitFor({ timeout: UI_TIMEOUT_MS });
	await page.screenshot({ path: path.join(SCREENSHOTS, 'nodes-panel-action.png') });
	await page.keyboard.press('Escape');
	return `first step: Payments Service Trigger and Payments Service Notification Trigger (nodes-panel-trigger.png); next step: Payments Service with its actions, e.g. ${actions.slice(0, 3).join(', ')} (nodes-panel-action.png)`;
}

/**
 * Opens each resource's node and the notification trigger, and requires each panel to show its
 * choosing parameter (Resource, Notifications), a labelled credential and its parameters, with no
 * console error.
 */
async function parameterPanelsStep(page: Page, errors: string[], state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const main = need(state.main, 'n8n main');
	const panels = panelNodes(
		actionNodeDescription(),
		builtDescription(
			'PaymentsServiceNotificationTrigger.node.js',
			'PaymentsServiceNotificationTrigger',
		),
		state.credentialIds,
	);
	const workflow: WorkflowJson = {
		name: 'Editor: every resource',
		nodes: panels.map((panel) => panel.node),
		connections: {},
		settings: { executionOrder: 'v1' },
	};
	const stored = await client.createWorkflow(workflow);
	await page.goto(`${main.url}/workflow/${stored.id}`);
	const rendered: string[] = [];
	for (const { node, parameter } of panels) {
		const before = errors.length;
		await page
			.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`)
			.dblclick({ timeout: UI_TIMEOUT_MS });
		const panel = page.locator('[data-test-id="ndv"]');
		await panel.locator('[data-test-id="node-parameters"]').waitFor({ timeout: UI_TIMEOUT_MS });
		if (parameter) {
			const chooser = panel.locator(`[data-test-id="parameter-input-${parameter}"]`);
			try {
				await chooser.waitFor({ timeout: UI_TIMEOUT_MS });
			} catch {
				throw new Error(`the panel of "${node.name}" does not show its ${parameter} parameter`);
			}
		} else {
			await panel
				.locator('[data-test-id="credentials-label"]')
				.first()
				.waitFor({ timeout: UI_TIMEOUT_MS });
		}
		const labels = await panel.locator('[data-test-id="credentials-label"]').allInnerTexts();
		const parameters = await panel
			.locator('[data-test-id="node-parameters"] [data-test-id^="parameter-input-"]')
			.count();
		await page.screenshot({ path: path.join(SCREENSHOTS, `panel-${node.id}.png`) });
		if (errors.length > before)
			throw new Error(
				`the "${node.name}" panel logged console errors: ${errors.slice(before).join(' | ')}`,
			);
		if (labels.length < 1) throw new Error(`the "${node.name}" panel shows no credential`);
		rendered.push(
			`${node.name.replace(/^Resource /, '')} (${parameters}; ${labels.map((label) => label.split('\n')[0].trim()).join(' + ')})`,
		);
		await page.keyboard.press('Escape');
		await panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
	}
	return `${rendered.length} panels with their Resource parameter (the Notification Trigger: its credential), parameters and credentials shown: ${rendered.join(', ')}`;
}

/** Opens the session credential and saves it: the dialog tests it and says it passed. */
async function credentialTestStep(page: Page, state: RunState): Promise<string> {
	const main = need(state.main, 'n8n main');
	const id = need(state.credentialIds.get('cred-session'), 'the session credential');
	await page.goto(`${main.url}/home/credentials/${id}`);
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	await modal.waitFor({ timeout: UI_TIMEOUT_MS });
	await modal.locator('[data-test-id="credential-save-button"]').click({ timeout: UI_TIMEOUT_MS });
	await modal.getByText('Connection tested successfully').waitFor({ timeout: UI_TIMEOUT_MS });
	await page.screenshot({ path: path.join(SCREENSHOTS, 'credential-test.png') });
	return 'Sandbox session: saved in the dialog, "Connection tested successfully" (credential-test.png)';
}

/**
 * Takes the README's pictures from what the editor shows: the rejected-cashout alert workflow
 * (test/workflows/alert-rejected-cashouts.json, with the run's credentials) on the canvas, and the
 * Cashout Create panel. Each is written to
 * .e2e-output/editor and copied to docs/images, so the README shows what this n8n shows.
 */
async function readmePicturesStep(page: Page, state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const main = need(state.main, 'n8n main');
	const alert = mapCredentials(readWorkflow('alert-rejected-cashouts.json'), state.credentialIds);
	const stored = await client.createWorkflow({ ...alert, name: 'Alert on rejected cashouts' });
	await page.goto(`${main.url}/workflow/${stored.id}`);
	const nodes = page.locator('[data-test-id="canvas-node"]');
	await nodes.nth(alert.nodes.length - 1).waitFor({ timeout: UI_TIMEOUT_MS });
	const shown = await nodes.count();
	if (shown !== alert.nodes.length)
		throw new Error(`the canvas shows ${shown} of the workflow's ${alert.nodes.length} nodes`);
	// Fit the workflow to the view (the canvas's zoom-to-fit shortcut), then let it settle.
	await page.keyboard.press('1');
	await page.waitForTimeout(500);
	const canvas = path.join(SCREENSHOTS, 'readme-alert-workflow.png');
	await page.screenshot({ path: canvas });

	const cashoutCreate = paymentsServiceNode(
		'Create cashout',
		{ resource: 'cashout', operation: 'create' },
		{
			credentials: shownCredentials(
				actionNodeDescription(),
				{ resource: 'cashout', operation: 'create' },
				state.credentialIds,
			),
		},
	);
	const panelWorkflow = await client.createWorkflow({
		name: 'Editor: Cashout Create',
		nodes: [cashoutCreate],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	await page.goto(`${main.url}/workflow/${panelWorkflow.id}`);
	await page
		.locator(`[data-test-id="canvas-node"][data-node-name="${cashoutCreate.name}"]`)
		.dblclick({ timeout: UI_TIMEOUT_MS });
	const panel = page.locator('[data-test-id="ndv"]');
	await panel
		.locator('[data-test-id="parameter-input-operation"]')
		.waitFor({ timeout: UI_TIMEOUT_MS });
	await panel
		.locator('[data-test-id="parameter-input-amount"]')
		.waitFor({ timeout: UI_TIMEOUT_MS });
	const create = path.join(SCREENSHOTS, 'readme-cashout-create.png');
	await page.screenshot({ path: create });
	await page.keyboard.press('Escape');

	mkdirSync(README_IMAGES, { recursive: true });
	copyFileSync(canvas, path.join(README_IMAGES, 'alert-rejected-cashouts.png'));
	copyFileSync(create, path.join(README_IMAGES, 'cashout-create-panel.png'));
	return `the alert workflow on the canvas (${shown} nodes) and the Cashout Create panel, in docs/images`;
}

async function main(): Promise<number> {
	const state = newRunState(parseOptions(process.argv.slice(2)));
	const steps = new Steps();
	const userDataDir = path.join(os.tmpdir(), `payments-editor-chromium-${process.pid}`);
	rmSync(SCREENSHOTS, { recursive: true, force: true });
	mkdirSync(SCREENSHOTS, { recursive: true });
	let context: BrowserContext | undefined;
	const critical = { critical: true };
	try {
		await steps.run(
			'Install n8n and Node.js (cache)',
			async () => await installStep(state),
			critical,
		);
		if (state.options.installOnly) {
			await steps.run('Debian package: chromium', async () => await chromiumBinary());
			console.log(steps.table(`n8n ${state.options.n8nVersion} and Chromium installed`));
			return steps.passed() ? 0 : 1;
		}
		await runSteps(steps, state, SETUP_STEPS, critical);
		await steps.run(
			'Start Chromium signed in',
			async () => {
				context = await signedInContext(state, userDataDir);
				return `${CHROMIUM} (${context.browser()?.version() ?? 'persistent context'}), profile ${userDataDir}`;
			},
			critical,
		);
		const page = await need(context, 'the browser').newPage();
		const errors = collectErrors(page);
		// Each check in the page, by its step name and the name of the screenshot taken when it fails.
		const checks: Array<[string, string, () => Promise<string>]> = [
			['Nodes panel lists both nodes', 'nodes-panel', () => nodesPanelStep(page, state)],
			[
				'Each resource’s panel and the notification trigger’s show their parameters and credentials, without console errors',
				'parameters',
				() => parameterPanelsStep(page, errors, state),
			],
			[
				'The README’s pictures: the alert workflow on the canvas, the Cashout Create panel',
				'readme',
				() => readmePicturesStep(page, state),
			],
			[
				'A credential test passes in the credential dialog',
				'credential-test',
				() => credentialTestStep(page, state),
			],
		];
		for (const [name, screenshot, check] of checks)
			await steps.run(name, async () => await withScreenshot(page, screenshot, check));
	} catch (error) {
		if (!Steps.isAbort(error))
			await steps.run('Unexpected error', async () => Promise.reject(error));
	} finally {
		await context?.close();
		rmSync(userDataDir, { recursive: true, force: true });
		await cleanUp(state, state.options.keep || !steps.passed());
	}
	console.log(
		steps.table(
			`n8n ${state.options.n8nVersion} editor in Chromium — screenshots in ${path.relative(PACKAGE_ROOT, SCREENSHOTS)}`,
		),
	);
	return steps.passed() ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
