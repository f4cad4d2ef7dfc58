/**
 * Standalone sandbox: `npx tsx test/sandbox/cli.ts [--port 8787] [--seed 42] [--days 200]
 * [--latency 0] [--status-param Status|status] [--plural-paths]`. Prints the URLs, every demo
 * credential value and the admin endpoints, then stays up until Ctrl-C.
 */
import { startSandbox } from './index';
import type { SandboxOptions } from './types';

/** Parses the CLI flags into sandbox options; throws on an unknown flag or a bad number. */
export function parseArgs(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { port: 8787 };
	const numberAfter = (i: number, flag: string): number => {
		const value = Number(argv[i + 1]);
		if (argv[i + 1] === undefined || !Number.isFinite(value)) throw new Error(`${flag} needs a number`);
		return value;
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		switch (flag) {
			case '--port':
				options.port = numberAfter(i++, flag);
				break;
			case '--seed':
				options.seed = numberAfter(i++, flag);
				break;
			case '--days':
				options.days = numberAfter(i++, flag);
				break;
			case '--latency':
				options.latencyMs = numberAfter(i++, flag);
				break;
			case '--status-param': {
				const name = argv[++i];
				if (name !== 'Status' && name !== 'status') throw new Error('--status-param must be Status or status');
				options.statusParamName = name;
				break;
			}
			case '--plural-paths':
				options.pluralRefundChargebackPaths = true;
				break;
			default:
				throw new Error(`unknown flag ${flag}`);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const sandbox = await startSandbox(parseArgs(process.argv.slice(2)));
	const c = sandbox.credentials;
	const lines = [
		'Payments-service sandbox is running.',
		'',
		`  Base URL (reporting + tickets, /v1): ${sandbox.baseUrl}`,
		`  API URL  (payment API, /v3):         ${sandbox.apiUrl}`,
		`  Sandbox clock:                       ${new Date(sandbox.clock.now()).toISOString()}`,
		'',
		'Session credentials (reporting + tickets)',
		`  accessKey: ${c.session.accessKey}`,
		`  secretKey: ${c.session.secretKey}`,
		`  merchants: ${c.session.merchantIds.join(', ')} (default ${c.session.defaultMerchantId}; 1002 is empty)`,
		'Other merchant user (MID 2001)',
		`  accessKey: ${c.otherSession.accessKey}`,
		`  secretKey: ${c.otherSession.secretKey}`,
		'Refused user (login -> 403, code 83)',
		`  accessKey: ${c.refusedSession.accessKey}`,
		`  secretKey: ${c.refusedSession.secretKey}`,
		'Read-only key (exchange rates, banks)',
		`  ${c.readOnlyKey}`,
		`Deposit API (merchant ${c.deposit.merchantId})`,
		`  X-Login (API key): ${c.deposit.apiKey}`,
		`  signing secret:    ${c.deposit.apiSignature}`,
		`Cashout API (merchant ${c.cashout.merchantId})`,
		`  login:          ${c.cashout.login}`,
		`  pass:           ${c.cashout.pass}`,
		`  signing secret: ${c.cashout.apiSignature}`,
		'',
		'Admin endpoints (not logged)',
		`  GET    ${sandbox.baseUrl}/_sandbox/log            DELETE same path clears it`,
		`  GET    ${sandbox.baseUrl}/_sandbox/clock`,
		`  POST   ${sandbox.baseUrl}/_sandbox/clock/advance  {"ms": 960000}`,
		`  POST   ${sandbox.baseUrl}/_sandbox/clock/set      {"ms": <epoch ms>}`,
		`  POST   ${sandbox.baseUrl}/_sandbox/faults         {"path": "/v1/deposits", "kind": "status", "status": 429}`,
		`  GET    ${sandbox.baseUrl}/_sandbox/faults         DELETE same path clears them`,
		`  POST   ${sandbox.baseUrl}/_sandbox/cashouts/<id>/advance  {"to": "DELIVERED|COMPLETED|REJECTED", "rejectionCode": 807, "rejectionReason": "..."}`,
		`  POST   ${sandbox.baseUrl}/_sandbox/sessions/expire`,
		`  GET    ${sandbox.baseUrl}/_sandbox/credentials`,
		'',
		'Press Ctrl-C to stop.',
	];
	console.log(lines.join('\n'));
	const stop = (): void => {
		void sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
