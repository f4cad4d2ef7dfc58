import { createHmac } from 'crypto';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import {
	formatXDate,
	hmacSha256Hex,
	signCashoutRequest,
	signDepositRequest,
} from '../../../nodes/PaymentsService/auth/signature';

const independentHmac = (key: string, message: string) =>
	createHmac('sha256', Buffer.from(key, 'utf8')).update(Buffer.from(message, 'utf8')).digest('hex');

/** Header values by lower-cased name; fails when a name appears twice in different cases. */
function headersByLowerName(options: IHttpRequestOptions): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		const lower = name.toLowerCase();
		if (lower in out) throw new Error(`header ${name} appears twice`);
		out[lower] = value;
	}
	return out;
}

describe('hmacSha256Hex', () => {
	test('matches RFC 4231 test case 2 (key "Jefe")', () => {
		expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
			'5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
		);
	});

	test('keys and messages are UTF-8 and the output is lowercase hex', () => {
		const value = hmacSha256Hex('clé-secrète', '{"name":"José","amount":"10.00"}');
		expect(value).toBe(independentHmac('clé-secrète', '{"name":"José","amount":"10.00"}'));
		expect(value).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe('formatXDate', () => {
	test('is UTC yyyy-MM-ddTHH:mm:ssZ with no milliseconds and a literal Z', () => {
		expect(formatXDate(new Date(Date.UTC(2026, 0, 5, 3, 4, 5, 678)))).toBe('2026-01-05T03:04:05Z');
		expect(formatXDate(new Date(Date.UTC(2026, 11, 31, 23, 59, 59, 0)))).toBe(
			'2026-12-31T23:59:59Z',
		);
	});
});

describe('signDepositRequest', () => {
	const keys = { apiKey: 'login-key', apiSignature: 'deposit-secret', scheme: 'D24 ' };
	const now = new Date(Date.UTC(2026, 0, 15, 10, 20, 30, 456));
	const xDate = '2026-01-15T10:20:30Z';

	test('an object body is serialised once; that string is the body sent and the one signed', () => {
		const payload = {
			invoice_id: 'inv-1',
			amount: '100.50',
			country: 'BR',
			currency: 'BRL',
			payer: { email: 'a@b.co' },
		};
		const signed = signDepositRequest(
			{ method: 'POST', url: '/v3/deposits', body: payload },
			keys,
			now,
		);
		const body = JSON.stringify(payload);
		expect(signed.body).toBe(body);
		const headers = headersByLowerName(signed);
		expect(headers['x-date']).toBe(xDate);
		expect(headers['x-login']).toBe('login-key');
		expect(headers.authorization).toBe(
			`D24 ${independentHmac('deposit-secret', `${xDate}login-key${body}`)}`,
		);
		expect(headers['content-type']).toBe('application/json');
	});

	test('a string body is signed and sent byte for byte (whitespace and key order kept)', () => {
		const body = '{ "amount" : "5.00",\n "country":"MX" }';
		const signed = signDepositRequest({ method: 'POST', url: '/v3/deposits', body }, keys, now);
		expect(signed.body).toBe(body);
		expect(headersByLowerName(signed).authorization).toBe(
			`D24 ${independentHmac('deposit-secret', `${xDate}login-key${body}`)}`,
		);
	});

	test('a GET without body signs the empty string and sends no body', () => {
		const signed = signDepositRequest({ method: 'GET', url: '/v3/deposits/123' }, keys, now);
		expect(headersByLowerName(signed).authorization).toBe(
			`D24 ${independentHmac('deposit-secret', `${xDate}login-key`)}`,
		);
		expect(signed.body).toBeUndefined();
		expect('content-type' in headersByLowerName(signed)).toBe(false);
	});

	test('the scheme comes from the keys', () => {
		const signed = signDepositRequest(
			{ method: 'GET', url: '/v3/deposits/1' },
			{ ...keys, scheme: 'Custom ' },
			now,
		);
		expect(String(headersByLowerName(signed).authorization)).toMatch(/^Custom [0-9a-f]{64}$/);
	});

	test('signing already-signed options replaces X-Date, X-Login and Authorization and never double-wraps', () => {
		const first = signDepositRequest(
			{ method: 'POST', url: '/v3/deposits', body: { amount: '1.00' } },
			keys,
			now,
		);
		const later = new Date(Date.UTC(2026, 0, 15, 10, 25, 0));
		const second = signDepositRequest(first, { ...keys, apiKey: 'other-login' }, later);
		const headers = headersByLowerName(second);
		expect(second.body).toBe('{"amount":"1.00"}');
		expect(headers['x-date']).toBe('2026-01-15T10:25:00Z');
		expect(headers['x-login']).toBe('other-login');
		expect(headers.authorization).toBe(
			`D24 ${independentHmac('deposit-secret', '2026-01-15T10:25:00Zother-login{"amount":"1.00"}')}`,
		);
		expect(Object.keys(second.headers ?? {})).toHaveLength(Object.keys(first.headers ?? {}).length);
	});

	test('existing headers with other letter case are removed, other headers are kept', () => {
		const signed = signDepositRequest(
			{
				method: 'POST',
				url: '/v3/deposits',
				body: { amount: '1.00' },
				headers: {
					authorization: 'Bearer stale',
					'x-date': '2020-01-01T00:00:00Z',
					'X-LOGIN': 'stale-login',
					'X-Idempotency-Key': 'n8n-abc',
					'content-type': 'application/json; charset=utf-8',
				},
			},
			keys,
			now,
		);
		const headers = headersByLowerName(signed); // throws if any name appears twice
		expect(headers.authorization).toMatch(/^D24 [0-9a-f]{64}$/);
		expect(headers['x-date']).toBe(xDate);
		expect(headers['x-login']).toBe('login-key');
		expect(headers['x-idempotency-key']).toBe('n8n-abc');
		expect(headers['content-type']).toBe('application/json; charset=utf-8');
		expect(JSON.stringify(signed.headers)).not.toContain('stale');
	});

	test('the input options are not mutated', () => {
		const input: IHttpRequestOptions = {
			method: 'POST',
			url: '/v3/deposits',
			body: { amount: '2.00', payer: { email: 'x@y.co' } },
			headers: { authorization: 'old', 'X-Idempotency-Key': 'k' },
		};
		const before = JSON.parse(JSON.stringify(input)) as unknown;
		const bodyRef = input.body;
		const headersRef = input.headers;
		signDepositRequest(input, keys, now);
		expect(input).toEqual(before);
		expect(input.body).toBe(bodyRef);
		expect(input.headers).toBe(headersRef);
	});
});

describe('signCashoutRequest', () => {
	const keys = { login: 'co-login', pass: 'co-pass', apiSignature: 'cashout-secret' };

	test('login and pass come first in the body and Payload-Signature is the HMAC of the exact body', () => {
		const signed = signCashoutRequest(
			{ method: 'POST', url: '/v3/cashout/status', body: { cashout_id: 77, external_id: 'e-1' } },
			keys,
		);
		expect(typeof signed.body).toBe('string');
		const body = signed.body as string;
		expect(Object.keys(JSON.parse(body) as IDataObject)).toEqual([
			'login',
			'pass',
			'cashout_id',
			'external_id',
		]);
		expect(JSON.parse(body)).toEqual({
			login: 'co-login',
			pass: 'co-pass',
			cashout_id: 77,
			external_id: 'e-1',
		});
		const headers = headersByLowerName(signed);
		expect(headers['payload-signature']).toBe(independentHmac('cashout-secret', body));
		expect(headers['content-type']).toBe('application/json');
	});

	test('stale login/pass in an object body are replaced and moved first', () => {
		const signed = signCashoutRequest(
			{
				method: 'POST',
				url: '/v3/cashout/cancel',
				body: { cashout_id: 5, pass: 'old-pass', login: 'old-login' },
			},
			keys,
		);
		expect(signed.body).toBe('{"login":"co-login","pass":"co-pass","cashout_id":5}');
	});

	test('re-signing a signed string body with the same keys yields the same body and signature', () => {
		const first = signCashoutRequest(
			{ method: 'POST', url: '/v3/cashout/status', body: { cashout_id: 9 } },
			keys,
		);
		const second = signCashoutRequest(first, keys);
		expect(second.body).toBe(first.body);
		expect(headersByLowerName(second)['payload-signature']).toBe(
			headersByLowerName(first)['payload-signature'],
		);
		expect(Object.keys(second.headers ?? {})).toHaveLength(Object.keys(first.headers ?? {}).length);
	});

	test('re-signing with new keys replaces login, pass and the signature', () => {
		const first = signCashoutRequest(
			{ method: 'POST', url: '/v3/cashout/status', body: { cashout_id: 9 } },
			keys,
		);
		const newKeys = { login: 'new-login', pass: 'new-pass', apiSignature: 'new-secret' };
		const second = signCashoutRequest(first, newKeys);
		expect(second.body).toBe('{"login":"new-login","pass":"new-pass","cashout_id":9}');
		expect(headersByLowerName(second)['payload-signature']).toBe(
			independentHmac('new-secret', second.body as string),
		);
	});

	test('an existing lowercase payload-signature header is replaced, not duplicated', () => {
		const signed = signCashoutRequest(
			{
				method: 'POST',
				url: '/v3/cashout/status',
				body: { cashout_id: 1 },
				headers: { 'payload-signature': 'stale', Accept: 'application/json' },
			},
			keys,
		);
		const headers = headersByLowerName(signed);
		expect(headers['payload-signature']).toBe(
			independentHmac('cashout-secret', signed.body as string),
		);
		expect(headers.accept).toBe('application/json');
	});

	test('an empty string body becomes a body with only login and pass', () => {
		const signed = signCashoutRequest({ method: 'POST', url: '/v3/cashout/x', body: '' }, keys);
		expect(signed.body).toBe('{"login":"co-login","pass":"co-pass"}');
	});

	test('the input options are not mutated', () => {
		const input: IHttpRequestOptions = {
			method: 'POST',
			url: '/v3/cashout/status',
			body: { login: 'old', cashout_id: 3 },
			headers: { 'Payload-Signature': 'old' },
		};
		const before = JSON.parse(JSON.stringify(input)) as unknown;
		signCashoutRequest(input, keys);
		expect(input).toEqual(before);
	});

	test.each(['[1,2]', '"text"', 'null', '42', 'not json'])(
		'a string body %p that is not a JSON object throws SyntaxError',
		(body) => {
			expect(() =>
				signCashoutRequest({ method: 'POST', url: '/v3/cashout/x', body }, keys),
			).toThrow(SyntaxError);
		},
	);
});
