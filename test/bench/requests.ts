/**
 * What the benchmarks read of this process's own requests and output: each HTTP request's URL as it
 * leaves (n8n's HTTP client goes through http.request), and the cents of a decimal text.
 */

/**
 * Calls `listener` with the URL (path and query) of every request this process sends through
 * http.request from now on; returns the function that stops it.
 */
export function watchRequests(listener: (url: URL) => void): () => void {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const http = require('http') as typeof import('http');
	const original = http.request;
	(http as { request: unknown }).request = function (this: unknown, ...args: unknown[]) {
		const first = args[0] as { path?: string } | string | URL;
		const target =
			typeof first === 'string'
				? first
				: first instanceof URL
					? first.pathname + first.search
					: (first.path ?? '');
		listener(new URL(target, 'http://x'));
		return (original as (...a: unknown[]) => unknown).apply(this, args);
	};
	return () => {
		(http as { request: unknown }).request = original;
	};
}

/** Cents of a decimal text the node output, by padding its decimals. */
export function textCents(text: unknown): bigint {
	const [whole, fraction = ''] = String(text).replace('-', '').split('.');
	const value = BigInt(whole + fraction.padEnd(2, '0'));
	return String(text).startsWith('-') ? -value : value;
}
