/**
 * `npm run demo`: starts the sandbox and a local SMTP sink, loads the built package the way n8n
 * loads it, and runs the example workflows of test/workflows through n8n-core's WorkflowExecute,
 * printing a short summary of each. Exits 1 when any of them does not do what it shows.
 * n8n-core writes its settings into a temporary user folder, deleted at the end (user-folder.ts).
 */
// First: sets N8N_USER_FOLDER before n8n-core is loaded.
import { removeUserFolder } from './user-folder';
import { Container } from '@n8n/di';
import { ErrorReporter } from 'n8n-core';
import { startSandbox } from '../sandbox';
import { createEngine } from '../harness/engine';
import { smtpSinkData, storeSandboxCredentials } from '../harness/fixtures';
import { DEMOS, runDemo } from './demos';
import { startSmtpSink } from './smtp-sink';

/**
 * Keeps the node errors n8n reports (its error reporter logs each failed node's error) instead of
 * letting n8n print them between the demos' lines. Returns the list they go into, in order; the
 * caller empties it before each demo and prints them under it.
 */
function keepNodeErrors(): string[] {
	const reported: string[] = [];
	Container.get(ErrorReporter).error = (error: unknown) => {
		reported.push(error instanceof Error ? error.message : String(error));
	};
	return reported;
}

async function main(): Promise<number> {
	const sandbox = await startSandbox();
	const smtp = await startSmtpSink();
	const engine = await createEngine({ source: 'dist' });
	storeSandboxCredentials(engine, sandbox);
	const nodeErrors = keepNodeErrors();
	engine.addCredential({
		id: 'cred-smtp',
		name: 'SMTP (finance mailbox)',
		type: 'smtp',
		data: smtpSinkData(smtp.port),
	});
	console.log(
		`Sandbox payments service on ${sandbox.baseUrl}; SMTP sink on 127.0.0.1:${smtp.port}\n`,
	);
	let failures = 0;
	try {
		for (const [index, demo] of DEMOS.entries()) {
			console.log(`${index + 1}. ${demo.title}`);
			console.log(`   workflow: test/workflows/${demo.file}`);
			nodeErrors.length = 0;
			try {
				const { lines } = await runDemo(demo, { engine, sandbox, mails: smtp.mails, nodeErrors });
				for (const line of lines) console.log(`   ${line}`);
				printUnshown(nodeErrors, lines);
				console.log('   OK\n');
			} catch (error) {
				failures++;
				printUnshown(nodeErrors, []);
				console.log(`   FAILED: ${(error as Error).message}\n`);
			}
		}
		const logins = sandbox.log.find('POST', '/v1/auth/login').length;
		console.log(
			`${sandbox.log.entries().length} requests reached the sandbox; ${logins} session login${logins === 1 ? '' : 's'} served every workflow.`,
		);
	} finally {
		await smtp.close();
		await sandbox.close();
		removeUserFolder();
	}
	console.log(failures ? `\n${failures} demo(s) failed.` : '\nAll demos passed.');
	return failures ? 1 : 0;
}

/** Prints the node errors n8n reported during a demo that its own lines do not show. */
function printUnshown(nodeErrors: readonly string[], lines: readonly string[]): void {
	for (const message of nodeErrors) {
		if (!lines.some((line) => line.includes(message)))
			console.log(`   n8n reported a node error: ${message}`);
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
