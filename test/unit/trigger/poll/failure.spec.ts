import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import { toNodeApiError } from '../../../../nodes/PaymentsService/transport/errors';
import {
	failureOfPoll,
	failureOfRequest,
	withFailure,
} from '../../../../nodes/PaymentsService/trigger/poll/failure';

/*
 * Why a poll failed, for n8n's durable poll scheduler (trigger/poll/failure.ts). The engine
 * spec (test/engine/trigger/poll/memory.spec.ts) polls against the sandbox's faults; these are the
 * cases the sandbox does not make.
 */

const node = {
	name: 'Trigger',
	type: 't',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
} as INode;

describe('poll failure causes', () => {
	test.each([
		[{ httpStatus: 429 }, { cause: 'rate-limited' }],
		[
			{ httpStatus: 429, retryAfterSeconds: 3 },
			{ cause: 'rate-limited', retryAfterMs: 3_000 },
		],
		[{ httpStatus: 502 }, { cause: 'temporarily-unavailable' }],
		[{ networkCode: 'ETIMEDOUT' }, { cause: 'temporarily-unavailable' }],
		[{ httpStatus: 401 }, { cause: 'credential-invalid' }],
		[{ httpStatus: 403, code: 83 }, { cause: 'credential-invalid' }],
		[{ httpStatus: 400, code: 11 }, { cause: 'credential-invalid' }],
		[{ httpStatus: 400, code: 17 }, { cause: 'configuration-invalid' }],
		[{ httpStatus: 404 }, { cause: 'configuration-invalid' }],
	])('%j is %j', (failure, expected) => {
		expect(failureOfRequest(failure)).toEqual(expected);
	});

	test('a NodeApiError the client built carries its failure; a fault of the node itself is node-defect', () => {
		const error = toNodeApiError(node, { httpStatus: 503 }, 'reporting', { action: 'Listing' });
		expect(failureOfPoll(error)).toEqual({ cause: 'temporarily-unavailable' });
		expect(failureOfPoll(new NodeOperationError(node, 'bad'))).toEqual({
			cause: 'configuration-invalid',
		});
		expect(failureOfPoll(new TypeError('x is not a function'))).toEqual({
			cause: 'node-defect',
		});
	});

	test('withFailure sets it on the same error, and keeps a failure the error already declares', () => {
		const error = new NodeApiError(node, { message: 'x' }, { httpCode: '500' });
		const marked = withFailure(error) as { failure?: unknown };
		expect(marked).toBe(error);
		expect(marked.failure).toEqual({ cause: 'node-defect' });
		const declared = { failure: { cause: 'quota-exhausted' } };
		expect(withFailure(declared)).toEqual({ failure: { cause: 'quota-exhausted' } });
	});
});
