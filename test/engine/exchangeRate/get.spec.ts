/** Exchange Rate → Get through n8n's engine against the sandbox. */
import { nodeWorkflow, useFixture } from '../../harness/fixtures';
import { sharedFixture } from '../../harness/sharedFixture';

const rateOf = (country: string, amount: number) =>
	nodeWorkflow(
		{ resource: 'exchangeRate', operation: 'get', country, amount },
		'paymentsServiceReadOnlyApi',
	);

// The read-only blocks share one fixture; the Session block starts its own (it logs out).
const shared = sharedFixture();

describe('Exchange Rate → Get through the n8n engine', () => {
	const fx = useFixture({ shared });

	test('Exchange Rate Get converts a USD amount with the read-only key', async () => {
		const run = await fx.engine.run(rateOf('br', 100));
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service')[0].json).toEqual({
			fx_rate: 5.43,
			currency: 'BRL',
			converted_amount: 543,
		});
		const [request] = fx.sandbox.log.find('GET', '/v3/exchange_rates');
		expect(request.query).toEqual({ country: 'BR', amount: '100' });
		expect(request.headers.authorization).toBe(`Bearer ${fx.sandbox.credentials.readOnlyKey}`);
	});

	test('an invalid country fails before any request', async () => {
		const run = await fx.engine.run(rateOf('Brasil', 1));
		expect(run.nodeError('Payments Service')).toMatchObject({
			message: 'Country must be a 2-letter country code, got "Brasil" (item 0)',
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});
});
