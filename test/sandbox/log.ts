/**
 * Request log of the sandbox: every non-admin request, with the exact raw body, the multipart
 * summary, the status and body sent, and the fault applied (if any).
 */
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

/** In-memory implementation of {@link RequestLog}; entries are filled while the request runs. */
export class RequestLogStore implements RequestLog {
	private list: RequestLogEntry[] = [];
	private seq = 0;

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
		return structuredClone(this.list);
	}

	/** Forgets all entries (sequence numbers keep counting). */
	clear(): void {
		this.list = [];
	}

	/** Entries of `method` (case-insensitive) whose path matches `pathPattern` (see {@link pathMatches}). */
	find(method: string, pathPattern: string | RegExp): RequestLogEntry[] {
		const m = method.toUpperCase();
		return structuredClone(this.list.filter((e) => e.method === m && pathMatches(e.path, pathPattern)));
	}
}
