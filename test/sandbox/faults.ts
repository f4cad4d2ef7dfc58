/**
 * Fault injection: answers chosen requests with an HTTP status or a socket reset, before the
 * handler runs ('before': nothing processed) or after it ('after': state changed, answer lost).
 */
import { DEFAULT_RETRY_AFTER_SECONDS } from './constants';
import { pathMatches } from './log';
import type { FaultInjector, FaultSpec } from './types';

interface ArmedFault {
	spec: FaultSpec;
	remaining: number;
	skip: number;
}

/** A fault chosen for one request, with its resolved answer. */
export interface AppliedFault {
	kind: 'status' | 'reset';
	phase: 'before' | 'after';
	status: number;
	headers: Record<string, string>;
	body: unknown;
	/** Label for the request log, e.g. 'status:429:before'. */
	label: string;
}

/** Default HTTP status of a 'status' fault without one. */
const DEFAULT_FAULT_STATUS = 500;

/**
 * A lost answer of Cashout → Create: the next `times` `POST /v3/cashout` requests that match
 * (`skip` let through first, or only those whose body includes `bodyIncludes`) are processed, the
 * cashout made, and their connection reset before the answer.
 */
export function lostCashoutAnswers(
	times: number,
	match: Pick<FaultSpec, 'skip' | 'bodyIncludes'> = {},
): FaultSpec {
	return { method: 'POST', path: '/v3/cashout', kind: 'reset', phase: 'after', times, ...match };
}

/** In-memory {@link FaultInjector}. Faults are tried in the order they were added. */
export class FaultRegistry implements FaultInjector {
	private armed: ArmedFault[] = [];

	/** Arms a fault; throws on an invalid spec (unknown kind/phase, bad status, times < 1). */
	add(spec: FaultSpec): void {
		if (spec.kind !== 'status' && spec.kind !== 'reset')
			throw new Error(`fault kind must be 'status' or 'reset'`);
		if (spec.phase !== undefined && spec.phase !== 'before' && spec.phase !== 'after')
			throw new Error(`fault phase must be 'before' or 'after'`);
		const status = spec.status ?? DEFAULT_FAULT_STATUS;
		if (spec.kind === 'status' && (!Number.isInteger(status) || status < 100 || status > 599))
			throw new Error(`invalid fault status ${status}`);
		const times = spec.times ?? 1;
		if (!Number.isInteger(times) || times < 1)
			throw new Error('fault times must be an integer >= 1');
		const skip = spec.skip ?? 0;
		if (!Number.isInteger(skip) || skip < 0) throw new Error('fault skip must be an integer >= 0');
		this.armed.push({ spec: { ...spec }, remaining: times, skip });
	}

	/** Disarms every fault. */
	clear(): void {
		this.armed = [];
	}

	/** Number of added fault specs not yet exhausted. */
	pending(): number {
		return this.armed.filter((a) => a.remaining > 0).length;
	}

	/**
	 * Called once per incoming request: the first armed fault matching `method`, `path`, `query` and
	 * `body` whose `skip` is used up applies (and is consumed); matching faults still skipping count
	 * this request.
	 */
	take(
		method: string,
		path: string,
		query: Record<string, string> = {},
		body = '',
	): AppliedFault | undefined {
		for (const a of this.armed) {
			if (a.remaining <= 0) continue;
			if (a.spec.method !== undefined && a.spec.method.toUpperCase() !== method.toUpperCase())
				continue;
			if (a.spec.path !== undefined && !pathMatches(path, a.spec.path)) continue;
			if (
				a.spec.query &&
				Object.entries(a.spec.query).some(([name, value]) => query[name] !== value)
			)
				continue;
			if (a.spec.bodyIncludes !== undefined && !body.includes(a.spec.bodyIncludes)) continue;
			if (a.skip > 0) {
				a.skip--;
				continue;
			}
			a.remaining--;
			this.armed = this.armed.filter((x) => x.remaining > 0);
			return resolve(a.spec);
		}
		return undefined;
	}
}

function resolve(spec: FaultSpec): AppliedFault {
	const phase = spec.phase ?? 'before';
	if (spec.kind === 'reset')
		return {
			kind: 'reset',
			phase,
			status: 0,
			headers: {},
			body: undefined,
			label: `reset:${phase}`,
		};
	const status = spec.status ?? DEFAULT_FAULT_STATUS;
	const headers: Record<string, string> = {};
	if (status === 429 || spec.retryAfterSeconds !== undefined) {
		headers['retry-after'] = String(spec.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
	}
	const body =
		spec.body !== undefined ? spec.body : { code: status, description: 'Injected fault (sandbox)' };
	return { kind: 'status', phase, status, headers, body, label: `status:${status}:${phase}` };
}
