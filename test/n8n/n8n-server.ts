/**
 * Starts n8n (main and, in queue mode, workers) from a cached install: loopback only, its own user
 * folder, no telemetry, version checks, templates or other calls out, and logs in files.
 */
import { existsSync, mkdirSync, readFileSync } from 'fs';
import path from 'path';

import type { N8nInstall } from './install';
import { freePort, startProcess, tail, waitFor, type Managed } from './processes';

/** How long n8n may take to start (first start of a user folder runs every database migration). */
const START_TIMEOUT_MS = 180_000;

/** Databases and queue of a queue-mode run. */
export interface QueueBackends {
	postgres: { port: number; database: string; user: string };
	redis: { port: number };
}

/** A started n8n process. */
export interface N8nProcess {
	process: Managed;
	/** http://127.0.0.1:<port> of main; the health server of a worker. */
	url: string;
	/** Its user folder (`N8N_USER_FOLDER`); n8n's own folder is `<userFolder>/.n8n`. */
	userFolder: string;
}

/**
 * n8n modules (N8N_DISABLED_MODULES) that only call services on the internet, disabled when the
 * installed version has them (naming a module a version lacks stops n8n from starting).
 */
const OUTBOUND_MODULES = ['mcp-registry'];

/** The modules of OUTBOUND_MODULES the installed n8n knows. */
function disabledModules(install: N8nInstall): string {
	const config = path.join(
		path.dirname(install.bin),
		'..',
		'..',
		'@n8n',
		'backend-common',
		'dist',
		'modules',
		'modules.config.js',
	);
	const known = existsSync(config) ? readFileSync(config, 'utf8') : '';
	return OUTBOUND_MODULES.filter((name) => known.includes(`'${name}'`)).join(',');
}

/** Environment shared by main and workers. */
export function baseEnv(
	install: N8nInstall,
	userFolder: string,
	encryptionKey: string,
	backends?: QueueBackends,
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {
		PATH: install.node.path,
		HOME: process.env.HOME,
		TZ: 'UTC',
		GENERIC_TIMEZONE: 'UTC',
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_PYTHON_ENABLED: 'false',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		N8N_LOG_OUTPUT: 'console',
		N8N_DISABLED_MODULES: disabledModules(install),
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_PRUNE: 'false',
	};
	if (backends) {
		Object.assign(env, {
			EXECUTIONS_MODE: 'queue',
			// n8n 2.x still runs manual executions on main in queue mode unless told to offload them.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(backends.redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(backends.postgres.port),
			DB_POSTGRESDB_DATABASE: backends.postgres.database,
			DB_POSTGRESDB_USER: backends.postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
		});
	}
	return env;
}

/** Resolves when `url` answers 200. */
async function answers(url: string): Promise<boolean> {
	try {
		return (await fetch(url)).status === 200;
	} catch {
		return false;
	}
}

/** Throws with the log's tail when `managed` has exited. */
function checkAlive(managed: Managed): void {
	if (managed.exited())
		throw new Error(`${managed.name} exited while starting:\n${tail(managed.log(), 30)}`);
}

/**
 * Starts n8n with `args` as `n8n <name>` (its output in `<logDir>/n8n-<name>.log`, its task
 * runners' broker on a free port) with `env`; resolves once `ready(url)` holds.
 * @throws when it exits first, or is not ready within START_TIMEOUT_MS (with its log's tail).
 */
async function startN8nProcess(
	install: N8nInstall,
	args: string[],
	env: NodeJS.ProcessEnv,
	where: { name: string; logDir: string; url: string; waitingFor: string },
	ready: (url: string) => Promise<boolean>,
): Promise<N8nProcess> {
	const managed = startProcess(`n8n ${where.name}`, install.node.bin, [install.bin, ...args], {
		env: { ...env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
		logFile: path.join(where.logDir, `n8n-${where.name}.log`),
	});
	await waitFor(
		where.waitingFor,
		async () => {
			checkAlive(managed);
			return await ready(where.url);
		},
		{ timeoutMs: START_TIMEOUT_MS, intervalMs: 500, detail: () => tail(managed.log()) },
	);
	return { process: managed, url: where.url, userFolder: env.N8N_USER_FOLDER as string };
}

/** Whether `<url>/healthz/readiness` answers. */
const readiness = async (url: string) => await answers(`${url}/healthz/readiness`);

/**
 * Starts `n8n start` (main) on `port` (default: a free one) with `env`; resolves once
 * `/healthz/readiness` answers and the editor's REST API is up. `logLevel` debug makes main log each
 * poll of a trigger. Started again with the same `env` and port, it is the same n8n restarted.
 */
export async function startMain(
	install: N8nInstall,
	env: NodeJS.ProcessEnv,
	logDir: string,
	logLevel = 'debug',
	port?: number,
): Promise<N8nProcess> {
	port ??= await freePort();
	mkdirSync(env.N8N_USER_FOLDER as string, { recursive: true });
	const url = `http://127.0.0.1:${port}`;
	return await startN8nProcess(
		install,
		['start'],
		{
			...env,
			N8N_PORT: String(port),
			WEBHOOK_URL: `${url}/`,
			N8N_EDITOR_BASE_URL: url,
			N8N_LOG_LEVEL: logLevel,
		},
		{ name: 'main', logDir, url, waitingFor: `n8n ${install.version} (main) to answer on ${url}` },
		async () => (await readiness(url)) && (await answers(`${url}/rest/settings`)),
	);
}

/**
 * Starts `n8n worker --concurrency=<n>` with its health server on a free loopback port; resolves
 * once the worker reports ready (`/healthz/readiness`: connected to the database and Redis).
 */
export async function startWorker(
	install: N8nInstall,
	env: NodeJS.ProcessEnv,
	name: string,
	logDir: string,
	concurrency = 1,
): Promise<N8nProcess> {
	const healthPort = await freePort();
	const url = `http://127.0.0.1:${healthPort}`;
	return await startN8nProcess(
		install,
		['worker', `--concurrency=${concurrency}`],
		{
			...env,
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			N8N_LOG_LEVEL: 'info',
		},
		{ name, logDir, url, waitingFor: `n8n ${name} to report ready on ${url}` },
		readiness,
	);
}

/**
 * Starts `n8n webhook` (queue mode: a process that only serves production webhooks, handing the
 * executions to the workers) on a free port; resolves once `/healthz/readiness` answers.
 */
export async function startWebhookProcess(
	install: N8nInstall,
	env: NodeJS.ProcessEnv,
	name: string,
	logDir: string,
): Promise<N8nProcess> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	return await startN8nProcess(
		install,
		['webhook'],
		{ ...env, N8N_PORT: String(port), WEBHOOK_URL: `${url}/`, N8N_LOG_LEVEL: 'info' },
		{ name, logDir, url, waitingFor: `n8n ${name} to answer on ${url}` },
		readiness,
	);
}
