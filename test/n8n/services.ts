/**
 * PostgreSQL and Redis for queue mode, started in a temporary folder on 127.0.0.1 and stopped with
 * the run: Debian's postgresql (the newest /usr/lib/postgresql/<major>/bin) and redis-server
 * packages, installed with apt-get when missing and the run is root.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from 'fs';
import path from 'path';

import {
	debianBinary,
	freePort,
	numberPrinted,
	runCommand,
	startProcess,
	tail,
	waitFor,
	type Managed,
} from './processes';
import type { QueueBackends } from './n8n-server';

/** Where Debian puts PostgreSQL's server binaries. */
const POSTGRES_ROOT = '/usr/lib/postgresql';
/** The database n8n uses. */
const DATABASE = 'n8n';
/** The PostgreSQL role (trust authentication on loopback; the database lives only for this run). */
const DB_USER = 'postgres';

/** The newest PostgreSQL server installed (`/usr/lib/postgresql/<major>/bin`), if any. */
function installedPostgresBin(): string | undefined {
	const majors = existsSync(POSTGRES_ROOT)
		? readdirSync(POSTGRES_ROOT).filter((name) => /^\d+$/.test(name))
		: [];
	const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
	return newest ? path.join(POSTGRES_ROOT, newest, 'bin') : undefined;
}

/** PostgreSQL's server binaries (Debian's postgresql, installed when missing). */
export async function postgresBin(): Promise<string> {
	return await debianBinary('postgresql', installedPostgresBin);
}

/** Debian's redis-server (installed when missing). */
export async function redisBinary(): Promise<string> {
	return await debianBinary('redis-server', '/usr/bin/redis-server');
}

/** A PostgreSQL command as {@link postgresCommand} gives it: what to run, and in which folder. */
export interface PostgresCommand {
	command: string;
	args: string[];
	/** `/`: the `postgres` user cannot enter a checkout in root's home folder (mode 700). */
	cwd: string;
}

/**
 * `binary` with `args`, run as the `postgres` system user when `uid` is root's (initdb refuses
 * root), in `/`: a command inherits its working folder, and PostgreSQL's tools run as `postgres`
 * in a folder it cannot enter print `could not change directory to "…": Permission denied`.
 */
export function postgresCommand(
	binary: string,
	args: string[],
	uid: number | undefined = process.getuid?.(),
): PostgresCommand {
	if (uid !== 0) return { command: binary, args, cwd: '/' };
	return { command: 'runuser', args: ['-u', 'postgres', '--', binary, ...args], cwd: '/' };
}

/** Runs a PostgreSQL tool as {@link postgresCommand} says; resolves its output. */
async function runPostgres(binary: string, args: string[], what: string): Promise<string> {
	const { command, args: commandArgs, cwd } = postgresCommand(binary, args);
	return await runCommand(command, commandArgs, { cwd, what });
}

/** Whether a TCP connect to 127.0.0.1:`port` succeeds. */
async function listening(port: number): Promise<boolean> {
	const { connect } = await import('net');
	return await new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/**
 * Initialises a cluster in `<runDir>/postgres` and starts `postgres` on a free loopback port (no
 * Unix socket outside the folder, durability off: the data lives only for the run), then creates the
 * database.
 */
export async function startPostgres(
	runDir: string,
	logDir: string,
): Promise<{ process: Managed; port: number }> {
	const bin = await postgresBin();
	const dataDir = path.join(runDir, 'postgres');
	const socketDir = path.join(runDir, 'postgres-socket');
	mkdirSync(dataDir, { recursive: true });
	mkdirSync(socketDir, { recursive: true });
	if (process.getuid?.() === 0) {
		// The run folder is private to root; the postgres user must reach its two folders.
		chmodSync(runDir, 0o711);
		const { uid, gid } = await postgresIds();
		chownSync(dataDir, uid, gid);
		chownSync(socketDir, uid, gid);
	}
	await runPostgres(
		path.join(bin, 'initdb'),
		['-D', dataDir, '-U', DB_USER, '--auth=trust', '-E', 'UTF8', '--no-sync'],
		'initdb (PostgreSQL)',
	);
	const port = await freePort();
	const server = postgresCommand(path.join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${socketDir}`,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
	]);
	const managed = startProcess('PostgreSQL', server.command, server.args, {
		env: process.env,
		cwd: server.cwd,
		logFile: path.join(logDir, 'postgres.log'),
	});
	await waitFor(
		'PostgreSQL to accept connections',
		async () => !managed.exited() && (await listening(port)),
		{
			timeoutMs: 30_000,
			detail: () => tail(managed.log()),
		},
	);
	const createArgs = ['-h', '127.0.0.1', '-p', String(port), '-U', DB_USER, DATABASE];
	await waitFor(
		'the n8n database to be created',
		async () => (await runPostgres(path.join(bin, 'createdb'), createArgs, 'createdb'), true),
		{
			timeoutMs: 15_000,
		},
	);
	return { process: managed, port };
}

/** uid and gid of the `postgres` system user. */
async function postgresIds(): Promise<{ uid: number; gid: number }> {
	const id = async (flag: string) =>
		numberPrinted(
			`id ${flag} postgres`,
			await runCommand('id', [flag, 'postgres'], { what: `id ${flag} postgres` }),
		);
	return { uid: await id('-u'), gid: await id('-g') };
}

/** Starts Redis on a free loopback port, in memory only (no snapshots, no append-only file). */
export async function startRedis(
	runDir: string,
	logDir: string,
): Promise<{ process: Managed; port: number }> {
	const binary = await redisBinary();
	const port = await freePort();
	const dir = path.join(runDir, 'redis');
	mkdirSync(dir, { recursive: true });
	const managed = startProcess(
		'Redis',
		binary,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--protected-mode',
			'yes',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		{ env: process.env, logFile: path.join(logDir, 'redis.log') },
	);
	await waitFor(
		'Redis to accept connections',
		async () => !managed.exited() && (await listening(port)),
		{ timeoutMs: 15_000, detail: () => tail(managed.log()) },
	);
	return { process: managed, port };
}

/** Starts both; resolves the connection details n8n needs. */
export async function startQueueBackends(runDir: string, logDir: string): Promise<QueueBackends> {
	const [postgres, redis] = await Promise.all([
		startPostgres(runDir, logDir),
		startRedis(runDir, logDir),
	]);
	return {
		postgres: { port: postgres.port, database: DATABASE, user: DB_USER },
		redis: { port: redis.port },
	};
}

/** A database of the merchant's own, on a PostgreSQL of the run, that workflows reach with n8n's Postgres node. */
export interface MerchantDatabase {
	port: number;
	database: string;
	user: string;
	/** Runs `sql` with `psql` (unaligned, tuples only); resolves its output. */
	query(sql: string): Promise<string>;
	/**
	 * Runs `sql`, a query of one number (`SELECT count(*) …`); resolves it.
	 * @throws when psql printed anything but the number, with what it printed.
	 */
	count(sql: string): Promise<number>;
}

/**
 * Creates `database` on the PostgreSQL listening on 127.0.0.1:`port` (trust authentication) and
 * runs `sql` in it with `psql` (stopping at the first error). It stands for the merchant's own
 * database in the once-per-change recipe (docs/notifications.md).
 */
export async function createMerchantDatabase(
	port: number,
	database: string,
	sql: string,
): Promise<MerchantDatabase> {
	const bin = await postgresBin();
	await runPostgres(
		path.join(bin, 'createdb'),
		['-h', '127.0.0.1', '-p', String(port), '-U', DB_USER, database],
		`createdb ${database}`,
	);
	const what = `psql (${database})`;
	const query = async (statement: string) =>
		await runPostgres(
			path.join(bin, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				DB_USER,
				'-d',
				database,
				'-v',
				'ON_ERROR_STOP=1',
				'-At',
				'-c',
				statement,
			],
			what,
		);
	const count = async (statement: string) => numberPrinted(what, await query(statement));
	await query(sql);
	return { port, database, user: DB_USER, query, count };
}
