/** The four credentials through n8n's engine: sessions per merchant ID, refused logins, and the tests n8n's Test button runs. */
import {
	CREDENTIAL_IDS,
	paymentsNode,
	startFixture,
	WorkflowBuilder,
	type Fixture,
} from '../harness/fixtures';
import { sharedFixture } from '../harness/sharedFixture';
import { testCredential } from '../harness/credential-tester';

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

// The read-only blocks share one fixture; the Session block starts its own (it logs out).
const shared = sharedFixture();

describe('Session credentials through the n8n engine', () => {
	let fx: Fixture;
	beforeAll(async () => (fx = await startFixture()));
	afterAll(async () => await fx.close());
	beforeEach(() => fx.sandbox.log.clear());

	test('two credentials of one user with different merchant IDs each keep their own session', async () => {
		const base = fx.engine.credentials.stored(CREDENTIAL_IDS.paymentsServiceSessionApi);
		fx.engine.addCredential({
			id: 'mid-1001',
			name: 'MID 1001',
			type: SESSION,
			data: { ...base, sessionToken: '', merchantId: '1001' },
		});
		fx.engine.addCredential({
			id: 'mid-1002',
			name: 'MID 1002',
			type: SESSION,
			data: { ...base, sessionToken: '', merchantId: '1002' },
		});
		const marker = fx.sandbox.control.addDeposit({ idMerchant: 1002, status: 'COMPLETED' });
		const listWith = (id: string) => {
			const workflow = single(
				'deposit',
				'getMany',
				{ returnAll: false, limit: 5, period: 'last24Hours' },
				SESSION,
			);
			workflow.nodes[1].credentials = { [SESSION]: { id, name: id } };
			return workflow;
		};
		const first1002 = await fx.engine.run(listWith('mid-1002'));
		const then1001 = await fx.engine.run(listWith('mid-1001'));
		const again1002 = await fx.engine.run(listWith('mid-1002'));
		expect(first1002.output('Payments Service').map((item) => item.json.idDeposit)).toEqual([
			marker.idDeposit,
		]);
		expect(then1001.output('Payments Service').every((item) => item.json.idMerchant === 1001)).toBe(
			true,
		);
		expect(again1002.output('Payments Service').map((item) => item.json.idDeposit)).toEqual([
			marker.idDeposit,
		]);
		expect(fx.sandbox.log.find('POST', '/v1/auth/login')).toHaveLength(2);
		expect(fx.engine.credentials.stored('mid-1001').sessionToken).not.toBe(
			fx.engine.credentials.stored('mid-1002').sessionToken,
		);
	});

	test('a refused login (code 83) and a foreign merchant ID are explained', async () => {
		fx.engine.addCredential({
			id: 'refused',
			name: 'refused',
			type: SESSION,
			data: {
				baseUrl: fx.sandbox.baseUrl,
				...fx.sandbox.credentials.refusedSession,
				merchantId: '',
			},
		});
		const base = fx.engine.credentials.stored(CREDENTIAL_IDS.paymentsServiceSessionApi);
		fx.engine.addCredential({
			id: 'foreign-mid',
			name: 'foreign',
			type: SESSION,
			data: { ...base, sessionToken: '', merchantId: '2001' },
		});
		const withCredential = (id: string) => {
			const workflow = single('balance', 'get', {}, SESSION);
			workflow.nodes[1].credentials = { [SESSION]: { id, name: id } };
			return workflow;
		};
		const refused = await fx.engine.run(withCredential('refused'));
		// The credential's own message reaches the user; the description says what was being done.
		expect(refused.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(
				/^Login refused from this location \(code 83\): .*networks allowed in the merchant panel/,
			),
			description: expect.stringMatching(
				/opening the session for: Reading the available balance.*login refused from this location/,
			),
		});
		expect(fx.sandbox.log.find('POST', '/v1/auth/login').map((entry) => entry.status)).toEqual([
			403,
		]);
		const foreign = await fx.engine.run(withCredential('foreign-mid'));
		expect(foreign.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(
				/^Switching the session to merchant ID 2001 failed \(HTTP 403, code 26\).*fix or clear the Merchant ID/,
			),
			description: expect.stringMatching(/Reading the available balance/),
		});
		expect(JSON.stringify(refused.run.data) + JSON.stringify(foreign.run.data)).not.toContain(
			fx.sandbox.credentials.refusedSession.secretKey,
		);
	});
});

describe('Credential tests, as n8n’s Test button runs them', () => {
	let fx: Fixture;
	beforeAll(() => (fx = shared()));

	test('each stored sandbox credential passes its test', async () => {
		for (const [type, id] of Object.entries(CREDENTIAL_IDS)) {
			expect([type, await testCredential(fx.engine, id, type)]).toEqual([
				type,
				{ status: 'OK', message: 'Connection successful!' },
			]);
		}
		// Testing the session credential logs in (n8n always does when testing) and reads the balance.
		expect(fx.sandbox.log.find('POST', '/v1/auth/login').length).toBeGreaterThan(0);
		expect(fx.sandbox.log.find('GET', '/v1/balance').at(-1)?.status).toBe(200);
	});

	test('a Base URL typed with spaces and a trailing slash is read the same way by every credential test', async () => {
		for (const [type, id] of Object.entries(CREDENTIAL_IDS)) {
			const stored = fx.engine.credentials.stored(id);
			fx.engine.addCredential({
				id: `${id}-padded`,
				name: 'padded',
				type,
				data: { ...stored, baseUrl: `  ${String(stored.baseUrl)}//  `, sessionToken: '' },
			});
			expect([type, await testCredential(fx.engine, `${id}-padded`, type)]).toEqual([
				type,
				{ status: 'OK', message: 'Connection successful!' },
			]);
		}
	});

	test('wrong secrets fail with a message naming what is wrong', async () => {
		const stored = (id: string) => fx.engine.credentials.stored(id);
		const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
			[
				'paymentsServiceSessionApi',
				CREDENTIAL_IDS.paymentsServiceSessionApi,
				{ secretKey: 'wrong' },
				/Login failed \(HTTP 401, code 11\)/,
			],
			[
				'paymentsServiceReadOnlyApi',
				CREDENTIAL_IDS.paymentsServiceReadOnlyApi,
				{ readOnlyKey: 'wrong' },
				/Read-Only Key is not valid \(code 100\)/,
			],
			[
				'paymentsServiceDepositApi',
				CREDENTIAL_IDS.paymentsServiceDepositApi,
				{ apiSignature: 'wrong' },
				/signature does not match.*\(code 102\)/,
			],
			[
				'paymentsServiceDepositApi',
				CREDENTIAL_IDS.paymentsServiceDepositApi,
				{ apiKey: 'wrong' },
				/API Key \(X-Login\) is not valid \(code 100\)/,
			],
			[
				'paymentsServiceCashoutApi',
				CREDENTIAL_IDS.paymentsServiceCashoutApi,
				{ pass: 'wrong' },
				/Login or Pass is not valid \(code 401\)/,
			],
			[
				'paymentsServiceCashoutApi',
				CREDENTIAL_IDS.paymentsServiceCashoutApi,
				{ apiSignature: 'wrong' },
				/payload signature does not match.*\(code 302\)/,
			],
		];
		for (const [type, id, change, message] of cases) {
			fx.engine.addCredential({
				id: `${id}-broken`,
				name: 'broken',
				type,
				data: { ...stored(id), ...change, sessionToken: '' },
			});
			const result = await testCredential(fx.engine, `${id}-broken`, type);
			expect([type, change, result.status]).toEqual([type, change, 'Error']);
			expect(result.message).toMatch(message);
		}
	});
});
