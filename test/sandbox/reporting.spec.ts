import { MAX_PERIOD_SECONDS, startSandbox } from './index';
import { bearer, client, login, windowEndingNow, useSandbox } from './testHelpers';

const NOW = Date.UTC(2025, 2, 10, 9, 30);

describe('sandbox reporting lists', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 12, cashoutsPerDay: 8 });
	let token: string;
	beforeAll(async () => {
		token = await login(sb);
	});

	const get = (path: string, params: Record<string, unknown>, t = token) =>
		client(sb).get(path, { params, headers: bearer(t) });

	it('validates from/to: missing or non-integer -> 400/17, from > to -> 400/17, span >= 60 days -> 412/18', async () => {
		const { from, to } = windowEndingNow(sb, 10);
		const missing = await get('/v1/deposits', { from });
		expect(missing.status).toBe(400);
		expect(missing.data.code).toBe(17);
		expect((await get('/v1/deposits', { from: '1.5', to })).data.code).toBe(17);
		const reversed = await get('/v1/cashouts', { from: to, to: from });
		expect(reversed.status).toBe(400);
		expect(reversed.data).toEqual({ code: 17, description: expect.any(String) });
		const tooLong = await get('/v1/refund', { from: to - MAX_PERIOD_SECONDS, to });
		expect(tooLong.status).toBe(412);
		expect(tooLong.data).toEqual({
			code: 18,
			description: expect.any(String),
			type: 'EXCEEDED_DATE_PERIOD',
		});
		expect((await get('/v1/refund', { from: to - MAX_PERIOD_SECONDS + 1, to })).status).toBe(200);
	});

	it('pages newest first, 50 rows, envelope {data, page, rows, maxRows}', async () => {
		const { from, to } = windowEndingNow(sb, 20);
		const expected = sb.control
			.deposits(1001)
			.filter(
				(d) => Date.parse(d.creationDate) >= from * 1000 && Date.parse(d.creationDate) <= to * 1000,
			)
			.sort(
				(a, b) =>
					Date.parse(b.creationDate) - Date.parse(a.creationDate) || b.idDeposit - a.idDeposit,
			)
			.map((d) => d.idDeposit);
		const seen: number[] = [];
		for (let page = 0; ; page++) {
			const res = await get('/v1/deposits', { from, to, page });
			expect(res.status).toBe(200);
			expect(res.data).toMatchObject({ page, maxRows: 50, rows: res.data.data.length });
			seen.push(...res.data.data.map((d: { idDeposit: number }) => d.idDeposit));
			if (res.data.rows < 50) break;
		}
		expect(seen).toEqual(expected);
		expect(expected.length).toBeGreaterThan(100);
	});

	it('from/to bounds are inclusive (seconds)', async () => {
		const dep = sb.control.addDeposit({
			idMerchant: 1001,
			creationDate: new Date(NOW - 3_600_000).toISOString(),
		});
		const s = Date.parse(dep.creationDate) / 1000;
		const res = await get('/v1/deposits', { from: s, to: s });
		expect(res.data.data.map((d: { idDeposit: number }) => d.idDeposit)).toContain(dep.idDeposit);
	});

	it('filters: country (unknown -> 19), paymentMethod, status, clientDocument', async () => {
		const w = windowEndingNow(sb, 30);
		const br = await get('/v1/deposits', { ...w, country: 'BR' });
		expect(br.data.rows).toBeGreaterThan(0);
		expect(br.data.data.every((d: { country: string }) => d.country === 'BR')).toBe(true);
		const bad = await get('/v1/deposits', { ...w, country: 'XX' });
		expect(bad.status).toBe(400);
		expect(bad.data.code).toBe(19);
		expect((await get('/v1/deposits', { ...w, country: 'US' })).data.rows).toBe(0);
		const pix = await get('/v1/deposits', { ...w, paymentMethod: 'PX' });
		expect(
			pix.data.data.every((d: { paymentMethodCode: string }) => d.paymentMethodCode === 'PX'),
		).toBe(true);
		expect((await get('/v1/deposits', { ...w, paymentMethod: 'PIX' })).status).toBe(400);
		const completed = await get('/v1/deposits', { ...w, status: 'COMPLETED' });
		expect(completed.data.data.every((d: { status: string }) => d.status === 'COMPLETED')).toBe(
			true,
		);
		expect((await get('/v1/deposits', { ...w, status: 'CREATED' })).status).toBe(400);
		const doc = br.data.data[0].clientDocument as string;
		const byDoc = await get('/v1/deposits', { ...w, clientDocument: doc });
		expect(byDoc.data.rows).toBeGreaterThan(0);
		expect(byDoc.data.data.every((d: { clientDocument: string }) => d.clientDocument === doc)).toBe(
			true,
		);
		const notes = await get('/v1/notes', { ...w, type: 'REFUND' });
		expect(
			notes.data.data.every(
				(n: { type: string; category: string }) => n.type === 'REFUND' && n.category === 'DEBIT',
			),
		).toBe(true);
	});

	it('some deposit records carry status CREATED; every list is scoped to the MID', async () => {
		expect(sb.control.deposits(1001).some((d) => d.status === 'CREATED')).toBe(true);
		const other = await login(sb, sb.credentials.otherSession);
		const res = await get('/v1/cashouts', windowEndingNow(sb, 30), other);
		expect(res.data.data.every((c: { idMerchant: number }) => c.idMerchant === 2001)).toBe(true);
	});

	it('cashout/settlement status filter honours "Status" and ignores "status" (default option)', async () => {
		const w = windowEndingNow(sb, 50);
		const honoured = await get('/v1/cashouts', { ...w, Status: 'REJECTED' });
		expect(honoured.data.rows).toBeGreaterThan(0);
		expect(honoured.data.data.every((c: { status: string }) => c.status === 'REJECTED')).toBe(true);
		const ignored = await get('/v1/cashouts', { ...w, status: 'REJECTED' });
		expect(ignored.data.data.some((c: { status: string }) => c.status !== 'REJECTED')).toBe(true);
		const settlements = await get('/v1/settlements', { ...w, Status: 'COMPLETED' });
		expect(settlements.data.data.every((s: { status: string }) => s.status === 'COMPLETED')).toBe(
			true,
		);
	});

	it('late arrivals: a record with an old creationDate appears only once visibleAt is reached', async () => {
		const created = new Date(NOW - 10 * 60_000).toISOString();
		const dep = sb.control.addDeposit({
			idMerchant: 1001,
			creationDate: created,
			visibleAt: sb.clock.now() + 5 * 60_000,
		});
		const w = windowEndingNow(sb, 1);
		const ids = async () =>
			(await get('/v1/deposits', w)).data.data.map((d: { idDeposit: number }) => d.idDeposit);
		expect(await ids()).not.toContain(dep.idDeposit);
		sb.clock.advance(5 * 60_000);
		token = await login(sb);
		expect(await ids()).toContain(dep.idDeposit);
		sb.clock.set(NOW);
		token = await login(sb);
	});

	it('refund, chargeback, settlement, notes and balance report shapes', async () => {
		const w = windowEndingNow(sb, 59);
		const refund = (await get('/v1/refund', w)).data.data[0];
		expect(refund).toEqual(
			expect.objectContaining({
				id: expect.any(Number),
				idBoleto: expect.any(Number),
				refundCurrency: expect.any(String),
				amountType: expect.any(String),
			}),
		);
		const cb = (await get('/v1/chargeback', w)).data.data[0];
		expect(cb).toEqual(
			expect.objectContaining({
				idChargeback: expect.any(Number),
				idDeposit: expect.any(Number),
				inMediation: expect.any(Boolean),
			}),
		);
		const report = await get('/v1/balance/report', w);
		expect(report.status).toBe(200);
		expect(report.data.data[0]).toEqual(
			expect.objectContaining({
				idMerchant: 1001,
				currency: 'USD',
				date: expect.stringMatching(/T00:00:00Z$/),
			}),
		);
		const balance = await client(sb).get('/v1/balance', { headers: bearer(token) });
		expect(balance.data.balances[0]).toEqual({
			currency: 'USD',
			type: 'MAIN',
			data: expect.objectContaining({
				totalBalance: expect.any(Number),
				usableBalance: expect.any(Number),
				accountNumber: 'ACC-1001-USD',
			}),
		});
	});

	it('a local-currency balance set through the admin API follows the USD one in GET /v1/balance, and control.balances answers the same', async () => {
		const usd = sb.control.balances(1001);
		expect(usd).toHaveLength(1);
		const set = await client(sb).post('/_sandbox/merchants/1001/balances', {
			currency: 'BRL',
			available: 12345.678,
		});
		expect(set.status).toBe(200);
		const read = await client(sb).get('/v1/balance', { headers: bearer(token) });
		expect(read.data.balances).toEqual([
			usd[0],
			{
				currency: 'BRL',
				type: 'MAIN',
				data: {
					totalBalance: 12345.68,
					availableBalance: 12345.68,
					depositSettlementPeriod: 2,
					accountNumber: 'ACC-1001-BRL',
					rollingReserveBalance: 0,
					usableBalance: 12345.68,
				},
			},
		]);
		expect(sb.control.balances(1001)).toEqual(read.data.balances);
		expect((await client(sb).get('/_sandbox/merchants/1001/balances')).data.balances).toEqual(
			read.data.balances,
		);
		for (const body of [
			{ currency: 'USD', available: 1 },
			{ currency: 'brl', available: 1 },
		])
			expect((await client(sb).post('/_sandbox/merchants/1001/balances', body)).status).toBe(400);
		expect((await client(sb).get('/_sandbox/merchants/9999/balances')).status).toBe(400);
		// Another merchant's balances are its own.
		expect(sb.control.balances(2001).map((entry) => entry.currency)).toEqual(['USD']);
	});

	it('control writers stamp lastChangeDate and setStatus changes the listed status', async () => {
		const dep = sb.control.addDeposit({ idMerchant: 1001, amount: 12.34 });
		sb.clock.advance(60_000);
		sb.control.setStatus('deposit', dep.idDeposit, 'COMPLETED');
		const after = sb.control.deposits(1001).find((d) => d.idDeposit === dep.idDeposit);
		expect(after?.status).toBe('COMPLETED');
		expect(Date.parse(after?.lastChangeDate ?? '')).toBe(Math.floor(sb.clock.now() / 1000) * 1000);
		sb.clock.set(NOW);
		token = await login(sb);
	});
});

describe('sandbox balance report made to disagree', () => {
	it('a deposit left out of the report leaves its day’s amounts and every later balance; a shifted balance breaks only its own day’s carry; the admin routes do the same and refuse bad bodies', async () => {
		const sb = await startSandbox({ now: NOW, days: 180, depositsPerDay: 12, cashoutsPerDay: 8 });
		try {
			const token = await login(sb);
			const rows = async () => {
				const { from, to } = windowEndingNow(sb, 20);
				const answer = await client(sb).get('/v1/balance/report', {
					params: { from, to },
					headers: bearer(token),
				});
				return answer.data.data as Array<Record<string, number | string>>;
			};
			const before = await rows();
			const day = String(before[10].date).slice(0, 10);
			const deposit = sb.control
				.deposits(1001)
				.find((d) => d.status === 'COMPLETED' && d.creationDate.startsWith(day))!;
			const balanceBefore = sb.control.balances(1001);
			expect(
				(await client(sb).post(`/_sandbox/deposits/${deposit.idDeposit}/omit-from-balance-report`))
					.status,
			).toBe(200);
			const cents = (value: unknown) => Math.round(Number(value) * 100);
			const omitted = await rows();
			const changed = (field: string) =>
				omitted.map((row, index) => cents(before[index][field]) - cents(row[field]));
			const at = (dayOf: string) => before.findIndex((row) => String(row.date).startsWith(dayOf));
			const net = cents(deposit.amount) - cents(deposit.fee);
			expect(changed('depositTotal')).toEqual(
				before.map((_, index) => (index === at(day) ? cents(deposit.amount) : 0)),
			);
			// Newest first: the day and every later one hold a balance lower by the deposit's net.
			expect(changed('totalBalance')).toEqual(
				before.map((_, index) => (index <= at(day) ? net : 0)),
			);
			expect(sb.control.balances(1001)).toEqual(balanceBefore);
			const jump = String(before[5].date).slice(0, 10);
			sb.control.shiftBalanceReport(1001, jump, -7.5);
			const shifted = await rows();
			expect(
				shifted.map((row, index) => cents(omitted[index].totalBalance) - cents(row.totalBalance)),
			).toEqual(before.map((_, index) => (index <= at(jump) ? 750 : 0)));
			expect(shifted.map((row) => row.netAmount)).toEqual(omitted.map((row) => row.netAmount));
			for (const [route, body] of [
				['/_sandbox/deposits/1/omit-from-balance-report', {}],
				['/_sandbox/merchants/1001/balance-report/shift', { day: jump, amount: 0 }],
				['/_sandbox/merchants/1001/balance-report/shift', { day: jump, amount: 1.005 }],
				['/_sandbox/merchants/1001/balance-report/shift', { day: '2025-13-01', amount: 1 }],
				['/_sandbox/merchants/1001/balance-report/shift', { day: '2020-01-01', amount: 1 }],
				['/_sandbox/merchants/9999/balance-report/shift', { day: jump, amount: 1 }],
			] as const)
				expect([route, (await client(sb).post(route, body)).status]).toEqual([route, 400]);
			expect(
				(
					await client(sb).post('/_sandbox/merchants/1001/balance-report/shift', {
						day: jump,
						amount: 1,
					})
				).data,
			).toEqual({ merchantId: 1001, day: jump, amount: 1 });
		} finally {
			await sb.close();
		}
	});
});

describe('sandbox reporting options', () => {
	it('statusParamName "status" and plural refund/chargeback paths', async () => {
		const sb = await startSandbox({
			now: NOW,
			days: 180,
			depositsPerDay: 3,
			cashoutsPerDay: 6,
			statusParamName: 'status',
			pluralRefundChargebackPaths: true,
		});
		try {
			const token = await login(sb);
			const w = windowEndingNow(sb, 50);
			const get = (path: string, params: Record<string, unknown>) =>
				client(sb).get(path, { params, headers: bearer(token) });
			const honoured = await get('/v1/cashouts', { ...w, status: 'REJECTED' });
			expect(honoured.data.data.every((c: { status: string }) => c.status === 'REJECTED')).toBe(
				true,
			);
			const ignored = await get('/v1/cashouts', { ...w, Status: 'REJECTED' });
			expect(ignored.data.data.some((c: { status: string }) => c.status !== 'REJECTED')).toBe(true);
			expect((await get('/v1/refund', w)).status).toBe(404);
			expect((await get('/v1/refunds', w)).status).toBe(200);
			expect((await get('/v1/chargeback', w)).status).toBe(404);
			expect((await get('/v1/chargebacks', w)).status).toBe(200);
		} finally {
			await sb.close();
		}
	});
});
