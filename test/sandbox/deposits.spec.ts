import {
	bearer,
	client,
	createDeposit,
	depositHeaders,
	login,
	windowEndingNow,
	xDateNow,
	useSandbox,
} from './testHelpers';

const NOW = Date.UTC(2025, 4, 5, 10);

const PIX_BODY = {
	invoice_id: 'order-1001_A',
	amount: '150.50',
	country: 'BR',
	currency: 'BRL',
	payment_method: 'PX',
	payer: {
		id: 'cust42',
		document: '52998224725',
		document_type: 'CPF',
		email: 'ana@example.com',
		first_name: 'Ana',
		last_name: 'Silva',
	},
};

describe('sandbox deposit API', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 4, cashoutsPerDay: 2 });

	it('ONE_SHOT Pix: 201 with payment_info and a real PNG QR code', async () => {
		const res = await createDeposit(sb, PIX_BODY);
		expect(res.status).toBe(201);
		expect(res.data).toMatchObject({
			checkout_type: 'ONE_SHOT',
			deposit_id: expect.any(Number),
			user_id: 'cust42',
			merchant_invoice_id: 'order-1001_A',
		});
		expect(res.data.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payment\//);
		const info = res.data.payment_info;
		expect(info).toMatchObject({
			type: 'BANK_TRANSFER',
			payment_method: 'PX',
			payment_method_name: 'Pix',
			amount: 150.5,
			currency: 'BRL',
			created_at: '2025-05-05 10:00:00',
			expiration_date: '2025-05-05 11:00:00',
		});
		const png = Buffer.from(info.secondary_metadata.qr_code, 'base64');
		expect(png.subarray(0, 8)).toEqual(
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		);
		expect(info.secondary_metadata.digitable_line).toMatch(/^000201/);
		const listed = sb.control.deposits(1001).find((d) => d.idDeposit === res.data.deposit_id);
		expect(listed).toMatchObject({
			status: 'PENDING',
			externalId: 'order-1001_A',
			localAmount: 150.5,
			country: 'BR',
		});
		expect(sb.control.createdDeposits().pop()).toMatchObject({
			depositId: res.data.deposit_id,
			checkoutType: 'ONE_SHOT',
		});
		const token = await login(sb);
		const list = await client(sb).get('/v1/deposits', {
			params: windowEndingNow(sb, 1),
			headers: bearer(token),
		});
		expect(list.data.data[0].idDeposit).toBe(res.data.deposit_id);
	});

	it('HOSTED when a required field or the method is missing; ids generated', async () => {
		const res = await createDeposit(sb, {
			...PIX_BODY,
			invoice_id: undefined,
			payer: { email: 'x@example.com' },
		});
		expect(res.status).toBe(201);
		expect(Object.keys(res.data).sort()).toEqual([
			'checkout_type',
			'deposit_id',
			'merchant_invoice_id',
			'redirect_url',
			'user_id',
		]);
		expect(res.data.checkout_type).toBe('HOSTED');
		expect(res.data.redirect_url).toMatch(/\/checkout\//);
		const page = await client(sb).get(new URL(res.data.redirect_url).pathname);
		expect(page.status).toBe(200);
		const noMethod = await createDeposit(sb, { amount: 10, country: 'MX', currency: 'USD' });
		expect(noMethod.data.checkout_type).toBe('HOSTED');
	});

	it('boleto needs the address for ONE_SHOT; expiration may not exceed the default', async () => {
		const base = {
			amount: 99.9,
			country: 'BR',
			currency: 'BRL',
			payment_method: 'BL',
			payer: { ...PIX_BODY.payer },
		};
		expect((await createDeposit(sb, base)).data.checkout_type).toBe('HOSTED');
		const full = await createDeposit(sb, {
			...base,
			expiration: 120,
			payer: {
				...PIX_BODY.payer,
				address: { street: 'Rua A 1', city: 'São Paulo', state: 'SP', zip_code: '01001-000' },
			},
		});
		expect(full.data.checkout_type).toBe('ONE_SHOT');
		expect(full.data.payment_info.expiration_date).toBe('2025-05-05 12:00:00');
		const tooLong = await createDeposit(sb, { ...base, expiration: 5000 });
		expect(tooLong.status).toBe(400);
		expect(tooLong.data.details).toEqual([expect.stringMatching(/^expiration: /)]);
	});

	it('header checks: 101 missing, 105 empty key, 100 unknown login, 103 X-Date, 102 signature', async () => {
		const raw = JSON.stringify(PIX_BODY);
		const post = (headers: Record<string, string>, body = raw) =>
			client(sb).post('/v3/deposits', body, { headers, transformRequest: [(d: unknown) => d] });
		const noDate = depositHeaders(sb, raw);
		delete noDate['X-Date'];
		expect((await post(noDate)).data).toMatchObject({ code: 101 });
		expect((await post(depositHeaders(sb, raw, { idempotencyKey: null }))).data.code).toBe(101);
		const empty = await post(depositHeaders(sb, raw, { idempotencyKey: '' }));
		expect(empty.status).toBe(400);
		expect(empty.data.code).toBe(105);
		const unknown = await post(depositHeaders(sb, raw, { login: 'nobody' }));
		expect(unknown.status).toBe(401);
		expect(unknown.data).toMatchObject({ code: 100, type: 'INVALID_CREDENTIALS' });
		const old = await post(depositHeaders(sb, raw, { xDate: xDateNow(-6 * 60_000) }));
		expect(old.status).toBe(400);
		expect(old.data.code).toBe(103);
		expect(
			(await post(depositHeaders(sb, raw, { xDate: new Date().toISOString() }))).data.code,
		).toBe(103);
		const wrongSecret = await post(depositHeaders(sb, raw, { secret: 'wrong' }));
		expect(wrongSecret.status).toBe(400);
		expect(wrongSecret.data.code).toBe(102);
		const tampered = await post(depositHeaders(sb, raw), raw.replace('150.50', '150.51'));
		expect(tampered.data.code).toBe(102);
	});

	it('a reused idempotency key -> 400/104 even with another body', async () => {
		const key = 'idem-reuse-1';
		expect(
			(
				await createDeposit(
					sb,
					{ amount: 5, country: 'CO', currency: 'COP' },
					{ idempotencyKey: key },
				)
			).status,
		).toBe(201);
		const again = await createDeposit(
			sb,
			{ amount: 6, country: 'CO', currency: 'COP' },
			{ idempotencyKey: key },
		);
		expect(again.status).toBe(400);
		expect(again.data).toEqual({
			code: 104,
			description: expect.any(String),
			type: 'IDEMPOTENCY_KEY_ALREADY_USED',
		});
	});

	it('field validation -> 400 with details', async () => {
		const res = await createDeposit(sb, {
			invoice_id: 'bad id!',
			amount: '1.234',
			country: 'BR',
			currency: 'EUR',
			client_ip: '300.1.1.1',
			language: 'de',
			success_url: 'http://insecure.example',
			payer: { email: 'not-an-email', birth_date: '19991332', address: { state: 'SPXX' } },
		});
		expect(res.status).toBe(400);
		expect(res.data).toMatchObject({
			code: 300,
			description: 'Invalid request',
			type: 'INVALID_REQUEST',
		});
		const fields = (res.data.details as string[]).map((d) => d.split(':')[0]).sort();
		expect(fields).toEqual(
			[
				'amount',
				'client_ip',
				'currency',
				'invoice_id',
				'language',
				'payer.address.state',
				'payer.birth_date',
				'payer.email',
				'success_url',
			].sort(),
		);
		const missing = await createDeposit(sb, {});
		expect(missing.data.details).toEqual([
			'amount: is required',
			'country: is required',
			'currency: is required',
		]);
		expect((await createDeposit(sb, '{not json')).data.code).toBe(300);
	});

	it('GET /v3/deposits/:id signed with an empty body; unknown -> 404/208', async () => {
		const created = await createDeposit(sb, { ...PIX_BODY, invoice_id: 'order-get' });
		const get = (id: number | string) =>
			client(sb).get(`/v3/deposits/${id}`, {
				headers: depositHeaders(sb, '', { idempotencyKey: null }),
			});
		const res = await get(created.data.deposit_id);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			deposit_id: created.data.deposit_id,
			invoice_id: 'order-get',
			user_id: 'cust42',
			country: 'BR',
			currency: 'BRL',
			local_amount: 150.5,
			payment_method: 'PX',
			status: 'PENDING',
			fee_currency: 'USD',
		});
		expect(res.data.payer).toMatchObject({ email: 'ana@example.com' });
		const missing = await get(1);
		expect(missing.status).toBe(404);
		expect(missing.data).toMatchObject({ code: 208, type: 'RESOURCE_NOT_FOUND' });
		const foreign = await get(sb.control.deposits(2001)[0].idDeposit);
		expect(foreign.status).toBe(404);
	});
});
