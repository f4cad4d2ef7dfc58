/**
 * `npm run bench:n8n`: the scheduled report at volume in a REAL n8n (issue 25's figures).
 *
 * `tsx test/n8n/reportBench.ts [--records 100000] [--n8n-version 2.41.1] [--modes unset,filesystem,default]
 * [--routes A,B,C] [--node-version 24.21.0] [--cache-dir DIR] [--live] [--keep] [--max-old-space MiB]`
 *
 * A sandbox child process (test/bench/reportSandbox.ts) holds `--records` deposits of merchant 1002
 * over the day before its clock, with 40 ms of latency; n8n reaches it through a counting proxy in
 * this process (each `/v1/deposits` page, its window and its round trip). n8n main runs from the
 * install cache of `npm run test:n8n` with SQLite in regular mode; the package is compiled into the
 * run folder and installed as n8n's community-package installer does (the repository's dist/ is
 * neither rebuilt nor read). Two workflows, Manual Trigger first, built here:
 *
 * - route A, what a user builds without the report operations: Deposit → Get Many (the seeded day,
 *   Return All, Simplify, Window Concurrency 8) → n8n's Summarize node (count of idDeposit and sum of
 *   amount, split by status);
 * - route B, the report as two operations: Deposit → Summarize (by status and currency) and Deposit →
 *   Export to File (CSV), both on the same day and from the trigger: the day is read twice;
 * - route C, the report from one read: Deposit → Summarize (by status and currency) with Write
 *   Records to File, the CSV on its totals item.
 *
 * For each binary data mode × route, n8n main is started afresh (so one run's heap never carries
 * into the next, `--inspect` on a free loopback port) and measured: idle RSS (10 s after the start,
 * a full collection through the inspector, then the mean of 2 s of samples), peak RSS during the run
 * (/proc/<pid>/status VmRSS every 100 ms, from the run request until the execution is listed as
 * finished; garbage included) and while each node ran, VmHWM, the RSS after the run and another
 * full collection (what main keeps), the execution's time (startedAt → stoppedAt) and each node's, the saved
 * execution's size (`data` of GET /rest/executions/:id, and `length(data)` of its SQLite row), the
 * binary files n8n wrote, and the page bound: max(records ÷ 50 ÷ concurrency, the longest chain
 * of pages of one window) × the round trip, per read (route B reads twice, A and C once), at the nominal 40 ms
 * and at the median round trip the proxy measured. Checks, each failing the run: the totals equal
 * the sandbox's own (counts per status, amounts to the cent), the CSV has every record.
 *
 * Modes (`N8N_DEFAULT_BINARY_DATA_MODE`): `unset` (n8n's default: in 2.41.1 regular mode that is
 * `filesystem`, `queue` mode `database`; n8n-core's binary-data.config.ts), `filesystem`, and
 * `default` (in memory: the file's base64 inside the execution's data; deprecated in 2.x).
 * Not part of CI or `npm test`; the figures depend on the machine. Exits 1 when a check failed.
 */
import { spawn } from 'child_process';
import { randomBytes } from 'crypto';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';

import type { IConnections, INode, ITaskData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness/engine';
import { manualTrigger } from '../harness/nodes';
import { PACKAGE_NAME, PACKAGE_ROOT } from '../harness/packageInfo';
import { demoCredentials } from '../sandbox/demo';
import { runDataOf } from './execution';
import { ensureN8n, ensureNode, installCommunityPackage, type N8nInstall } from './install';
import { baseEnv, startMain, type N8nProcess } from './n8n-server';
import { parseBenchOptions, type BenchOptions, type Mode, type Route } from './options';
import { exitWith, freePort, numberPrinted, runCommand, stopAll, waitFor } from './processes';
import { N8nClient, type StoredWorkflow } from './rest';
import { N8N_SUMMARIZE_NODE } from '../bench/baselineRoute';
import { reportSandboxReady } from '../bench/reportSandboxProcess';

/** The service's page size (`maxRows`, service rules §2). */
const PAGE_ROWS = 50;
/** The sandbox's latency per request, as the issue's baseline was measured. */
const LATENCY_MS = 40;
/** Window Concurrency of every read. */
const CONCURRENCY = 8;
/** How long one execution may take. */
const RUN_TIMEOUT_MS = 20 * 60_000;
/** Rest after n8n main started, before its idle RSS is taken (idleRss). */
const SETTLE_MS = 10_000;

/** The sandbox's own totals of the seeded records (test/bench/reportSandbox.ts), cents as text. */
interface SandboxTotals {
	count: number;
	statuses: Record<string, number>;
	amount: Record<string, string>;
	localAmount: Record<string, string>;
}

/** What one route × mode measured. */
interface Measurement {
	route: Route;
	mode: Mode;
	executionId: string;
	idleMiB: number;
	peakMiB: number;
	hwmMiB: number;
	/** Peak RSS while each node ran (its startTime to startTime + executionTime). */
	nodePeakMiB: Record<string, number>;
	/** `--live`: heap in use after a collection, at the run's start and at its highest (MiB). */
	liveHeap?: { first: number; peak: number };
	/** RSS after the run, once a full collection ran: what n8n main kept. */
	afterGcMiB: number;
	seconds: number;
	nodeSeconds: Record<string, number>;
	restDataBytes: number;
	sqliteDataBytes: number;
	binaryOnDiskBytes: number;
	requests: number;
	longestChain: number;
	medianRoundTripMs: number;
	boundNominalS: number;
	boundMeasuredS: number;
	checks: string[];
	/** The machine's 1-minute load average at the run's end (2 cores, shared). */
	load: number;
}

/**
 * Compiles the package as committed (`git archive HEAD`: others may be editing the working tree)
 * in `<runDir>/package` (tsc with tsconfig.json, plus the icons, as `npm run build` does into
 * dist/) and packs it there; resolves the tarball and the commit. The repository's own dist/ is left
 * alone: others use it.
 */
async function compileAndPack(runDir: string): Promise<{ tarball: string; commit: string }> {
	const stage = path.join(runDir, 'package');
	mkdirSync(stage, { recursive: true });
	const commit = (
		await runCommand('git', ['rev-parse', '--short', 'HEAD'], { cwd: PACKAGE_ROOT, what: 'git' })
	).trim();
	const archive = path.join(runDir, 'package.tar');
	await runCommand('git', ['archive', '--output', archive, 'HEAD'], {
		cwd: PACKAGE_ROOT,
		what: 'git archive HEAD',
	});
	await runCommand('tar', ['-xf', archive, '-C', stage], { what: 'Unpacking HEAD' });
	// The compiler and n8n-workflow's types come from the repository's node_modules.
	symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(stage, 'node_modules'));
	await runCommand(
		path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsc'),
		['-p', 'tsconfig.json'],
		{
			cwd: stage,
			what: `tsc (the package at ${commit}, in the run folder)`,
		},
	);
	cpSync(path.join(stage, 'icons'), path.join(stage, 'dist', 'icons'), {
		recursive: true,
		filter: (source) => statSync(source).isDirectory() || /\.(png|svg)$/.test(source),
	});
	const output = await runCommand('npm', ['pack', '--json', '--pack-destination', runDir], {
		cwd: stage,
		env: { ...process.env, npm_config_ignore_scripts: 'true' },
		what: 'npm pack (run folder)',
	});
	const [{ filename }] = JSON.parse(output.slice(output.indexOf('['))) as Array<{
		filename: string;
	}>;
	return { tarball: path.join(runDir, filename), commit };
}

/** Starts test/bench/reportSandbox.ts (a child process); resolves its URL, totals and a stop. */
async function startReportSandbox(records: number) {
	const child = spawn(
		path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsx'),
		[
			path.join(PACKAGE_ROOT, 'test', 'bench', 'reportSandbox.ts'),
			'--deposits',
			String(records),
			'--days',
			'1',
			'--latency',
			String(LATENCY_MS),
		],
		{ stdio: ['ignore', 'pipe', 'inherit'], detached: true },
	);
	const started = await reportSandboxReady<SandboxTotals>(child);
	const stop = () => {
		try {
			process.kill(-(child.pid as number), 'SIGTERM');
		} catch {
			// already gone
		}
	};
	return { ...started, stop };
}

/**
 * A reverse proxy on 127.0.0.1 in front of the sandbox: counts `/v1/deposits` requests, the
 * longest chain of pages of one window (highest `page` + 1 per `from`–`to`) and each request's
 * round trip (request sent → answer's last byte).
 */
async function startCountingProxy(target: string) {
	const upstream = new URL(target);
	let requests = 0;
	const chains = new Map<string, number>();
	const roundTrips: number[] = [];
	const server = http.createServer((request, response) => {
		const url = new URL(request.url ?? '/', target);
		const isPage = url.pathname === '/v1/deposits' && request.method === 'GET';
		const sent = performance.now();
		const forward = http.request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: request.method,
				path: request.url,
				headers: { ...request.headers, host: upstream.host },
			},
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
				answer.on('end', () => {
					if (!isPage) return;
					requests++;
					roundTrips.push(performance.now() - sent);
					const window = `${url.searchParams.get('from')}–${url.searchParams.get('to')}`;
					const pages = Number(url.searchParams.get('page') ?? 0) + 1;
					chains.set(window, Math.max(chains.get(window) ?? 0, pages));
				});
			},
		);
		forward.on('error', (error) => {
			response.writeHead(502);
			response.end(String(error));
		});
		request.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}`,
		reset() {
			requests = 0;
			chains.clear();
			roundTrips.length = 0;
		},
		stats() {
			const sorted = [...roundTrips].sort((a, b) => a - b);
			return {
				requests,
				longestChain: Math.max(0, ...chains.values()),
				medianRoundTripMs: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0,
			};
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** VmRSS and VmHWM of a process, in MiB (from /proc/<pid>/status, kB). */
function memoryOf(pid: number): { rss: number; hwm: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const field = (name: string) =>
		Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
	return { rss: field('VmRSS') / 1024, hwm: field('VmHWM') / 1024 };
}

/** Samples VmRSS of `pid` every 100 ms until stopped; resolves the highest sample (MiB). */
function sampleRss(pid: number) {
	const samples: Array<{ at: number; rss: number }> = [{ at: Date.now(), rss: memoryOf(pid).rss }];
	const timer = setInterval(() => {
		try {
			samples.push({ at: Date.now(), rss: memoryOf(pid).rss });
		} catch {
			// the process is gone; the run will report it
		}
	}, 100);
	return {
		/** Stops sampling; resolves the highest sample. */
		stop() {
			clearInterval(timer);
			return Math.max(...samples.map((sample) => sample.rss));
		},
		/** The highest sample between two times (ms since the epoch), 0 without one. */
		peakBetween(from: number, to: number) {
			const inside = samples.filter((sample) => sample.at >= from && sample.at <= to);
			return Math.max(0, ...inside.map((sample) => sample.rss));
		},
	};
}

/**
 * Runs a full garbage collection in n8n main through its inspector (`--inspect` on `port`;
 * Chrome DevTools Protocol `HeapProfiler.collectGarbage`), with the install's Node, which has a
 * WebSocket client built in.
 */
async function collectGarbage(install: N8nInstall, port: number): Promise<void> {
	const script = `
		const list = await (await fetch('http://127.0.0.1:${port}/json/list')).json();
		const socket = new WebSocket(list[0].webSocketDebuggerUrl);
		await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
		socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
		await new Promise((resolve) => { socket.onmessage = resolve; });
		socket.close();`;
	await runCommand(install.node.bin, ['--input-type=module', '-e', script], {
		what: 'a full garbage collection in n8n main (inspector)',
		timeoutMs: 60_000,
	});
}

/**
 * While the run lasts: a full collection in n8n main every 2 s through its inspector, then its
 * heap in use (`Runtime.getHeapUsage`). `stop()` resolves the highest heap in use after a
 * collection (MiB), and that at the start.
 */
function sampleLiveHeap(install: N8nInstall, port: number) {
	const script = `
		const list = await (await fetch('http://127.0.0.1:${port}/json/list')).json();
		const socket = new WebSocket(list[0].webSocketDebuggerUrl);
		await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
		// n8n main gone: nothing more to sample.
		socket.onclose = () => process.exit(0);
		let id = 0;
		const call = (method) => new Promise((resolve) => {
			const mine = ++id;
			socket.addEventListener('message', function listen(event) {
				const answer = JSON.parse(event.data);
				if (answer.id !== mine) return;
				socket.removeEventListener('message', listen);
				resolve(answer.result);
			});
			socket.send(JSON.stringify({ id: mine, method }));
		});
		for (;;) {
			await call('HeapProfiler.collectGarbage');
			const { usedSize } = await call('Runtime.getHeapUsage');
			console.log('USED ' + usedSize);
			await new Promise((resolve) => setTimeout(resolve, 2000));
		}`;
	const child = spawn(install.node.bin, ['--input-type=module', '-e', script], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const used: number[] = [];
	let buffered = '';
	child.stdout.on('data', (chunk: Buffer) => {
		buffered += chunk.toString();
		const lines = buffered.split('\n');
		buffered = lines.pop() ?? '';
		for (const line of lines)
			if (line.startsWith('USED ')) used.push(Number(line.slice(5)) / 2 ** 20);
	});
	return {
		stop() {
			child.kill();
			return { first: used[0] ?? 0, peak: Math.max(0, ...used) };
		},
	};
}

/**
 * n8n main's idle RSS (MiB): after start-up its heap still holds the start's garbage, which V8
 * collects some time later (or never before the run), so a full collection is run first; then the
 * mean of 2 s of samples (every 100 ms), after 3 s of rest.
 */
async function idleRss(install: N8nInstall, pid: number, inspectPort: number): Promise<number> {
	await collectGarbage(install, inspectPort);
	await new Promise((resolve) => setTimeout(resolve, 3_000));
	const samples: number[] = [];
	for (const end = Date.now() + 2_000; Date.now() < end;) {
		samples.push(memoryOf(pid).rss);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return samples.reduce((sum, value) => sum + value, 0) / samples.length;
}

/** Total size of the files under `dir` (0 when it does not exist). */
function folderBytes(dir: string): number {
	if (!existsSync(dir)) return 0;
	let total = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
	}
	return total;
}

const PAYMENTS_TYPE = `${PACKAGE_NAME}.paymentsService`;

/** The two workflows of the bench, on the seeded day, with the session credential `credentialId`. */
function benchWorkflows(
	period: { createdFrom: string; createdTo: string },
	credentialId: string,
): Record<Route, WorkflowJson> {
	const credentials = { paymentsServiceSessionApi: { id: credentialId, name: 'Bench session' } };
	const trigger = manualTrigger();
	const payments = (name: string, y: number, parameters: INode['parameters']): INode => ({
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type: PAYMENTS_TYPE,
		typeVersion: 1,
		position: [220, y],
		parameters: { resource: 'deposit', period: 'custom', ...period, ...parameters },
		credentials,
	});
	const link = (to: string[]): IConnections[string] => ({
		main: [to.map((node) => ({ node, type: 'main' as const, index: 0 }))],
	});
	const settings = { executionOrder: 'v1' as const, saveManualExecutions: true };
	return {
		A: {
			name: 'Bench A: Get Many + Summarize',
			settings,
			nodes: [
				trigger,
				payments('Get Many', 0, {
					operation: 'getMany',
					returnAll: true,
					simplify: true,
					options: { windowConcurrency: CONCURRENCY },
				}),
				N8N_SUMMARIZE_NODE,
			],
			connections: { Manual: link(['Get Many']), 'Get Many': link(['Summarize']) },
		},
		B: {
			name: 'Bench B: report Summarize and Export to File',
			settings,
			nodes: [
				trigger,
				payments('Deposit totals', 0, {
					operation: 'summarize',
					groupBy: ['status', 'currency'],
					options: { windowConcurrency: CONCURRENCY, timeZone: 'UTC' },
				}),
				payments('Deposits as CSV', 200, {
					operation: 'exportToFile',
					binaryPropertyName: 'data',
					options: { windowConcurrency: CONCURRENCY },
				}),
			],
			connections: { Manual: link(['Deposit totals', 'Deposits as CSV']) },
		},
		C: {
			name: 'Bench C: report Summarize with Write Records to File',
			settings,
			nodes: [
				trigger,
				payments('Deposit totals and file', 0, {
					operation: 'summarize',
					groupBy: ['status', 'currency'],
					writeFile: true,
					binaryPropertyName: 'data',
					options: { windowConcurrency: CONCURRENCY, timeZone: 'UTC' },
				}),
			],
			connections: { Manual: link(['Deposit totals and file']) },
		},
	};
}

/** Cents of a decimal text (`"123.4"` → 12340n). */
function textCents(text: string): bigint {
	const [whole, fraction = ''] = text.replace('-', '').split('.');
	const value = BigInt(whole + fraction.padEnd(2, '0'));
	return text.startsWith('-') ? -value : value;
}

/**
 * Checks route A's output against the sandbox's totals: n8n's Summarize gives per status a count
 * and a float sum of `amount`; the sums are compared rounded to the cent.
 * @throws naming the status and both figures when they differ.
 */
function checkRouteA(json: Array<Record<string, unknown>>, totals: SandboxTotals): string[] {
	const counts = Object.fromEntries(json.map((row) => [row.status, row.count_idDeposit]));
	for (const [status, count] of Object.entries(totals.statuses))
		if (counts[status] !== count)
			throw new Error(
				`route A: ${status} counted ${String(counts[status])}, the sandbox holds ${count}`,
			);
	const cents = json.reduce(
		(sum, row) => sum + BigInt(Math.round(Number(row.sum_amount) * 100)),
		0n,
	);
	const expected = Object.values(totals.amount).reduce((sum, value) => sum + BigInt(value), 0n);
	if (Object.keys(totals.amount).length !== 1 || cents !== expected)
		throw new Error(`route A: amounts sum to ${cents} cents, the sandbox's to ${expected}`);
	return [`counts per status and the amount (${cents} cents) equal the sandbox's`];
}

/**
 * Checks route B or C: the Summarize total row (count, amount per currency to the cent, each status's
 * rows) and the CSV (header plus one line per record).
 * @throws naming what differs.
 */
function checkRouteB(
	summary: Array<Record<string, unknown>>,
	csv: Buffer,
	rows: unknown,
	totals: SandboxTotals,
	records: number,
): string[] {
	const total = summary.find((row) => row.total) as
		{ count: number; amount: Record<string, { sum: string }> } | undefined;
	if (!total) throw new Error('route B or C: Summarize has no total row');
	if (total.count !== totals.count)
		throw new Error(`route B or C: total count ${total.count}, the sandbox holds ${totals.count}`);
	for (const [currency, cents] of Object.entries(totals.amount))
		if (textCents(total.amount[currency]?.sum ?? '0') !== BigInt(cents))
			throw new Error(
				`route B or C: ${currency} total ${total.amount[currency]?.sum}, the sandbox's ${cents} cents`,
			);
	for (const [status, count] of Object.entries(totals.statuses)) {
		const counted = summary
			.filter((row) => !row.total && row.status === status)
			.reduce((sum, row) => sum + Number(row.count), 0);
		if (counted !== count)
			throw new Error(`route B or C: ${status} counted ${counted}, the sandbox holds ${count}`);
	}
	const lines = csv
		.toString('utf8')
		.split('\n')
		.filter((line) => line.trim() !== '').length;
	if (rows !== records || lines !== records + 1)
		throw new Error(
			`route B or C: the CSV says ${String(rows)} rows and has ${lines} lines, expected ${records} + header`,
		);
	return [
		`Summarize totals equal the sandbox's to the cent (${total.count} deposits)`,
		`CSV ${csv.length} bytes, ${records} rows + header`,
	];
}

/** The mode's environment variable (none for `unset`). */
function modeEnv(mode: Mode): NodeJS.ProcessEnv {
	return mode === 'unset' ? {} : { N8N_DEFAULT_BINARY_DATA_MODE: mode };
}

/** Everything the measurements share. */
interface Bench {
	options: BenchOptions;
	install: N8nInstall;
	runDir: string;
	logDir: string;
	userFolder: string;
	env: NodeJS.ProcessEnv;
	proxy: Awaited<ReturnType<typeof startCountingProxy>>;
	sandbox: Awaited<ReturnType<typeof startReportSandbox>>;
	period: { createdFrom: string; createdTo: string };
	workflows?: Record<Route, StoredWorkflow & WorkflowJson>;
}

/** Signs in (setting up the owner, the credential and the workflows on the first start). */
async function prepare(bench: Bench, main: N8nProcess): Promise<N8nClient> {
	const client = new N8nClient(main.url);
	if (bench.workflows) {
		await client.login();
		return client;
	}
	await client.setupOwner();
	await client.login();
	const { session } = demoCredentials();
	const credentialId = await client.createCredential({
		name: 'Bench session',
		type: 'paymentsServiceSessionApi',
		data: {
			baseUrl: bench.proxy.url,
			accessKey: session.accessKey,
			secretKey: session.secretKey,
			merchantId: '1002',
		},
	});
	const built = benchWorkflows(bench.period, credentialId);
	const stored = async (route: Route) => ({
		...built[route],
		...(await client.createWorkflow(built[route])),
	});
	bench.workflows = { A: await stored('A'), B: await stored('B'), C: await stored('C') };
	return client;
}

/** Starts n8n main afresh in `mode`, runs `route` once and measures it (see the file's comment). */
async function measure(bench: Bench, route: Route, mode: Mode): Promise<Measurement> {
	const inspectPort = await freePort();
	const main = await startMain(
		bench.install,
		{
			...bench.env,
			...modeEnv(mode),
			NODE_OPTIONS: [
				`--inspect=127.0.0.1:${inspectPort}`,
				...(bench.options.maxOldSpaceMiB
					? [`--max-old-space-size=${bench.options.maxOldSpaceMiB}`]
					: []),
			].join(' '),
		},
		bench.logDir,
		'info',
	);
	try {
		const client = await prepare(bench, main);
		const workflow = (bench.workflows as Record<Route, StoredWorkflow & WorkflowJson>)[route];
		const pid = main.process.pid;
		await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
		const idleMiB = await idleRss(bench.install, pid, inspectPort);
		const binaryDir = path.join(bench.userFolder, '.n8n', 'storage');
		const binaryBefore = folderBytes(binaryDir);
		bench.proxy.reset();
		const sampler = sampleRss(pid);
		const liveSampler = bench.options.live ? sampleLiveHeap(bench.install, inspectPort) : undefined;
		const executionId = await client.runManually(workflow, 'Manual');
		await waitFor(
			`execution ${executionId} to finish`,
			async () =>
				(await client.executions(workflow.id)).some(
					(execution) =>
						execution.id === executionId && !['new', 'running'].includes(execution.status),
				),
			{ timeoutMs: RUN_TIMEOUT_MS, intervalMs: 250 },
		);
		const peakMiB = sampler.stop();
		const liveHeap = liveSampler?.stop();
		const hwmMiB = memoryOf(pid).hwm;
		const pages = bench.proxy.stats();
		const execution = await client.waitForExecution(executionId, 60_000);
		const data = runDataOf(execution);
		if (execution.status !== 'success')
			throw new Error(
				`route ${route} (${mode}): execution ${executionId} ended "${execution.status}": ${data.resultData.error?.message}`,
			);
		const runData = data.resultData.runData as Record<string, ITaskData[]>;
		const nodePeakMiB = Object.fromEntries(
			Object.entries(runData).map(([node, tasks]) => [
				node,
				Math.max(
					...tasks.map((task) =>
						sampler.peakBetween(task.startTime, task.startTime + task.executionTime),
					),
				),
			]),
		);
		await collectGarbage(bench.install, inspectPort);
		await new Promise((resolve) => setTimeout(resolve, 2_000));
		const afterGcMiB = memoryOf(pid).rss;
		const output = (node: string) =>
			(runData[node] ?? []).flatMap((task) => task.data?.main?.[0] ?? []);
		const sqliteDataBytes = numberPrinted(
			'sqlite3 (the saved execution)',
			await runCommand(
				'sqlite3',
				[
					path.join(bench.userFolder, '.n8n', 'database.sqlite'),
					`SELECT length(CAST(data AS BLOB)) FROM execution_data WHERE executionId = ${Number(executionId)};`,
				],
				{ what: 'sqlite3 (the saved execution)' },
			),
		);
		let checks: string[];
		if (route === 'A') {
			checks = checkRouteA(
				output('Summarize').map((item) => item.json),
				bench.sandbox.totals,
			);
		} else {
			const summary = output(route === 'B' ? 'Deposit totals' : 'Deposit totals and file');
			const file = route === 'B' ? output('Deposits as CSV')[0] : summary.at(-1);
			const binary = file?.binary?.data;
			if (!binary) throw new Error(`route ${route}: no CSV file in the output`);
			const csv = binary.id
				? await client.binaryData(binary.id)
				: Buffer.from(binary.data, 'base64');
			checks = checkRouteB(
				summary.map((item) => item.json),
				csv,
				route === 'B' ? file.json.rows : (file.json.file as { rows?: unknown } | undefined)?.rows,
				bench.sandbox.totals,
				bench.options.records,
			);
			checks.push(
				`the file is stored ${binary.id ? `as ${binary.id.split(':')[0]}` : 'in the execution data (base64)'}`,
			);
		}
		const reads = route === 'B' ? 2 : 1;
		const boundPages = Math.max(
			Math.ceil(bench.options.records / PAGE_ROWS) / CONCURRENCY,
			pages.longestChain,
		);
		return {
			route,
			mode,
			executionId,
			idleMiB,
			peakMiB,
			hwmMiB,
			nodePeakMiB,
			afterGcMiB,
			liveHeap,
			seconds:
				(Date.parse(execution.stoppedAt ?? '') - Date.parse(execution.startedAt ?? '')) / 1000,
			nodeSeconds: Object.fromEntries(
				Object.entries(runData).map(([node, tasks]) => [
					node,
					tasks.reduce((sum, task) => sum + task.executionTime, 0) / 1000,
				]),
			),
			restDataBytes: Buffer.byteLength(execution.data),
			sqliteDataBytes,
			binaryOnDiskBytes: folderBytes(binaryDir) - binaryBefore,
			...pages,
			boundNominalS: (reads * boundPages * LATENCY_MS) / 1000,
			boundMeasuredS: (reads * boundPages * pages.medianRoundTripMs) / 1000,
			checks,
			load: os.loadavg()[0],
		};
	} finally {
		await main.process.stop();
	}
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 1)} MiB`;

/** One measurement as readable lines. */
function describe(m: Measurement): string {
	const nodes = Object.entries(m.nodeSeconds)
		.map(([node, seconds]) => `${node} ${seconds.toFixed(1)} s`)
		.join(', ');
	return [
		`route ${m.route}, binary mode ${m.mode} (execution ${m.executionId})`,
		`  RSS: idle ${m.idleMiB.toFixed(0)} MiB, peak ${m.peakMiB.toFixed(0)} MiB (+${(m.peakMiB - m.idleMiB).toFixed(0)} MiB), VmHWM ${m.hwmMiB.toFixed(0)} MiB; while each node ran: ${Object.entries(
			m.nodePeakMiB,
		)
			.map(([node, peak]) => `${node} ${peak.toFixed(0)}`)
			.join(', ')} MiB; after the run and a full collection ${m.afterGcMiB.toFixed(0)} MiB`,
		`  time ${m.seconds.toFixed(1)} s (${nodes}); page bound ${m.boundNominalS.toFixed(1)} s at ${LATENCY_MS} ms, ${m.boundMeasuredS.toFixed(1)} s at the median round trip ${m.medianRoundTripMs.toFixed(1)} ms (${m.requests} pages, longest chain ${m.longestChain}): ${(m.seconds / m.boundMeasuredS).toFixed(2)}× the bound`,
		`  saved execution: ${mib(m.restDataBytes)} over REST, ${mib(m.sqliteDataBytes)} in SQLite; binary files written ${mib(m.binaryOnDiskBytes)}; load average ${m.load.toFixed(1)}`,
		...(m.liveHeap
			? [
					`  --live: heap in use after a full collection every 2 s: ${m.liveHeap.first.toFixed(0)} MiB at the start, at most ${m.liveHeap.peak.toFixed(0)} MiB (+${(m.liveHeap.peak - m.liveHeap.first).toFixed(0)} MiB)`,
				]
			: []),
		...m.checks.map((check) => `  ✓ ${check}`),
	].join('\n');
}

const ROUTE_NAMES: Record<Route, string> = {
	A: 'A: Get Many → n8n Summarize',
	B: 'B: Summarize + Export to File',
	C: 'C: Summarize with Write Records to File',
};

/** The measurements as a Markdown table. */
function table(measurements: Measurement[]): string {
	const rows = measurements.map(
		(m) =>
			`| ${ROUTE_NAMES[m.route]} | ${m.mode} | ${m.idleMiB.toFixed(0)} | ${m.peakMiB.toFixed(0)} (+${(m.peakMiB - m.idleMiB).toFixed(0)}) | ${m.seconds.toFixed(1)} | ${m.boundMeasuredS.toFixed(1)} (${(m.seconds / m.boundMeasuredS).toFixed(2)}×) | ${m.afterGcMiB.toFixed(0)} | ${mib(m.restDataBytes)} | ${mib(m.binaryOnDiskBytes)} |`,
	);
	return [
		'| Route | Binary mode | Idle RSS (MiB) | Peak RSS (MiB) | Time (s) | Page bound (s) | RSS after, collected (MiB) | Saved execution | Files written |',
		'|---|---|---|---|---|---|---|---|---|',
		...rows,
	].join('\n');
}

async function main(): Promise<number> {
	const options = parseBenchOptions(process.argv.slice(2));
	const runDir = mkdtempSync(path.join(os.tmpdir(), 'payments-n8n-bench-'));
	const logDir = path.join(runDir, 'logs');
	mkdirSync(logDir);
	console.log(
		`n8n ${options.n8nVersion}, ${options.records.toLocaleString('en')} deposits, routes ${options.routes.join(',')}, binary modes ${options.modes.join(',')}; run folder ${runDir}`,
	);
	let sandbox: Awaited<ReturnType<typeof startReportSandbox>> | undefined;
	let proxy: Awaited<ReturnType<typeof startCountingProxy>> | undefined;
	const measurements: Measurement[] = [];
	let failed = false;
	try {
		const node = await ensureNode(options.cacheDir, options.nodeVersion);
		const install = await ensureN8n(options.cacheDir, options.n8nVersion, node);
		const { tarball, commit } = await compileAndPack(runDir);
		console.log(`the package as committed at ${commit}`);
		const userFolder = path.join(runDir, 'user-main');
		await installCommunityPackage(path.join(userFolder, '.n8n'), tarball, node);
		sandbox = await startReportSandbox(options.records);
		proxy = await startCountingProxy(sandbox.baseUrl);
		const clock = (await (await fetch(`${sandbox.baseUrl}/_sandbox/clock`)).json()) as {
			now: number;
		};
		const now = Math.floor(clock.now / 1000);
		const period = {
			createdFrom: new Date((now - 86_400 + 1) * 1000).toISOString(),
			createdTo: new Date(now * 1000).toISOString(),
		};
		const bench: Bench = {
			options,
			install,
			runDir,
			logDir,
			userFolder,
			env: baseEnv(install, userFolder, randomBytes(24).toString('hex')),
			proxy,
			sandbox,
			period,
		};
		for (const mode of options.modes) {
			for (const route of options.routes) {
				try {
					const measured = await measure(bench, route, mode);
					measurements.push(measured);
					console.log(describe(measured));
				} catch (error) {
					failed = true;
					console.error(`route ${route}, binary mode ${mode}: ${(error as Error).message}`);
				}
			}
		}
	} finally {
		await stopAll();
		sandbox?.stop();
		await proxy?.close();
		writeFileSync(path.join(runDir, 'measurements.json'), JSON.stringify(measurements, null, 1));
		if (options.keep || failed) console.log(`Run folder kept: ${runDir}`);
		else rmSync(runDir, { recursive: true, force: true });
	}
	console.log(
		`\n${table(measurements)}\n\nload average ${os
			.loadavg()
			.map((load) => load.toFixed(1))
			.join(' ')}`,
	);
	return failed ? 1 : 0;
}

if (require.main === module) exitWith(main);
