/**
 * Helpers for the sandbox's own jest tests (and usable by other tests): an axios client that never
 * throws on HTTP errors, session login, and the deposit / refund / cashout request signers.
 */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { createHmac } from 'node:crypto';
import { startSandbox } from './index';
import type { Sandbox, SandboxOptions } from './types';

/**
 * Inside a describe: a sandbox started with `options` before the block's first test and closed
 * after its last. The object returned reads that sandbox at each use (`sb.control`, `sb.log`…) and
 * throws when used outside the block's tests.
 */
export function useSandbox(options: SandboxOptions): Sandbox {
	let started: Sandbox | undefined;
	beforeAll(async () => {
		started = await startSandbox(options);
	});
	afterAll(async () => await started?.close());
	return new Proxy({} as Sandbox, {
		get(_, key) {
			if (!started) throw new Error('useSandbox: used outside the tests of its describe block');
			const value: unknown = Reflect.get(started, key);
			return typeof value === 'function' ? (value as () => unknown).bind(started) : value;
		},
	});
}

/** axios instance on the sandbox that resolves for every HTTP status. */
export function client(sandbox: Sandbox): AxiosInstance {
	return axios.create({
		baseURL: sandbox.baseUrl,
		validateStatus: () => true,
		transformResponse: [(data: unknown) => parseMaybeJson(data)],
	});
}

function parseMaybeJson(data: unknown): unknown {
	if (typeof data !== 'string' || data === '') return data;
	try {
		return JSON.parse(data) as unknown;
	} catch {
		return data;
	}
}

/** Logs in (default: the main demo user) and returns the BEARER_TOKEN; throws when refused. */
export async function login(
	sandbox: Sandbox,
	who: { accessKey: string; secretKey: string } = sandbox.credentials.session,
): Promise<string> {
	const res = await client(sandbox).post('/v1/auth/login', {
		accessKey: who.accessKey,
		secretKey: who.secretKey,
	});
	const cookie = (res.headers['set-cookie'] ?? [])[0] ?? '';
	const match = /BEARER_TOKEN=([^;]+)/.exec(cookie);
	if (res.status !== 200 || !match)
		throw new Error(`login failed: ${res.status} ${JSON.stringify(res.data)}`);
	return match[1];
}

/** `Authorization: Bearer <token>` header object. */
export function bearer(token: string): { Authorization: string } {
	return { Authorization: `Bearer ${token}` };
}

/** Current UTC time as yyyy-MM-dd'T'HH:mm:ss'Z' (system clock, as a client signs). */
export function xDateNow(offsetMs = 0): string {
	return new Date(Date.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Headers of a signed deposit API request over the exact `body` string. */
export function depositHeaders(
	sandbox: Sandbox,
	body: string,
	opts: { idempotencyKey?: string | null; xDate?: string; secret?: string; login?: string } = {},
): Record<string, string> {
	const xDate = opts.xDate ?? xDateNow();
	const xLogin = opts.login ?? sandbox.credentials.deposit.apiKey;
	const secret = opts.secret ?? sandbox.credentials.deposit.apiSignature;
	const headers: Record<string, string> = {
		'Content-Type': 'application/json',
		'X-Date': xDate,
		'X-Login': xLogin,
		Authorization: `D24 ${createHmac('sha256', secret)
			.update(xDate + xLogin + body)
			.digest('hex')}`,
	};
	if (opts.idempotencyKey !== null)
		headers['X-Idempotency-Key'] =
			opts.idempotencyKey ?? `idem-${Math.random().toString(36).slice(2)}`;
	return headers;
}

/**
 * POSTs `body` to the deposit API's `path`, serialised once, signed over those exact bytes and sent
 * as is, with an X-Idempotency-Key (random unless `opts.idempotencyKey` is given; `null` omits it).
 */
function depositApiPost(
	sandbox: Sandbox,
	path: string,
	body: unknown,
	opts: Parameters<typeof depositHeaders>[2],
): Promise<AxiosResponse> {
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	return client(sandbox).post(path, raw, {
		headers: depositHeaders(sandbox, raw, opts),
		transformRequest: [(d: unknown) => d],
	});
}

/** POSTs a signed create-deposit request (POST /v3/deposits); see {@link depositApiPost}. */
export const createDeposit = (
	sandbox: Sandbox,
	body: unknown,
	opts: Parameters<typeof depositHeaders>[2] = {},
): Promise<AxiosResponse> => depositApiPost(sandbox, '/v3/deposits', body, opts);

/** POSTs a signed create-refund request (POST /v3/refunds), signed like deposit creation. */
export const createRefund = (
	sandbox: Sandbox,
	body: unknown,
	opts: Parameters<typeof depositHeaders>[2] = {},
): Promise<AxiosResponse> => depositApiPost(sandbox, '/v3/refunds', body, opts);

/** GET /v3/refunds/:id signed with an empty body (no idempotency key); `voucher` adds `?voucher=true`. */
export function getRefund(
	sandbox: Sandbox,
	id: number | string,
	opts: { voucher?: boolean } = {},
): Promise<AxiosResponse> {
	return client(sandbox).get(`/v3/refunds/${id}`, {
		params: opts.voucher ? { voucher: 'true' } : undefined,
		headers: depositHeaders(sandbox, '', { idempotencyKey: null }),
	});
}

/** Sends a cashout API request with login/pass merged in and a Payload-Signature over the exact body. */
export function cashoutRequest(
	sandbox: Sandbox,
	method: 'PUT' | 'POST' | 'DELETE',
	path: string,
	fields: Record<string, unknown>,
	opts: { signature?: string | null; raw?: string } = {},
): Promise<AxiosResponse> {
	const raw =
		opts.raw ??
		JSON.stringify({
			login: sandbox.credentials.cashout.login,
			pass: sandbox.credentials.cashout.pass,
			...fields,
		});
	const headers: Record<string, string> = { 'Content-Type': 'application/json' };
	if (opts.signature !== null)
		headers['Payload-Signature'] =
			opts.signature ??
			createHmac('sha256', sandbox.credentials.cashout.apiSignature).update(raw).digest('hex');
	return client(sandbox).request({
		method,
		url: path,
		data: raw,
		headers,
		transformRequest: [(d: unknown) => d],
	});
}

/** POSTs a signed create-cashout request (POST /v3/cashout) with login/pass merged into `fields`. */
export function createCashout(
	sandbox: Sandbox,
	fields: Record<string, unknown>,
	opts: Parameters<typeof cashoutRequest>[4] = {},
): Promise<AxiosResponse> {
	return cashoutRequest(sandbox, 'POST', '/v3/cashout', fields, opts);
}

/** from/to (Unix seconds) of a window ending at the sandbox clock. */
export function windowEndingNow(sandbox: Sandbox, days: number): { from: number; to: number } {
	const to = Math.floor(sandbox.clock.now() / 1000);
	return { from: to - Math.round(days * 86400), to };
}
