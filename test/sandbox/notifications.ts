/**
 * Status-change notifications the sandbox sends (service rules §10): real HTTP POSTs to the record's
 * notification URL, one delivery at a time in queue order, with retries on the SANDBOX clock, and the
 * test controls duplicate / hold / release. Not part of the request log (that logs what the sandbox
 * receives).
 */
import http from 'node:http';
import https from 'node:https';
import type { ManualClock } from './clock';
import {
	NOTIFICATION_RESPONSE_BODY_LIMIT,
	NOTIFICATION_RETRY_DELAYS_MS,
	NOTIFICATION_TIMEOUT_MS,
	NOTIFICATION_USER_AGENT,
} from './constants';
import type { NotificationAttempt, NotificationControl, SandboxNotification } from './types';

/** What a status change contributes to a notification (the fields of {@link SandboxNotification}). */
export type NotificationInput = Pick<
	SandboxNotification,
	'kind' | 'merchantId' | 'recordId' | 'recordStatus' | 'url' | 'contentType' | 'body'
>;

/** Outcome of one HTTP POST: an answer or a network error. */
type PostResult = { status: number; body: string } | { error: string };

/**
 * POSTs `body` to `url` with node:http(s) (no keep-alive, no redirects followed). Never rejects:
 * network errors, timeouts (after `timeoutMs` of socket inactivity) and bad URLs become `{error}`.
 * The answer's body is kept up to NOTIFICATION_RESPONSE_BODY_LIMIT characters.
 */
function post(
	url: string,
	body: string,
	contentType: string,
	timeoutMs: number,
	signal: AbortSignal,
): Promise<PostResult> {
	return new Promise((resolve) => {
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			resolve({ error: `invalid URL: ${url}` });
			return;
		}
		const transport =
			target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
		if (!transport) {
			resolve({ error: `unsupported protocol: ${target.protocol}` });
			return;
		}
		const request = transport.request(
			target,
			{
				method: 'POST',
				agent: false,
				signal,
				timeout: timeoutMs,
				headers: {
					'content-type': contentType,
					'content-length': Buffer.byteLength(body),
					'user-agent': NOTIFICATION_USER_AGENT,
				},
			},
			(response) => {
				let text = '';
				response.setEncoding('utf8');
				response.on('data', (chunk: string) => {
					if (text.length < NOTIFICATION_RESPONSE_BODY_LIMIT) text += chunk;
				});
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						body: text.slice(0, NOTIFICATION_RESPONSE_BODY_LIMIT),
					}),
				);
				response.on('error', (error) => resolve({ error: error.message }));
			},
		);
		request.on('timeout', () =>
			request.destroy(new Error(`timeout: no answer within ${timeoutMs} ms`)),
		);
		request.on('error', (error) => resolve({ error: error.message || String(error) }));
		request.end(body);
	});
}

/**
 * The notifications of one sandbox. Every delivery (first attempts, released ones, due retries) runs
 * on one promise chain, so they go out one at a time in the order they were queued; {@link settle}
 * waits for the chain. Retries are due NOTIFICATION_RETRY_DELAYS_MS[k] after the k-th failed
 * attempt's time and are sent when the sandbox clock moves (see {@link onClockChange}) or on
 * {@link deliverDue}.
 */
export class NotificationCenter {
	private records: SandboxNotification[] = [];
	private nextId = 1;
	private held: SandboxNotification[] = [];
	private holding = false;
	private duplicatesLeft = 0;
	private tail: Promise<void> = Promise.resolve();
	private pending = 0;
	private closed = false;
	private readonly abort = new AbortController();

	constructor(private readonly clock: ManualClock) {}

	/**
	 * Queues a notification (two identical ones while duplicate() has some left). Held when hold() is
	 * on; else its first attempt is queued at once. Returns the live records.
	 */
	queue(input: NotificationInput): SandboxNotification[] {
		const make = (duplicateOf?: number): SandboxNotification => {
			const rec: SandboxNotification = {
				id: this.nextId++,
				...input,
				createdAt: this.clock.now(),
				state: this.holding ? 'held' : 'sending',
				attempts: [],
			};
			if (duplicateOf !== undefined) rec.duplicateOf = duplicateOf;
			return rec;
		};
		const first = make();
		const created = [first];
		if (this.duplicatesLeft > 0) {
			this.duplicatesLeft--;
			created.push(make(first.id));
		}
		for (const rec of created) {
			this.records.push(rec);
			if (this.holding) this.held.push(rec);
			else void this.enqueue(() => this.attempt(rec, this.clock.now()));
		}
		return created;
	}

	/** Called after every clock move: queues {@link deliverDue} when a retry is due. */
	onClockChange(now: number): void {
		if (this.records.some((r) => r.state === 'retrying' && (r.nextAttemptAt ?? Infinity) <= now))
			void this.deliverDue();
	}

	/** Sends every due retry (earliest due first, catching up); resolves with the number of attempts. */
	deliverDue(): Promise<number> {
		return this.enqueue(async () => {
			let count = 0;
			for (;;) {
				const now = this.clock.now();
				const due = this.records
					.filter((r) => r.state === 'retrying' && (r.nextAttemptAt ?? Infinity) <= now)
					.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0) || a.id - b.id);
				if (due.length === 0 || this.closed) return count;
				await this.attempt(due[0], due[0].nextAttemptAt ?? now);
				count++;
			}
		});
	}

	/** Resolves once nothing is queued or in flight. */
	async settle(): Promise<void> {
		while (this.pending > 0) await this.tail;
	}

	/** The next `n` notifications are sent twice. Throws unless `n` is an integer >= 0. */
	duplicate(n: number): void {
		if (!Number.isInteger(n) || n < 0)
			throw new Error(`duplicate(n): n must be an integer >= 0, got ${n}`);
		this.duplicatesLeft = n;
	}

	/** Holds new notifications until {@link release}. */
	hold(): void {
		this.holding = true;
	}

	/** Ends the hold and queues the held notifications in `order`; resolves with their count once they were attempted. */
	async release(options: { order?: 'queued' | 'reverse' } = {}): Promise<number> {
		const order = options.order ?? 'queued';
		if (order !== 'queued' && order !== 'reverse')
			throw new Error(`release: order must be 'queued' or 'reverse'`);
		this.holding = false;
		const batch = order === 'reverse' ? [...this.held].reverse() : [...this.held];
		this.held = [];
		await Promise.all(
			batch.map((rec) => {
				rec.state = 'sending';
				return this.enqueue(() => this.attempt(rec, this.clock.now()));
			}),
		);
		return batch.length;
	}

	/** Deep copies, oldest first. */
	list(): SandboxNotification[] {
		return structuredClone(this.records);
	}

	/** Forgets every notification (held ones and scheduled retries too). */
	clear(): void {
		this.records = [];
		this.held = [];
	}

	/** Stops: aborts the attempt in flight, sends nothing more, waits for the chain. */
	async close(): Promise<void> {
		this.closed = true;
		this.abort.abort();
		await this.settle();
	}

	/** The {@link NotificationControl} facade. */
	control(): NotificationControl {
		return {
			list: () => this.list(),
			clear: () => this.clear(),
			settle: () => this.settle(),
			deliverDue: () => this.deliverDue(),
			duplicate: (n) => this.duplicate(n),
			hold: () => this.hold(),
			release: (options) => this.release(options),
		};
	}

	private enqueue<T>(task: () => Promise<T>): Promise<T> {
		this.pending++;
		const run = this.tail.then(task);
		this.tail = run.then(
			() => {
				this.pending--;
			},
			() => {
				this.pending--;
			},
		);
		return run;
	}

	/** One attempt at sandbox time `at`; records it and schedules the next one or ends the notification. */
	private async attempt(rec: SandboxNotification, at: number): Promise<void> {
		if (this.closed || !this.records.includes(rec)) return;
		rec.state = 'sending';
		delete rec.nextAttemptAt;
		const result = await post(
			rec.url,
			rec.body,
			rec.contentType,
			NOTIFICATION_TIMEOUT_MS,
			this.abort.signal,
		);
		const attempt: NotificationAttempt = {
			attempt: rec.attempts.length + 1,
			at,
			url: rec.url,
			body: rec.body,
		};
		if ('error' in result) attempt.error = result.error;
		else {
			attempt.status = result.status;
			attempt.responseBody = result.body;
		}
		rec.attempts.push(attempt);
		if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
			rec.state = 'delivered';
			return;
		}
		const delay = NOTIFICATION_RETRY_DELAYS_MS[rec.attempts.length - 1];
		if (delay === undefined) {
			rec.state = 'failed';
			return;
		}
		rec.state = 'retrying';
		rec.nextAttemptAt = at + delay;
	}
}
