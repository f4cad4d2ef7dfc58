import type { INodeCredentials, INodeParameters } from 'n8n-workflow';

import { COUNTRIES } from '../../../nodes/PaymentsService/reference/countries';
import {
	CREDENTIAL_IDS,
	nodeWorkflow,
	storeCredentialCopy,
	useFixture,
} from '../../harness/fixtures';
import { sharedFixture } from '../../harness/sharedFixture';

const READ_ONLY = 'paymentsServiceReadOnlyApi';
const DEPOSIT = 'paymentsServiceDepositApi';

const credentialsOf = (...types: Array<keyof typeof CREDENTIAL_IDS>): INodeCredentials =>
	Object.fromEntries(types.map((type) => [type, { id: CREDENTIAL_IDS[type], name: type }]));

/** A picker value as n8n's editor saves it. */
const picked = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

const depositCreate = (country: unknown): INodeParameters =>
	({
		resource: 'deposit',
		operation: 'create',
		amount: '10',
		currency: 'BRL',
		country,
	}) as INodeParameters;

// Both blocks share one fixture: the pickers read reference data, which the operations' creations leave alone.
const shared = sharedFixture();

describe('the pickers, called the way n8n’s editor calls them', () => {
	const fx = useFixture({ shared });

	test('the Country picker lists the country table with names and currencies, without any credential or request', async () => {
		const all = await fx.engine.listSearch('searchCountries', {
			parameters: depositCreate(picked('')),
		});
		expect(all.results).toHaveLength(COUNTRIES.length);
		expect(all.results).toContainEqual({ name: 'Brazil (BR, BRL)', value: 'BR' });
		const found = await fx.engine.listSearch('searchCountries', {
			parameters: depositCreate(picked('')),
			filter: 'pe',
		});
		expect(found.results[0]).toEqual({ name: 'Peru (PE, PEN)', value: 'PE' });
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test('the Payment Method picker lists the chosen country’s methods with the read-only key', async () => {
		const result = await fx.engine.listSearch('searchPaymentMethods', {
			parameters: depositCreate(picked('BR')),
			credentials: credentialsOf(DEPOSIT, READ_ONLY),
			path: 'parameters.paymentMethod',
		});
		expect(result.results).toEqual([
			{ name: 'Pix (PX)', value: 'PX', description: 'BANK_TRANSFER' },
			{ name: 'Boleto (BL)', value: 'BL', description: 'VOUCHER' },
			{ name: 'Visa (VI)', value: 'VI', description: 'CREDIT_CARD' },
		]);
		const [request] = fx.sandbox.log.entries();
		expect([request.method, request.path, request.query]).toEqual([
			'GET',
			'/v3/payment_methods',
			{ country: 'BR' },
		]);
		expect(request.headers.authorization).toBe(`Bearer ${fx.sandbox.credentials.readOnlyKey}`);
	});

	test('the Payment Method picker filters by name or code, and reads a country saved as a plain string (before it was a picker)', async () => {
		const result = await fx.engine.listSearch('searchPaymentMethods', {
			parameters: depositCreate('MX'),
			credentials: credentialsOf(DEPOSIT, READ_ONLY),
			filter: 'oxxo',
		});
		expect(result.results).toEqual([{ name: 'OXXO (OX)', value: 'OX', description: 'VOUCHER' }]);
	});

	test('without a read-only credential the Payment Method picker says which credential to select, and sends nothing', async () => {
		await expect(
			fx.engine.listSearch('searchPaymentMethods', {
				parameters: depositCreate(picked('BR')),
				credentials: credentialsOf(DEPOSIT),
			}),
		).rejects.toMatchObject({
			message: 'No Payments Service Read-Only API credential is selected',
			description: expect.stringMatching(
				/to list the payment methods \(or type the code By Code\)/,
			),
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test.each([
		['no country', picked(''), /^Choose a Country first to list its payment methods$/],
		[
			'a country given by an expression',
			picked('={{ $json.country }}', 'id'),
			/given by an expression cannot be listed$/,
		],
		['a country that is not 2 letters', picked('Brazil', 'id'), /^Choose a Country first/],
	])(
		'with %s the Payment Method picker explains what to do, and sends nothing',
		async (_what, country, message) => {
			await expect(
				fx.engine.listSearch('searchPaymentMethods', {
					parameters: depositCreate(country),
					credentials: credentialsOf(DEPOSIT, READ_ONLY),
				}),
			).rejects.toMatchObject({ message: expect.stringMatching(message) });
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		},
	);

	test('a wrong read-only key reaches the picker as the service’s code 100 and its meaning', async () => {
		const { credentials: wrong } = storeCredentialCopy(fx, READ_ONLY, 'ro-wrong-picker', {
			readOnlyKey: 'wrong',
		});
		await expect(
			fx.engine.listSearch('searchPaymentMethods', {
				parameters: depositCreate(picked('BR')),
				credentials: { ...credentialsOf(DEPOSIT), ...wrong },
			}),
		).rejects.toMatchObject({
			message: expect.stringMatching(/^Listing the payment methods of BR failed: .*\(100\)$/),
		});
		// The editor waits for no retries.
		expect(fx.sandbox.log.entries()).toHaveLength(1);
	});
});

describe('operations with Country and Payment Method pickers through the n8n engine', () => {
	const fx = useFixture({ shared });

	const single = (parameters: INodeParameters, credential: keyof typeof CREDENTIAL_IDS) =>
		nodeWorkflow(parameters, credential);

	test('Payment Method Get Many lists a country’s methods, one item per method, with Limit', async () => {
		const run = await fx.engine.run(
			single(
				{ resource: 'paymentMethod', operation: 'getMany', country: picked('CO'), returnAll: true },
				READ_ONLY,
			),
		);
		expect(run.error).toBeUndefined();
		const methods = run.output('Payments Service').map((item) => item.json);
		expect(methods.map((method) => [method.code, method.name, method.type, method.status])).toEqual(
			[
				['PC', 'PSE', 'BANK_TRANSFER', 'OK'],
				['EF', 'Efecty', 'VOUCHER', 'OK'],
			],
		);
		expect(methods[0]).toMatchObject({
			country: 'CO',
			logo: expect.stringMatching(/\/logos\/co-pc\.svg$/),
			daily_average: expect.any(Number),
		});
		const [request] = fx.sandbox.log.find('GET', '/v3/payment_methods');
		expect(request.query).toEqual({ country: 'CO' });

		const limited = await fx.engine.run(
			single(
				{
					resource: 'paymentMethod',
					operation: 'getMany',
					country: picked('br', 'id'),
					returnAll: false,
					limit: 1,
				},
				READ_ONLY,
			),
		);
		expect(limited.output('Payments Service').map((item) => item.json.code)).toEqual(['PX']);
	});

	test('a bad country fails before anything is sent: a typed code by n8n’s check of the picker, a mapped one naming the item and the fix', async () => {
		await expect(
			fx.engine.run(
				single(
					{
						resource: 'paymentMethod',
						operation: 'getMany',
						country: picked('BRA', 'id'),
						returnAll: true,
					},
					READ_ONLY,
				),
			),
		).rejects.toMatchObject({
			name: 'WorkflowHasIssuesError',
			message: expect.stringMatching(/Enter a 2-letter country code, e\.g\. BR/),
		});

		const mapped = await fx.engine.run(
			nodeWorkflow(
				{
					resource: 'paymentMethod',
					operation: 'getMany',
					country: picked('={{ $json.country }}', 'id'),
					returnAll: true,
				},
				READ_ONLY,
				{ items: [{ country: 'Brazil' }, { country: '' }], extra: { continueOnFail: true } },
			),
		);
		expect(mapped.output('Payments Service').map((item) => item.json)).toEqual([
			{
				error: 'Country must be a 2-letter country code, got "Brazil" (item 0)',
				description: 'Use an ISO 3166-1 alpha-2 code such as BR, MX or CO.',
			},
			{
				error: 'Country is empty (item 1)',
				description: 'Pick a country from the list, or type a 2-letter country code such as BR.',
			},
		]);
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test('pickers take expressions: the country and the payment method mapped from the input item', async () => {
		const run = await fx.engine.run(
			nodeWorkflow(
				{
					...depositCreate(picked('={{ $json.country }}', 'id')),
					currency: 'MXN',
					paymentMethod: picked('={{ $json.method }}', 'id'),
				},
				DEPOSIT,
				{ items: [{ country: 'MX', method: 'SE' }] },
			),
		);
		expect(run.error).toBeUndefined();
		expect(JSON.parse(fx.sandbox.log.find('POST', '/v3/deposits')[0].rawBody!)).toMatchObject({
			country: 'MX',
			payment_method: 'SE',
		});
	});

	test('Deposit Create runs with the deposit credential alone: the read-only key serves only the picker', async () => {
		const run = await fx.engine.run(
			single({ ...depositCreate(picked('BR')), paymentMethod: picked('PX') }, DEPOSIT),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service')[0].json).toMatchObject({ checkout_type: 'HOSTED' });
		expect(fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path}`)).toEqual([
			'POST /v3/deposits',
		]);
	});

	test('Bank Get Many and Exchange Rate Get take a picked country; a missing read-only credential is named', async () => {
		const banks = await fx.engine.run(
			single(
				{ resource: 'bank', operation: 'getMany', country: picked('CL'), returnAll: true },
				READ_ONLY,
			),
		);
		expect(banks.output('Payments Service').map((item) => item.json.name)).toContain('BancoEstado');
		const rate = await fx.engine.run(
			single(
				{ resource: 'exchangeRate', operation: 'get', country: picked('PE'), amount: 10 },
				READ_ONLY,
			),
		);
		expect(rate.output('Payments Service')[0].json).toEqual({
			fx_rate: 3.74,
			currency: 'PEN',
			converted_amount: 37.4,
		});

		fx.sandbox.log.clear();
		const workflow = single(
			{ resource: 'bank', operation: 'getMany', country: picked('CL'), returnAll: true },
			READ_ONLY,
		);
		delete workflow.nodes[1].credentials;
		const missing = await fx.engine.run(workflow);
		expect(missing.nodeError('Payments Service')).toMatchObject({
			name: 'NodeOperationError',
			message: 'No Payments Service Read-Only API credential is selected',
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});
});
