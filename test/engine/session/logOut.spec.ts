/** Session → Log Out through n8n's engine against the sandbox. */
import { CREDENTIAL_IDS, nodeWorkflow, useFixture } from '../../harness/fixtures';
import { listWorkflow } from '../../harness/lists';

const SESSION = 'paymentsServiceSessionApi';

describe('Session → Log Out through the n8n engine', () => {
	const fx = useFixture();

	test('Log Out ends the stored session once per run; the next run logs in again by itself', async () => {
		const list = listWorkflow('deposit', { limit: 1, period: 'last7Days', returnAll: false });
		await fx.engine.run(list);
		const token = fx.engine.credentials.stored(
			CREDENTIAL_IDS.paymentsServiceSessionApi,
		).sessionToken;
		const logout = await fx.engine.run(
			nodeWorkflow({ resource: 'session', operation: 'logOut' }, SESSION, {
				items: [{ n: 1 }, { n: 2 }],
			}),
		);
		expect(logout.output('Payments Service').map((item) => item.json)).toEqual([
			{ loggedOut: true, message: 'Session destroyed successfully.' },
		]);
		expect(fx.sandbox.log.find('DELETE', '/v1/auth/session/destroy')).toHaveLength(1);
		expect(fx.sandbox.control.activeSessions().some((session) => session.token === token)).toBe(
			false,
		);

		fx.sandbox.log.clear();
		const again = await fx.engine.run(list);
		expect(again.error).toBeUndefined();
		expect(
			fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
		).toEqual(['GET /v1/deposits 401', 'POST /v1/auth/login 200', 'GET /v1/deposits 200']);
	});
});
