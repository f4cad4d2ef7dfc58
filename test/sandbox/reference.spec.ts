import { COUNTRIES } from './index';
import { bearer, client, createDeposit, useSandbox } from './testHelpers';

const NOW = Date.UTC(2025, 3, 2, 12);

describe('sandbox reference data: payment methods and states', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 6, cashoutsPerDay: 1 });

	const get = (path: string, params: Record<string, unknown>, key = sb.credentials.readOnlyKey) =>
		client(sb).get(path, { params, headers: bearer(key) });

	it("GET /v3/payment_methods lists each country's deposit methods with the published fields", async () => {
		for (const code of Object.keys(COUNTRIES)) {
			const res = await get('/v3/payment_methods', { country: code.toLowerCase() });
			expect(res.status).toBe(200);
			expect(res.data.map((m: { code: string }) => m.code)).toEqual(
				COUNTRIES[code].methods.map((m) => m.code),
			);
			for (const m of res.data) {
				expect(Object.keys(m).sort()).toEqual([
					'code',
					'country',
					'daily_average',
					'logo',
					'monthly_average',
					'name',
					'status',
					'type',
				]);
				expect(m).toMatchObject({
					country: code,
					status: 'OK',
					daily_average: expect.any(Number),
					monthly_average: expect.any(Number),
				});
				expect(['BANK_TRANSFER', 'VOUCHER', 'CREDIT_CARD', 'WALLET']).toContain(m.type);
			}
		}
		const br = (await get('/v3/payment_methods', { country: 'BR' })).data;
		expect(br).toEqual([
			expect.objectContaining({ code: 'PX', name: 'Pix', type: 'BANK_TRANSFER' }),
			expect.objectContaining({ code: 'BL', name: 'Boleto', type: 'VOUCHER' }),
			expect.objectContaining({ code: 'VI', name: 'Visa', type: 'CREDIT_CARD' }),
		]);
		// Generated history: some credited Pix deposits in the last 6 months, so the averages are not all zero.
		expect(br.some((m: { monthly_average: number }) => m.monthly_average > 0)).toBe(true);
		const logo = await client(sb).get(new URL(br[0].logo).pathname);
		expect(logo.status).toBe(200);
		expect(logo.headers['content-type']).toContain('image/svg+xml');
	});

	it('every listed method is accepted by POST /v3/deposits for its country', async () => {
		const mx = (await get('/v3/payment_methods', { country: 'MX' })).data as Array<{
			code: string;
		}>;
		for (const m of mx) {
			const res = await createDeposit(sb, {
				amount: 10,
				country: 'MX',
				currency: 'MXN',
				payment_method: m.code,
			});
			expect(res.status).toBe(201);
		}
		const wrong = await createDeposit(sb, {
			amount: 10,
			country: 'MX',
			currency: 'MXN',
			payment_method: 'PX',
		});
		expect(wrong.status).toBe(400);
	});

	it('payment methods and states need the read-only key and a known country', async () => {
		for (const path of ['/v3/payment_methods', '/v3/states']) {
			const noKey = await client(sb).get(path, { params: { country: 'BR' } });
			expect(noKey.status).toBe(401);
			expect(noKey.data).toMatchObject({ code: 100, type: 'INVALID_CREDENTIALS' });
			expect((await get(path, { country: 'BR' }, 'wrong')).status).toBe(401);
			const unknown = await get(path, { country: 'ZZ' });
			expect(unknown.status).toBe(400);
			expect(unknown.data).toMatchObject({ code: 300, type: 'INVALID_REQUEST' });
			expect((await get(path, {})).data.code).toBe(300);
		}
	});

	it('GET /v3/states lists ISO 3166-2 subdivision codes of the country', async () => {
		const br = await get('/v3/states', { country: 'BR' });
		expect(br.status).toBe(200);
		expect(br.data).toHaveLength(27);
		expect(br.data).toContainEqual({ code: 'SP', name: 'São Paulo' });
		const mx = await get('/v3/states', { country: 'MX' });
		expect(mx.data).toContainEqual({ code: 'CMX', name: 'Ciudad de México' });
		for (const code of Object.keys(COUNTRIES)) {
			const res = await get('/v3/states', { country: code });
			expect(res.data.length).toBeGreaterThan(10);
			expect(res.data.every((s: { code: string }) => /^[A-Z0-9]{1,3}$/.test(s.code))).toBe(true);
		}
	});
});
