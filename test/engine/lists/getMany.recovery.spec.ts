import type { FaultSpec } from '../../sandbox';
import { Rng } from '../../sandbox/data';
import {
	dropSessionToken,
	storeSandboxCredentials,
	useFixture,
	type Fixture,
} from '../../harness/fixtures';
import { fakeDate, realDate } from '../../harness/clock';
import {
	customPeriod,
	DAY,
	listWorkflow as anyList,
	nowSeconds,
	requestLines,
} from '../../harness/lists';
import { expectedList } from '../../harness/records';

/** Deposit → Get Many with Return All and `parameters`. */
const listWorkflow = (parameters: Record<string, unknown>) =>
	anyList('deposit', { returnAll: true, ...parameters });

const listRequests = (fx: Fixture) => fx.sandbox.log.find('GET', '/v1/deposits');
const logins = (fx: Fixture) => fx.sandbox.log.find('POST', '/v1/auth/login');

/** Resolves once `count` list requests reached the sandbox. */
async function listRequestsReached(fx: Fixture, count: number): Promise<void> {
	while (listRequests(fx).length < count) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('list reads that recover by themselves', () => {
	const fx = useFixture({ sandbox: { days: 370 } });
	let now: number;
	let yearWorkflow: ReturnType<typeof listWorkflow>;
	let yearOfDeposits: number[];

	beforeAll(() => {
		now = nowSeconds(fx);
		const from = now - 360 * DAY;
		yearWorkflow = listWorkflow({ ...customPeriod(from, now), options: { windowConcurrency: 4 } });
		yearOfDeposits = expectedList(
			fx.sandbox.control.deposits(1001),
			'creationDate',
			'idDeposit',
			from,
			now,
		).map((deposit) => deposit.idDeposit);
	});
	beforeEach(() => fx.sandbox.setLatency(0));

	test('a year-long read with 429s, 503s and resets on random pages returns exactly the dataset', async () => {
		expect(yearOfDeposits.length).toBeGreaterThan(8_000);
		const rng = new Rng(7);
		const kinds: Array<Omit<FaultSpec, 'skip'>> = [
			{ method: 'GET', path: '/v1/deposits', kind: 'status', status: 429, retryAfterSeconds: 0 },
			{ method: 'GET', path: '/v1/deposits', kind: 'status', status: 503 },
			{ method: 'GET', path: '/v1/deposits', kind: 'reset' },
			{ method: 'GET', path: '/v1/deposits', kind: 'status', status: 502, phase: 'after' },
		];
		for (let index = 0; index < 12; index++)
			fx.sandbox.faults.add({ ...kinds[index % kinds.length], skip: rng.int(0, 200) });

		const run = await fx.engine.run(yearWorkflow);

		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service').map((item) => item.json.idDeposit)).toEqual(
			yearOfDeposits,
		);
		const requests = listRequests(fx);
		expect(requests.filter((entry) => entry.fault).length).toBe(12);
		// Every page was answered once with its records (a retried page is not read twice).
		const pagesServed = requests
			.filter((entry) => entry.status === 200 && !entry.fault)
			.map((entry) => `${entry.query.from}-${entry.query.to}:${entry.query.page}`);
		expect(new Set(pagesServed).size).toBe(pagesServed.length);
	});

	test('after a read fails for good, no new request starts; the error names the window and the page', async () => {
		fx.sandbox.setLatency(15);
		// Page 5 of every window fails on every attempt; the first window to get there fails the read.
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v1/deposits',
			query: { page: '5' },
			kind: 'status',
			status: 503,
			times: 100,
		});

		const run = await fx.engine.run(yearWorkflow);

		const error = run.nodeError('Payments Service');
		expect(error?.message).toMatch(
			/^Listing deposit records created \S+ – \S+ \(page \d+\) failed: .*\(503\)$/,
		);
		expect((error as { description?: string }).description).toMatch(/Tried 4 times/);
		const requests = listRequests(fx);
		// The window that failed for good tried its page 5 four times; when that fourth answer left,
		// the read was over.
		const failures = requests.filter((entry) => entry.fault);
		const attemptsByWindow = new Map<string, typeof failures>();
		for (const entry of failures)
			attemptsByWindow.set(entry.query.from, [
				...(attemptsByWindow.get(entry.query.from) ?? []),
				entry,
			]);
		const finalAnswers = [...attemptsByWindow.values()]
			.filter((attempts) => attempts.length === 4)
			.map((attempts) => attempts[3])
			.sort((a, b) => a.answeredSeq! - b.answeredSeq!);
		expect(finalAnswers.length).toBeGreaterThanOrEqual(1);
		expect([...attemptsByWindow.values()].every((attempts) => attempts.length <= 4)).toBe(true);
		const lastFailure = finalAnswers[0];
		// Only requests already on their way when the first final failure was answered may follow it
		// (requests in flight are awaited, not cancelled): at most one per other window in flight.
		// Another window may fail for good as well, with such a request. The sandbox numbers requests
		// as they arrive, so one the node sent before it read that answer can arrive just after it
		// (it did on a loaded machine): only their number is judged, not their order.
		const after = requests.filter((entry) => entry.seq > lastFailure.answeredSeq!);
		expect(after.length).toBeLessThanOrEqual(3);
		expect(requests.length).toBeLessThan(8 * 6 + 3 * 4);
		expect(yearOfDeposits.length / 50).toBeGreaterThan(160);
	});

	test('with automatic retries off, the first failure stops the read at once', async () => {
		fx.sandbox.setLatency(15);
		fx.sandbox.faults.add({
			method: 'GET',
			path: '/v1/deposits',
			kind: 'status',
			status: 429,
			retryAfterSeconds: 1,
			skip: 20,
		});
		const workflow = listWorkflow({
			...customPeriod(now - 360 * DAY, now),
			options: { windowConcurrency: 4, retryReads: false },
		});

		const run = await fx.engine.run(workflow);

		expect(run.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(/\(page \d+\) was refused: too many requests \(429\)/),
			context: expect.objectContaining({ retryAfterSeconds: 1 }),
		});
		const requests = listRequests(fx);
		const failure = requests.find((entry) => entry.fault)!;
		expect(requests.filter((entry) => entry.seq > failure.answeredSeq!).length).toBeLessThanOrEqual(
			3,
		);
		expect(requests.length).toBeLessThanOrEqual(21 + 3);
	});

	test('a session lost in the middle of a read at concurrency 4 costs one login', async () => {
		fx.sandbox.setLatency(10);
		const running = fx.engine.run(yearWorkflow);
		await listRequestsReached(fx, 20);
		const loginsBefore = logins(fx).length;
		// Another workflow's Log Out, or a restart on the service side.
		fx.sandbox.control.expireSessions();

		const run = await running;

		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service').map((item) => item.json.idDeposit)).toEqual(
			yearOfDeposits,
		);
		expect(logins(fx).length - loginsBefore).toBe(1);
		const refused = listRequests(fx).filter((entry) => entry.status === 401);
		expect(refused.length).toBeGreaterThanOrEqual(1);
		expect(refused.length).toBeLessThanOrEqual(5);
	});
});

describe('login and merchant-switch failures reach the user with their own message', () => {
	const fx = useFixture();
	let now: number;

	beforeAll(() => {
		now = nowSeconds(fx);
		// n8n's clock stands at the sandbox's: the login retries' backoffs end at once
		// (test/setup/n8nSleep.ts). The reads above keep real time: which requests start while a
		// failure is on its way back depends on how long the backoffs last.
		fakeDate(fx.sandbox.clock.now());
	});
	afterAll(() => realDate());

	const ninetyDays = () => listWorkflow(customPeriod(now - 90 * DAY, now));

	test('a Merchant ID the API user does not belong to names the merchant switch and the fix', async () => {
		storeSandboxCredentials(fx.engine, fx.sandbox, '9999');
		const run = await fx.engine.run(ninetyDays());
		expect(run.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(
				/^Switching the session to merchant ID 9999 failed \(HTTP 403, code 26\).*fix or clear the Merchant ID of the credential\.$/,
			),
			description: expect.stringMatching(
				/while opening the session for: Listing deposit records .* \(page 0\)/,
			),
		});
		// One login, one refused switch; the read stopped there.
		expect(requestLines(fx)).toEqual([
			'POST /v1/auth/login 200',
			'POST /v1/auth/9999/switchContext 403',
		]);
		storeSandboxCredentials(fx.engine, fx.sandbox);
	});

	test('a login answered with a 5xx says the login failed, and is retried', async () => {
		dropSessionToken(fx);
		fx.sandbox.faults.add({
			method: 'POST',
			path: '/v1/auth/login',
			kind: 'status',
			status: 503,
			times: 10,
		});
		const run = await fx.engine.run(singleBalanceRead());
		expect(run.nodeError('Payments Service')).toMatchObject({
			message: expect.stringMatching(
				/^Login failed: the service answered HTTP 503.*try again later\.$/,
			),
			description: expect.stringMatching(
				/while opening the session for: Reading the available balance.*Tried 4 times/,
			),
		});
		expect(fx.sandbox.log.find('POST', '/v1/auth/login')).toHaveLength(4);
		expect(fx.sandbox.log.find('GET', '/v1/balance')).toHaveLength(0);

		// One failed login, then the service is back: the read succeeds.
		fx.sandbox.log.clear();
		fx.sandbox.faults.clear();
		fx.sandbox.faults.add({ method: 'POST', path: '/v1/auth/login', kind: 'status', status: 503 });
		const recovered = await fx.engine.run(singleBalanceRead());
		expect(recovered.error).toBeUndefined();
		expect(requestLines(fx)).toEqual([
			'POST /v1/auth/login 503',
			'POST /v1/auth/login 200',
			'GET /v1/balance 200',
		]);
	});
});

function singleBalanceRead() {
	return anyList('balance', {}, 'get');
}
