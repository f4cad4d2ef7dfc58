import {
	NodeApiError,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import {
	PaymentsClient,
	type Clock,
	type RequestContext,
} from '../../../nodes/PaymentsService/transport/client';

/**
 * The client's retry loop on a clock the test owns (service rules §11): every wait is recorded, none
 * is waited, so `Retry-After` and backoff are checked to the millisecond in no time.
 */

/**
 * A scripted answer: an HTTP status (and headers), or a lost connection, thrown as axios throws it
 * or, with `n8n1`, as n8n 1.x's httpRequestWithAuthentication throws it.
 */
type Answer =
	{ status: number; headers?: IDataObject; body?: unknown } | { network: string; n8n1?: true };

/**
 * The NodeApiError n8n 1.x throws for a request that got no answer: its `cause` is gone (n8n-workflow
 * 1.x declares `cause` as a class field, which resets it after the constructor), its message is
 * n8n's ("The connection to the server was closed unexpectedly…"), and only `httpCode` keeps the code.
 */
function n8n1LostAnswer(node: INode, code: string): NodeApiError {
	const axiosError = Object.assign(new Error('socket hang up'), { code, isAxiosError: true });
	const error = new NodeApiError(node, axiosError as unknown as JsonObject);
	Object.defineProperty(error, 'cause', { value: undefined, writable: true });
	return error;
}

class FakeClock implements Clock {
	readonly waits: number[] = [];

	constructor(public time = Date.UTC(2026, 10, 23, 12)) {}

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		this.waits.push(ms);
		this.time += ms;
	}
}

/** A node context whose HTTP helper answers from `answers`, one per request, taking `latencyMs` of fake time each. */
function contextAnswering(answers: Answer[], clock: FakeClock, latencyMs = 0) {
	const sent: Array<{
		method: string;
		url: string;
		body: unknown;
		followsRedirects: boolean;
		at: number;
	}> = [];
	const node = {
		name: 'Payments Service',
		credentials: { paymentsServiceCashoutApi: { id: '1', name: 'c' } },
	} as unknown as INode;
	const context = {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: 'https://api.example.com' }),
		helpers: {
			async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions) {
				sent.push({
					method: String(options.method),
					url: String(options.url),
					body: options.body,
					followsRedirects: options.disableFollowRedirect !== true,
					at: clock.now(),
				});
				clock.time += latencyMs;
				const answer = answers.shift() ?? { status: 200, body: { ok: true } };
				if ('network' in answer && answer.n8n1) throw n8n1LostAnswer(node, answer.network);
				if ('network' in answer)
					throw Object.assign(new Error(`socket hang up (${answer.network})`), {
						code: answer.network,
					});
				return {
					statusCode: answer.status,
					headers: answer.headers ?? {},
					body: answer.body ?? {},
				};
			},
		},
	} as unknown as RequestContext;
	return { context, sent };
}

const read = {
	family: 'cashout',
	method: 'POST',
	path: '/v3/cashout/status',
	body: { cashout_id: 7 },
	repeat: 'safe',
} as const;
const change = {
	family: 'cashout',
	method: 'PUT',
	path: '/v3/cashout/status',
	body: { cashout_id: 7, status: 'ON_HOLD' },
} as const;
const failure = { action: 'Reading the status of cashout 7', itemIndex: 0 };

describe('PaymentsClient retries on its clock', () => {
	test('a 429 with Retry-After is waited exactly, then the read succeeds', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering(
			[
				{ status: 429, headers: { 'retry-after': '20' } },
				{ status: 200, body: { cashout_status: 0 } },
			],
			clock,
		);
		const answer = await new PaymentsClient(context, 'cashout', { clock }).request(read, failure);
		expect(answer).toEqual({ cashout_status: 0 });
		expect(clock.waits).toEqual([20_000]);
		expect(sent.map((request) => request.at - sent[0].at)).toEqual([0, 20_000]);
	});

	test('a Retry-After longer than 30 s is not waited: the read fails at once, naming the wait', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering(
			[{ status: 429, headers: { 'retry-after': '45' } }],
			clock,
		);
		await expect(
			new PaymentsClient(context, 'cashout', { clock }).request(read, failure),
		).rejects.toMatchObject({
			message: 'Reading the status of cashout 7 was refused: too many requests (429)',
			context: expect.objectContaining({ retryAfterSeconds: 45 }),
		});
		expect(sent).toHaveLength(1);
		expect(clock.waits).toEqual([]);
	});

	test('5xx and lost connections back off with jitter under 0.5 s, 1 s, 2 s, then the read succeeds', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering(
			[{ status: 503 }, { network: 'ECONNRESET' }, { status: 502 }, { status: 200 }],
			clock,
		);
		await new PaymentsClient(context, 'cashout', { clock }).request(read, failure);
		expect(sent).toHaveLength(4);
		expect(clock.waits).toHaveLength(3);
		clock.waits.forEach((wait, index) =>
			expect(wait).toBeLessThanOrEqual([500, 1_000, 2_000][index]),
		);
	});

	test('after 4 attempts the read fails, saying how many were made', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering(
			[{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }],
			clock,
		);
		await expect(
			new PaymentsClient(context, 'cashout', { clock }).request(read, failure),
		).rejects.toMatchObject({
			description: expect.stringContaining('Tried 4 times.'),
		});
		expect(sent).toHaveLength(4);
	});

	test('no attempt starts more than 60 s after the first', async () => {
		const clock = new FakeClock();
		// Each attempt takes 25 s to fail: the third would start after 50 s plus backoff, the fourth past 60 s.
		const { context, sent } = contextAnswering(
			[{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }],
			clock,
			25_000,
		);
		await expect(
			new PaymentsClient(context, 'cashout', { clock }).request(read, failure),
		).rejects.toThrow('Reading the status of cashout 7 failed (HTTP 503)');
		expect(sent.length).toBeLessThan(4);
		expect(sent.every((request) => request.at - sent[0].at < 60_000)).toBe(true);
	});

	test('a change (hold, release, cancel) is sent once, whatever the failure', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering([{ status: 503 }, { status: 200 }], clock);
		await expect(
			new PaymentsClient(context, 'cashout', { clock }).request(change, {
				action: 'Putting cashout 7 on hold',
				itemIndex: 0,
			}),
		).rejects.toThrow('Putting cashout 7 on hold failed (HTTP 503)');
		expect(sent).toHaveLength(1);
		expect(clock.waits).toEqual([]);
	});

	test('after a 429, the next request of the same client also waits until the service’s wait is over', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering(
			[{ status: 429, headers: { 'retry-after': '10' } }, { status: 200 }, { status: 200 }],
			clock,
		);
		const client = new PaymentsClient(context, 'cashout', { clock });
		await client.request(read, failure);
		await client.request(read, failure);
		expect(sent.map((request) => request.at - sent[0].at)).toEqual([0, 10_000, 10_000]);
	});

	describe("a creation that carries its key (repeat: 'keyed'): a 429 or a 503", () => {
		const creation = {
			family: 'cashout',
			method: 'POST',
			path: '/v3/cashout',
			body: { external_id: 'payout-7', amount: '250.00' },
			repeat: 'keyed',
		} as const;
		const creating = { action: 'Creating the cashout of item 0', itemIndex: 0 };
		const bodies = (sent: Array<{ body: unknown }>) => sent.map((request) => request.body);
		/** The error a request failed with (its `context.failure` is the failure as read). */
		const rejection = async (request: Promise<unknown>) =>
			(await request.then(
				() => {
					throw new Error('the request succeeded');
				},
				(caught: unknown) => caught,
			)) as { context: { failure: IDataObject } };

		test('a 429 without Retry-After is sent again after a backoff, the same body (the same key)', async () => {
			const clock = new FakeClock();
			const { context, sent } = contextAnswering(
				[{ status: 429 }, { status: 200, body: { cashout_id: '8405147' } }],
				clock,
			);
			const answer = await new PaymentsClient(context, 'cashout', { clock }).request(
				creation,
				creating,
			);
			expect(answer).toEqual({ cashout_id: '8405147' });
			expect(bodies(sent)).toEqual([creation.body, creation.body]);
			expect(clock.waits).toHaveLength(1);
			expect(clock.waits[0]).toBeLessThanOrEqual(500);
		});

		test('a 503 is sent again; a repeat answer to the resend says the first attempt may have acted', async () => {
			const clock = new FakeClock();
			const { context, sent } = contextAnswering(
				[
					{ status: 503 },
					{ status: 400, body: { code: 511, message: 'External ID already used' } },
				],
				clock,
			);
			const error = await rejection(
				new PaymentsClient(context, 'cashout', { clock }).request(creation, creating),
			);
			expect(error.context.failure).toMatchObject({
				code: 511,
				kind: 'keyAlreadyUsed',
				attempts: 2,
				earlierAttemptMayHaveActed: true,
			});
			expect(bodies(sent)).toEqual([creation.body, creation.body]);
		});

		test('a 429 before a repeat answer does not say an attempt may have acted (a 429 is never processed)', async () => {
			const clock = new FakeClock();
			const { context } = contextAnswering(
				[
					{ status: 429, headers: { 'retry-after': '1' } },
					{ status: 400, body: { code: 511, message: 'External ID already used' } },
				],
				clock,
			);
			const error = await rejection(
				new PaymentsClient(context, 'cashout', { clock }).request(creation, creating),
			);
			expect(error.context.failure.kind).toBe('keyAlreadyUsed');
			expect(error.context.failure.earlierAttemptMayHaveActed).toBeUndefined();
		});

		test.each([
			['a 500', { status: 500 }],
			['a 502', { status: 502 }],
			['a refusal', { status: 400, body: { code: 514, message: 'Insufficient funds' } }],
		] as Array<[string, Answer]>)(
			'%s is not sent again: its outcome is for the flow to report',
			async (_name, answer) => {
				const clock = new FakeClock();
				const { context, sent } = contextAnswering([answer, { status: 200 }], clock);
				await expect(
					new PaymentsClient(context, 'cashout', { clock }).request(creation, creating),
				).rejects.toThrow(/Creating the cashout of item 0/);
				expect(sent).toHaveLength(1);
			},
		);

		test.each([
			['a 503', { status: 503 }, 250],
			['a 429 without Retry-After', { status: 429 }, 250],
			['a 429 with Retry-After', { status: 429, headers: { 'retry-after': '5' } }, 5_000],
		] as Array<[string, Answer, number]>)(
			'%s pauses every request of the client: one started during the pause waits until it ends',
			async (_name, busy, pauseMs) => {
				jest.spyOn(Math, 'random').mockReturnValue(0.5);
				const clock = new FakeClock();
				const { context, sent } = contextAnswering([busy, { status: 200 }, { status: 200 }], clock);
				const client = new PaymentsClient(context, 'cashout', { clock });
				let second: Promise<unknown> | undefined;
				// Concurrent sleepers: each wakes at its own time, after the others had their turn.
				clock.sleep = async (ms) => {
					clock.waits.push(ms);
					const wake = clock.time + ms;
					// The second item starts once the first has its answer and begins to wait.
					second ??= client.request({ ...creation, body: { external_id: 'payout-8' } }, creating);
					await new Promise((resolve) => setImmediate(resolve));
					clock.time = Math.max(clock.time, wake);
				};
				await client.request(creation, creating);
				await second;
				const at = (externalId: string) =>
					sent
						.filter((request) => (request.body as IDataObject).external_id === externalId)
						.map((request) => request.at - sent[0].at);
				expect(at('payout-7')).toEqual([0, pauseMs]);
				expect(at('payout-8')).toEqual([pauseMs]);
				jest.restoreAllMocks();
			},
		);
	});

	describe("a request a resend cannot make twice (repeat: 'keyed' or 'targetStatus'): sent again when no answer came back", () => {
		const creation = {
			family: 'cashout',
			method: 'POST',
			path: '/v3/cashout',
			body: { external_id: 'payout-7', amount: '250.00' },
			repeat: 'keyed',
		} as const;
		const creating = { action: 'Creating the cashout of item 0', itemIndex: 0 };
		afterEach(() => jest.restoreAllMocks());

		test.each(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE'])(
			'after %s the same body (the same key) is sent again after 0.5 s, and every sending is counted',
			async (code) => {
				const clock = new FakeClock();
				const { context, sent } = contextAnswering(
					[{ network: code }, { status: 200, body: { cashout_id: '8405147' } }],
					clock,
				);
				let counted = 0;
				const answer = await new PaymentsClient(context, 'cashout', { clock }).request(
					creation,
					creating,
					{ onSend: () => counted++ },
				);
				expect(answer).toEqual({ cashout_id: '8405147' });
				expect(sent.map((request) => request.body)).toEqual([creation.body, creation.body]);
				expect(clock.waits).toEqual([500]);
				expect(counted).toBe(2);
			},
		);

		test('a lost answer as n8n 1.x reports it (no cause, the code in httpCode) is sent again too', async () => {
			const clock = new FakeClock();
			const { context, sent } = contextAnswering(
				[
					{ network: 'ECONNRESET', n8n1: true },
					{ status: 200, body: { cashout_id: '8405148' } },
				],
				clock,
			);
			const answer = await new PaymentsClient(context, 'cashout', { clock }).request(
				creation,
				creating,
			);
			expect(answer).toEqual({ cashout_id: '8405148' });
			expect(sent.map((request) => request.body)).toEqual([creation.body, creation.body]);
			expect(clock.waits).toEqual([500]);
		});

		test('two resends at most, after 0.5 s and then 0.5 to 1 s; the third lost answer fails the request, saying the service may have acted and how many times it was sent', async () => {
			jest.spyOn(Math, 'random').mockReturnValue(0.9);
			const clock = new FakeClock();
			const lost = { network: 'ECONNRESET' };
			const { context, sent } = contextAnswering([lost, lost, lost, { status: 200 }], clock);
			const error = (await new PaymentsClient(context, 'cashout', { clock })
				.request(creation, {
					...creating,
					unknownOutcome: () => 'The cashout may or may not have been created.',
				})
				.catch((caught: unknown) => caught)) as {
				message: string;
				description: string;
				context: { failure: IDataObject };
			};
			expect(sent).toHaveLength(3);
			expect(clock.waits).toEqual([500, 950]);
			expect(error.message).toBe(
				'Creating the cashout of item 0 failed: the payments service could not be reached (ECONNRESET)',
			);
			expect(error.description).toBe(
				'The cashout may or may not have been created. Tried 3 times.',
			);
			expect(error.context.failure).toMatchObject({
				attempts: 3,
				earlierAttemptMayHaveActed: true,
			});
		});

		test('a repeat answer (511) to the resend says the lost attempt may have acted: the flow reads it as its own', async () => {
			const clock = new FakeClock();
			const { context } = contextAnswering(
				[
					{ network: 'ECONNRESET' },
					{ status: 400, body: { code: 511, message: 'External ID already used' } },
				],
				clock,
			);
			const error = (await new PaymentsClient(context, 'cashout', { clock })
				.request(creation, creating)
				.catch((caught: unknown) => caught)) as { context: { failure: IDataObject } };
			expect(error.context.failure).toMatchObject({
				kind: 'keyAlreadyUsed',
				attempts: 2,
				earlierAttemptMayHaveActed: true,
			});
		});

		test('an HTTP answer is not a lost one: a 500 is reported at once, not sent again', async () => {
			const clock = new FakeClock();
			const { context, sent } = contextAnswering([{ status: 500 }, { status: 200 }], clock);
			await expect(
				new PaymentsClient(context, 'cashout', { clock }).request(creation, creating),
			).rejects.toThrow('Creating the cashout of item 0 failed (HTTP 500)');
			expect(sent).toHaveLength(1);
		});

		test('a hold whose answer was lost is sent again; a 503 to it is still reported at once', async () => {
			const clock = new FakeClock();
			const hold = { ...change, repeat: 'targetStatus' } as const;
			const holding = { action: 'Putting cashout 7 on hold', itemIndex: 0 };
			const lostFirst = contextAnswering(
				[{ network: 'ECONNRESET' }, { status: 200, body: { cashout_status: 5 } }],
				clock,
			);
			await expect(
				new PaymentsClient(lostFirst.context, 'cashout', { clock }).request(hold, holding),
			).resolves.toEqual({ cashout_status: 5 });
			expect(lostFirst.sent).toHaveLength(2);
			const busy = contextAnswering([{ status: 503 }, { status: 200 }], clock);
			await expect(
				new PaymentsClient(busy.context, 'cashout', { clock }).request(hold, holding),
			).rejects.toThrow('Putting cashout 7 on hold failed (HTTP 503)');
			expect(busy.sent).toHaveLength(1);
		});

		test('a lost answer pauses no other request of the client: the connection failed, not the service', async () => {
			const clock = new FakeClock();
			const { context, sent } = contextAnswering(
				[{ network: 'ECONNRESET' }, { status: 200 }, { status: 200 }],
				clock,
			);
			const client = new PaymentsClient(context, 'cashout', { clock });
			let second: Promise<unknown> | undefined;
			clock.sleep = async (ms) => {
				clock.waits.push(ms);
				second ??= client.request({ ...creation, body: { external_id: 'payout-8' } }, creating);
				await second;
				clock.time += ms;
			};
			await client.request(creation, creating);
			const at = (externalId: string) =>
				sent
					.filter((request) => (request.body as IDataObject).external_id === externalId)
					.map((request) => request.at - sent[0].at);
			expect(at('payout-8')).toEqual([0]);
			expect(at('payout-7')).toEqual([0, 500]);
		});
	});

	test('a request other than GET never follows a redirect: the 301 is reported with where it pointed and the fix; a GET follows them as n8n does', async () => {
		const clock = new FakeClock();
		const { context, sent } = contextAnswering(
			[
				{ status: 200 },
				{ status: 301, headers: { location: 'https://api.example.com/v3/cashout/status' } },
			],
			clock,
		);
		const client = new PaymentsClient(context, 'cashout', { clock });
		await client.request({ family: 'payments', method: 'GET', path: '/v3/refunds/7' }, failure);
		await expect(
			client.request(change, { action: 'Putting cashout 7 on hold', itemIndex: 0 }),
		).rejects.toMatchObject({
			message: 'Putting cashout 7 on hold failed (HTTP 301)',
			description: expect.stringContaining(
				'The service answered with a redirect to https://api.example.com/v3/cashout/status instead of acting on the request.',
			),
		});
		expect(sent.map((request) => [request.method, request.followsRedirects])).toEqual([
			['GET', true],
			['PUT', false],
		]);
	});
});
