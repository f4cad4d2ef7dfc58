import { cashoutRequest, useSandbox } from './testHelpers';

const NOW = Date.UTC(2025, 4, 20, 8);

describe('sandbox cashout API', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 2, cashoutsPerDay: 6 });

	const put = (fields: Record<string, unknown>) =>
		cashoutRequest(sb, 'PUT', '/v3/cashout/status', fields);
	const cancel = (fields: Record<string, unknown>) =>
		cashoutRequest(sb, 'DELETE', '/v3/cashout/cancel', fields);
	const status = (fields: Record<string, unknown>) =>
		cashoutRequest(sb, 'POST', '/v3/cashout/status', fields);

	it('seeds cashouts in every state, REJECTED ones with a rejection code', () => {
		const all = sb.control.cashouts(1001);
		for (const s of 'ON_HOLD PENDING DELIVERED COMPLETED REJECTED CANCELLED DECLINED'.split(' '))
			expect(all.some((c) => c.status === s)).toBe(true);
		const rejected = all.find((c) => c.status === 'REJECTED');
		expect(sb.control.cashoutRejection(rejected?.idCashout ?? 0)?.code).toBeGreaterThanOrEqual(800);
	});

	it('PUT status: PENDING -> ON_HOLD -> PENDING; other moves -> 412/510', async () => {
		const c = sb.control.addCashout({ idMerchant: 1001 });
		const hold = await put({ cashout_id: c.idCashout, status: 'ON_HOLD' });
		expect(hold.status).toBe(200);
		expect(hold.data).toEqual({ cashout_status: 5, cashout_status_description: 'On hold' });
		expect(sb.control.cashouts().find((x) => x.idCashout === c.idCashout)?.status).toBe('ON_HOLD');
		const holdAgain = await put({ cashout_id: c.idCashout, status: 'ON_HOLD' });
		expect(holdAgain.status).toBe(412);
		expect(holdAgain.data).toEqual({ code: 510, message: expect.stringContaining('ON_HOLD') });
		const back = await put({ cashout_id: c.idCashout, status: 'PENDING' });
		expect(back.data).toEqual({ cashout_status: 0, cashout_status_description: 'Pending' });
		sb.control.advanceCashout(c.idCashout, 'DELIVERED');
		const late = await put({ cashout_id: c.idCashout, status: 'ON_HOLD' });
		expect(late.status).toBe(412);
		expect(late.data.message).toContain('DELIVERED');
		expect((await put({ cashout_id: c.idCashout, status: 'COMPLETED' })).data.code).toBe(300);
	});

	it('cancel from PENDING and from ON_HOLD; needs the matching external_id; DELIVERED -> 510', async () => {
		const a = sb.control.addCashout({ idMerchant: 1001 });
		const wrongExt = await cancel({ cashout_id: a.idCashout, external_id: 'nope' });
		expect(wrongExt.status).toBe(412);
		expect(wrongExt.data.code).toBe(509);
		expect((await cancel({ cashout_id: a.idCashout })).data.code).toBe(300);
		const ok = await cancel({ cashout_id: a.idCashout, external_id: a.externalId });
		expect(ok.data).toEqual({ cashout_status: 2, cashout_status_description: 'Canceled' });
		const held = sb.control.addCashout({ idMerchant: 1001, onHold: true });
		expect(held.status).toBe('ON_HOLD');
		expect(
			(await cancel({ cashout_id: held.idCashout, external_id: held.externalId })).data
				.cashout_status,
		).toBe(2);
		const delivered = sb.control.addCashout({ idMerchant: 1001 });
		sb.control.advanceCashout(delivered.idCashout, 'DELIVERED');
		const refused = await cancel({
			cashout_id: delivered.idCashout,
			external_id: delivered.externalId,
		});
		expect(refused.status).toBe(412);
		expect(refused.data).toEqual({ code: 510, message: expect.stringContaining('DELIVERED') });
	});

	it('POST status by cashout_id or external_id; rejection fields when REJECTED; unknown/foreign -> 509', async () => {
		const c = sb.control.addCashout({ idMerchant: 1001 });
		sb.control.advanceCashout(c.idCashout, 'DELIVERED');
		sb.clock.advance(60_000);
		sb.control.advanceCashout(c.idCashout, 'REJECTED', {
			code: 801,
			reason: 'ERROR_ACCOUNT_CLOSED',
		});
		const byId = await status({ cashout_id: c.idCashout });
		expect(byId.data).toEqual({
			cashout_status: 3,
			cashout_status_description: 'Rejected',
			rejection_code: 801,
			rejection_reason: 'ERROR_ACCOUNT_CLOSED',
		});
		expect((await status({ external_id: c.externalId })).data.cashout_status).toBe(3);
		const record = sb.control.cashouts().find((x) => x.idCashout === c.idCashout);
		expect(record?.lastChangeDate).toBe(
			new Date(sb.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		);
		const unknown = await status({ cashout_id: 1 });
		expect(unknown.status).toBe(412);
		expect(unknown.data).toEqual({ code: 509, message: expect.any(String) });
		const foreign = sb.control.cashouts(2001)[0];
		expect((await status({ cashout_id: foreign.idCashout })).data.code).toBe(509);
		expect((await status({})).data.code).toBe(300);
		expect(() => sb.control.advanceCashout(c.idCashout, 'DELIVERED')).toThrow();
	});

	it('auth: signature missing/wrong -> 302, invalid JSON -> 502, bad login/pass -> 401', async () => {
		const c = sb.control.addCashout({ idMerchant: 1001 });
		const missing = await cashoutRequest(
			sb,
			'POST',
			'/v3/cashout/status',
			{ cashout_id: c.idCashout },
			{ signature: null },
		);
		expect(missing.status).toBe(400);
		expect(missing.data).toEqual({ code: 302, message: expect.any(String) });
		const wrong = await cashoutRequest(
			sb,
			'POST',
			'/v3/cashout/status',
			{ cashout_id: c.idCashout },
			{ signature: 'ab'.repeat(32) },
		);
		expect(wrong.data.code).toBe(302);
		const badJson = await cashoutRequest(
			sb,
			'POST',
			'/v3/cashout/status',
			{},
			{ raw: '{"login":' },
		);
		expect(badJson.status).toBe(400);
		expect(badJson.data.code).toBe(502);
		const badPass = await cashoutRequest(sb, 'POST', '/v3/cashout/status', {
			cashout_id: c.idCashout,
			pass: 'wrong',
		});
		expect(badPass.status).toBe(401);
		expect(badPass.data).toEqual({ code: 401, message: expect.any(String) });
	});
});
