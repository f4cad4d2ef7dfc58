import { validateDepositRequest } from '../../../nodes/PaymentsService/bodies/depositSchema';
import type { FieldProblem } from '../../../nodes/PaymentsService/bodies/requestFields';

const minimal = { amount: '100.50', country: 'BR', currency: 'BRL' };

/** The problems of `body`; fails the test when the body is accepted. */
function problemsOf(body: unknown): FieldProblem[] {
	const result = validateDepositRequest(body);
	if (result.ok) throw new Error(`expected ${JSON.stringify(body)} to be refused`);
	return result.problems;
}

const fieldsOf = (body: unknown) => problemsOf(body).map((problem) => problem.field);

describe('validateDepositRequest', () => {
	test('a minimal body (amount, country, currency) is valid and returned unchanged', () => {
		expect(validateDepositRequest(minimal)).toEqual({ ok: true, value: minimal, unchecked: [] });
	});

	test('a full body using every documented field is valid', () => {
		const full = {
			invoice_id: 'INV-2026_001',
			amount: 1234.5,
			country: 'BR',
			currency: 'BRL',
			payment_method: 'PX',
			payer: {
				id: 'cust42',
				document: '84932568207',
				document_type: 'CPF',
				email: 'jane@example.com',
				first_name: 'Jane',
				last_name: 'Doe',
				birth_date: '19900131',
				registration_date: '20240229',
				phone: '+5511999999999',
				address: { street: 'Rua A, 1', city: 'São Paulo', state: 'SP', zip_code: '01000-000' },
			},
			merchant_external_reference: 'ref',
			request_payer_data_on_validation_failure: true,
			payment_type: 'BANK_TRANSFER',
			payment_types: ['BANK_DEPOSIT', 'BANK_TRANSFER'],
			sub_merchant_id: 12,
			reported_info: {
				bank_account_number: '123',
				bank_branch: '0001',
				bank_beneficiary: 'Jane Doe',
			},
			bank_account: { anything: 'goes' },
			fee_on_payer: false,
			surcharge_on_payer: true,
			bonus_amount: '10',
			bonus_relative: true,
			strikethrough_price: '150.00',
			description: 'Top-up',
			client_ip: '2001:db8::1',
			device_id: 'dev-1',
			language: 'pt',
			back_url: 'https://shop.example.com/back',
			success_url: 'https://shop.example.com/ok',
			error_url: 'https://shop.example.com/error',
			notification_url: 'https://shop.example.com/hook',
			logo: 'https://shop.example.com/logo.png',
			test: true,
			mobile: false,
			early_release: false,
			expiration: 99999,
		};
		expect(validateDepositRequest(full)).toEqual({ ok: true, value: full, unchecked: [] });
	});

	test('amount as a JSON number with up to 2 decimals and 18 integer digits as a string are valid', () => {
		expect(validateDepositRequest({ ...minimal, amount: 10.25 }).ok).toBe(true);
		expect(validateDepositRequest({ ...minimal, amount: '123456789012345678.99' }).ok).toBe(true);
	});

	test('missing country and currency are each reported as required', () => {
		const problems = problemsOf({ amount: '1.00' });
		expect([...problems].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
			{ field: 'country', problem: 'is required' },
			{ field: 'currency', problem: 'is required' },
		]);
	});

	test('a missing amount is reported on amount as required', () => {
		expect(problemsOf({ country: 'BR', currency: 'BRL' })).toEqual([
			{ field: 'amount', problem: 'is required' },
		]);
	});

	test.each([
		['3 decimals', '10.005'],
		['19 integer digits', '1234567890123456789'],
		['zero', '0'],
		['zero with decimals', '0.00'],
		['exponent notation string', '1e5'],
		['negative', '-5.00'],
		['text', 'ten'],
		['a number in exponent form', 1e21],
		['a number with 3 decimals', 1.005],
		['zero as a number', 0],
	])('amount with %s (%p) is refused, naming amount', (_what, amount) => {
		expect(fieldsOf({ ...minimal, amount })).toEqual(['amount']);
	});

	test('bonus_amount and strikethrough_price follow the same decimal rule', () => {
		expect(
			fieldsOf({ ...minimal, bonus_amount: '1.234', strikethrough_price: 'x' }).sort(),
		).toEqual(['bonus_amount', 'strikethrough_price']);
	});

	test.each([
		['payer.email', { payer: { email: 'not-an-email' } }],
		['payer.id', { payer: { id: 'has space' } }],
		['payer.birth_date', { payer: { birth_date: '19901332' } }],
		['payer.birth_date', { payer: { birth_date: '19900230' } }],
		['payer.registration_date', { payer: { registration_date: '2024-01-01' } }],
		['payer.first_name', { payer: { first_name: 'x'.repeat(129) } }],
		['payer.document', { payer: { document: '1'.repeat(31) } }],
		['payer.address.city', { payer: { address: { city: 'c'.repeat(129) } } }],
		['reported_info.bank_branch', { reported_info: { bank_branch: 'b'.repeat(46) } }],
		['invoice_id', { invoice_id: 'inv 1!' }],
		['invoice_id', { invoice_id: 'a'.repeat(129) }],
		['back_url', { back_url: 'http://shop.example.com/back' }],
		['success_url', { success_url: 'not a url' }],
		['notification_url', { notification_url: `https://example.com/${'a'.repeat(2048)}` }],
		['client_ip', { client_ip: '300.1.1.1' }],
		['client_ip', { client_ip: 'localhost' }],
		['language', { language: 'de' }],
		['expiration', { expiration: 100000 }],
		['expiration', { expiration: 0 }],
		['expiration', { expiration: 1.5 }],
		['description', { description: 'd'.repeat(101) }],
		['payment_method', { payment_method: 'ABCDEFGHIJK' }],
		['country', { country: 'br' }],
		['currency', { currency: 'BR' }],
		['sub_merchant_id', { sub_merchant_id: 1.5 }],
		['test', { test: 'yes' }],
	])('a bad %s is reported on that field', (field, extra) => {
		const problems = problemsOf({ ...minimal, ...extra });
		expect(problems.map((problem) => problem.field)).toContain(field);
		for (const problem of problems) {
			expect(problem.field).toBe(field);
			expect(problem.problem.length).toBeGreaterThan(0);
		}
	});

	test('payer.address.state longer than 3 characters is reported on payer.address.state', () => {
		const problems = problemsOf({ ...minimal, payer: { address: { state: 'ABCD' } } });
		expect(problems.length).toBeGreaterThan(0);
		for (const problem of problems) expect(problem.field).toBe('payer.address.state');
	});

	test('language lists the accepted languages', () => {
		const [problem] = problemsOf({ ...minimal, language: 'de' });
		expect(problem.problem).toContain('es, en, pt, ja, id, fr');
	});

	test('back_url over http is refused as not HTTPS', () => {
		const [problem] = problemsOf({ ...minimal, back_url: 'http://shop.example.com/back' });
		expect(problem.problem).toMatch(/https/i);
	});

	test('unknown top-level fields pass unchanged and are named as unchecked; the known ones are still checked', () => {
		const body = { ...minimal, installments: 3, risk_profile: { level: 'low' } };
		expect(validateDepositRequest(body)).toEqual({
			ok: true,
			value: body,
			unchecked: ['installments', 'risk_profile'],
		});
		expect(fieldsOf({ ...body, amount: '1.001' })).toEqual(['amount']);
	});

	test('an unknown nested field is reported with its path', () => {
		const problems = problemsOf({ ...minimal, payer: { emial: 'a@b.co' } });
		expect(problems.map((problem) => problem.field)).toEqual(['payer.emial']);
	});

	test('a wrong type names the expected type', () => {
		const [problem] = problemsOf({ ...minimal, mobile: 'true' });
		expect(problem.field).toBe('mobile');
		expect(problem.problem).toMatch(/boolean/);
	});

	test('several problems at once are all reported', () => {
		const problems = problemsOf({
			amount: '1.001',
			country: 'BR',
			currency: 'BRL',
			invoice_id: 'bad id',
			back_url: 'http://x.example.com',
			language: 'de',
			expiration: 100000,
			client_ip: '1.2.3',
			payer: { email: 'nope', birth_date: '19901332', address: { state: 'ABCD' }, nickname: 'x' },
		});
		const fields = new Set(problems.map((problem) => problem.field));
		for (const field of [
			'amount',
			'invoice_id',
			'back_url',
			'language',
			'expiration',
			'client_ip',
			'payer.email',
			'payer.birth_date',
			'payer.address.state',
			'payer.nickname',
		]) {
			expect(fields).toContain(field);
		}
	});

	test('a body that is not an object is refused', () => {
		expect(validateDepositRequest('amount=10').ok).toBe(false);
		expect(validateDepositRequest(null).ok).toBe(false);
		expect(validateDepositRequest([minimal]).ok).toBe(false);
	});
});
