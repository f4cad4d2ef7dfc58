/** What the engine specs of the reporting lists share: their workflow, periods, and how they read the requests. */
import type { RequestLogEntry } from '../sandbox/types';
import { nodeWorkflow, type Fixture } from './fixtures';
import { iso } from './records';

/** Seconds in a day. */
export const DAY = 86_400;

/**
 * A workflow of one Payments Service node with the Session credential: `resource` → `operation`
 * (default Get Many) with `parameters`, `settings` on the workflow when given.
 */
export const listWorkflow = (
	resource: string,
	parameters: Record<string, unknown>,
	operation = 'getMany',
	settings?: Record<string, unknown>,
) =>
	nodeWorkflow({ resource, operation, ...parameters }, 'paymentsServiceSessionApi', {
		name: `${resource} ${operation}`,
		settings,
	});

/** A custom period from `from` to `to` (Unix seconds), as the node's parameters. */
export const customPeriod = (from: number, to: number) => ({
	period: 'custom',
	createdFrom: iso(from),
	createdTo: iso(to),
});

/** The sandbox's clock in Unix seconds. */
export const nowSeconds = (fx: Fixture) => Math.floor(fx.sandbox.clock.now() / 1000);

/** The requests the sandbox received, as `METHOD path status` lines, in order. */
export const requestLines = (fx: Fixture) =>
	fx.sandbox.log.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

/** The windows `requests` asked for, as `from-to` texts (Unix seconds), each once. */
export const windowsOf = (requests: RequestLogEntry[]) =>
	new Set(requests.map((entry) => `${String(entry.query.from)}-${String(entry.query.to)}`));
