/**
 * Per-request state shared by the server hooks and the routes (log entry, pending 'after' fault).
 */
import type { FastifyRequest } from 'fastify';
import type { AppliedFault } from './faults';
import type { RequestLogEntry } from './types';

/** State of one in-flight request. */
export interface RequestState {
	entry: RequestLogEntry;
	afterFault?: AppliedFault;
}

const states = new WeakMap<FastifyRequest, RequestState>();

/** Attaches state to a request. */
export function setRequestState(request: FastifyRequest, state: RequestState): void {
	states.set(request, state);
}

/** State of a request (undefined for admin routes, which are not logged). */
export function requestState(request: FastifyRequest): RequestState | undefined {
	return states.get(request);
}

/** Records the parsed multipart body of a request in its log entry. */
export function setMultipartLog(
	request: FastifyRequest,
	multipart: NonNullable<RequestLogEntry['multipart']>,
): void {
	const state = states.get(request);
	if (state) state.entry.multipart = multipart;
}
