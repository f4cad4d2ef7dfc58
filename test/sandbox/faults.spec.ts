import { bearer, client, createDeposit, login, windowEndingNow, useSandbox } from './testHelpers';

const NOW = Date.UTC(2025, 5, 1);

describe('sandbox faults, log, latency and admin routes', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 3, cashoutsPerDay: 2 });
	let token: string;
	beforeAll(async () => {
		token = await login(sb);
	});
	beforeEach(() => {
		sb.faults.clear();
		sb.log.clear();
	});

	const list = () =>
		client(sb).get('/v1/deposits', { params: windowEndingNow(sb, 5), headers: bearer(token) });

	it('a 429 fault answers with Retry-After, honours skip/times, and is logged', async () => {
		sb.faults.add({
			method: 'GET',
			path: '/v1/deposits',
			kind: 'status',
			status: 429,
			retryAfterSeconds: 2,
			skip: 1,
			times: 2,
		});
		expect(sb.faults.pending()).toBe(1);
		expect((await list()).status).toBe(200);
		const limited = await list();
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('2');
		expect((await list()).status).toBe(429);
		expect((await list()).status).toBe(200);
		expect(sb.faults.pending()).toBe(0);
		const entries = sb.log.find('get', '/v1/deposits');
		expect(entries.map((e) => e.status)).toEqual([200, 429, 429, 200]);
		expect(entries.map((e) => e.fault)).toEqual([
			undefined,
			'status:429:before',
			'status:429:before',
			undefined,
		]);
		expect(entries[0].query).toEqual({ from: expect.any(String), to: expect.any(String) });
		expect(entries[0].headers.authorization).toBe(`Bearer ${token}`);
	});

	it("'before' faults do not process the request; 'after' faults do", async () => {
		const before = sb.control.createdDeposits().length;
		sb.faults.add({ path: '/v3/deposits', kind: 'status', status: 503 });
		expect((await createDeposit(sb, { amount: 5, country: 'BR', currency: 'BRL' })).status).toBe(
			503,
		);
		expect(sb.control.createdDeposits().length).toBe(before);
		sb.faults.add({
			path: '/v3/deposits',
			kind: 'status',
			status: 500,
			phase: 'after',
			body: { oops: true },
		});
		const after = await createDeposit(sb, { amount: 5, country: 'BR', currency: 'BRL' });
		expect(after.status).toBe(500);
		expect(after.data).toEqual({ oops: true });
		expect(sb.control.createdDeposits().length).toBe(before + 1);
		const entry = sb.log.find('POST', '/v3/deposits').pop();
		expect(entry?.fault).toBe('status:500:after');
		expect(entry?.rawBody).toBe(JSON.stringify({ amount: 5, country: 'BR', currency: 'BRL' }));
	});

	it('a fault with bodyIncludes strikes only the requests whose body contains that text', async () => {
		sb.faults.add({
			path: '/v3/deposits',
			kind: 'status',
			status: 503,
			bodyIncludes: '"invoice_id":"inv-struck"',
			times: 2,
		});
		const body = (invoice: string) => ({
			amount: 5,
			country: 'BR',
			currency: 'BRL',
			invoice_id: invoice,
		});
		const statuses = [];
		for (const invoice of ['inv-spared', 'inv-struck', 'inv-spared-2', 'inv-struck'])
			statuses.push((await createDeposit(sb, body(invoice))).status);
		expect(statuses).toEqual([201, 503, 201, 503]);
		expect(sb.faults.pending()).toBe(0);
	});

	it("'reset' destroys the socket (before: nothing done; after: state changed)", async () => {
		const c = sb.control.addCashout({ idMerchant: 1001 });
		sb.faults.add({ path: /^\/v1\/deposits$/, kind: 'reset' });
		await expect(
			client(sb).get('/v1/deposits', { params: windowEndingNow(sb, 1), headers: bearer(token) }),
		).rejects.toThrow();
		expect(sb.log.find('GET', '/v1/deposits').pop()).toMatchObject({
			status: 0,
			fault: 'reset:before',
		});
		const { cashoutRequest } = await import('./testHelpers');
		sb.faults.add({ method: 'PUT', path: '/v3/cashout/*', kind: 'reset', phase: 'after' });
		await expect(
			cashoutRequest(sb, 'PUT', '/v3/cashout/status', {
				cashout_id: c.idCashout,
				status: 'ON_HOLD',
			}),
		).rejects.toThrow();
		expect(sb.control.cashouts().find((x) => x.idCashout === c.idCashout)?.status).toBe('ON_HOLD');
		expect(sb.log.find('PUT', '/v3/cashout/status').pop()).toMatchObject({
			status: 0,
			fault: 'reset:after',
		});
		expect((await list()).status).toBe(200);
	});

	it('a non-JSON body gets 415; 404s are JSON; log.find supports * segments', async () => {
		const res = await client(sb).post(
			'/v1/tickets/createTicket',
			'{"type":"A","description":"b"}',
			{ headers: { ...bearer(token), 'Content-Type': 'text/plain' } },
		);
		expect(res.status).toBe(415);
		const missing = await client(sb).get('/v1/nothing');
		expect(missing.status).toBe(404);
		expect(missing.data).toEqual({ code: 404, description: expect.any(String) });
		expect(sb.log.find('POST', '/v1/tickets/*').map((e) => e.status)).toEqual([415]);
	});

	it('latency delays answers', async () => {
		sb.setLatency(150);
		const t0 = Date.now();
		await list();
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
		sb.setLatency(0);
	});

	it('admin routes: not logged; clock, faults, cashout advance, session expiry, log', async () => {
		const http = client(sb);
		const t = sb.clock.now();
		expect((await http.post('/_sandbox/clock/advance', { ms: 1000 })).data.now).toBe(t + 1000);
		expect(sb.clock.now()).toBe(t + 1000);
		expect(
			(await http.post('/_sandbox/faults', { path: '/v1/balance', kind: 'status', status: 502 }))
				.data,
		).toEqual({ pending: 1 });
		expect((await http.get('/v1/balance', { headers: bearer(token) })).status).toBe(502);
		expect((await http.post('/_sandbox/faults', { kind: 'bogus' })).status).toBe(400);
		const c = sb.control.addCashout({ idMerchant: 1001 });
		const adv = await http.post(`/_sandbox/cashouts/${c.idCashout}/advance`, { to: 'DELIVERED' });
		expect(adv.data.status).toBe('DELIVERED');
		expect(
			(
				await http.post(`/_sandbox/cashouts/${c.idCashout}/advance`, {
					to: 'REJECTED',
					rejectionCode: 814,
					rejectionReason: 'INVALID_PIX_KEY',
				})
			).data.reason,
		).toBe('INVALID_PIX_KEY');
		expect(
			(await http.post(`/_sandbox/cashouts/${c.idCashout}/advance`, { to: 'DELIVERED' })).status,
		).toBe(400);
		const log = await http.get('/_sandbox/log');
		expect(log.data.map((e: { path: string }) => e.path)).toEqual(['/v1/balance']);
		await http.post('/_sandbox/sessions/expire');
		expect((await list()).status).toBe(401);
		token = await login(sb);
		sb.clock.set(t);
	});
});
