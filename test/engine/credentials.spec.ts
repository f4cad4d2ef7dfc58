/** The four credentials through n8n's engine: sessions per merchant ID, refused logins, and the tests n8n's Test button runs. */
import { CREDENTIAL_IDS, nodeWorkflow, useFixture } from '../harness/fixtures';
import { sharedFixture } from '../harness/sharedFixture';
import { testCredential } from '../harness/credential-tester';

const SESSION = 'paymentsServiceSessionApi';

/** `resource` → `operation` with the stored Session credential `id`. */
const withSession = (id: string, resource: string, operation: string, parameters = {}) =>
	nodeWorkflow({ resource, operation, ...parameters }, SESSION, {
		extra: { credentials: { [SESSION]: { id, name: id } } },
	});

/** Stores a copy of the credential `id` with `change` (and no session token) as `newId`. */
const storeCopy = (
	fx: ReturnType<typeof useFixture>,
	id: string,
	newId: string,
	type: string,
	change: Record<string, unknown>,
) =>
	fx.engine.addCredential({
		id: newId,
		name: newId,
		type,
		data: { ...fx.engine.credentials.stored(id), ...change, sessionToken: '' },
	});

// The read-only blocks share one fixture; the Session block starts its own (it logs out).
const shared = sharedFixture();

describe('Session credentials through the n8n engine', () => {
	const fx = useFixture();

	test('two credentials of one user with different merchant IDs each keep their own session', async () => {
		for (const mid of ['1001', '1002'])
			storeCopy(fx, CREDENTIAL_IDS[SESSION], `mid-${mid}`, SESSION, { merchantId: mid });
		const marker = fx.sandbox.control.addDeposit({ idMerchant: 1002, status: 'COMPLETED' });
		const listWith = (id: string) =>
			withSession(id, 'deposit', 'getMany', {
				returnAll: false,
				limit: 5,
				period: 'last24Hours',
			});
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
		storeCopy(fx, CREDENTIAL_IDS[SESSION], 'foreign-mid', SESSION, { merchantId: '2001' });
		const withCredential = (id: string) => withSession(id, 'balance', 'get');
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
	const fx = useFixture({ shared });
	const ALL = Object.entries(CREDENTIAL_IDS);

	test.each(ALL)('the stored sandbox credential %s passes its test', async (type, id) => {
		expect(await testCredential(fx.engine, id, type)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		if (type === SESSION) {
			// Testing the session credential logs in (n8n always does when testing) and reads the balance.
			expect(fx.sandbox.log.find('POST', '/v1/auth/login').length).toBeGreaterThan(0);
			expect(fx.sandbox.log.find('GET', '/v1/balance').at(-1)?.status).toBe(200);
		}
	});

	test.each(ALL)(
		'%s: a Base URL typed with spaces and a trailing slash is read the same way by its credential test',
		async (type, id) => {
			const stored = fx.engine.credentials.stored(id);
			storeCopy(fx, id, `${id}-padded`, type, { baseUrl: `  ${String(stored.baseUrl)}//  ` });
			expect(await testCredential(fx.engine, `${id}-padded`, type)).toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
		},
	);

	test.each<[keyof typeof CREDENTIAL_IDS, Record<string, unknown>, RegExp]>([
		['paymentsServiceSessionApi', { secretKey: 'wrong' }, /Login failed \(HTTP 401, code 11\)/],
		[
			'paymentsServiceReadOnlyApi',
			{ readOnlyKey: 'wrong' },
			/Read-Only Key is not valid \(code 100\)/,
		],
		[
			'paymentsServiceDepositApi',
			{ apiSignature: 'wrong' },
			/signature does not match.*\(code 102\)/,
		],
		[
			'paymentsServiceDepositApi',
			{ apiKey: 'wrong' },
			/API Key \(X-Login\) is not valid \(code 100\)/,
		],
		['paymentsServiceCashoutApi', { pass: 'wrong' }, /Login or Pass is not valid \(code 401\)/],
		[
			'paymentsServiceCashoutApi',
			{ apiSignature: 'wrong' },
			/payload signature does not match.*\(code 302\)/,
		],
	])(
		'%s with a wrong secret %j fails with a message naming what is wrong',
		async (type, change, message) => {
			const id = CREDENTIAL_IDS[type];
			storeCopy(fx, id, `${id}-broken`, type, change);
			const result = await testCredential(fx.engine, `${id}-broken`, type);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(message);
		},
	);
});
