import { startFixture, paymentsNode, linearWorkflow, itemsNodes, type Fixture } from '../harness/fixtures';

let fx: Fixture;
beforeAll(async () => { fx = await startFixture(); });
afterAll(async () => { await fx.close(); });

test('smoke: deposits get many', async () => {
	const wf = linearWorkflow('smoke', [
		...itemsNodes('Items', [{ a: 1 }, { a: 2 }]),
		paymentsNode({ resource: 'deposit', operation: 'getMany', returnAll: false, limit: 3, period: 'last7Days' }, 'paymentsServiceSessionApi'),
	]);
	const run = await fx.engine.run(wf);
	console.log(run.error, run.nodeError('Payments Service'), JSON.stringify(run.output('Payments Service').slice(0, 2)).slice(0, 600), run.output('Payments Service').length);
	console.log(fx.sandbox.log.entries().map((e) => `${e.method} ${e.path} ${JSON.stringify(e.query)} ${e.status}`).join('\n'));
});
