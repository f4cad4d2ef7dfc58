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

/**
 * Each reporting list of records: the path it is read from, its records in the sandbox (MID
 * 1001), and their date and id fields.
 */
export const SANDBOX_LISTS = {
	deposit: ['/v1/deposits', 'deposits', 'creationDate', 'idDeposit'],
	cashout: ['/v1/cashouts', 'cashouts', 'creationDate', 'idCashout'],
	refund: ['/v1/refund', 'refunds', 'date', 'id'],
	chargeback: ['/v1/chargeback', 'chargebacks', 'creationDate', 'idChargeback'],
	settlement: ['/v1/settlements', 'settlements', 'creationDate', 'id'],
	note: ['/v1/notes', 'notes', 'date', 'id'],
} as const;

/** A list of {@link SANDBOX_LISTS}. */
export type SandboxList = keyof typeof SANDBOX_LISTS;

/** The sandbox's records of `list` of MID 1001, as plain records. */
export const sandboxRecords = (fx: Fixture, list: SandboxList): Array<Record<string, unknown>> =>
	fx.sandbox.control[SANDBOX_LISTS[list][1]](1001) as unknown as Array<Record<string, unknown>>;
