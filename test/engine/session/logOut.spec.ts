/** Session → Log Out through n8n's engine against the sandbox. */
import {
	CREDENTIAL_IDS,
	paymentsNode,
	startFixture,
	WorkflowBuilder,
	type Fixture,
} from '../../harness/fixtures';

const SESSION = 'paymentsServiceSessionApi';

function single(
	resource: string,
	operation: string,
	parameters: Record<string, unknown>,
	credential: 'paymentsServiceSessionApi' | 'paymentsServiceReadOnlyApi',
	extra = {},
) {
	const builder = new WorkflowBuilder(`${resource} ${operation}`);
	builder.then(paymentsNode({ resource, operation, ...parameters }, credential, extra));
	return builder.build();
}

describe('Session → Log Out through the n8n engine', () => {
	let fx: Fixture;
	beforeAll(async () => (fx = await startFixture()));
	afterAll(async () => await fx.close());
	beforeEach(() => fx.sandbox.log.clear());

	test('Log Out ends the stored session once per run; the next run logs in again by itself', async () => {
		const list = single(
			'deposit',
			'getMany',
			{ returnAll: false, limit: 1, period: 'last7Days' },
			SESSION,
		);
		await fx.engine.run(list);
		const token = fx.engine.credentials.stored(
			CREDENTIAL_IDS.paymentsServiceSessionApi,
		).sessionToken;
		const builder = new WorkflowBuilder('Log out');
		builder.items('Items', [{ n: 1 }, { n: 2 }]);
		builder.then(paymentsNode({ resource: 'session', operation: 'logOut' }, SESSION));
		const logout = await fx.engine.run(builder.build());
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
