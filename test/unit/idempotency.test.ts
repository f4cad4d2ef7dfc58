import { deriveIdempotencyKey, type IdempotencyScope } from '../../nodes/PaymentsService/helpers/idempotency';

const scope: IdempotencyScope = { workflowId: 'wf-1', executionId: '1001', nodeId: 'node-a', itemIndex: 0 };

describe('deriveIdempotencyKey', () => {
	test('the same scope gives the same key (a retried item is recognised)', () => {
		expect(deriveIdempotencyKey({ ...scope })).toBe(deriveIdempotencyKey({ ...scope }));
	});

	test('the key is n8n- followed by 40 lowercase hex characters', () => {
		const key = deriveIdempotencyKey(scope);
		expect(key).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(key).toHaveLength(44);
	});

	test.each([
		['item', { itemIndex: 1 }],
		['execution', { executionId: '1002' }],
		['node', { nodeId: 'node-b' }],
		['workflow', { workflowId: 'wf-2' }],
		['missing workflow', { workflowId: undefined }],
	])('another %s gives another key', (_what, change) => {
		expect(deriveIdempotencyKey({ ...scope, ...change })).not.toBe(deriveIdempotencyKey(scope));
	});

	test('fields do not run into each other (ids containing digits of the next field)', () => {
		const a = deriveIdempotencyKey({ workflowId: 'wf', executionId: '11', nodeId: 'n', itemIndex: 1 });
		const b = deriveIdempotencyKey({ workflowId: 'wf', executionId: '1', nodeId: '1n', itemIndex: 1 });
		expect(a).not.toBe(b);
	});

	test('without an execution id the key is random: two calls differ, both well-formed', () => {
		const first = deriveIdempotencyKey({ ...scope, executionId: undefined });
		const second = deriveIdempotencyKey({ ...scope, executionId: undefined });
		expect(first).not.toBe(second);
		expect(first).toMatch(/^n8n-[0-9a-f]{40}$/);
		expect(second).toMatch(/^n8n-[0-9a-f]{40}$/);
	});
});
