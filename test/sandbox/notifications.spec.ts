import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from './index';
import { cashoutRequest, client, createCashout, createDeposit } from './testHelpers';

const NOW = Date.UTC(2025, 8, 1, 12, 0, 0);
const MINUTE = 60_000;

/** A request the test receiver got. */
interface Received {
	path: string;
	contentType: string;
	body: string;
}

/** A tiny notification receiver: answers `statusFor(path)` (default 200) and records every request. */
interface Receiver {
	url: string;
	received: Received[];
	/** Next answers for a path, used first-in first-out; once used up, 200. */
	answers: Map<string, number[]>;
	paths(path: string): Received[];
	close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
	const received: Received[] = [];
	const answers = new Map<string, number[]>();
	const server = http.createServer((req, res) => {
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (body += chunk));
		req.on('end', () => {
			const path = req.url ?? '';
			received.push({ path, contentType: req.headers['content-type'] ?? '', body });
			const status = answers.get(path)?.shift() ?? 200;
			res
				.writeHead(status, { 'content-type': 'text/plain' })
				.end(status < 300 ? 'ok' : `failure ${status}`);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		received,
		answers,
		paths: (path) => received.filter((r) => r.path === path),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe('sandbox notifications', () => {
	let sb: Sandbox;
	let rx: Receiver;
	let seq = 0;
	beforeAll(async () => {
		sb = await startSandbox({ now: NOW, days: 180, depositsPerDay: 2, cashoutsPerDay: 2 });
		rx = await startReceiver();
	});
	afterAll(async () => {
		await sb.close();
		await rx.close();
	});
	beforeEach(async () => {
		await sb.control.notifications.settle();
		sb.control.notifications.clear();
		sb.control.setDefaultNotificationUrl(1001, undefined);
		rx.received.length = 0;
		rx.answers.clear();
	});

	const path = (name: string): string => `/${name}-${++seq}`;
	const cashoutBody = (url: string, extra: Record<string, unknown> = {}) => ({
		external_id: `notify-${++seq}`,
		country: 'BR',
		amount: 100,
		document_id: '52998224725',
		beneficiary_name: 'Ana Silva',
		notification_url: url,
		...extra,
	});

	it('deposits: {"deposit_id": N} as JSON to the deposit URL, else to the merchant default URL', async () => {
		const own = path('own');
		const fallback = path('default');
		sb.control.setDefaultNotificationUrl(1001, rx.url + fallback);
		expect(sb.control.defaultNotificationUrl(1001)).toBe(rx.url + fallback);
		const withUrl = sb.control.addDeposit({ idMerchant: 1001, notificationUrl: rx.url + own });
		const withoutUrl = sb.control.addDeposit({ idMerchant: 1001 });
		sb.control.setStatus('deposit', withUrl.idDeposit, 'COMPLETED');
		sb.control.setStatus('deposit', withoutUrl.idDeposit, 'CANCELLED');
		await sb.control.notifications.settle();
		expect(rx.paths(own)).toEqual([
			{
				path: own,
				contentType: 'application/json',
				body: JSON.stringify({ deposit_id: withUrl.idDeposit }),
			},
		]);
		expect(rx.paths(fallback)).toEqual([
			{
				path: fallback,
				contentType: 'application/json',
				body: `{"deposit_id":${withoutUrl.idDeposit}}`,
			},
		]);
		const [first, second] = sb.control.notifications.list();
		expect(first).toMatchObject({
			kind: 'deposit',
			merchantId: 1001,
			recordId: withUrl.idDeposit,
			recordStatus: 'COMPLETED',
			url: rx.url + own,
			state: 'delivered',
			createdAt: NOW,
		});
		expect(first.attempts).toEqual([
			{ attempt: 1, at: NOW, url: rx.url + own, body: first.body, status: 200, responseBody: 'ok' },
		]);
		expect(second).toMatchObject({
			recordId: withoutUrl.idDeposit,
			recordStatus: 'CANCELLED',
			url: rx.url + fallback,
			state: 'delivered',
		});
		// Same status again: no change, no notification. No URL at all: nothing.
		sb.control.setStatus('deposit', withUrl.idDeposit, 'COMPLETED');
		sb.control.setDefaultNotificationUrl(1001, undefined);
		sb.control.setStatus('deposit', withoutUrl.idDeposit, 'COMPLETED');
		await sb.control.notifications.settle();
		expect(sb.control.notifications.list()).toHaveLength(2);
		expect(() => sb.control.setDefaultNotificationUrl(1001, 'not a url')).toThrow();
	});

	it('deposits created through the API keep their notification_url', async () => {
		// The real service needs HTTPS here; port 1 refuses the connection, which is recorded.
		const res = await createDeposit(sb, {
			amount: 10,
			country: 'BR',
			currency: 'BRL',
			notification_url: 'https://127.0.0.1:1/hook',
		});
		sb.control.setDefaultNotificationUrl(1001, `${rx.url}/ignored`);
		await client(sb).post(`/_sandbox/deposits/${res.data.deposit_id}/status`, {
			status: 'COMPLETED',
		});
		await sb.control.notifications.settle();
		const [n] = sb.control.notifications.list();
		expect(n).toMatchObject({
			recordId: res.data.deposit_id,
			url: 'https://127.0.0.1:1/hook',
			state: 'retrying',
			nextAttemptAt: NOW + 5 * MINUTE,
		});
		expect(n.attempts[0].error).toMatch(/ECONNREFUSED/);
		expect(n.attempts[0].status).toBeUndefined();
		expect(rx.received).toHaveLength(0);
	});

	it('cashouts: form-encoded date, bank_reference_id, comments, external_id, control, cashout_id, status_reason on every change', async () => {
		const hook = path('cashout');
		const req = cashoutBody(rx.url + hook, { comments: 'payout #7' });
		const created = await createCashout(sb, req);
		const id = Number(created.data.cashout_id);
		await sb.control.notifications.settle();
		expect(rx.paths(hook)).toHaveLength(0); // creation is not a status change
		await cashoutRequest(sb, 'PUT', '/v3/cashout/status', { cashout_id: id, status: 'ON_HOLD' });
		sb.clock.advance(90_000);
		await cashoutRequest(sb, 'PUT', '/v3/cashout/status', { cashout_id: id, status: 'PENDING' });
		sb.control.advanceCashout(id, 'DELIVERED');
		await client(sb).post(`/_sandbox/cashouts/${id}/advance`, {
			to: 'REJECTED',
			rejectionCode: 801,
			rejectionReason: 'ERROR_ACCOUNT_CLOSED',
		});
		await sb.control.notifications.settle();
		const got = rx.paths(hook);
		expect(got.map((r) => r.contentType)).toEqual(
			Array(4).fill('application/x-www-form-urlencoded'),
		);
		const forms = got.map((r) => new URLSearchParams(r.body));
		for (const form of forms) {
			expect([...form.keys()]).toEqual([
				'date',
				'bank_reference_id',
				'comments',
				'external_id',
				'control',
				'cashout_id',
				'status_reason',
			]);
			expect(form.get('external_id')).toBe(req.external_id);
			expect(form.get('cashout_id')).toBe(String(id));
			expect(form.get('comments')).toBe('payout #7');
			expect(form.get('control')).toMatch(/^[0-9A-F]{64}$/);
		}
		expect(forms.map((f) => f.get('date'))).toEqual([
			'2025-09-01 12:00:00',
			'2025-09-01 12:01:30',
			'2025-09-01 12:01:30',
			'2025-09-01 12:01:30',
		]);
		expect(forms.map((f) => f.get('bank_reference_id'))).toEqual([
			'',
			'',
			`bank-ref-${id}`,
			`bank-ref-${id}`,
		]);
		expect(forms.map((f) => f.get('status_reason'))).toEqual(['', '', '', 'ERROR_ACCOUNT_CLOSED']);
		// The provider's recipe: HMAC-SHA256(cashout secret, "Be4" + external_id + "Bo7"), upper-case hex.
		const expected = createHmac('sha256', sb.credentials.cashout.apiSignature)
			.update(`Be4${req.external_id}Bo7`)
			.digest('hex')
			.toUpperCase();
		expect(new Set(forms.map((f) => f.get('control')))).toEqual(new Set([expected]));
		expect(sb.control.notifications.list().map((n) => n.recordStatus)).toEqual([
			'ON_HOLD',
			'PENDING',
			'DELIVERED',
			'REJECTED',
		]);
		// Cancellation and control.setStatus notify too; a cashout without URL never does.
		const other = await createCashout(sb, cashoutBody(rx.url + hook));
		await cashoutRequest(sb, 'DELETE', '/v3/cashout/cancel', {
			cashout_id: Number(other.data.cashout_id),
			external_id: `notify-${seq}`,
		});
		const added = sb.control.addCashout({ idMerchant: 1001, notificationUrl: rx.url + hook });
		sb.control.setStatus('cashout', added.idCashout, 'COMPLETED');
		const silent = sb.control.addCashout({ idMerchant: 1001 });
		sb.control.advanceCashout(silent.idCashout, 'DELIVERED');
		await sb.control.notifications.settle();
		expect(rx.paths(hook).map((r) => new URLSearchParams(r.body).get('cashout_id'))).toEqual([
			...Array(4).fill(String(id)),
			other.data.cashout_id,
			String(added.idCashout),
		]);
	});

	it('retries after non-2xx answers at 5, 25, 125, 625 and 3125 minutes on the sandbox clock, then gives up', async () => {
		const hook = path('failing');
		rx.answers.set(hook, Array(10).fill(500));
		const start = sb.clock.now();
		const dep = sb.control.addDeposit({ idMerchant: 1001, notificationUrl: rx.url + hook });
		sb.control.setStatus('deposit', dep.idDeposit, 'COMPLETED');
		await sb.control.notifications.settle();
		const only = () => sb.control.notifications.list()[0];
		expect(only()).toMatchObject({ state: 'retrying', nextAttemptAt: start + 5 * MINUTE });
		expect(only().attempts[0]).toMatchObject({
			at: start,
			status: 500,
			responseBody: 'failure 500',
		});
		sb.clock.advance(4 * MINUTE);
		await sb.control.notifications.settle();
		expect(only().attempts).toHaveLength(1);
		const expectedAt = [0, 5, 30, 155, 780, 3905].map((m) => start + m * MINUTE);
		for (const step of [1, 25, 125, 625, 3125]) {
			sb.clock.advance(step * MINUTE);
			await sb.control.notifications.settle();
		}
		expect(only().attempts.map((a) => a.at)).toEqual(expectedAt);
		expect(only().attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
		expect(only()).toMatchObject({ state: 'failed' });
		expect(only().nextAttemptAt).toBeUndefined();
		sb.clock.advance(10 * 24 * 60 * MINUTE);
		await sb.control.notifications.settle();
		expect(rx.paths(hook)).toHaveLength(6);
	});

	it('a clock jump catches up every retry due in between; a 2xx ends the retries', async () => {
		const hook = path('catch-up');
		rx.answers.set(hook, Array(10).fill(503));
		const start = sb.clock.now();
		const dep = sb.control.addDeposit({ idMerchant: 1001, notificationUrl: rx.url + hook });
		sb.control.setStatus('deposit', dep.idDeposit, 'APPROVED');
		await sb.control.notifications.settle();
		sb.clock.set(start + 24 * 60 * MINUTE);
		await sb.control.notifications.settle();
		const n = sb.control.notifications.list()[0];
		expect(n.attempts.map((a) => (a.at - start) / MINUTE)).toEqual([0, 5, 30, 155, 780]);
		expect(n.nextAttemptAt).toBe(start + 3905 * MINUTE);

		const recovering = path('recovering');
		rx.answers.set(recovering, [500, 404]);
		const other = sb.control.addDeposit({ idMerchant: 1001, notificationUrl: rx.url + recovering });
		sb.control.setStatus('deposit', other.idDeposit, 'COMPLETED');
		await sb.control.notifications.settle();
		sb.clock.advance(2 * 24 * 60 * MINUTE);
		await sb.control.notifications.settle();
		const done = sb.control.notifications.list().find((x) => x.recordId === other.idDeposit);
		expect(done?.attempts.map((a) => a.status)).toEqual([500, 404, 200]);
		expect(done?.state).toBe('delivered');
		expect(await sb.control.notifications.deliverDue()).toBe(0);
	});

	it('duplicate(n): the next n notifications are each delivered twice', async () => {
		const hook = path('dup');
		sb.control.setDefaultNotificationUrl(1001, rx.url + hook);
		sb.control.notifications.duplicate(2);
		const deps = [0, 1, 2].map(() => sb.control.addDeposit({ idMerchant: 1001 }));
		for (const d of deps) sb.control.setStatus('deposit', d.idDeposit, 'COMPLETED');
		await sb.control.notifications.settle();
		const ids = rx
			.paths(hook)
			.map((r) => (JSON.parse(r.body) as { deposit_id: number }).deposit_id);
		expect(ids).toEqual([
			deps[0].idDeposit,
			deps[0].idDeposit,
			deps[1].idDeposit,
			deps[1].idDeposit,
			deps[2].idDeposit,
		]);
		const list = sb.control.notifications.list();
		expect(list).toHaveLength(5);
		expect(list[1].duplicateOf).toBe(list[0].id);
		expect(list[1].body).toBe(list[0].body);
		expect(list[4].duplicateOf).toBeUndefined();
		expect(() => sb.control.notifications.duplicate(-1)).toThrow();
	});

	it('hold() + release({order: "reverse"}) delivers out of order; "queued" keeps the order', async () => {
		const hook = path('order');
		sb.control.setDefaultNotificationUrl(1001, rx.url + hook);
		const deps = [0, 1, 2].map(() => sb.control.addDeposit({ idMerchant: 1001 }));
		sb.control.notifications.hold();
		for (const d of deps) sb.control.setStatus('deposit', d.idDeposit, 'COMPLETED');
		await sb.control.notifications.settle();
		expect(rx.paths(hook)).toHaveLength(0);
		expect(sb.control.notifications.list().map((n) => n.state)).toEqual(['held', 'held', 'held']);
		expect(await sb.control.notifications.release({ order: 'reverse' })).toBe(3);
		const order = () =>
			rx.paths(hook).map((r) => (JSON.parse(r.body) as { deposit_id: number }).deposit_id);
		expect(order()).toEqual([deps[2].idDeposit, deps[1].idDeposit, deps[0].idDeposit]);
		expect(sb.control.notifications.list().every((n) => n.state === 'delivered')).toBe(true);
		// After release, notifications go out at once again.
		sb.control.setStatus('deposit', deps[0].idDeposit, 'CANCELLED');
		await sb.control.notifications.settle();
		expect(order()).toHaveLength(4);
		sb.control.notifications.hold();
		sb.control.setStatus('deposit', deps[1].idDeposit, 'CANCELLED');
		sb.control.setStatus('deposit', deps[2].idDeposit, 'CANCELLED');
		await sb.control.notifications.release();
		expect(order().slice(4)).toEqual([deps[1].idDeposit, deps[2].idDeposit]);
	});

	it('admin routes: list, clear, default URL, duplicate, hold/release, deliver-due; not in the request log', async () => {
		const hook = path('admin');
		const admin = client(sb);
		expect(
			(await admin.post('/_sandbox/merchants/1001/notification-url', { url: rx.url + hook })).data,
		).toEqual({ merchantId: 1001, url: rx.url + hook });
		expect((await admin.get('/_sandbox/merchants/1001/notification-url')).data.url).toBe(
			rx.url + hook,
		);
		expect(
			(await admin.post('/_sandbox/merchants/1001/notification-url', { url: 'ftp://x' })).status,
		).toBe(400);
		expect((await admin.post('/_sandbox/notifications/duplicate', { n: 1 })).data).toEqual({
			duplicate: 1,
		});
		expect((await admin.post('/_sandbox/notifications/hold')).data).toEqual({ holding: true });
		const a = sb.control.addDeposit({ idMerchant: 1001 });
		const b = sb.control.addDeposit({ idMerchant: 1001 });
		await admin.post(`/_sandbox/deposits/${a.idDeposit}/status`, { status: 'COMPLETED' });
		const changed = await admin.post(`/_sandbox/deposits/${b.idDeposit}/status`, {
			status: 'CANCELLED',
		});
		expect(changed.data).toMatchObject({ idDeposit: b.idDeposit, status: 'CANCELLED' });
		expect((await admin.post('/_sandbox/deposits/1/status', { status: 'COMPLETED' })).status).toBe(
			400,
		);
		expect(
			(await admin.post('/_sandbox/notifications/release', { order: 'reverse' })).data,
		).toEqual({ released: 3 });
		expect(
			rx.paths(hook).map((r) => (JSON.parse(r.body) as { deposit_id: number }).deposit_id),
		).toEqual([b.idDeposit, a.idDeposit, a.idDeposit]);
		const listed = await admin.get('/_sandbox/notifications');
		expect(listed.data).toEqual(sb.control.notifications.list());
		expect(listed.data[0]).toMatchObject({
			kind: 'deposit',
			recordId: a.idDeposit,
			state: 'delivered',
			attempts: [{ attempt: 1, status: 200, url: rx.url + hook }],
		});
		expect((await admin.post('/_sandbox/notifications/deliver-due')).data).toEqual({ attempts: 0 });
		expect((await admin.post('/_sandbox/notifications/settle')).data).toEqual({ settled: true });
		expect(sb.log.entries().some((e) => e.path === hook)).toBe(false);
		expect((await admin.delete('/_sandbox/notifications')).data).toEqual({ cleared: true });
		expect(sb.control.notifications.list()).toEqual([]);
		expect(
			(await admin.post('/_sandbox/merchants/1001/notification-url', { url: null })).data.url,
		).toBeNull();
		expect((await admin.post('/_sandbox/merchants/1001/cashout-funds', { usd: 250 })).data).toEqual(
			{ merchantId: 1001, funds: expect.any(Number) },
		);
		expect(
			(await admin.get('/_sandbox/merchants/1001/cashout-funds')).data.funds,
		).toBeLessThanOrEqual(250);
		await admin.post('/_sandbox/merchants/1001/cashout-funds', { usd: 1_000_000 });
	});
});
