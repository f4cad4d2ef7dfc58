/**
 * Child processes of the end-to-end runs (n8n, its workers, PostgreSQL, Redis): each runs in its own
 * process group with its output in a log file, and is stopped by signalling the whole group.
 */
import { spawn, type ChildProcess } from 'child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'fs';
import { createServer } from 'net';

import { progress } from './progress';

/** A started child process. */
export interface Managed {
	name: string;
	pid: number;
	logFile: string;
	/** The process's log so far. */
	log(): string;
	/** Whether the process has exited. */
	exited(): boolean;
	/** SIGTERM to the process group, SIGKILL after `graceMs`; resolves once the leader exited. */
	stop(graceMs?: number): Promise<void>;
}

/** Every process started and not yet stopped, so a failing run can still stop them all. */
const running = new Set<Managed>();

/** Signals the process group of `pid`; a group that is already gone is not an error. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
	}
}

/** Resolves when `child` has exited, or after `ms` (then false). */
function exitWithin(child: ChildProcess, ms: number): Promise<boolean> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(false), ms);
		child.once('exit', () => {
			clearTimeout(timer);
			resolve(true);
		});
	});
}

/**
 * Starts `command` detached (its own process group), stdout and stderr appended to `logFile`.
 * @throws when the command cannot be spawned.
 */
export function startProcess(
	name: string,
	command: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; logFile: string },
): Managed {
	const fd = openSync(options.logFile, 'a');
	const child = spawn(command, args, {
		env: options.env,
		cwd: options.cwd,
		detached: true,
		stdio: ['ignore', fd, fd],
	});
	closeSync(fd);
	if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
	const pid = child.pid;
	const managed: Managed = {
		name,
		pid,
		logFile: options.logFile,
		log: () => readFileSync(options.logFile, 'utf8'),
		exited: () => child.exitCode !== null || child.signalCode !== null,
		async stop(graceMs = 15_000) {
			running.delete(managed);
			killGroup(pid, 'SIGTERM');
			if (!(await exitWithin(child, graceMs))) {
				killGroup(pid, 'SIGKILL');
				await exitWithin(child, 5_000);
			}
			// Children of the leader (n8n's task runner) may outlive it by a moment.
			killGroup(pid, 'SIGKILL');
		},
	};
	child.on('error', () => undefined);
	running.add(managed);
	return managed;
}

/** Stops every process still running, newest first (workers before main, main before databases). */
export async function stopAll(): Promise<void> {
	for (const managed of [...running].reverse()) await managed.stop();
}

/** CPU time (user + system, in clock ticks) a process has used so far; undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
	try {
		// Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return Number(fields[11]) + Number(fields[12]);
	} catch {
		return undefined;
	}
}

/** CPU time (clock ticks, 1/100 s) under which a command counts as idle over its idle window. */
const IDLE_TICKS = 100;

/** Thrown when a command was stopped because it used no CPU for `idleMs` (a stalled download). */
export class IdleError extends Error {}

/** How {@link runCommand} runs a command. */
interface CommandOptions {
	env?: NodeJS.ProcessEnv;
	/** Its working folder (default: this process's). */
	cwd?: string;
	/** What it does, for progress lines and errors (`npm pack`, `psql (merchant_…)`). */
	what: string;
	/** Killed after this long; default 20 minutes. */
	timeoutMs?: number;
	/** Killed when it used under a second of CPU in this long (a stalled download). */
	idleMs?: number;
}

/**
 * Runs a command to completion; resolves its output, rejects with the output's tail on failure.
 * `idleMs`: stop it (IdleError) when it used under a second of CPU in that long, i.e. it waits on a
 * stalled connection (Linux; elsewhere the overall `timeoutMs` applies).
 */
export function runCommand(
	command: string,
	args: string[],
	options: CommandOptions & {
		/** How far it got, from its output so far, for the progress lines (default: its last line). */
		detail?: (output: string) => string | undefined;
	},
): Promise<string> {
	let output = '';
	const detail = options.detail ?? lastLine;
	return progress.during(
		options.what,
		() => commandRun(command, args, options, (chunk) => (output += chunk)),
		{
			detail: () => detail(output),
		},
	);
}

/** The last line a command printed that is not npm's request log, shortened, for progress lines. */
export function lastLine(output: string): string | undefined {
	const lines = meaningfulLines(output);
	const last = lines[lines.length - 1]?.trim();
	if (!last) return undefined;
	return last.length > 100 ? `${last.slice(0, 99)}…` : last;
}

/** The lines of a command's output, without npm's per-request log (`npm http fetch …`). */
function meaningfulLines(output: string): string[] {
	return output.split('\n').filter((line) => line.trim() && !/^npm (http|timing) /.test(line));
}

/** runCommand's process: `collect` receives the output as it comes. */
function commandRun(
	command: string,
	args: string[],
	options: CommandOptions,
	collect: (chunk: string) => void,
): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			env: options.env ?? process.env,
			cwd: options.cwd,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		let idle = false;
		const take = (chunk: Buffer) => {
			const text = chunk.toString();
			output += text;
			collect(text);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20 * 60_000);
		// CPU samples of the last `idleMs`: a stalled download still wakes up now and then (timers),
		// so "idle" is less than a second of CPU in the whole window.
		const samples: Array<{ at: number; ticks: number }> = [];
		const watchdog = setInterval(() => {
			const ticks = child.pid === undefined ? undefined : cpuTicks(child.pid);
			if (ticks === undefined || !options.idleMs) return;
			const now = Date.now();
			samples.push({ at: now, ticks });
			while (samples.length > 1 && now - samples[1].at >= options.idleMs) samples.shift();
			if (now - samples[0].at >= options.idleMs && ticks - samples[0].ticks < IDLE_TICKS) {
				idle = true;
				child.kill('SIGKILL');
			}
		}, 5_000);
		const done = () => {
			clearTimeout(timer);
			clearInterval(watchdog);
		};
		child.on('error', (error) => {
			done();
			reject(new Error(`${options.what}: ${error.message}`));
		});
		child.on('close', (code, signal) => {
			done();
			if (code === 0) resolve(output);
			else if (idle)
				reject(
					new IdleError(
						`${options.what} used under a second of CPU in ${Math.round((options.idleMs ?? 0) / 1000)}s (stalled download)`,
					),
				);
			else
				reject(
					new Error(
						`${options.what} failed (${signal ?? `exit ${code}`}):\n${meaningfulLines(output).slice(-25).join('\n')}`,
					),
				);
		});
	});
}

/**
 * The whole number a command printed as its only output (`psql -At`'s `count(*)`, `id -u`), for a
 * check to compare. Anything else, a warning beside the number included, throws an error that
 * names the command (`what`) and quotes what it printed, so the check fails with the command's own
 * message instead of reading it as a number.
 */
export function numberPrinted(what: string, output: string): number {
	const text = output.trim();
	if (/^\d+$/.test(text)) return Number(text);
	const shown = meaningfulLines(output).slice(-10).join('\n') || '(nothing)';
	throw new Error(`${what} printed, where a whole number was expected:\n${shown}`);
}

/**
 * Runs a tool's `main` and exits with the code it resolves, or with 1 after printing what it threw.
 * Call it under `if (require.main === module)`.
 */
export function exitWith(main: () => Promise<number>): void {
	main().then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Polls `probe` every `intervalMs` until it returns a value other than undefined/false; throws
 * `Timed out after Ns waiting for <what>` (with `detail()` appended, e.g. a log tail) otherwise.
 */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	options: { timeoutMs: number; intervalMs?: number; detail?: () => string },
): Promise<T> {
	return await progress.during(`waiting for ${what}`, async () => await poll(what, probe, options));
}

/** waitFor's loop. */
async function poll<T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	options: { timeoutMs: number; intervalMs?: number; detail?: () => string },
): Promise<T> {
	const deadline = Date.now() + options.timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() >= deadline) {
			const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
			const detail = options.detail ? `\n${options.detail()}` : '';
			throw new Error(
				`Timed out after ${Math.round(options.timeoutMs / 1000)}s waiting for ${what}${cause}${detail}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
	}
}

/** The last `lines` lines of `text`, indented, for error messages. */
export function tail(text: string, lines = 20): string {
	return text
		.trimEnd()
		.split('\n')
		.slice(-lines)
		.map((line) => `    | ${line}`)
		.join('\n');
}

/** apt-get waits up to 5 minutes for dpkg's lock, held by another install, instead of failing. */
const APT_LOCK_WAIT = '-oDPkg::Lock::Timeout=300';

/** The package lists' update of this process, run before its first install. */
let aptUpdate: Promise<string> | undefined;

/**
 * Returns `binary`, first installing Debian's `debianPackage` with apt-get when the file is missing
 * and the run is root (this machine reaches Debian's mirrors); otherwise says what to install.
 * `binary` may be a function: the package's layout decides the path (PostgreSQL's major version).
 */
export async function debianBinary(
	debianPackage: string,
	binary: string | (() => string | undefined),
): Promise<string> {
	const find = (): string | undefined =>
		typeof binary === 'string' ? (existsSync(binary) ? binary : undefined) : binary();
	const found = find();
	if (found) return found;
	if (process.getuid?.() !== 0)
		throw new Error(
			`${debianPackage} is missing: run \`sudo apt-get install -y ${debianPackage}\``,
		);
	console.log(
		`  ${debianPackage} is not installed: installing Debian's package with apt-get (usually under a minute; once: it stays installed)`,
	);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	// Once per run; two installs at once (PostgreSQL and Redis start together) take turns at dpkg's lock.
	aptUpdate ??= runCommand('apt-get', [APT_LOCK_WAIT, 'update'], { env, what: 'apt-get update' });
	await aptUpdate;
	await runCommand(
		'apt-get',
		[APT_LOCK_WAIT, 'install', '-y', '--no-install-recommends', debianPackage],
		{ env, what: `apt-get install ${debianPackage}` },
	);
	const installed = find();
	if (!installed)
		throw new Error(
			`apt-get installed ${debianPackage}, but ${typeof binary === 'string' ? binary : 'its binary'} is still missing`,
		);
	return installed;
}
