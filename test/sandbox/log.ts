/**
 * Request log of the sandbox: every non-admin request, with the exact raw body, the multipart
 * summary, the status and body sent, and the fault applied (if any).
 */
import { plainCopy } from './copy';
import type { RequestLog, RequestLogEntry } from './types';

/**
 * Whether `path` matches `pattern`: RegExp -> `test`; string -> exact match, where `*` stands for
 * one path segment (any characters except '/').
 */
export function pathMatches(path: string, pattern: string | RegExp): boolean {
	if (pattern instanceof RegExp) {
		pattern.lastIndex = 0;
		return pattern.test(path);
	}
	if (!pattern.includes('*')) return path === pattern;
	const source = pattern
		.split('*')
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
		.join('[^/]*');
	return new RegExp(`^${source}$`).test(path);
}

function decodePayload(payload: unknown): unknown {
	const text =
		typeof payload === 'string'
			? payload
			: Buffer.isBuffer(payload)
				? payload.toString('utf8')
				: undefined;
	if (text === undefined || text === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** In-memory implementation of {@link RequestLog}; entries are filled while the request runs. */
export class RequestLogStore implements RequestLog {
	private list: RequestLogEntry[] = [];
	private seq = 0;
	/** Answers as sent, decoded into `responseBody` only when the log is read (keeps answering cheap). */
	private readonly payloads = new WeakMap<RequestLogEntry, unknown>();

	/** Records the answer sent for `entry`: the payload as sent, or (`decoded`) a value already parsed. */
	setResponse(entry: RequestLogEntry, payload: unknown, decoded = false): void {
		if (decoded) {
			this.payloads.delete(entry);
			entry.responseBody = payload;
		} else {
			this.payloads.set(entry, payload);
		}
	}

	private decoded(entries: RequestLogEntry[]): RequestLogEntry[] {
		for (const entry of entries) {
			if (!this.payloads.has(entry)) continue;
			entry.responseBody = decodePayload(this.payloads.get(entry));
			this.payloads.delete(entry);
		}
		return plainCopy(entries);
	}

	/** Starts an entry (status 0 until the answer is known) and returns the live object. */
	begin(fields: Omit<RequestLogEntry, 'seq' | 'status'>): RequestLogEntry {
		const entry: RequestLogEntry = { seq: ++this.seq, ...fields, status: 0 };
		this.list.push(entry);
		return entry;
	}

	/**
	 * Marks `entry` answered (or its socket reset) now: `answeredSeq` takes the next number of the
	 * same sequence as `seq`, so a request whose `seq` is higher arrived after this answer left.
	 */
	answered(entry: RequestLogEntry): void {
		entry.answeredSeq = ++this.seq;
	}

	/** Deep copies of all entries, oldest first. */
	entries(): RequestLogEntry[] {
		return this.decoded(this.list);
	}

	/** Forgets all entries (sequence numbers keep counting). */
	clear(): void {
		this.list = [];
	}

	/** Entries of `method` (case-insensitive) whose path matches `pathPattern` (see {@link pathMatches}). */
	find(method: string, pathPattern: string | RegExp): RequestLogEntry[] {
		const m = method.toUpperCase();
		return this.decoded(
			this.list.filter((e) => e.method === m && pathMatches(e.path, pathPattern)),
		);
	}
}
