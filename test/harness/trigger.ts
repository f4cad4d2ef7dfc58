import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import type { WorkflowJson } from './engine';
import { PACKAGE_NAME } from './packageInfo';
import { fakeDate, realDate, setDate } from './clock';
import { CREDENTIAL_IDS } from './fixtures';

export const TRIGGER_NODE = 'Payments Service Trigger';

/**
 * A workflow with the Payments Service Trigger (session credential) followed by a No Op node; the
 * trigger of `typeVersion` 1 unless told (the version saved workflows have).
 */
export function triggerWorkflow(
	parameters: INodeParameters,
	credentialId: string = CREDENTIAL_IDS.paymentsServiceSessionApi,
	typeVersion = 1,
): WorkflowJson {
	return {
		id: 'wf-trigger',
		name: 'Trigger test',
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER_NODE,
				type: `${PACKAGE_NAME}.paymentsServiceTrigger`,
				typeVersion,
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

/**
 * One clock for the node and the sandbox: a fake `Date` (nothing else is faked, so sockets and
 * timers work; see ./clock.ts) and the sandbox's manual clock always show the same time.
 */
export function sharedClock(sandbox: Sandbox, startMs: number) {
	const set = (ms: number) => {
		setDate(ms);
		sandbox.clock.set(ms);
	};
	fakeDate(startMs);
	set(startMs);
	return {
		now: () => sandbox.clock.now(),
		set,
		advance: (ms: number) => set(sandbox.clock.now() + ms),
		/** Lets the node's clock run with real time from now on (the sandbox's stays where it is). */
		flow: () => fakeDate(sandbox.clock.now(), { flowing: true }),
		restore: () => realDate(),
	};
}
