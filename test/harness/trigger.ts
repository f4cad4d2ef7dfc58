import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import type { WorkflowJson } from './engine';
import { PACKAGE_NAME } from './packageInfo';
import { fakeDate, realDate, setDate } from './clock';
import { CREDENTIAL_IDS, startFixture, storeSandboxCredentials, type Fixture } from './fixtures';
import { iso } from './records';

export const TRIGGER_NODE = 'Payments Service Trigger';

/** Milliseconds of a second, a minute, an hour and a day: the trigger specs' clocks count in them. */
export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The merchant account the trigger specs make every record in (empty in the generated data). */
export const MID = 1002;
/** When the trigger specs' sandbox starts, unless a spec needs another time. */
export const TRIGGER_START = Date.UTC(2026, 10, 2, 12, 0, 0);

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

/** The shared clock of {@link sharedClock}. */
export type SharedClock = ReturnType<typeof sharedClock>;

/** What a trigger spec works in: the fixture and the clock the node and the sandbox share. */
export interface TriggerWorld {
	fx: Fixture;
	clock: SharedClock;
}

/**
 * A trigger spec's world, started before each test (or, `once`, before the describe block's first)
 * and closed after it: the sandbox without generated history at `startMs`, the Session credential
 * under merchant `merchantId` (an empty account: every record is the test's), and one clock for the
 * node and the sandbox. `take` receives it each time it starts. Call inside the `describe`.
 */
export function useTriggerWorld(
	startMs: number,
	take: (world: TriggerWorld) => void,
	options: { merchantId?: number; once?: boolean } = {},
): void {
	let world: TriggerWorld | undefined;
	(options.once ? beforeAll : beforeEach)(async () => {
		const fx = await startFixture({
			sandbox: { now: startMs, depositsPerDay: 0, cashoutsPerDay: 0 },
		});
		storeSandboxCredentials(fx.engine, fx.sandbox, String(options.merchantId ?? MID));
		world = { fx, clock: sharedClock(fx.sandbox, startMs) };
		take(world);
	});
	(options.once ? afterAll : afterEach)(async () => {
		world?.clock.restore();
		await world?.fx.close();
	});
}

/**
 * A cashout of merchant `merchantId` created `ageMs` before `world`'s clock (its lastChangeDate is
 * when it was added), with `extra` fields.
 */
export function addCashout(
	world: TriggerWorld,
	ageMs = 0,
	extra: Record<string, unknown> = {},
	merchantId = MID,
) {
	return world.fx.sandbox.control.addCashout({
		idMerchant: merchantId,
		creationDate: iso(Math.floor((world.clock.now() - ageMs) / 1000)),
		...extra,
	});
}
