import { useFixture, type Fixture } from '../../harness/fixtures';
import {
	customPeriod,
	DAY,
	listWorkflow as anyList,
	nowSeconds,
	requestLines,
	windowsOf,
} from '../../harness/lists';
import { iso } from '../../harness/records';

/** Get Many of `resource` with Return All and `parameters`. */
const listWorkflow = (resource: string, parameters: Record<string, unknown>) =>
	anyList(resource, { returnAll: true, ...parameters });

/** Adds a COMPLETED deposit of MID 1002 at each of `seconds`; returns their ids. */
const addDeposits = (fx: Fixture, seconds: number[]) =>
	seconds.map(
		(second) =>
			fx.sandbox.control.addDeposit({
				idMerchant: 1002,
				creationDate: iso(second),
				status: 'COMPLETED',
			}).idDeposit,
	);

describe('paging on an empty merchant account (MID 1002) filled by the test', () => {
	// The session credential works under MID 1002, which has no generated data.
	const fx = useFixture({ merchantId: '1002' });
	let now: number;
	beforeAll(() => (now = nowSeconds(fx)));

	test('the credential’s merchant ID switches the new session to that MID right after login', async () => {
		const run = await fx.engine.run(listWorkflow('deposit', { period: 'last7Days' }));
		expect(run.error).toBeUndefined();
		expect(requestLines(fx).slice(0, 2)).toEqual([
			'POST /v1/auth/login 200',
			'POST /v1/auth/1002/switchContext 200',
		]);
		expect(fx.sandbox.control.activeSessions().map((session) => session.merchantId)).toContain(
			1002,
		);
	});

	test('a window of exactly 50 records asks for a second page, which is empty', async () => {
		const base = now - 3 * DAY;
		addDeposits(
			fx,
			Array.from({ length: 50 }, (_, index) => base + index * 60),
		);
		const run = await fx.engine.run(
			listWorkflow('deposit', customPeriod(base - 60, base + 50 * 60)),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service')).toHaveLength(50);
		const pages = fx.sandbox.log
			.find('GET', '/v1/deposits')
			.map((entry) => [entry.query.page, (entry.responseBody as { rows: number }).rows]);
		expect(pages).toEqual([
			['0', 50],
			['1', 0],
		]);
	});

	test('a record that moves to the next page while the list is read is output once', async () => {
		const base = now - 20 * DAY;
		for (let index = 0; index < 60; index++) {
			fx.sandbox.control.addCashout({ idMerchant: 1002, creationDate: iso(base + index * 60) });
		}
		fx.sandbox.setLatency(150);
		const running = fx.engine.run(listWorkflow('cashout', customPeriod(base - 60, base + 2 * DAY)));
		// As soon as page 0 was answered, a newer cashout arrives: every record shifts one place down.
		while (
			!fx.sandbox.log
				.find('GET', '/v1/cashouts')
				.some((entry) => entry.query.page === '0' && entry.status === 200)
		) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		const late = fx.sandbox.control.addCashout({ idMerchant: 1002, creationDate: iso(base + DAY) });
		const run = await running;
		fx.sandbox.setLatency(0);
		expect(run.error).toBeUndefined();
		const pages = fx.sandbox.log
			.find('GET', '/v1/cashouts')
			.map((entry) =>
				(entry.responseBody as { data: Array<{ idCashout: number }> }).data.map(
					(record) => record.idCashout,
				),
			);
		const seenTwice = pages[0].filter((id) => pages[1].includes(id));
		expect(seenTwice).toHaveLength(1);
		const emitted = run.output('Payments Service').map((item) => item.json.idCashout as number);
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(emitted).toHaveLength(60);
		expect(emitted).toContain(seenTwice[0]);
		expect(emitted).not.toContain(late.idCashout);
	});
});

describe('a service that ignores the interface’s status parameter', () => {
	// This sandbox honours only `status`, so the interface's `Status` on cashouts is ignored.
	const fx = useFixture({ sandbox: { statusParamName: 'status' } });

	test('the cashout status filter is still applied to the returned records', async () => {
		const now = nowSeconds(fx);
		const from = now - 30 * DAY;
		const run = await fx.engine.run(
			listWorkflow('cashout', { ...customPeriod(from, now), filters: { status: 'REJECTED' } }),
		);
		expect(run.error).toBeUndefined();
		const requests = fx.sandbox.log.find('GET', '/v1/cashouts');
		expect(requests[0].query.Status).toBe('REJECTED');
		const returnedStatuses = new Set(
			requests.flatMap((entry) =>
				(entry.responseBody as { data: Array<{ status: string }> }).data.map(
					(record) => record.status,
				),
			),
		);
		expect(returnedStatuses.size).toBeGreaterThan(1);
		const expected = fx.sandbox.control
			.cashouts(1001)
			.filter((cashout) => cashout.status === 'REJECTED')
			.filter(
				(cashout) =>
					Date.parse(cashout.creationDate) / 1000 >= from &&
					Date.parse(cashout.creationDate) / 1000 <= now,
			);
		const emitted = run.output('Payments Service');
		expect(emitted.length).toBe(expected.length);
		expect(emitted.every((item) => item.json.status === 'REJECTED')).toBe(true);
	});
});

describe('a service that serves refunds at the plural path of newer docs', () => {
	const fx = useFixture({ sandbox: { pluralRefundChargebackPaths: true } });

	test('the 404 on /v1/refund names /v1/refunds', async () => {
		const run = await fx.engine.run(listWorkflow('refund', { period: 'last7Days' }));
		expect(run.nodeError('Payments Service')).toMatchObject({
			name: 'NodeApiError',
			message: expect.stringMatching(/no \/v1\/refund \(404\).*\/v1\/refunds/),
		});
	});
});

describe('a day read with windows that follow the data (MID 1002, filled by the test)', () => {
	const fx = useFixture({ merchantId: '1002' });
	let now: number;
	beforeAll(() => (now = nowSeconds(fx)));
	beforeEach(() => fx.sandbox.setLatency(0));

	/** Creation seconds of `count` deposits in [start, start + DAY): evenly, or 80% in the 2 hours from 10:00. */
	const shapes = {
		uniform: (start: number, count: number) =>
			Array.from(
				{ length: count },
				(_, index) => start + Math.floor(((index + 0.5) * DAY) / count),
			),
		peaked: (start: number, count: number) =>
			Array.from({ length: count }, (_, index) =>
				index < count * 0.8
					? start + 10 * 3_600 + Math.floor(((index + 0.5) * 7_200) / (count * 0.8))
					: start + Math.floor(((index - count * 0.8 + 0.5) * DAY) / (count * 0.2)),
			),
		empty: () => [] as number[],
	};
	// Each case reads its own day, ending at its own "now" so late records land inside it.
	const cases = (['uniform', 'peaked', 'empty'] as const).flatMap((shape, shapeIndex) =>
		[1, 4, 8].map((concurrency, index) => ({
			shape,
			concurrency,
			daysBack: 3 + 3 * (shapeIndex * 3 + index),
		})),
	);

	test.each(cases)(
		'$shape day, Window Concurrency $concurrency: every deposit once, none missed, with deposits created during the read',
		async ({ shape, concurrency, daysBack }) => {
			const end = now - daysBack * DAY;
			const start = end - DAY + 1;
			const before = addDeposits(fx, shapes[shape](start, 1_500));
			fx.sandbox.setLatency(3);
			const running = fx.engine.run(
				listWorkflow('deposit', {
					...customPeriod(start, end),
					options: { windowConcurrency: concurrency },
				}),
			);
			// While the read runs, new deposits keep arriving at the newest end of the day: each one
			// pushes the records of the newest windows one place down their pages.
			const late: number[] = [];
			const answered = () =>
				fx.sandbox.log.find('GET', '/v1/deposits').filter((entry) => entry.status === 200).length;
			for (const after of shape === 'empty' ? [] : [1, 5, 12]) {
				while (answered() < after) await new Promise((resolve) => setTimeout(resolve, 1));
				late.push(...addDeposits(fx, [end - late.length]));
			}
			const run = await running;
			fx.sandbox.setLatency(0);
			expect(run.error).toBeUndefined();
			const emitted = run.output('Payments Service').map((item) => item.json.idDeposit as number);
			expect(new Set(emitted).size).toBe(emitted.length);
			const emittedSet = new Set(emitted);
			expect(before.filter((id) => !emittedSet.has(id))).toEqual([]);
			expect(emitted.filter((id) => !before.includes(id) && !late.includes(id))).toEqual([]);
			const requests = fx.sandbox.log.find('GET', '/v1/deposits');
			const windows = windowsOf(requests);
			if (shape === 'empty') expect(requests).toHaveLength(1);
			else if (concurrency === 1) expect(windows.size).toBe(1);
			else expect(windows.size).toBeGreaterThanOrEqual(concurrency);
			// No window reaches outside the day.
			for (const entry of requests) {
				expect(Number(entry.query.from)).toBeGreaterThanOrEqual(start);
				expect(Number(entry.query.to)).toBeLessThanOrEqual(end);
			}
		},
	);

	test('a Limit on a busy day stops as early as before: one window, the pages that hold the records asked for', async () => {
		const end = now - 40 * DAY;
		const start = end - DAY + 1;
		addDeposits(fx, shapes.uniform(start, 1_500));
		const run = await fx.engine.run(
			anyList('deposit', {
				returnAll: false,
				limit: 120,
				...customPeriod(start, end),
				options: { windowConcurrency: 8 },
			}),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service')).toHaveLength(120);
		const requests = fx.sandbox.log.find('GET', '/v1/deposits');
		expect(requests.map((entry) => entry.query.page)).toEqual(['0', '1', '2']);
		expect(windowsOf(requests)).toEqual(new Set([`${start}-${end}`]));
	});
});
