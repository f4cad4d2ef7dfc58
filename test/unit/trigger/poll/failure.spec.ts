import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import { toNodeApiError } from '../../../../nodes/PaymentsService/transport/errors';
import {
	classifyServiceFailure,
	pollFailureOf,
	withPollFailure,
} from '../../../../nodes/PaymentsService/trigger/poll/failure';

/*
 * The class of a failed poll, for n8n's durable poll scheduler (trigger/poll/failure.ts). The engine
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

describe('poll failure classes', () => {
	test.each([
		[{ httpStatus: 429 }, { failureClass: 'rate-limited' }],
		[
			{ httpStatus: 429, retryAfterSeconds: 3 },
			{ failureClass: 'rate-limited', retryAfterMs: 3_000 },
		],
		[{ httpStatus: 502 }, { failureClass: 'temporarily-unavailable' }],
		[{ networkCode: 'ETIMEDOUT' }, { failureClass: 'temporarily-unavailable' }],
		[{ httpStatus: 401 }, { failureClass: 'credential-invalid' }],
		[{ httpStatus: 403, code: 83 }, { failureClass: 'credential-invalid' }],
		[{ httpStatus: 400, code: 11 }, { failureClass: 'credential-invalid' }],
		[{ httpStatus: 400, code: 17 }, { failureClass: 'configuration-invalid' }],
		[{ httpStatus: 404 }, { failureClass: 'configuration-invalid' }],
	])('%j is %j', (failure, expected) => {
		expect(classifyServiceFailure(failure)).toEqual(expected);
	});

	test('a NodeApiError the client built carries its failure; a fault of the node itself is node-defect', () => {
		const error = toNodeApiError(node, { httpStatus: 503 }, 'reporting', { action: 'Listing' });
		expect(pollFailureOf(error)).toEqual({ failureClass: 'temporarily-unavailable' });
		expect(pollFailureOf(new NodeOperationError(node, 'bad'))).toEqual({
			failureClass: 'configuration-invalid',
		});
		expect(pollFailureOf(new TypeError('x is not a function'))).toEqual({
			failureClass: 'node-defect',
		});
	});

	test('withPollFailure sets it once, enumerable, on the same error', () => {
		const error = new NodeApiError(node, { message: 'x' }, { httpCode: '500' });
		const marked = withPollFailure(error) as { pollFailure?: unknown };
		expect(marked).toBe(error);
		expect(Object.keys(marked)).toContain('pollFailure');
		const set = { pollFailure: { failureClass: 'quota-exhausted' } };
		expect(withPollFailure(set)).toEqual({ pollFailure: { failureClass: 'quota-exhausted' } });
	});
});
