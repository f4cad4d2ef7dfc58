import { SESSION_IDLE_TIMEOUT_MS } from './index';
import { bearer, client, login, windowEndingNow, useSandbox } from './testHelpers';

const NOW = Date.UTC(2025, 0, 15, 12);

describe('sandbox sessions', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 4, cashoutsPerDay: 3 });

	const list = (token: string, path = '/v1/deposits', extra = {}) =>
		client(sb).get(path, {
			params: { ...windowEndingNow(sb, 30), ...extra },
			headers: bearer(token),
		});

	it('login returns the user, the default MID and a BEARER_TOKEN cookie', async () => {
		const res = await client(sb).post('/v1/auth/login', {
			accessKey: sb.credentials.session.accessKey,
			secretKey: sb.credentials.session.secretKey,
		});
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			idUser: 501,
			username: sb.credentials.session.accessKey,
			idMerchant: 1001,
		});
		expect(res.headers['set-cookie']?.[0]).toMatch(/^BEARER_TOKEN=[^;]+; Path=\/; HttpOnly$/);
	});

	it('refuses wrong credentials (401/11) and the refused user (403/83)', async () => {
		const wrong = await client(sb).post('/v1/auth/login', {
			accessKey: sb.credentials.session.accessKey,
			secretKey: 'nope',
		});
		expect(wrong.status).toBe(401);
		expect(wrong.data).toEqual({ code: 11, description: expect.any(String) });
		const refused = await client(sb).post('/v1/auth/login', sb.credentials.refusedSession);
		expect(refused.status).toBe(403);
		expect(refused.data).toEqual({ code: 83, description: expect.any(String) });
	});

	it('accepts the token as Bearer or as cookie; rejects missing/unknown tokens with 401', async () => {
		const token = await login(sb);
		expect((await list(token)).status).toBe(200);
		const viaCookie = await client(sb).get('/v1/deposits', {
			params: windowEndingNow(sb, 1),
			headers: { Cookie: `other=1; BEARER_TOKEN=${token}` },
		});
		expect(viaCookie.status).toBe(200);
		const none = await client(sb).get('/v1/deposits', { params: windowEndingNow(sb, 1) });
		expect(none.status).toBe(401);
		expect(none.data).toEqual({ code: 401, description: 'Session expired or invalid token' });
		const ticket = await client(sb).post(
			'/v1/tickets/createTicket',
			{ type: 'DEPOSIT', description: 'x' },
			{ headers: bearer('bogus') },
		);
		expect(ticket.status).toBe(401);
		expect(ticket.data).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
	});

	it('expires a session after 15 idle minutes on the sandbox clock; each use refreshes it', async () => {
		const token = await login(sb);
		sb.clock.advance(SESSION_IDLE_TIMEOUT_MS - 60_000);
		expect((await list(token)).status).toBe(200); // refreshed here
		sb.clock.advance(SESSION_IDLE_TIMEOUT_MS - 60_000);
		expect((await list(token)).status).toBe(200);
		sb.clock.advance(16 * 60_000);
		const expired = await list(token);
		expect(expired.status).toBe(401);
		expect(expired.data.code).toBe(401);
		expect(sb.control.activeSessions().some((s) => s.token === token)).toBe(false);
	});

	it('logout invalidates the token', async () => {
		const token = await login(sb);
		const out = await client(sb).delete('/v1/auth/session/destroy', {
			headers: { Cookie: `BEARER_TOKEN=${token}` },
		});
		expect(out.status).toBe(200);
		expect(out.data).toEqual({ message: expect.any(String) });
		expect((await list(token)).status).toBe(401);
	});

	it('expireSessions() kills every token', async () => {
		const token = await login(sb);
		sb.control.expireSessions();
		expect((await list(token)).status).toBe(401);
	});

	it('switchContext changes the MID of that token only; a foreign MID is refused with 403/26', async () => {
		const a = await login(sb);
		const b = await login(sb);
		const sw = await client(sb).post('/v1/auth/1002/switchContext', null, { headers: bearer(a) });
		expect(sw.status).toBe(200);
		expect(sw.data).toEqual({
			message: 'Context switched successfully. Your session now operates under the new merchant.',
		});
		expect((await list(a)).data.rows).toBe(0); // 1002 is empty
		expect((await list(b)).data.rows).toBeGreaterThan(0); // b still on 1001
		const foreign = await client(sb).post('/v1/auth/2001/switchContext', null, {
			headers: bearer(a),
		});
		expect(foreign.status).toBe(403);
		expect(foreign.data).toEqual({ code: 26, description: expect.any(String) });
		expect(sb.control.activeSessions().find((s) => s.token === a)?.merchantId).toBe(1002);
	});

	it('the other user sees only MID 2001', async () => {
		const token = await login(sb, sb.credentials.otherSession);
		const res = await list(token);
		expect(res.data.rows).toBeGreaterThan(0);
		expect(res.data.data.every((d: { idMerchant: number }) => d.idMerchant === 2001)).toBe(true);
	});

	it('read-only key: wrong or missing -> 401/100', async () => {
		const missing = await client(sb).get('/v3/banks', { params: { country: 'BR' } });
		expect(missing.status).toBe(401);
		expect(missing.data).toEqual({
			code: 100,
			description: expect.any(String),
			type: 'INVALID_CREDENTIALS',
		});
		const wrong = await client(sb).get('/v3/exchange_rates', {
			params: { country: 'BR' },
			headers: bearer('wrong'),
		});
		expect(wrong.status).toBe(401);
		expect(wrong.data.code).toBe(100);
		const ok = await client(sb).get('/v3/exchange_rates', {
			params: { country: 'MX', amount: 10 },
			headers: bearer(sb.credentials.readOnlyKey),
		});
		expect(ok.status).toBe(200);
		expect(ok.data).toEqual({ fx_rate: 17.12, currency: 'MXN', converted_amount: 171.2 });
		const banks = await client(sb).get('/v3/banks', {
			params: { country: 'BR' },
			headers: bearer(sb.credentials.readOnlyKey),
		});
		expect(banks.data).toEqual(expect.arrayContaining([{ code: 341, name: 'Itaú Unibanco' }]));
		const unknown = await client(sb).get('/v3/banks', {
			params: { country: 'ZZ' },
			headers: bearer(sb.credentials.readOnlyKey),
		});
		expect(unknown.status).toBe(400);
		expect(unknown.data.code).toBe(300);
	});
});
