/**
 * `npm run bench -- reconcile`: Balance → Reconcile over 30 days at 100,000 deposits a day, beside
 * 20,000 cashouts, 200 credit/debit notes and one settlement a day (3,606,030 records), on n8n's
 * engine at Window Concurrency 8 against the sandbox in a process of its own
 * (test/bench/reconcileSandbox.ts) with 40 ms of latency. It prints the requests against the
 * lists' pages plus the report's, pages requested twice, the time against the page bound
 * (pages ÷ 8 × one round trip measured at concurrency 1), the peak and live heap over idle, and
 * checks that every day reconciles with each term equal to the sandbox's own integer-cent sums.
 * Targets: requests within 5 % of the pages, no page twice, every day exact, live heap +32 MiB.
 */
import { spawn } from 'child_process';
import path from 'path';
import { performance } from 'perf_hooks';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { createEngine } from '../harness/engine';
import { paymentsNode, storeSandboxCredentials, WorkflowBuilder } from '../harness/fixtures';
import { PACKAGE_ROOT } from '../harness/packageInfo';
import type { Sandbox } from '../sandbox';
import { demoCredentials } from '../sandbox/demo';
import type { BenchResult } from './lostAnswers';
import { reportSandboxReady } from './reportSandboxProcess';
import { textCents, watchRequests } from './requests';

const LATENCY_MS = 40;
const CONCURRENCY = 8;
/** The benchmark's volume: days, and deposits, cashouts and notes a day (and one settlement). */
const SIZE = { days: 30, deposits: 100_000, cashouts: 20_000, notes: 200 };
const PAGE_ROWS = 50;
const PATHS: Record<string, keyof ReconcileTotals['records'] | 'report'> = {
	'/v1/deposits': 'deposits',
	'/v1/cashouts': 'cashouts',
	'/v1/notes': 'notes',
	'/v1/settlements': 'settlements',
	'/v1/balance/report': 'report',
};

/** What the sandbox process reports of the records it made (reconcileSandbox.ts). */
interface ReconcileTotals {
	from: number;
	to: number;
	records: { deposits: number; cashouts: number; notes: number; settlements: number };
	/** Per UTC day, each term in integer cents (as text). */
	days: Record<string, Record<string, string>>;
}

/**
 * Counts this process's requests to the reporting lists by list, and the pages (window and page
 * number) requested more than once (n8n's HTTP client goes through http.request).
 */
function countListRequests() {
	const pages = new Map<string, number>();
	const byList = new Map<string, number>();
	watchRequests((url) => {
		const list = PATHS[url.pathname];
		if (!list) return;
		byList.set(list, (byList.get(list) ?? 0) + 1);
		const page = `${url.pathname} ${url.searchParams.get('from')}-${url.searchParams.get('to')}#${url.searchParams.get('page') ?? '0'}`;
		pages.set(page, (pages.get(page) ?? 0) + 1);
	});
	return {
		reset() {
			pages.clear();
			byList.clear();
		},
		stats: () => ({
			byList: Object.fromEntries(byList),
			requests: [...byList.values()].reduce((sum, count) => sum + count, 0),
			repeated: [...pages.values()].filter((count) => count > 1).length,
		}),
	};
}

/** See the module comment. `record` is the bench runner's result sink (ok/MISS lines). */
export async function reconcileBenchmark(
	record: (result: BenchResult) => void,
	size = SIZE,
): Promise<void> {
	const DAYS = size.days;
	const PER_DAY = size;
	const gc = (() => {
		setFlagsFromString('--expose-gc');
		return runInNewContext('gc') as () => void;
	})();
	// The engine loads this package from its TypeScript sources; under tsx a bare
	// `PaymentsService.node` resolves to the codex file, so the modules are put where the
	// harness's require looks (as the report benchmark does).
	for (const name of [
		'PaymentsService',
		'PaymentsServiceTrigger',
		'PaymentsServiceNotificationTrigger',
	]) {
		const base = path.join(PACKAGE_ROOT, 'nodes', 'PaymentsService', `${name}.node`);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exported = require(`${base}.ts`) as object;
		require.cache[require.resolve(base)] = { exports: exported } as NodeJS.Module;
	}
	const started = performance.now();
	const child = spawn(
		path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsx'),
		[
			path.join(PACKAGE_ROOT, 'test', 'bench', 'reconcileSandbox.ts'),
			...['--days', String(DAYS), '--latency', String(LATENCY_MS)],
			...['--deposits', String(PER_DAY.deposits), '--cashouts', String(PER_DAY.cashouts)],
			...['--notes', String(PER_DAY.notes)],
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=14000' },
		},
	);
	try {
		const { baseUrl, totals } = await reportSandboxReady<ReconcileTotals>(child);
		const { records } = totals;
		const recordCount = Object.values(records).reduce((sum, count) => sum + count, 0);
		console.log(
			`     the sandbox: ${DAYS} days of ${PER_DAY.deposits.toLocaleString('en')} deposits, ${PER_DAY.cashouts.toLocaleString('en')} cashouts, ${PER_DAY.notes} notes and 1 settlement a day (${recordCount.toLocaleString('en')} records), made in ${((performance.now() - started) / 1000).toFixed(0)} s`,
		);
		const engine = await createEngine({ source: 'source' });
		storeSandboxCredentials(
			engine,
			{ baseUrl, apiUrl: baseUrl, credentials: demoCredentials() } as unknown as Sandbox,
			'1002',
		);
		const node = (parameters: INodeParameters) => {
			const builder = new WorkflowBuilder('reconcile bench');
			builder.then(paymentsNode(parameters, 'paymentsServiceSessionApi'));
			return builder.build();
		};
		const period = {
			period: 'custom',
			createdFrom: new Date(totals.from * 1000).toISOString(),
			createdTo: new Date(totals.to * 1000).toISOString(),
		};
		const counter = countListRequests();
		// One round trip: ten full pages one after the other (and the one login first).
		await engine.run(node({ resource: 'deposit', operation: 'getMany', limit: 50, ...period }));
		counter.reset();
		const probe = performance.now();
		await engine.run(
			node({
				resource: 'deposit',
				operation: 'getMany',
				limit: 500,
				...period,
				options: { windowConcurrency: 1 },
			}),
		);
		const roundTripMs = (performance.now() - probe) / Math.max(1, counter.stats().requests);
		// The pages the lists hold, and the report's: its rows are the period's days and the day
		// before (merchant 1002 has none earlier), read over the period and the 59 days before.
		const pages =
			Object.values(records).reduce((sum, count) => sum + Math.ceil(count / PAGE_ROWS), 0) +
			Math.ceil((DAYS + 1) / PAGE_ROWS);
		const boundMs = (pages / CONCURRENCY) * roundTripMs;
		gc();
		await new Promise((resolve) => setTimeout(resolve, 200));
		gc();
		const idle = process.memoryUsage().heapUsed;
		let peakHeap = idle;
		let peakRss = process.memoryUsage.rss();
		let livePeak = idle;
		const sampler = setInterval(() => {
			peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
			peakRss = Math.max(peakRss, process.memoryUsage.rss());
		}, 20);
		// The live heap: a full collection every 2 s, so what is held is measured apart from garbage.
		const liveSampler = setInterval(() => {
			gc();
			livePeak = Math.max(livePeak, process.memoryUsage().heapUsed);
		}, 2_000);
		counter.reset();
		const cpu = process.cpuUsage();
		const start = performance.now();
		const run = await engine
			.run(
				node({
					resource: 'balance',
					operation: 'reconcile',
					...period,
					options: { windowConcurrency: CONCURRENCY },
				}),
			)
			.finally(() => {
				clearInterval(sampler);
				clearInterval(liveSampler);
			});
		const ms = performance.now() - start;
		const used = process.cpuUsage(cpu);
		if (run.error) throw run.error;
		const { requests, byList, repeated } = counter.stats();
		const items = run.output('Payments Service').map((item) => item.json);
		const wrong: string[] = [];
		for (const json of items) {
			const expected = totals.days[String(json.day)];
			if (!expected || json.reconciled !== true || json.currency !== 'USD') {
				wrong.push(`${String(json.day)}: reconciled ${String(json.reconciled)}`);
				continue;
			}
			const terms = json.terms as Record<string, IDataObject>;
			for (const [term, cents] of Object.entries(expected))
				if (textCents(terms[term].lists) !== BigInt(cents))
					wrong.push(
						`${String(json.day)} ${term}: ${String(terms[term].lists)}, sandbox ${cents} cents`,
					);
		}
		if (items.length !== DAYS) wrong.push(`${items.length} items for ${DAYS} days`);
		console.log(
			`     Reconcile, ${DAYS} days: ${(ms / 1000).toFixed(1)} s (page bound ${(boundMs / 1000).toFixed(1)} s at ${roundTripMs.toFixed(1)} ms a round trip), ${requests} requests (${Object.entries(
				byList,
			)
				.map(([list, count]) => `${list} ${count}`)
				.join(
					', ',
				)}) for ${pages} pages, client CPU ${((used.user + used.system) / 1e6).toFixed(1)} s, peak heap +${((peakHeap - idle) / 2 ** 20).toFixed(1)} MiB over idle (${(idle / 2 ** 20).toFixed(0)} MiB), live after collections +${((livePeak - idle) / 2 ** 20).toFixed(1)} MiB, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
		);
		console.log(
			`     exactness: ${items.length} days, ${items.filter((json) => json.reconciled === true).length} reconciled; ${wrong.length ? `DIFFERENT: ${wrong.slice(0, 5).join('; ')}` : 'every term equal to the sandbox’s own sums, to the cent'}`,
		);
		record({
			name: `Reconcile ${DAYS} days: requests ÷ (lists' pages + report's)`,
			value: requests / pages,
			unit: '×',
			target: 1.05,
			better: 'lower',
		});
		record({
			name: `Reconcile ${DAYS} days: pages requested twice`,
			value: repeated,
			unit: 'pages',
			target: 0,
			better: 'lower',
		});
		record({
			name: `Reconcile ${DAYS} days: every day reconciled, equal to the sandbox's to the cent`,
			value: wrong.length ? 0 : 1,
			unit: 'yes',
			target: 1,
			better: 'higher',
		});
		record({
			name: `Reconcile ${DAYS} days: time ÷ page bound`,
			value: ms / boundMs,
			unit: '× bound',
			target: 1.25,
			better: 'lower',
		});
		record({
			name: `Reconcile ${DAYS} days: peak live heap growth over idle`,
			value: (livePeak - idle) / 2 ** 20,
			unit: 'MiB',
			target: 32,
			better: 'lower',
		});
	} finally {
		child.kill();
	}
}
