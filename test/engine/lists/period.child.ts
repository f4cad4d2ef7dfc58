/**
 * The far period ends of issue 38 in a process of its own, which the hostile-value spec starts
 * with a 512 MiB heap (`node --max-old-space-size=512 --import tsx`): Deposit → Get Many, Summarize
 * and Export to File with Created To now, 9999-12-31T23:59:59Z and an expression's 1e21, on n8n's
 * engine against the sandbox. Prints one JSON line per run: the operation, Created To, the time,
 * the list requests the sandbox received, the error's message or the records output, and the peak of
 * the heap used. Loads the built package (dist/), as n8n does: tsx would resolve
 * `PaymentsService.node` to the node's codex JSON.
 */
import { performance } from 'perf_hooks';

import { paymentsNode, startFixture, WorkflowBuilder } from '../../harness/fixtures';
import { iso } from '../../harness/records';

const NODE = 'Payments Service';
const DAY = 86_400;

async function main(): Promise<void> {
	const fx = await startFixture({
		source: 'dist',
		sandbox: { days: 180, depositsPerDay: 30, cashoutsPerDay: 0 },
	});
	const from = iso(Math.floor(fx.sandbox.clock.now() / 1000) - 30 * DAY);
	let peak = 0;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().heapUsed);
	}, 10);
	try {
		for (const operation of ['getMany', 'summarize', 'exportToFile'])
			for (const createdTo of ['', '9999-12-31T23:59:59Z', '={{ 1e21 }}']) {
				fx.sandbox.log.clear();
				peak = process.memoryUsage().heapUsed;
				const builder = new WorkflowBuilder(`Deposit ${operation}`);
				builder.then(
					paymentsNode(
						{
							resource: 'deposit',
							operation,
							returnAll: true,
							period: 'custom',
							createdFrom: from,
							createdTo,
							options: { windowConcurrency: 4 },
						},
						'paymentsServiceSessionApi',
					),
				);
				const start = performance.now();
				const run = await fx.engine.run({ ...builder.build(), settings: {} });
				const ms = performance.now() - start;
				const items = run.output(NODE);
				const last = items.at(-1)?.json;
				console.log(
					JSON.stringify({
						operation,
						createdTo,
						ms: Math.round(ms),
						requests: fx.sandbox.log.find('GET', '/v1/deposits').length,
						error: run.error?.message,
						records: operation === 'getMany' ? items.length : (last?.count ?? last?.rows),
						peakHeapMiB: Math.round(Math.max(peak, process.memoryUsage().heapUsed) / 2 ** 20),
					}),
				);
			}
	} finally {
		clearInterval(sampler);
		await fx.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
