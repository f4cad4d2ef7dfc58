import {
	bearer,
	cashoutRequest,
	client,
	createCashout,
	login,
	windowEndingNow,
	useSandbox,
} from './testHelpers';

const NOW = Date.UTC(2025, 6, 1, 14, 30, 0);

describe('sandbox cashout creation (POST /v3/cashout)', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 2, cashoutsPerDay: 2 });
	let seq = 0;

	/** A valid BR body with a fresh external_id. */
	const body = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
		external_id: `payout-${++seq}`,
		country: 'BR',
		amount: 100,
		currency: 'BRL',
		document_id: '52998224725',
		document_type: 'CPF',
		beneficiary_name: 'Ana',
		beneficiary_lastname: 'Silva',
		notification_url: 'https://merchant.example/cashout-hook',
		bank_code: 341,
		bank_account: '12345-6',
		bank_branch: '0001',
		account_type: 'C',
		...extra,
	});
	const statusOf = (id: number) =>
		cashoutRequest(sb, 'POST', '/v3/cashout/status', { cashout_id: id });
	const record = (id: number) => sb.control.cashouts(1001).find((c) => c.idCashout === id);

	it('creates a PENDING cashout; answers its id as a string; records the request', async () => {
		const req = body({ amount: '150.25', comments: 'weekly payout' });
		const res = await createCashout(sb, req);
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ cashout_id: expect.stringMatching(/^\d+$/) });
		const id = Number(res.data.cashout_id);
		expect(record(id)).toMatchObject({
			status: 'PENDING',
			externalId: req.external_id,
			country: 'BR',
			currency: 'BRL',
			amount: 150.25,
			merchantAmount: 27.67,
			clientDocument: '52998224725',
			creationDate: '2025-07-01T14:30:00Z',
		});
		const created = sb.control.createdCashouts().pop();
		expect(created).toMatchObject({
			cashoutId: id,
			merchantId: 1001,
			initialStatus: 'PENDING',
			response: res.data,
			createdAt: NOW,
		});
		expect(created?.request).toMatchObject({
			external_id: req.external_id,
			comments: 'weekly payout',
		});
		expect(JSON.parse(created?.rawBody ?? '{}')).toEqual(created?.request);
		expect((await statusOf(id)).data).toEqual({
			cashout_status: 0,
			cashout_status_description: 'Pending',
		});
	});

	it('the created cashout is in GET /v1/cashouts and follows the state machine', async () => {
		const res = await createCashout(sb, body({ currency: 'USD', amount: 20 }));
		const id = Number(res.data.cashout_id);
		const token = await login(sb);
		const list = await client(sb).get('/v1/cashouts', {
			params: windowEndingNow(sb, 1),
			headers: bearer(token),
		});
		const listed = list.data.data.find((c: { idCashout: number }) => c.idCashout === id);
		expect(listed).toMatchObject({
			status: 'PENDING',
			merchantAmount: 20,
			amount: 108.6,
			creationDate: '2025-07-01T14:30:00Z',
		});
		const hold = await cashoutRequest(sb, 'PUT', '/v3/cashout/status', {
			cashout_id: id,
			status: 'ON_HOLD',
		});
		expect(hold.data.cashout_status).toBe(5);
		await cashoutRequest(sb, 'PUT', '/v3/cashout/status', { cashout_id: id, status: 'PENDING' });
		sb.control.advanceCashout(id, 'DELIVERED');
		sb.control.advanceCashout(id, 'COMPLETED');
		expect((await statusOf(id)).data).toEqual({
			cashout_status: 1,
			cashout_status_description: 'Completed',
		});
		const byExternal = await cashoutRequest(sb, 'POST', '/v3/cashout/status', {
			external_id: listed.externalId,
		});
		expect(byExternal.data.cashout_status).toBe(1);
	});

	it('on_hold: true creates ON_HOLD; it can be released or cancelled', async () => {
		const req = body({ on_hold: true });
		const res = await createCashout(sb, req);
		const id = Number(res.data.cashout_id);
		expect(record(id)?.status).toBe('ON_HOLD');
		expect(sb.control.createdCashouts().pop()?.initialStatus).toBe('ON_HOLD');
		const cancel = await cashoutRequest(sb, 'DELETE', '/v3/cashout/cancel', {
			cashout_id: id,
			external_id: req.external_id,
		});
		expect(cancel.data).toEqual({ cashout_status: 2, cashout_status_description: 'Canceled' });
		const pending = Number((await createCashout(sb, body({ on_hold: false }))).data.cashout_id);
		expect(record(pending)?.status).toBe('PENDING');
	});

	it('300: invalid params, naming the fields; nothing is created', async () => {
		const before = sb.control.cashouts(1001).length;
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ external_id: undefined }, 'external_id is required'],
			[{ external_id: 'x'.repeat(101) }, 'external_id must be at most 100 characters'],
			[{ country: 'br' }, 'country must be one of'],
			[{ country: 'US' }, 'country must be one of'],
			[{ amount: '10.001' }, 'amount must be a positive decimal'],
			[{ amount: 0 }, 'amount must be a positive decimal'],
			[{ amount: -5 }, 'amount must be a positive decimal'],
			[{ currency: 'EUR' }, 'currency must be BRL or USD'],
			[{ document_id: undefined }, 'document_id is required'],
			[{ document_type: 'DNI' }, 'document_type must be one of CPF, CNPJ'],
			[{ beneficiary_name: '' }, 'beneficiary_name is required'],
			[{ notification_url: undefined }, 'notification_url is required'],
			[
				{ notification_url: 'ftp://x.example/hook' },
				'notification_url must be an absolute http or https URL',
			],
			[{ bank_code: '341' }, 'bank_code must be a number'],
			[{ email: 'nope' }, 'email must be a valid e-mail address'],
			[{ on_hold: 'yes' }, 'on_hold must be a boolean'],
			[{ beneficiary_birthdate: '1990-02-30' }, 'beneficiary_birthdate must be a date'],
		];
		for (const [extra, message] of cases) {
			const res = await createCashout(sb, body(extra));
			expect(res.status).toBe(400);
			expect(res.data).toEqual({ code: 300, message: expect.stringContaining(message) });
			expect(res.data.message).toMatch(/^Invalid params: /);
		}
		const two = await createCashout(sb, body({ amount: undefined, country: undefined }));
		expect(two.data.message).toBe('Invalid params: country is required; amount is required');
		expect(sb.control.cashouts(1001).length).toBe(before);
		expect((await createCashout(sb, body({ beneficiary_birthdate: '19900228' }))).status).toBe(200);
	});

	it("303: bank_code not among the country's banks", async () => {
		const res = await createCashout(sb, body({ bank_code: 999 }));
		expect(res.status).toBe(400);
		expect(res.data).toEqual({ code: 303, message: expect.stringContaining('999') });
		// 12 is a Mexican bank code, not a Brazilian one.
		expect((await createCashout(sb, body({ bank_code: 12 }))).data.code).toBe(303);
		expect(
			(
				await createCashout(
					sb,
					body({ country: 'MX', currency: 'MXN', document_type: undefined, bank_code: 12 }),
				)
			).status,
		).toBe(200);
		expect((await createCashout(sb, body({ bank_code: undefined }))).status).toBe(200);
	});

	it('540: CO and PE need an e-mail or a phone', async () => {
		const co = {
			country: 'CO',
			currency: 'COP',
			amount: 50000,
			document_type: 'CC',
			bank_code: 1007,
		};
		const res = await createCashout(sb, body(co));
		expect(res.status).toBe(400);
		expect(res.data).toEqual({ code: 540, message: 'Beneficiary email or phone is required' });
		expect((await createCashout(sb, body({ ...co, email: '' }))).data.code).toBe(540);
		expect((await createCashout(sb, body({ ...co, phone: '+57 300 1234567' }))).status).toBe(200);
		expect((await createCashout(sb, body({ ...co, email: 'ana@example.com' }))).status).toBe(200);
		const pe = await createCashout(
			sb,
			body({ country: 'PE', currency: 'PEN', amount: 100, document_type: 'DNI', bank_code: 2 }),
		);
		expect(pe.data.code).toBe(540);
		// BR does not need one.
		expect((await createCashout(sb, body({ email: undefined, phone: undefined }))).status).toBe(
			200,
		);
	});

	it('511: an external_id already used never creates a second cashout', async () => {
		const req = body();
		const first = await createCashout(sb, req);
		expect(first.status).toBe(200);
		const again = await createCashout(sb, { ...req, amount: 120 });
		expect(again.status).toBe(400);
		expect(again.data).toEqual({
			code: 511,
			message: expect.stringContaining('External ID already used'),
		});
		const same = () => sb.control.cashouts(1001).filter((c) => c.externalId === req.external_id);
		expect(same()).toHaveLength(1);
		expect(same()[0].idCashout).toBe(Number(first.data.cashout_id));
		await cashoutRequest(sb, 'DELETE', '/v3/cashout/cancel', {
			cashout_id: Number(first.data.cashout_id),
			external_id: req.external_id,
		});
		expect((await createCashout(sb, req)).data.code).toBe(511);
		// Generated cashouts' external ids count too.
		const generated = sb.control.cashouts(1001)[0];
		expect((await createCashout(sb, body({ external_id: generated.externalId }))).data.code).toBe(
			511,
		);
		expect(same()).toHaveLength(1);
	});

	it('101 KYC: a document of one repeated digit is refused and recorded as DECLINED', async () => {
		const req = body({ document_id: '11111111111' });
		const res = await createCashout(sb, req);
		expect(res.status).toBe(400);
		expect(res.data).toEqual({
			code: 101,
			message: expect.stringContaining('USER_REJECTED_KYC_CHECK'),
		});
		const declined = sb.control.cashouts(1001).filter((c) => c.externalId === req.external_id);
		expect(declined).toEqual([
			expect.objectContaining({ status: 'DECLINED', reason: res.data.message }),
		]);
		expect(
			sb.control.createdCashouts().some((c) => c.request.external_id === req.external_id),
		).toBe(false);
		// The same external_id works once the data is right: a DECLINED attempt does not use it up.
		const retry = await createCashout(sb, { ...req, document_id: '52998224725' });
		expect(retry.status).toBe(200);
		expect(
			(await cashoutRequest(sb, 'POST', '/v3/cashout/status', { external_id: req.external_id }))
				.data.cashout_status,
		).toBe(0);
	});

	it('533 below 5 USD (or equivalent), 508 above 10,000 USD (or equivalent)', async () => {
		const low = await createCashout(sb, body({ currency: 'USD', amount: 4.99 }));
		expect(low.status).toBe(400);
		expect(low.data).toEqual({
			code: 533,
			message: 'Invalid Amount. The minimum amount is USD 5.00 or equivalent in USD',
		});
		// 5 USD = 27.15 BRL at the fixed rate 5.43.
		const lowBrl = await createCashout(sb, body({ amount: 27.14 }));
		expect(lowBrl.data).toEqual({
			code: 533,
			message: 'Invalid Amount. The minimum amount is BRL 27.15 or equivalent in USD',
		});
		expect((await createCashout(sb, body({ amount: 27.15 }))).status).toBe(200);
		expect((await createCashout(sb, body({ currency: 'USD', amount: 5 }))).status).toBe(200);
		const high = await createCashout(sb, body({ currency: 'USD', amount: '10000.01' }));
		expect(high.status).toBe(400);
		expect(high.data).toEqual({
			code: 508,
			message: expect.stringContaining('Limit exceeded: TRANSACTION'),
		});
		expect((await createCashout(sb, body({ amount: 54300.01 }))).data.code).toBe(508);
		expect((await createCashout(sb, body({ currency: 'USD', amount: 10000 }))).status).toBe(200);
	});

	it("514: amount + fee above the merchant's cashout funds; cancelling frees them", async () => {
		sb.control.setCashoutFunds(1001, 0);
		expect(sb.control.cashoutFunds(1001)).toBeLessThan(0);
		expect((await createCashout(sb, body({ currency: 'USD', amount: 10 }))).data).toEqual({
			code: 514,
			message: 'Insufficient funds',
		});
		sb.control.setCashoutFunds(1001, 1_000_000);
		const left = sb.control.cashoutFunds(1001);
		sb.control.setCashoutFunds(1001, 1_000_000 - left + 100);
		expect(sb.control.cashoutFunds(1001)).toBe(100);
		const first = body({ currency: 'USD', amount: 60 });
		const ok = await createCashout(sb, first);
		expect(ok.status).toBe(200);
		// 60 + fee 1.40 = 61.40 used.
		expect(sb.control.cashoutFunds(1001)).toBe(38.6);
		const refused = await createCashout(sb, body({ currency: 'USD', amount: 60 }));
		expect(refused.data.code).toBe(514);
		expect(sb.control.cashouts(1001).find((c) => c.externalId === `payout-${seq}`)?.status).toBe(
			'DECLINED',
		);
		await cashoutRequest(sb, 'DELETE', '/v3/cashout/cancel', {
			cashout_id: Number(ok.data.cashout_id),
			external_id: first.external_id,
		});
		expect(sb.control.cashoutFunds(1001)).toBe(100);
		expect((await createCashout(sb, body({ currency: 'USD', amount: 60 }))).status).toBe(200);
		expect(() => sb.control.setCashoutFunds(1001, -1)).toThrow();
		sb.control.setCashoutFunds(1001, 1_000_000);
	});

	it('authenticates like the other cashout calls: 302 signature, 502 JSON, 401 credentials', async () => {
		const before = sb.control.createdCashouts().length;
		expect((await createCashout(sb, body(), { signature: null })).data.code).toBe(302);
		expect((await createCashout(sb, body(), { signature: 'ab'.repeat(32) })).data.code).toBe(302);
		expect((await createCashout(sb, {}, { raw: '{"login":' })).data.code).toBe(502);
		const badPass = await createCashout(sb, body({ pass: 'wrong' }));
		expect(badPass.status).toBe(401);
		expect(badPass.data.code).toBe(401);
		expect(sb.control.createdCashouts().length).toBe(before);
	});
});
