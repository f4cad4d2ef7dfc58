/**
 * `npm run demo`: starts the sandbox and a local SMTP sink, loads the built package the way n8n
 * loads it, and runs the example workflows of test/workflows through n8n-core's WorkflowExecute,
 * printing a short summary of each. Exits 1 when any of them does not do what it shows.
 * n8n-core writes its settings into a temporary user folder, deleted at the end (user-folder.ts).
 */
// First: sets N8N_USER_FOLDER before n8n-core is loaded.
import { removeUserFolder } from './user-folder';
import { startSandbox } from '../sandbox';
import { createEngine } from '../harness/engine';
import { storeSandboxCredentials } from '../harness/fixtures';
import { DEMOS, runDemo } from './demos';
import { startSmtpSink } from './smtp-sink';

async function main(): Promise<number> {
	const sandbox = await startSandbox();
	const smtp = await startSmtpSink();
	const engine = await createEngine({ source: 'dist' });
	storeSandboxCredentials(engine, sandbox);
	engine.addCredential({
		id: 'cred-smtp',
		name: 'SMTP (finance mailbox)',
		type: 'smtp',
		data: {
			host: '127.0.0.1',
			port: smtp.port,
			secure: false,
			disableStartTls: true,
			user: '',
			password: '',
		},
	});
	console.log(
		`Sandbox payments service on ${sandbox.baseUrl}; SMTP sink on 127.0.0.1:${smtp.port}\n`,
	);
	let failures = 0;
	try {
		for (const [index, demo] of DEMOS.entries()) {
			console.log(`${index + 1}. ${demo.title}`);
			console.log(`   workflow: test/workflows/${demo.file}`);
			try {
				const { lines } = await runDemo(demo, { engine, sandbox, mails: smtp.mails });
				for (const line of lines) console.log(`   ${line}`);
				console.log('   OK\n');
			} catch (error) {
				failures++;
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

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
