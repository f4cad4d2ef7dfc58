/**
 * `npm run try`: a real n8n on this machine with the package installed, the four credentials
 * pointing at the sandbox (a local stand-in for the payments service: generated data, no real
 * money), an SMTP credential whose e-mails are caught and printed here, and the example workflows
 * imported. It reuses the first steps of `npm run test:n8n` (the cached n8n and Node.js, the packed
 * package installed as n8n's installer does, the owner, the credentials and their tests, the
 * import), prints the editor's address and login, and runs until Ctrl-C, when it stops n8n and the
 * sandbox and deletes its folder.
 *
 * `--port 5678` (n8n's own default; a free one when it is taken), `--n8n-version`, `--cache-dir`,
 * `--check` (start, check the editor answers and the workflows are there, stop: what CI runs).
 */
import { parseArgs } from 'util';

import { exitWith, freePort, stopAll } from './processes';
import { parseOptions, strictFlags } from './options';
import { progress } from './progress';
import { OWNER } from './rest';
import { cleanUp, importStep, installStep, newRunState, SETUP_STEPS, type NamedStep } from './run';
import { need, type RunState } from './state';

/** n8n's own default port. */
const N8N_DEFAULT_PORT = 5678;

/** What `npm run try` was asked to do. */
interface TryOptions {
	port: number;
	check: boolean;
	/** The test:n8n flags it shares (`--n8n-version`, `--cache-dir`). */
	shared: string[];
}

/** Parses `--port`, `--check`, `--n8n-version` and `--cache-dir`. @throws on anything else. */
export function parseTryOptions(argv: string[]): TryOptions {
	const { values } = parseArgs(
		strictFlags(argv, {
			port: { type: 'string' },
			check: { type: 'boolean', default: false },
			'n8n-version': { type: 'string' },
			'cache-dir': { type: 'string' },
		}),
	);
	const port = values.port === undefined ? N8N_DEFAULT_PORT : Number(values.port);
	if (!Number.isInteger(port) || port < 1 || port > 65_535)
		throw new Error(`--port must be a port number, got "${values.port}"`);
	const shared: string[] = [];
	if (values['n8n-version']) shared.push('--n8n-version', values['n8n-version']);
	if (values['cache-dir']) shared.push('--cache-dir', values['cache-dir']);
	return { port, check: values.check === true, shared };
}

/** `port` when nothing listens on it, else a free one. */
async function portToUse(port: number): Promise<number> {
	const { createServer } = await import('net');
	const free = await new Promise<boolean>((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	return free ? port : await freePort();
}

/** The lines printed once n8n is ready. */
function readyText(state: RunState): string {
	const main = need(state.main, 'n8n main');
	const sandbox = need(state.sandbox, 'the sandbox');
	const imported = [...state.workflows.keys()].sort();
	return [
		'',
		`n8n ${state.options.n8nVersion} is running with n8n-nodes-payments-service installed.`,
		'',
		`  Editor     ${main.url}`,
		`  Log in     ${OWNER.email}  /  ${OWNER.password}`,
		`  Sandbox    ${sandbox.baseUrl}  (a local stand-in for the payments service: generated data, no real money)`,
		'  Credentials  Payments Service Session API, Read-Only API, Deposit API, Cashout API (all on the sandbox),',
		'               and an SMTP account whose e-mails are printed below',
		`  Workflows  ${imported.length} examples imported: open one (Overview → Workflows) and press "Execute workflow"`,
		...imported.map((file) => `               ${file}`),
		'',
		'  Make the alert workflows fire: activate one, then move a cashout to REJECTED in the sandbox:',
		`    curl -X POST ${sandbox.baseUrl}/_sandbox/cashouts/<id>/advance -H 'content-type: application/json' -d '{"to":"DELIVERED"}'`,
		`    curl -X POST ${sandbox.baseUrl}/_sandbox/cashouts/<id>/advance -H 'content-type: application/json' -d '{"to":"REJECTED","rejectionCode":801}'`,
		'  (a PENDING cashout id: Cashout → Get Many in the editor, or the sandbox README, test/sandbox/README.md)',
		'',
		'Press Ctrl-C to stop: n8n and the sandbox stop, and nothing is kept.',
		'',
	].join('\n');
}

/** Prints each e-mail the SMTP sink receives, as it arrives; returns a function that stops it. */
function printMails(state: RunState): () => void {
	const mails = need(state.smtp, 'the SMTP sink').mails;
	let printed = 0;
	const timer = setInterval(() => {
		for (; printed < mails.length; printed++) {
			const mail = mails[printed];
			console.log(`E-mail to ${mail.to.join(', ')}: ${mail.subject}`);
		}
	}, 1000);
	return () => clearInterval(timer);
}

/** Waits for Ctrl-C (or a termination signal). */
async function untilInterrupted(): Promise<void> {
	await new Promise<void>((resolve) => {
		process.once('SIGINT', () => resolve());
		process.once('SIGTERM', () => resolve());
	});
}

async function main(): Promise<number> {
	const tryOptions = parseTryOptions(process.argv.slice(2));
	const state = newRunState(parseOptions(tryOptions.shared));
	state.options.mainPort = await portToUse(tryOptions.port);
	console.log(
		`Starting n8n ${state.options.n8nVersion} with the package; n8n and Node.js come from ${state.options.cacheDir} (the first run installs them there)…`,
	);
	const steps: NamedStep[] = [
		['Install n8n and Node.js (cache)', installStep],
		...SETUP_STEPS,
		['Import the example workflows', importStep],
	];
	let failed = false;
	let current = 'the check';
	try {
		for (const [what, step] of steps) {
			current = `"${what}"`;
			const started = Date.now();
			const seen = await progress.during(what, async () => await step(state));
			const seconds = ((Date.now() - started) / 1000).toFixed(1);
			console.log(`  ✔ ${what} (${seconds}s): ${seen.split('\n')[0]}`);
		}
		current = 'the check';
		console.log(readyText(state));
		if (tryOptions.check) {
			const client = need(state.client, 'the REST client');
			const answer = await fetch(need(state.main, 'n8n main').url);
			if (!answer.ok) throw new Error(`the editor answered ${answer.status}`);
			// n8n answers the list itself, or `{count, data}` (newer releases).
			const answered = await client.request<unknown>('GET', '/workflows');
			const listed = Array.isArray(answered) ? answered : (answered as { data: unknown[] }).data;
			if (listed.length !== state.workflows.size)
				throw new Error(
					`n8n lists ${listed.length} workflows, ${state.workflows.size} were imported`,
				);
			console.log(`Check passed: the editor answers and lists the ${listed.length} workflows.`);
			return 0;
		}
		const stopPrinting = printMails(state);
		await untilInterrupted();
		stopPrinting();
		console.log('\nStopping n8n and the sandbox…');
		return 0;
	} catch (error) {
		failed = true;
		console.error(`npm run try failed at ${current}: ${(error as Error).message}`);
		return 1;
	} finally {
		// A failed start keeps its folder (n8n's log is in logs/).
		await cleanUp(state, failed);
		await stopAll();
	}
}

if (require.main === module) exitWith(main);
