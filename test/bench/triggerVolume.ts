/**
 * `npm run bench -- trigger-volume-1m` (issue 42): the polling trigger (version 2, the built
 * package) on n8n's engine at 2,000, 100,000 and 1,000,000 cashouts a day, seven days of them in
 * the look-back (14,000, 700,000 and 7,000,000), Any Change with the default options but Max Items per Poll
 * 5,000 (a million a day makes 700 events a minute), a poll a minute, 40 ms a
 * request, under n8n's durable poll budget (getPollBudgetMs() 36 s). The sandbox runs in a process
 * of its own (test/bench/seriesSandbox.ts) with the cashouts as a compact series.
 *
 * 1. The starting point: polls a minute apart until it is complete; the longest.
 * 2. Steady polls: every minute the new records of that minute and 30 changes (20 to records
 *    across the week, 10 to records of the last hour, each a new status); the longest poll, the
 *    state n8n saves.
 * 3. Quiet polls (new records every minute, no changes) until every tier of re-reading has passed
 *    over the look-back (7 hours 10 minutes after the last change): the requests an hour, and the
 *    events checked against what the sandbox was told. With 0 ms of latency: nothing is timed there.
 *
 * The oracle knows each record's changes (the second of each, which is its lastChangeDate): an
 * event must carry a lastChangeDate the record had (else invented), at most once (else repeated),
 * and each record's last change and each new record must have been emitted (else missed); two
 * changes between two reads of a record are one event, from the first to the last.
 */
import { spawn, type ChildProcessByStdio } from 'child_process';
import path from 'path';
import { performance } from 'perf_hooks';
import type { Readable, Writable } from 'stream';

import { createEngine } from '../harness/engine';
import { storeSandboxCredentials } from '../harness/fixtures';
import { PACKAGE_ROOT } from '../harness/packageInfo';
import { PollRunner } from '../harness/poll';
import { iso } from '../harness/records';
import { TRIGGER_NODE, triggerWorkflow } from '../harness/trigger';
import type { Sandbox } from '../sandbox';
import { Rng } from '../sandbox/data';
import { demoCredentials } from '../sandbox/demo';
import { watchRequests } from './requests';

/** One line of the benchmark's ok/MISS output (test/bench/run.ts). */
export interface Result {
	name: string;
	value: number;
	unit: string;
	target: number;
	better: 'lower' | 'higher';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LATENCY_MS = 40;
/** n8n's durable poll budget by default: min(POLL_TIMEOUT 45 s, lease 60 s) less 20 %. */
const BUDGET_MS = 36_000;
const STEADY_POLLS = 20;
/**
 * Longest a change may wait to be seen: a record passing from the hourly age into the six-hourly
 * one (7 hours 2 minutes), and a few polls more.
 */
const QUIET_MS = 7 * HOUR + 10 * MINUTE;
const STATUSES = ['ON_HOLD', 'CANCELLED', 'REJECTED', 'DELIVERED', 'COMPLETED'];
/** Max Items per Poll: above the new records of a minute at a million a day (694). */
const MAX_ITEMS = 5_000;

/** The series sandbox, driven through its standard input (test/bench/seriesSandbox.ts). */
class SeriesSandbox {
	private waiting: Array<(line: string) => void> = [];
	private buffer = '';

	private constructor(
		private readonly child: ChildProcessByStdio<Writable, Readable, null>,
		readonly baseUrl: string,
		readonly firstId: number,
		/** Records of the series created when it started (before the activation). */
		readonly initialCount: number,
	) {}

	static async start(perDay: number, nowMs: number): Promise<SeriesSandbox> {
		const tsx = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsx');
		const script = path.join(PACKAGE_ROOT, 'test', 'bench', 'seriesSandbox.ts');
		const child = spawn(
			tsx,
			[script, '--per-day', String(perDay), '--days', '7', '--now', String(nowMs)],
			{ stdio: ['pipe', 'pipe', 'inherit'] },
		);
		const ready = await new Promise<{ baseUrl: string; firstId: number; count: number }>(
			(resolve, reject) => {
				let output = '';
				const onData = (chunk: Buffer) => {
					output += chunk.toString();
					const url = /Base URL[^:]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
					const series = /SERIES (.*)\n/.exec(output);
					if (url && series) {
						child.stdout.off('data', onData);
						const { firstId, count } = JSON.parse(series[1]) as { firstId: number; count: number };
						resolve({ baseUrl: url[1], firstId, count });
					}
				};
				child.stdout.on('data', onData);
				child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${output}`)));
			},
		);
		const sandbox = new SeriesSandbox(child, ready.baseUrl, ready.firstId, ready.count);
		child.stdout.on('data', (chunk: Buffer) => sandbox.take(chunk.toString()));
		return sandbox;
	}

	private take(text: string): void {
		this.buffer += text;
		let end: number;
		while ((end = this.buffer.indexOf('\n')) >= 0) {
			const line = this.buffer.slice(0, end);
			this.buffer = this.buffer.slice(end + 1);
			if (line.startsWith('ok ') || line.startsWith('error ')) this.waiting.shift()?.(line);
		}
	}

	/** Sends one command; resolves with its answer. @throws Error when the sandbox refused it. */
	async command(line: string): Promise<unknown> {
		const answer = await new Promise<string>((resolve) => {
			this.waiting.push(resolve);
			this.child.stdin.write(`${line}\n`);
		});
		if (answer.startsWith('error ')) throw new Error(answer);
		return JSON.parse(answer.slice(3)) as unknown;
	}

	stop(): void {
		this.child.kill();
	}
}

/** Counts this process's requests to /v1/cashouts. */
function countCashoutRequests() {
	let requests = 0;
	const restore = watchRequests((url) => {
		if (url.pathname === '/v1/cashouts') requests++;
	});
	return {
		take: () => {
			const taken = requests;
			requests = 0;
			return taken;
		},
		restore,
	};
}

/** Per record: the lastChangeDate of each change (creation first for a record new in the run). */
class Oracle {
	private readonly changes = new Map<number, string[]>();
	private readonly emitted = new Map<number, string[]>();

	change(id: number, lastChangeDate: string): void {
		const list = this.changes.get(id) ?? [];
		if (list.at(-1) !== lastChangeDate) list.push(lastChangeDate);
		this.changes.set(id, list);
	}

	emit(id: number, lastChangeDate: string): void {
		this.emitted.set(id, [...(this.emitted.get(id) ?? []), lastChangeDate]);
	}

	get changeCount(): number {
		let count = 0;
		for (const list of this.changes.values()) count += list.length;
		return count;
	}

	verdict() {
		let missed = 0;
		let repeated = 0;
		let invented = 0;
		let events = 0;
		const examples: string[] = [];
		for (const [id, list] of this.emitted) {
			events += list.length;
			const changes = new Set(this.changes.get(id) ?? []);
			repeated += list.length - new Set(list).size;
			for (const date of new Set(list))
				if (!changes.has(date)) {
					invented++;
					if (examples.length < 5) examples.push(`invented ${id}@${date}`);
				}
		}
		for (const [id, list] of this.changes) {
			if (!(this.emitted.get(id) ?? []).includes(list.at(-1)!)) {
				missed++;
				if (examples.length < 5) examples.push(`missed ${id}@${list.at(-1)}`);
			}
		}
		return { missed, repeated, invented, events, examples };
	}
}

/**
 * The benchmark at 100,000 and 1,000,000 cashouts a day (`record` prints each line and keeps it
 * for the verdict).
 */
export async function triggerMillionBenchmark(deps: { record: (result: Result) => void }) {
	await volumeRun(2_000, deps.record);
	await volumeRun(100_000, deps.record);
	await volumeRun(1_000_000, deps.record);
}

async function volumeRun(perDay: number, record: (result: Result) => void) {
	const label = `trigger ${perDay >= 1_000_000 ? `${perDay / 1_000_000}M` : `${perDay / 1_000}k`}/day`;
	const activation = Date.UTC(2026, 9, 12, 0, 0, 0);
	const sandbox = await SeriesSandbox.start(perDay, activation);
	const realNow = Date.now;
	const counter = countCashoutRequests();
	const everyMs = DAY / perDay;
	const rng = new Rng(42);
	const oracle = new Oracle();
	let sandboxNow = activation;
	let created = sandbox.initialCount; // records in the series so far (index of the next)
	try {
		const engine = await createEngine({ source: 'dist' });
		const credentials = {
			baseUrl: sandbox.baseUrl,
			apiUrl: sandbox.baseUrl,
			credentials: demoCredentials(),
		};
		storeSandboxCredentials(engine, credentials as unknown as Sandbox, '1002');
		// A million a day is about 700 new records a minute, each an event: Max Items per Poll's
		// default (500) would defer the rest poll after poll.
		const trigger = new PollRunner(
			engine,
			triggerWorkflow(
				{ resource: 'cashout', event: 'anyChange', options: { maxItemsPerPoll: MAX_ITEMS } },
				undefined,
				2,
			),
			TRIGGER_NODE,
		);
		const setClock = async (ms: number) => {
			sandboxNow = ms;
			Date.now = () => sandboxNow;
			await sandbox.command(`clock ${ms}`);
		};
		/** The new records up to `ms`, each expected as an event at its creation. */
		const extend = async (ms: number) => {
			const count = (await sandbox.command(`extend ${ms}`)) as number;
			for (let index = created; index < count; index++) {
				const second = Math.floor((activation - 7 * DAY + index * everyMs) / 1000);
				oracle.change(sandbox.firstId + index, iso(second));
			}
			created = count;
		};
		/** One poll with the node's clock running from the sandbox's: its time, requests and items. */
		const poll = async () => {
			counter.take();
			const began = performance.now();
			const base = sandboxNow;
			Date.now = () => base + Math.round(performance.now() - began);
			const outcome = await trigger.poll({ budgetMs: BUDGET_MS });
			Date.now = () => sandboxNow;
			if (outcome.error) throw outcome.error;
			for (const item of outcome.items ?? [])
				oracle.emit(Number(item.json.idCashout), String(item.json.lastChangeDate));
			return { seconds: (performance.now() - began) / 1000, requests: counter.take() };
		};
		const stateMiB = () =>
			Buffer.byteLength(JSON.stringify(trigger.savedStaticData())) / 1024 / 1024;
		const baselineDone = () =>
			(trigger.staticData().paymentsServiceTrigger as { baselineDone?: boolean } | undefined)
				?.baselineDone === true;

		// 1. The starting point, polls a minute apart.
		await setClock(activation);
		const starting: Array<{ seconds: number; requests: number }> = [await poll()];
		while (!baselineDone()) {
			await setClock(sandboxNow + MINUTE);
			await extend(sandboxNow - 1_000);
			starting.push(await poll());
		}

		// 2. Steady polls with new records and changes every minute.
		const steady: Array<{ seconds: number; requests: number }> = [];
		let state = 0;
		const oldest = () =>
			Math.ceil((sandboxNow - 7 * DAY + 8 * HOUR - (activation - 7 * DAY)) / everyMs);
		for (let index = 0; index < STEADY_POLLS; index++) {
			const next = sandboxNow + MINUTE;
			await setClock(next - 1_000);
			await extend(next - 1_000);
			const targets = [
				...Array.from({ length: 20 }, () => rng.int(oldest(), created - 1)),
				...Array.from({ length: 10 }, () =>
					rng.int(created - Math.ceil(HOUR / everyMs), created - 1),
				),
			];
			const byStatus = new Map<string, number[]>();
			for (const target of targets) {
				const status = rng.pick(STATUSES);
				byStatus.set(status, [...(byStatus.get(status) ?? []), sandbox.firstId + target]);
			}
			for (const [status, ids] of byStatus) {
				await sandbox.command(`status ${status} ${ids.join(' ')}`);
				for (const id of ids) oracle.change(id, iso(Math.floor((next - 1_000) / 1000)));
			}
			await setClock(next);
			steady.push(await poll());
			state = Math.max(state, stateMiB());
		}

		// 3. Quiet polls until every tier has passed over the look-back; nothing timed.
		await sandbox.command('latency 0');
		const quietStart = sandboxNow;
		let quietRequests = 0;
		while (sandboxNow < quietStart + QUIET_MS) {
			await setClock(sandboxNow + MINUTE);
			await extend(sandboxNow - 1_000);
			quietRequests += (await poll()).requests;
		}
		state = Math.max(state, stateMiB());
		const perHour = quietRequests / (QUIET_MS / HOUR);
		const verdict = oracle.verdict();
		const longest = (polls: Array<{ seconds: number }>) =>
			Math.max(...polls.map((one) => one.seconds));
		const mean = (polls: Array<{ requests: number }>) =>
			polls.reduce((sum, one) => sum + one.requests, 0) / polls.length;
		console.log(
			`     ${perDay.toLocaleString('en')} cashouts a day (${(7 * perDay).toLocaleString('en')} in the look-back), Any Change, version 2, ${LATENCY_MS} ms a request, ${BUDGET_MS / 1000} s budget: ` +
				`starting point ${starting.length} poll(s), ${starting.reduce((sum, one) => sum + one.requests, 0)} requests (longest ${longest(starting).toFixed(1)} s); ` +
				`steady ${mean(steady).toFixed(0)} requests a poll (longest ${longest(steady).toFixed(1)} s); ` +
				`${Math.round(perHour).toLocaleString('en')} requests an hour over ${(QUIET_MS / HOUR).toFixed(2)} h; state ${state.toFixed(2)} MiB; ` +
				`${verdict.events} events for ${oracle.changeCount} changes: ${verdict.missed} missed, ${verdict.repeated} repeated, ${verdict.invented} invented` +
				(verdict.examples.length ? ` (${verdict.examples.join(', ')})` : ''),
		);
		const lines: Array<[string, number, string, number]> = [
			[`${label}: state`, state, 'MiB', perDay >= 1_000_000 ? 5 : 1],
			[`${label}: requests an hour`, perHour, 'requests', perDay >= 1_000_000 ? 100_000 : 12_000],
		];
		if (perDay >= 1_000_000)
			lines.unshift(
				[`${label}: longest steady poll`, longest(steady), 's', 36],
				[`${label}: longest starting-point poll`, longest(starting), 's', 36],
				[`${label}: changes missed`, verdict.missed, 'changes', 0],
				[`${label}: changes repeated`, verdict.repeated, 'events', 0],
				[`${label}: events invented`, verdict.invented, 'events', 0],
			);
		for (const [name, value, unit, target] of lines)
			record({ name, value, unit, target, better: 'lower' });
	} finally {
		Date.now = realNow;
		counter.restore();
		sandbox.stop();
	}
}
