import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { PACKAGE_NAME, type WorkflowJson } from './engine';
import { CREDENTIAL_IDS } from './fixtures';

export const TRIGGER_NODE = 'Payments Service Trigger';

/** A workflow with the Payments Service Trigger (session credential) followed by a No Op node. */
export function triggerWorkflow(
	parameters: INodeParameters,
	credentialId: string = CREDENTIAL_IDS.paymentsServiceSessionApi,
): WorkflowJson {
	return {
		id: 'wf-trigger',
		name: 'Trigger test',
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER_NODE,
				type: `${PACKAGE_NAME}.paymentsServiceTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: { paymentsServiceSessionApi: { id: credentialId, name: 'session' } },
			},
			{
				id: 'noop',
				name: 'Then',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER_NODE]: { main: [[{ node: 'Then', type: 'main', index: 0 }]] } },
	};
}

/** Everything jest's fake timers leave real when only `Date` is faked: sockets and timers keep working. */
export const REAL_TIMERS = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/**
 * One clock for the node and the sandbox: jest's fake `Date` (nothing else is faked, so sockets and
 * timers work) and the sandbox's manual clock always show the same time.
 */
export function sharedClock(sandbox: Sandbox, startMs: number) {
	const fake = (flowing: boolean) =>
		jest.useFakeTimers({ advanceTimers: flowing, doNotFake: [...REAL_TIMERS] });
	fake(false);
	const set = (ms: number) => {
		jest.setSystemTime(ms);
		sandbox.clock.set(ms);
	};
	set(startMs);
	return {
		now: () => sandbox.clock.now(),
		set,
		advance: (ms: number) => set(sandbox.clock.now() + ms),
		/** Lets the node's clock run with real time from now on (the sandbox's stays where it is). */
		flow: () => {
			const now = sandbox.clock.now();
			fake(true);
			jest.setSystemTime(now);
		},
		restore: () => jest.useRealTimers(),
	};
}
