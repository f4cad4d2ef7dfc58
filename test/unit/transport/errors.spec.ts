import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { meaningOf } from '../../../nodes/PaymentsService/codes/errorCodes';
import { SessionLoginError } from '../../../nodes/PaymentsService/auth/session';
import {
	classifyFailure,
	failureOf,
	isFailureKind,
	isServiceCode,
	readAnswer,
	readFailure,
	toNodeApiError,
	type ServiceFailure,
} from '../../../nodes/PaymentsService/transport/errors';

const node: INode = {
	id: '1',
	name: 'Payments Service',
	type: 'n8n-nodes-payments-service.paymentsService',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** An error shaped like the one axios throws for an HTTP failure, request config included. */
function axiosLikeError(status: number, data: unknown, headers: Record<string, unknown> = {}) {
	return Object.assign(new Error(`Request failed with status code ${status}`), {
		name: 'AxiosError',
		isAxiosError: true,
		code: status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
		config: {
			method: 'post',
			url: 'https://api.example.com/v3/cashout/cancel',
			headers: { Authorization: 'Bearer SECRET123', 'Payload-Signature': 'SECRET123sig' },
			data: '{"login":"merchant","pass":"SECRET123","cashout_id":1}',
		},
		request: { _header: 'POST /v3/cashout/cancel\r\nAuthorization: Bearer SECRET123\r\n' },
		response: { status, data, headers },
	});
}

describe('readFailure', () => {
	test('reads code, description, type and details from an axios-like error', () => {
		const failure = readFailure(
			axiosLikeError(400, {
				code: 300,
				description: 'Invalid params',
				type: 'INVALID_PARAMS',
				details: ['amount must be positive', 7],
			}),
		);
		expect(failure).toEqual({
			httpStatus: 400,
			code: 300,
			message: 'Invalid params',
			type: 'INVALID_PARAMS',
			details: ['amount must be positive', '7'],
		});
	});

	test('reads message when the body has no description, and a string code', () => {
		expect(
			readFailure(axiosLikeError(401, { code: 'UNAUTHORIZED', message: 'Session expired' })),
		).toEqual({
			httpStatus: 401,
			code: 'UNAUTHORIZED',
			message: 'Session expired',
		});
	});

	test('reads a JSON body that arrived as a string', () => {
		expect(readFailure(axiosLikeError(412, '{"code":510,"message":"Not pending"}'))).toEqual({
			httpStatus: 412,
			code: 510,
			message: 'Not pending',
		});
	});

	test('a non-JSON string body becomes the message, cut to 500 characters', () => {
		expect(readFailure(axiosLikeError(502, '<html>Bad Gateway</html>'))).toEqual({
			httpStatus: 502,
			message: '<html>Bad Gateway</html>',
		});
		expect(readFailure(axiosLikeError(502, 'x'.repeat(800))).message).toHaveLength(500);
	});

	test('Retry-After in seconds is read', () => {
		expect(
			readFailure(axiosLikeError(429, { message: 'slow down' }, { 'retry-after': '30' }))
				.retryAfterSeconds,
		).toBe(30);
		expect(readFailure(axiosLikeError(503, '', { 'Retry-After': '5' })).retryAfterSeconds).toBe(5);
	});

	test('Retry-After as an HTTP-date is turned into the seconds left', () => {
		const now = Date.UTC(2026, 0, 15, 12, 0, 0);
		const spy = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			const at = new Date(now + 90_000).toUTCString();
			expect(readFailure(axiosLikeError(429, {}, { 'retry-after': at })).retryAfterSeconds).toBe(
				90,
			);
			const past = new Date(now - 10_000).toUTCString();
			expect(readFailure(axiosLikeError(429, {}, { 'retry-after': past })).retryAfterSeconds).toBe(
				0,
			);
		} finally {
			spy.mockRestore();
		}
	});

	test('an unreadable Retry-After is ignored', () => {
		expect(
			'retryAfterSeconds' in readFailure(axiosLikeError(429, {}, { 'retry-after': 'soon' })),
		).toBe(false);
	});

	test('a plain wrapper whose cause is the axios-like error is read through', () => {
		const wrapper = Object.assign(new Error('wrapped'), {
			cause: axiosLikeError(412, { code: 509, message: 'Cashout not found' }),
		});
		expect(readFailure(wrapper)).toEqual({
			httpStatus: 412,
			code: 509,
			message: 'Cashout not found',
		});
	});

	test('a NodeApiError wrapping the axios-like error is read through its cause', () => {
		const wrapped = new NodeApiError(
			node,
			axiosLikeError(412, { code: 510, message: 'Not pending' }) as unknown as JsonObject,
		);
		expect(readFailure(wrapped)).toMatchObject({
			httpStatus: 412,
			code: 510,
			message: 'Not pending',
		});
	});

	test('a network error gives its code and no HTTP status', () => {
		const failure = readFailure({ code: 'ECONNRESET' });
		expect(failure.networkCode).toBe('ECONNRESET');
		expect(failure.httpStatus).toBeUndefined();
		const withMessage = readFailure(
			Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
		);
		expect(withMessage).toEqual({ networkCode: 'ECONNRESET', message: 'socket hang up' });
	});

	test('a network error inside a wrapper is found through the cause', () => {
		const wrapper = Object.assign(new Error('request failed'), {
			cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
		});
		expect(readFailure(wrapper).networkCode).toBe('ECONNREFUSED');
	});

	test('a session login error gives its status, code and the credential’s own message', () => {
		const error = new SessionLoginError(
			'Switching the session to merchant ID 9999 failed (HTTP 403, code 26): Insufficient privileges. Fix or clear the Merchant ID.',
			{
				step: 'switchContext',
				httpStatus: 403,
				code: 26,
				serviceMessage: 'Insufficient privileges',
			},
		);
		expect(readFailure(error)).toEqual({
			httpStatus: 403,
			code: 26,
			message: 'Insufficient privileges',
			networkCode: undefined,
			session: { step: 'switchContext', message: error.message },
		});
	});

	test('a session login error wrapped by n8n (NodeApiError, cause) is still found', () => {
		const login = new SessionLoginError('Login failed: the service answered HTTP 503.', {
			step: 'login',
			httpStatus: 503,
		});
		const wrapped = new NodeApiError(node, login as unknown as JsonObject);
		expect(readFailure(wrapped).session).toEqual({
			step: 'login',
			message: 'Login failed: the service answered HTTP 503.',
		});
		expect(readFailure(wrapped).httpStatus).toBe(503);
	});

	test('the failure read from an axios error carries nothing of the request', () => {
		const failure = readFailure(axiosLikeError(401, { code: 401, message: 'Invalid credentials' }));
		expect(JSON.stringify(failure)).not.toContain('SECRET123');
	});
});

describe('toNodeApiError', () => {
	test('the message names the action and the service code; the description gives the catalogued meaning', () => {
		const error = toNodeApiError(
			node,
			{ httpStatus: 412, code: 510, message: 'Cashout is not pending' },
			'cashout',
			{ action: 'Cancel cashout 123', itemIndex: 2 },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toContain('Cancel cashout 123');
		expect(error.message).toContain('510');
		expect(error.message).toContain('Cashout is not pending');
		expect(error.description).toContain('the status transition is not allowed');
		expect(error.context.itemIndex).toBe(2);
		expect(error.context.serviceCode).toBe(510);
		expect(error.httpCode).toBe('412');
	});

	test('the same code means different things per family (401 on cashout vs reporting)', () => {
		const cashout = toNodeApiError(node, { httpStatus: 401, code: 401 }, 'cashout', {
			action: 'Get cashout status',
		});
		const reporting = toNodeApiError(node, { httpStatus: 401, code: 401 }, 'reporting', {
			action: 'List deposits',
		});
		expect(cashout.description).toContain('cashout login or pass');
		expect(reporting.description).toContain('session expired');
	});

	test('a ticket failure with a reporting login code uses the reporting meaning', () => {
		const error = toNodeApiError(node, { httpStatus: 403, code: 83 }, 'tickets', {
			action: 'Create ticket',
		});
		expect(error.description).toContain('login refused from this location');
	});

	test('without a service code the message gives the HTTP status', () => {
		const error = toNodeApiError(node, { httpStatus: 404 }, 'reporting', {
			action: 'List refunds',
		});
		expect(error.message).toBe('List refunds failed (HTTP 404)');
	});

	test('deposit validation details are listed in the description', () => {
		const error = toNodeApiError(
			node,
			{
				httpStatus: 400,
				code: 300,
				message: 'Invalid request',
				details: ['payer.email is invalid', 'amount too low'],
			},
			'payments',
			{ action: 'Create deposit' },
		);
		expect(error.description).toContain('payer.email is invalid');
		expect(error.description).toContain('amount too low');
	});

	test('a 5xx says the service failed internally', () => {
		const error = toNodeApiError(node, { httpStatus: 503 }, 'reporting', {
			action: 'List deposits',
		});
		expect(error.description).toMatch(/failed internally.*503/);
	});

	test('429 mentions the wait in the description and sets context.retryAfterSeconds', () => {
		const error = toNodeApiError(node, { httpStatus: 429, retryAfterSeconds: 30 }, 'reporting', {
			action: 'List deposits',
			itemIndex: 0,
		});
		expect(error.message).toContain('List deposits');
		expect(error.message).toMatch(/too many requests/i);
		expect(error.description).toContain('wait 30 seconds');
		expect(error.context.retryAfterSeconds).toBe(30);
		expect(error.context.itemIndex).toBe(0);
	});

	test('429 without Retry-After says no wait was given', () => {
		const error = toNodeApiError(node, { httpStatus: 429 }, 'reporting', {
			action: 'List deposits',
		});
		expect(error.description).toContain('no wait time');
		expect(error.context.retryAfterSeconds).toBeUndefined();
	});

	test('the explain callback text becomes the message and the service text moves to the description', () => {
		const explain = jest.fn((failure: ServiceFailure) =>
			failure.code === 510
				? 'Cashout 123 cannot be put on hold: it is no longer pending'
				: undefined,
		);
		const error = toNodeApiError(
			node,
			{ httpStatus: 412, code: 510, message: 'Invalid status transition' },
			'cashout',
			{ action: 'Put cashout 123 on hold', explain },
		);
		expect(explain).toHaveBeenCalledTimes(1);
		expect(error.message).toBe('Cashout 123 cannot be put on hold: it is no longer pending');
		expect(error.description).toContain('Invalid status transition (510)');
	});

	test('an explain callback returning undefined keeps the general message', () => {
		const error = toNodeApiError(
			node,
			{ httpStatus: 412, code: 509, message: 'Not found' },
			'cashout',
			{ action: 'Cancel cashout 9', explain: () => undefined },
		);
		expect(error.message).toBe('Cancel cashout 9 failed: Not found (509)');
	});

	test('a network failure mentions the code and that the outcome is unknown', () => {
		const error = toNodeApiError(node, readFailure({ code: 'ECONNRESET' }), 'cashout', {
			action: 'Cancel cashout 5',
			itemIndex: 4,
		});
		expect(error.message).toContain('Cancel cashout 5');
		expect(error.message).toContain('ECONNRESET');
		expect(error.description).toMatch(/unknown whether/);
		expect(error.context.itemIndex).toBe(4);
	});

	test('a failure with neither status nor network code keeps the action and the message', () => {
		const error = toNodeApiError(node, { message: 'something odd' }, 'reporting', {
			action: 'Log in',
		});
		expect(error.message).toBe('Log in failed: something odd');
	});

	test('no secret of the request ever appears in the error', () => {
		const sources = [
			axiosLikeError(401, { code: 401, message: 'Invalid credentials' }),
			axiosLikeError(429, { message: 'slow' }, { 'retry-after': '3' }),
			axiosLikeError(500, 'Internal error'),
			new NodeApiError(
				node,
				axiosLikeError(412, { code: 510, message: 'Not pending' }) as unknown as JsonObject,
			),
			Object.assign(new Error('connect ECONNRESET'), {
				code: 'ECONNRESET',
				config: { headers: { Authorization: 'Bearer SECRET123' }, data: '{"pass":"SECRET123"}' },
			}),
		];
		for (const source of sources) {
			const error = toNodeApiError(node, readFailure(source), 'cashout', {
				action: 'Cancel cashout 1',
				itemIndex: 0,
			});
			expect(JSON.stringify(error)).not.toContain('SECRET123');
			expect(error.message).not.toContain('SECRET123');
			expect(String(error.description)).not.toContain('SECRET123');
			expect(JSON.stringify(error.context)).not.toContain('SECRET123');
			expect(JSON.stringify(error.cause ?? null)).not.toContain('SECRET123');
			expect(JSON.stringify(error.errorResponse ?? null)).not.toContain('SECRET123');
		}
	});
});

describe('readAnswer (HTTP errors returned as answers)', () => {
	test('reads the body of a cashout error and a Retry-After header of any case', () => {
		expect(readAnswer(412, { 'Retry-After': '7' }, { code: 510, message: 'Not pending' })).toEqual({
			httpStatus: 412,
			code: 510,
			message: 'Not pending',
			retryAfterSeconds: 7,
		});
	});

	test('reads a text body and an empty one', () => {
		expect(readAnswer(503, {}, 'upstream down')).toEqual({
			httpStatus: 503,
			message: 'upstream down',
		});
		expect(readAnswer(503, undefined, '')).toEqual({ httpStatus: 503 });
	});
});

describe('session failures in the error the user sees', () => {
	test('the credential’s message is the error message; the description says what was being done', () => {
		const failure = readFailure(
			new SessionLoginError(
				'Switching the session to merchant ID 9999 failed (HTTP 403, code 26): nope. Fix or clear the Merchant ID.',
				{
					step: 'switchContext',
					httpStatus: 403,
					code: 26,
					serviceMessage: 'nope',
				},
			),
		);
		const error = toNodeApiError(node, failure, 'reporting', {
			action: 'Listing deposit records (page 0)',
			itemIndex: 0,
		});
		expect(error.message).toBe(
			'Switching the session to merchant ID 9999 failed (HTTP 403, code 26): nope. Fix or clear the Merchant ID.',
		);
		expect(error.description).toContain(
			'while opening the session for: Listing deposit records (page 0)',
		);
		expect(error.description).toContain('lacks the privileges');
		expect(error.context.sessionStep).toBe('switchContext');
	});
});

describe('isServiceCode', () => {
	test('compares the service code of a NodeApiError as text', () => {
		const error = toNodeApiError(node, { httpStatus: 400, code: 104 }, 'payments', {
			action: 'Create deposit',
		});
		expect(isServiceCode(error, 104)).toBe(true);
		expect(isServiceCode(error, '104')).toBe(true);
		expect(isServiceCode(error, 105, 104)).toBe(true);
		expect(isServiceCode(error, 105)).toBe(false);
	});

	test('is false for errors without a code and for other errors', () => {
		expect(
			isServiceCode(toNodeApiError(node, { httpStatus: 503 }, 'payments', { action: 'x' }), 503),
		).toBe(false);
		expect(isServiceCode(new Error('104'), 104)).toBe(false);
	});
});

describe('the meanings of the creation codes (service rules §4, §6.2, §7)', () => {
	test.each([
		['cashout', 303, /bank code is not one of the banks/],
		['cashout', 508, /above a limit/],
		['cashout', 511, /external ID was already used .* no new cashout was created/],
		['cashout', 514, /insufficient funds/],
		['cashout', 533, /below the minimum/],
		['cashout', 540, /e-mail or phone is required/],
		['payments', 104, /deposit or refund was created by an earlier attempt/],
		['payments', 802, /cannot be refunded/],
		['payments', 804, /bank account .* is missing/],
	] as const)('%s %s', (family, code, meaning) => {
		expect(meaningOf(family, code)).toMatch(meaning);
	});

	test('a code means something only within its family: 802 is a refund amount in payments, not a cashout code', () => {
		expect(meaningOf('cashout', 802)).toBeUndefined();
		expect(meaningOf('payments', 511)).toBeUndefined();
	});
});

describe('classifyFailure: every answer is one kind, whatever the API family (service rules §4)', () => {
	test.each([
		[{ networkCode: 'ECONNRESET' }, 'payments', 'unreachable'],
		[{ httpStatus: 429, retryAfterSeconds: 2 }, 'reporting', 'rateLimited'],
		[{ httpStatus: 503 }, 'cashout', 'serverError'],
		[{ httpStatus: 400, code: 104 }, 'payments', 'keyAlreadyUsed'],
		[{ httpStatus: 400, code: 511 }, 'cashout', 'keyAlreadyUsed'],
		[{ httpStatus: 400, code: 104 }, 'cashout', 'refused'],
		[{ httpStatus: 412, code: 510 }, 'cashout', 'invalidTransition'],
		[{ httpStatus: 412, code: 509 }, 'cashout', 'notFound'],
		[{ httpStatus: 404, code: 208 }, 'payments', 'notFound'],
		[{ httpStatus: 404, code: 'NOT_FOUND' }, 'tickets', 'notFound'],
		[{ httpStatus: 404 }, 'reporting', 'notFound'],
		[
			{ httpStatus: 400, message: 'Beneficiary refused: USER_REJECTED_KYC_CHECK' },
			'cashout',
			'kycRejected',
		],
		[{ httpStatus: 400, code: 300, message: 'Invalid params' }, 'cashout', 'refused'],
	] as const)('%j from %s is %s', (failure, family, kind) => {
		expect(classifyFailure(failure, family)).toBe(kind);
	});

	test('an error built from an answer carries its kind, and isFailureKind reads it', () => {
		const error = toNodeApiError(node, { httpStatus: 400, code: 511 }, 'cashout', {
			action: 'Creating',
		});
		expect(isFailureKind(error, 'keyAlreadyUsed')).toBe(true);
		expect(isFailureKind(error, 'notFound')).toBe(false);
		expect(failureOf(error)).toMatchObject({ httpStatus: 400, code: 511, kind: 'keyAlreadyUsed' });
	});
});
