/**
 * `npm run bench -- lost-answers` (and part of `creations`): payouts on n8n's engine at Concurrency
 * 8 against the sandbox in a process of its own at 50 ms of latency, a clean batch beside the same
 * batch on a network that loses answers, in one process:
 * - 200 payouts, 3 answers lost, no Retry On Fail: the node resends each itself; the execution
 *   completes, every row paid once, at most 209 requests, within 1.3 × the clean batch's time;
 * - 200 payouts, one 500 (not processed) at row 100, with Retry On Fail: the second try sends only
 *   what the first did not make; every row paid once, at most 220 requests;
 * - 1,000 payouts, 3 answers lost: at most 1,009 requests.
 */
import type { IDataObject } from 'n8n-workflow';
import { performance } from 'perf_hooks';

import { payoutFromRow } from '../harness/creations';
import { createEngine } from '../harness/engine';
import { paymentsNode, storeSandboxCredentials, WorkflowBuilder } from '../harness/fixtures';
import type { Sandbox } from '../sandbox';
import { demoCredentials } from '../sandbox/demo';

/** What a measurement reports to the bench runner. */
export interface BenchResult {
	name: string;
	value: number;
	unit: string;
	target: number;
	better: 'lower' | 'higher';
}

/** What the runner lends: its result sink and its way of starting the sandbox in a process. */
export interface BenchTools {
	record(result: BenchResult): void;
	sandboxProcess(args: string[]): Promise<{ baseUrl: string; stop: () => void }>;
}

/** A fault as the sandbox's admin route takes it. */
type Fault = IDataObject;

/** One batch: its rows, the faults the network throws at it, and the node's settings. */
interface Batch {
	label: string;
	rows: number;
	faults: Fault[];
	retryOnFail?: boolean;
}

const LATENCY_MS = 50;

/** A lost answer at the `nth` creation (from 1): made by the service, its answer never arrives. */
const lostAt = (nth: number): Fault => ({
	method: 'POST',
	path: '/v3/cashout',
	kind: 'reset',
	phase: 'after',
	skip: nth - 1,
});

/** See the module comment. */
export async function lostAnswerBenchmark(tools: BenchTools): Promise<void> {
	const sandbox = await tools.sandboxProcess(['--latency', String(LATENCY_MS)]);
	const admin = async (method: string, route: string, body?: unknown) =>
		(await (
			await fetch(`${sandbox.baseUrl}/_sandbox/${route}`, {
				method,
				...(body === undefined
					? {}
					: { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
			})
		).json()) as unknown;
	try {
		const engine = await createEngine({ source: 'dist' });
		storeSandboxCredentials(engine, {
			baseUrl: sandbox.baseUrl,
			apiUrl: sandbox.baseUrl,
			credentials: demoCredentials(),
		} as unknown as Sandbox);
		let salt = 0;
		const run = async (batch: Batch) => {
			const marker = `lost-${++salt}`;
			const builder = new WorkflowBuilder(`bench ${batch.label}`);
			builder.items(
				'Rows',
				Array.from({ length: batch.rows }, (_, row) => ({
					name: `Payee ${row} ${marker}`,
					amount: `${50 + (row % 90)}.00`,
				})),
			);
			builder.then({
				...paymentsNode(
					payoutFromRow({
						country: { __rl: true, mode: 'id', value: 'BR' },
						documentId: '84932495016',
						options: { concurrency: 8 },
					}),
					'paymentsServiceCashoutApi',
					batch.retryOnFail ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 } : {},
				),
				typeVersion: 1.2,
			});
			await admin('DELETE', 'log');
			await admin('DELETE', 'faults');
			for (const fault of batch.faults) await admin('POST', 'faults', fault);
			const start = performance.now();
			const result = await engine.run(builder.build());
			const ms = performance.now() - start;
			if (result.error)
				throw new Error(`${batch.label}: the execution failed: ${result.error.message}`);
			const requests = ((await admin('GET', 'log')) as unknown[]).length;
			const output = result.output('Payments Service').map((item) => item.json);
			const ids = new Set(output.map((json) => String(json.external_id)));
			const made = ((await admin('GET', 'created/cashouts')) as Array<{ externalId: string }>)
				.map((entry) => entry.externalId)
				.filter((externalId) => ids.has(externalId));
			if (output.length !== batch.rows || ids.size !== batch.rows || made.length !== batch.rows)
				throw new Error(
					`${batch.label}: ${output.length} items, ${ids.size} external IDs, ${made.length} payouts for ${batch.rows} rows`,
				);
			const resent = output.filter((json) => Number(json.times_sent) > 1).length;
			console.log(
				`     ${batch.label}: ${requests} requests, ${(ms / 1000).toFixed(2)} s, every row paid once (${resent} sent again)`,
			);
			return { ms, requests };
		};
		// Warm-up (n8n's engine, the package, the sandbox's connections), untimed.
		await run({ label: 'warm-up, 16 payouts', rows: 16, faults: [] });
		const clean = await run({ label: '200 payouts, clean', rows: 200, faults: [] });
		const lost = await run({
			label: '200 payouts, 3 answers lost',
			rows: 200,
			faults: [lostAt(50), lostAt(100), lostAt(150)],
		});
		const failed = await run({
			label: '200 payouts, a 500 at row 100, Retry On Fail',
			rows: 200,
			faults: [{ method: 'POST', path: '/v3/cashout', kind: 'status', status: 500, skip: 99 }],
			retryOnFail: true,
		});
		const large = await run({
			label: '1,000 payouts, 3 answers lost',
			rows: 1_000,
			faults: [lostAt(250), lostAt(500), lostAt(750)],
		});
		const targets: Array<[string, number, string, number]> = [
			['200 payouts, 3 lost answers: requests', lost.requests, 'requests', 209],
			['200 payouts, 3 lost answers: time ÷ the clean batch’s', lost.ms / clean.ms, '×', 1.3],
			['200 payouts, a 500 and Retry On Fail: requests', failed.requests, 'requests', 220],
			['1,000 payouts, 3 lost answers: requests', large.requests, 'requests', 1_009],
		];
		for (const [name, value, unit, target] of targets)
			tools.record({
				name: `Lost answers at Concurrency 8, ${LATENCY_MS} ms: ${name}`,
				value,
				unit,
				target,
				better: 'lower',
			});
	} finally {
		sandbox.stop();
	}
}
