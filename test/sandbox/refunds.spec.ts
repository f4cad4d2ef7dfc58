import { startSandbox } from './index';
import {
	bearer,
	client,
	createDeposit,
	createRefund,
	getRefund,
	login,
	windowEndingNow,
	useSandbox,
} from './testHelpers';

const NOW = Date.UTC(2025, 7, 12, 9, 0, 0);
// Only an e-mail: the deposits are HOSTED, so no QR code is rendered (faster); refunds do not depend on it.
const PAYER = { email: 'ana@example.com' };
const BANK = {
	beneficiary: 'Ana Silva',
	bank_code: 341,
	branch: '0001',
	account_number: '12345-6',
	account_type: 'C',
};

describe('sandbox refunds (POST /v3/refunds, GET /v3/refunds/:id)', () => {
	const sb = useSandbox({ now: NOW, days: 180, depositsPerDay: 3, cashoutsPerDay: 1 });
	let invoice = 0;

	/** A deposit created through the API (BRL, method `method`), then set to `status`. */
	const deposit = async (
		method: string,
		amount: number,
		status = 'COMPLETED',
	): Promise<{ id: number; invoice: string }> => {
		const invoiceId = `refund-test-${++invoice}`;
		const res = await createDeposit(sb, {
			invoice_id: invoiceId,
			amount,
			country: 'BR',
			currency: 'BRL',
			payment_method: method,
			payer: PAYER,
		});
		expect(res.status).toBe(201);
		if (status !== 'PENDING') sb.control.setStatus('deposit', res.data.deposit_id, status);
		return { id: res.data.deposit_id, invoice: invoiceId };
	};
	const refundRecord = (id: number) => sb.control.refunds(1001).find((r) => r.id === id);

	it('partial refunds up to the deposit amount; 802 beyond what remains; omitted amount = the rest', async () => {
		const dep = await deposit('PX', 100);
		const first = await createRefund(sb, {
			deposit_id: dep.id,
			amount: 30,
			comments: 'damaged item',
		});
		expect(first.status).toBe(201);
		expect(first.data).toEqual({ refund_id: expect.any(Number) });
		expect(refundRecord(first.data.refund_id)).toMatchObject({
			idBoleto: dep.id,
			status: 'PENDING',
			amount: 30,
			refundCurrency: 'BRL',
			amountType: 'PARTIAL',
			type: 'PIX',
			comments: 'damaged item',
			date: '2025-08-12T09:00:00Z',
			apiVersion: 'v3',
		});
		expect((await createRefund(sb, { deposit_id: dep.id, amount: '50.50' })).status).toBe(201);
		const tooMuch = await createRefund(sb, { deposit_id: dep.id, amount: 20 });
		expect(tooMuch.status).toBe(400);
		expect(tooMuch.data).toEqual({
			code: 802,
			description: expect.stringContaining('19.50 BRL'),
			type: 'INVALID_AMOUNT_TO_REFUND',
		});
		const rest = await createRefund(sb, { deposit_id: dep.id });
		expect(rest.status).toBe(201);
		expect(refundRecord(rest.data.refund_id)).toMatchObject({
			amount: 19.5,
			amountType: 'PARTIAL',
		});
		const nothingLeft = await createRefund(sb, { deposit_id: dep.id, amount: 0.01 });
		expect(nothingLeft.data.code).toBe(802);
		expect((await createRefund(sb, { deposit_id: dep.id })).data.code).toBe(802);
		// A cancelled refund gives its amount back.
		sb.control.advanceRefund(first.data.refund_id, 'CANCELLED');
		const again = await createRefund(sb, { deposit_id: dep.id });
		expect(refundRecord(again.data.refund_id)).toMatchObject({ amount: 30, amountType: 'PARTIAL' });
		expect(sb.control.deposits(1001).find((d) => d.idDeposit === dep.id)?.refundAttempted).toBe(
			true,
		);
	});

	it('a full refund by invoice_id (merchant invoice id of an API deposit) is FULL', async () => {
		const dep = await deposit('PX', 80.4);
		const res = await createRefund(sb, { invoice_id: dep.invoice });
		expect(res.status).toBe(201);
		expect(refundRecord(res.data.refund_id)).toMatchObject({
			idBoleto: dep.id,
			amount: 80.4,
			amountType: 'FULL',
		});
		const created = sb.control.createdRefunds().pop();
		expect(created).toMatchObject({
			refundId: res.data.refund_id,
			depositId: dep.id,
			merchantId: 1001,
			request: { invoice_id: dep.invoice },
			response: res.data,
			createdAt: NOW,
		});
		// A generated COMPLETED deposit can be named by its externalId too.
		const generated = sb.control
			.deposits(1001)
			.find((d) => d.status === 'COMPLETED' && d.paymentMethodCode === 'PX' && !d.refundAttempted);
		expect(generated).toBeDefined();
		const byExternal = await createRefund(sb, { invoice_id: generated?.externalId, amount: 1 });
		expect(byExternal.status).toBe(201);
		expect(refundRecord(byExternal.data.refund_id)?.idBoleto).toBe(generated?.idDeposit);
	});

	it('802 for a zero, negative, over-precise or non-numeric amount', async () => {
		const dep = await deposit('PX', 10);
		for (const amount of [0, -1, '1.234', 'abc', true]) {
			const res = await createRefund(sb, { deposit_id: dep.id, amount });
			expect(res.status).toBe(400);
			expect(res.data.code).toBe(802);
		}
		expect(sb.control.refunds(1001).some((r) => r.idBoleto === dep.id)).toBe(false);
	});

	it('104 on a reused idempotency key; a refused request does not use the key up', async () => {
		const dep = await deposit('PX', 50);
		const refused = await createRefund(
			sb,
			{ deposit_id: dep.id, amount: 500 },
			{ idempotencyKey: 'refund-key-1' },
		);
		expect(refused.data.code).toBe(802);
		expect(
			(
				await createRefund(
					sb,
					{ deposit_id: dep.id, amount: 5 },
					{ idempotencyKey: 'refund-key-1' },
				)
			).status,
		).toBe(201);
		const reused = await createRefund(
			sb,
			{ deposit_id: dep.id, amount: 6 },
			{ idempotencyKey: 'refund-key-1' },
		);
		expect(reused.status).toBe(400);
		expect(reused.data).toEqual({
			code: 104,
			description: expect.any(String),
			type: 'IDEMPOTENCY_KEY_ALREADY_USED',
		});
		expect(sb.control.refunds(1001).filter((r) => r.idBoleto === dep.id)).toHaveLength(1);
		// Deposits and refunds share one key space per merchant.
		await createDeposit(
			sb,
			{ amount: 5, country: 'BR', currency: 'BRL' },
			{ idempotencyKey: 'shared-key' },
		);
		expect(
			(await createRefund(sb, { deposit_id: dep.id, amount: 1 }, { idempotencyKey: 'shared-key' }))
				.data.code,
		).toBe(104);
		// Header checks are the deposit API's.
		expect(
			(await createRefund(sb, { deposit_id: dep.id, amount: 1 }, { idempotencyKey: null })).data
				.code,
		).toBe(101);
		expect(
			(await createRefund(sb, { deposit_id: dep.id, amount: 1 }, { secret: 'wrong' })).data.code,
		).toBe(102);
	});

	it('208 for unknown or foreign deposits; 300 for bad fields or a deposit that is not completed', async () => {
		const dep = await deposit('PX', 40);
		const unknown = await createRefund(sb, { deposit_id: 1, amount: 1 });
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({
			code: 208,
			description: expect.any(String),
			type: 'RESOURCE_NOT_FOUND',
		});
		const foreign = sb.control.deposits(2001).find((d) => d.status === 'COMPLETED');
		expect((await createRefund(sb, { deposit_id: foreign?.idDeposit, amount: 1 })).data.code).toBe(
			208,
		);
		expect((await createRefund(sb, { invoice_id: 'no-such-invoice' })).data.code).toBe(208);
		expect(
			(await createRefund(sb, { deposit_id: dep.id, invoice_id: 'another-invoice' })).data.code,
		).toBe(208);
		const missing = await createRefund(sb, { amount: 1 });
		expect(missing.status).toBe(400);
		expect(missing.data).toMatchObject({
			code: 300,
			type: 'INVALID_REQUEST',
			details: ['deposit_id: deposit_id or invoice_id is required'],
		});
		expect((await createRefund(sb, { deposit_id: '12' })).data.details).toEqual([
			'deposit_id: must be a positive integer',
		]);
		expect(
			(await createRefund(sb, { deposit_id: dep.id, notification_url: 'http://insecure.example' }))
				.data.details,
		).toEqual(['notification_url: must be a valid HTTPS URL']);
		const pending = await deposit('PX', 40, 'PENDING');
		const notCompleted = await createRefund(sb, { deposit_id: pending.id });
		expect(notCompleted.status).toBe(400);
		expect(notCompleted.data.details[0]).toContain('PENDING');
		const approved = await deposit('PX', 40, 'APPROVED');
		expect((await createRefund(sb, { deposit_id: approved.id })).status).toBe(201);
	});

	it('804 when a bank-transfer refund lacks a complete bank_account; the bank fields reach the record', async () => {
		const boleto = await deposit('BL', 120);
		const none = await createRefund(sb, { deposit_id: boleto.id, amount: 10 });
		expect(none.status).toBe(400);
		expect(none.data).toEqual({
			code: 804,
			description: expect.stringContaining('Boleto'),
			type: 'MISSING_BANK_ACCOUNT',
		});
		const partial = await createRefund(sb, {
			deposit_id: boleto.id,
			amount: 10,
			bank_account: { beneficiary: 'Ana Silva' },
		});
		expect(partial.data.code).toBe(804);
		expect(partial.data.description).toContain('bank_account.bank_code');
		expect(
			(
				await createRefund(sb, {
					deposit_id: boleto.id,
					amount: 10,
					bank_account: { ...BANK, bank_code: 999 },
				})
			).data.code,
		).toBe(300);
		const ok = await createRefund(sb, { deposit_id: boleto.id, amount: 10, bank_account: BANK });
		expect(ok.status).toBe(201);
		expect(refundRecord(ok.data.refund_id)).toMatchObject({
			type: 'BANK_TRANSFER',
			beneficiary: 'Ana Silva',
			bankCode: '341',
			bankName: 'Itaú Unibanco',
			branchNumber: '0001',
			bankAccount: '12345-6',
			accountType: 'C',
		});
		// Pix refunds need no bank account.
		const pix = await deposit('PX', 10);
		expect((await createRefund(sb, { deposit_id: pix.id })).status).toBe(201);
	});

	it('card deposits answer refund_info', async () => {
		const card = await deposit('VI', 75.9);
		const res = await createRefund(sb, { deposit_id: card.id, amount: 25 });
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			refund_id: expect.any(Number),
			refund_info: {
				type: 'CREDIT_CARD',
				result: 'SUCCESS',
				reason: expect.any(String),
				reason_code: expect.any(String),
				payment_method: 'VI',
				payment_method_name: 'Visa',
				amount: 25,
				currency: 'BRL',
				created_at: '2025-08-12 09:00:00',
			},
		});
		expect(refundRecord(res.data.refund_id)?.type).toBe('CREDIT_CARD');
	});

	it('status PENDING -> DELIVERED -> COMPLETED through control and the admin route; GET shows it; voucher', async () => {
		const dep = await deposit('PX', 60);
		const { data } = await createRefund(sb, { deposit_id: dep.id, amount: 60 });
		const id = data.refund_id as number;
		const status = async () => (await getRefund(sb, id)).data;
		expect(await status()).toEqual({
			deposit_id: dep.id,
			merchant_invoice_id: dep.invoice,
			status: 'PENDING',
			amount: 60,
		});
		sb.clock.advance(3_600_000);
		sb.control.advanceRefund(id, 'DELIVERED');
		expect((await status()).status).toBe('DELIVERED');
		expect(refundRecord(id)?.lastChangeDate).toBe('2025-08-12T10:00:00Z');
		const admin = await client(sb).post(`/_sandbox/refunds/${id}/advance`, { to: 'COMPLETED' });
		expect(admin.status).toBe(200);
		expect(admin.data).toMatchObject({ id, status: 'COMPLETED' });
		expect((await status()).status).toBe('COMPLETED');
		expect(() => sb.control.advanceRefund(id, 'DELIVERED')).toThrow(/cannot move from COMPLETED/);
		const refused = await client(sb).post(`/_sandbox/refunds/${id}/advance`, { to: 'PENDING' });
		expect(refused.status).toBe(400);
		expect((await client(sb).post(`/_sandbox/refunds/${id}/advance`, { to: 'DONE' })).status).toBe(
			400,
		);
		const voucher = await getRefund(sb, id, { voucher: true });
		expect(Buffer.from(voucher.data.voucher, 'base64').subarray(0, 8).toString()).toBe('%PDF-1.4');
		expect((await getRefund(sb, id)).data.voucher).toBeUndefined();
	});

	it('INCORRECT_DETAILS (listed as WAITING_DETAILS), REJECTED and CANCELLED', async () => {
		const dep = await deposit('PX', 90);
		const ids: number[] = [];
		for (let i = 0; i < 3; i++)
			ids.push((await createRefund(sb, { deposit_id: dep.id, amount: 10 })).data.refund_id);
		sb.control.advanceRefund(ids[0], 'INCORRECT_DETAILS');
		expect((await getRefund(sb, ids[0])).data.status).toBe('INCORRECT_DETAILS');
		expect(refundRecord(ids[0])?.status).toBe('WAITING_DETAILS');
		sb.control.advanceRefund(ids[0], 'PENDING');
		sb.control.advanceRefund(ids[1], 'DELIVERED');
		sb.control.advanceRefund(ids[1], 'REJECTED');
		sb.control.advanceRefund(ids[2], 'CANCELLED');
		expect((await getRefund(sb, ids[1])).data.status).toBe('REJECTED');
		expect((await getRefund(sb, ids[2])).data.status).toBe('CANCELLED');
		expect(() => sb.control.advanceRefund(999_999, 'DELIVERED')).toThrow(/unknown refund/);
	});

	it("GET: unknown or another merchant's refund -> 404/208", async () => {
		const missing = await getRefund(sb, 1);
		expect(missing.status).toBe(404);
		expect(missing.data).toMatchObject({ code: 208, type: 'RESOURCE_NOT_FOUND' });
		const foreign = sb.control.refunds(2001)[0];
		expect((await getRefund(sb, foreign.id)).status).toBe(404);
		expect((await getRefund(sb, 'abc')).status).toBe(404);
	});

	it('created refunds are listed by GET /v1/refund with idBoleto and amountType', async () => {
		const dep = await deposit('PX', 33);
		const res = await createRefund(sb, { deposit_id: dep.id, amount: 11 });
		const token = await login(sb);
		const list = await client(sb).get('/v1/refund', {
			params: windowEndingNow(sb, 1),
			headers: bearer(token),
		});
		expect(list.status).toBe(200);
		const listed = list.data.data.find((r: { id: number }) => r.id === res.data.refund_id);
		expect(listed).toMatchObject({
			idBoleto: dep.id,
			amount: 11,
			amountType: 'PARTIAL',
			status: 'PENDING',
			country: 'BR',
			paymentMethod: 'PX',
			idMerchant: 1001,
		});
		const pending = await client(sb).get('/v1/refund', {
			params: { ...windowEndingNow(sb, 1), status: 'PENDING' },
			headers: bearer(token),
		});
		expect(pending.data.data.map((r: { id: number }) => r.id)).toContain(res.data.refund_id);
	});

	it('with pluralRefundChargebackPaths the refund is listed by GET /v1/refunds', async () => {
		const plural = await startSandbox({
			now: NOW,
			days: 180,
			depositsPerDay: 1,
			cashoutsPerDay: 1,
			pluralRefundChargebackPaths: true,
		});
		try {
			const res = await createDeposit(plural, {
				amount: 20,
				country: 'BR',
				currency: 'BRL',
				payment_method: 'PX',
				payer: PAYER,
			});
			plural.control.setStatus('deposit', res.data.deposit_id, 'COMPLETED');
			const refund = await createRefund(plural, { deposit_id: res.data.deposit_id });
			const token = await login(plural);
			const list = await client(plural).get('/v1/refunds', {
				params: windowEndingNow(plural, 1),
				headers: bearer(token),
			});
			expect(list.data.data.map((r: { id: number }) => r.id)).toContain(refund.data.refund_id);
			expect(
				(
					await client(plural).get('/v1/refund', {
						params: windowEndingNow(plural, 1),
						headers: bearer(token),
					})
				).status,
			).toBe(404);
		} finally {
			await plural.close();
		}
	});
});
