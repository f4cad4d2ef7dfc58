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
		if (argv[i + 1] === undefined || !Number.isFinite(value))
			throw new Error(`${flag} needs a number`);
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
				if (name !== 'Status' && name !== 'status')
					throw new Error('--status-param must be Status or status');
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
		'Read-only key (exchange rates, banks, payment methods, states)',
		`  ${c.readOnlyKey}`,
		`Deposit and refund API (merchant ${c.deposit.merchantId})`,
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
		`  POST   ${sandbox.baseUrl}/_sandbox/refunds/<id>/advance   {"to": "DELIVERED|COMPLETED|REJECTED|CANCELLED|INCORRECT_DETAILS|PENDING"}`,
		`  POST   ${sandbox.baseUrl}/_sandbox/deposits/<id>/status   {"status": "COMPLETED"}`,
		`  GET    ${sandbox.baseUrl}/_sandbox/notifications      DELETE same path clears them`,
		`  POST   ${sandbox.baseUrl}/_sandbox/notifications/deliver-due`,
		`  POST   ${sandbox.baseUrl}/_sandbox/notifications/settle`,
		`  POST   ${sandbox.baseUrl}/_sandbox/notifications/duplicate  {"n": 2}`,
		`  POST   ${sandbox.baseUrl}/_sandbox/notifications/hold`,
		`  POST   ${sandbox.baseUrl}/_sandbox/notifications/release    {"order": "queued|reverse"}`,
		`  POST   ${sandbox.baseUrl}/_sandbox/merchants/<mid>/notification-url  {"url": "http://host/hook"} ({"url": null} clears; GET reads)`,
		`  POST   ${sandbox.baseUrl}/_sandbox/merchants/<mid>/cashout-funds     {"usd": 50000} (GET reads what is left)`,
		`  POST   ${sandbox.baseUrl}/_sandbox/merchants/<mid>/balances          {"currency": "BRL", "available": 12000} (GET lists the balances)`,
		`  POST   ${sandbox.baseUrl}/_sandbox/sessions/expire`,
		`  GET    ${sandbox.baseUrl}/_sandbox/credentials`,
		'',
		'Cashout creation refusals (POST /v3/cashout): 300 bad fields, 303 bank_code not in /v3/banks,',
		'  540 CO/PE without email and phone, 511 external_id reused, 101 document_id of one repeated digit,',
		'  533 below 5 USD, 508 above 10,000 USD, 514 amount + fee above the cashout funds.',
		'Notifications retry after 5, 25, 125, 625 and 3125 minutes of sandbox time (move the clock).',
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
