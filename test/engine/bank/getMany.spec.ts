/** Bank → Get Many through n8n's engine against the sandbox. */
import { nodeWorkflow, storeCredentialCopy, useFixture } from '../../harness/fixtures';
import { sharedFixture } from '../../harness/sharedFixture';

const READ_ONLY = 'paymentsServiceReadOnlyApi';

const banksOf = (country: string, parameters: Record<string, unknown>, extra = {}) =>
	nodeWorkflow({ resource: 'bank', operation: 'getMany', country, ...parameters }, READ_ONLY, {
		extra,
	});

// The read-only blocks share one fixture; the Session block starts its own (it logs out).
const shared = sharedFixture();

describe('Bank → Get Many through the n8n engine', () => {
	const fx = useFixture({ shared });

	test('Bank Get Many lists a country’s bank codes, one item per bank, with Limit', async () => {
		const all = await fx.engine.run(banksOf('MX', { returnAll: true }));
		const banks = all.output('Payments Service').map((item) => item.json);
		expect(banks.length).toBeGreaterThan(2);
		expect(
			banks.every((bank) => typeof bank.code === 'number' && typeof bank.name === 'string'),
		).toBe(true);
		const limited = await fx.engine.run(banksOf('MX', { returnAll: false, limit: 2 }));
		expect(limited.output('Payments Service').map((item) => item.json)).toEqual(banks.slice(0, 2));
	});

	test('a wrong read-only key is reported with code 100 and its meaning, without the key', async () => {
		const wrong = storeCredentialCopy(fx, READ_ONLY, 'ro-wrong', {
			readOnlyKey: 'ro_wrong_key_SECRET',
		});
		const failed = await fx.engine.run(banksOf('BR', { returnAll: true }, wrong));
		expect(failed.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(/^Listing the banks of BR failed: .*\(100\)$/),
			description: expect.stringMatching(/read-only key is not valid/),
		});
		expect(JSON.stringify(failed.run.data)).not.toContain('ro_wrong_key_SECRET');
	});
});
