import { NodeOperationError, sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { ApiFamily } from '../codes/errorCodes';
import {
	DEFAULT_RETRY_POLICY,
	isLostAnswer,
	LOST_ANSWER_POLICY,
	lostAnswerDelay,
	nextRetryDelay,
	type RetryPolicy,
} from './retry';
import { normaliseBaseUrl } from '../auth/session';
import {
	readAnswer,
	readFailure,
	toNodeApiError,
	type FailureContext,
	type ServiceFailure,
} from './errors';

/** The credential types of this package, by the API part they open (service rules §2). */
export const CREDENTIAL_TYPES = {
	session: 'paymentsServiceSessionApi',
	readOnly: 'paymentsServiceReadOnlyApi',
	deposit: 'paymentsServiceDepositApi',
	cashout: 'paymentsServiceCashoutApi',
} as const;
export type CredentialKind = keyof typeof CREDENTIAL_TYPES;

/** The name n8n shows for each credential type. */
export const CREDENTIAL_NAMES: Readonly<Record<CredentialKind, string>> = {
	session: 'Payments Service Session API',
	readOnly: 'Payments Service Read-Only API',
	deposit: 'Payments Service Deposit API',
	cashout: 'Payments Service Cashout API',
};

/** Any n8n context that can send authenticated requests. */
export type RequestContext =
	IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions | IWebhookFunctions;

/** One request to the service, relative to the credential's base URL. */
export interface ServiceRequest {
	/** The API the request goes to; it decides how the service's error codes read (service rules §4). */
	family: ApiFamily;
	method: IHttpRequestMethods;
	/** Path starting with /v1 or /v3. */
	path: string;
	qs?: IDataObject;
	/** JSON object, an already-serialised string, or a multipart Buffer. */
	body?: IDataObject | string | Buffer;
	headers?: IDataObject;
	/** How the request may be sent again ({@link Repeat}); default `safe` for GET, `once` otherwise. */
	repeat?: Repeat;
}

/**
 * How a request may be sent again (service rules §11). `safe`: a read, after a 429, a 5xx or a lost
 * answer, by the client's retry policy (Options → Retry Reads Automatically). `keyed`: a creation
 * with its key (§5.2), after a 429 or a 503 (every request of the client paused meanwhile) and a
 * lost answer; a repeat is answered 104 or 511, never made twice. `targetStatus`: a hold, release
 * or cancel (§6.1), after a lost answer only; a resend that finds the change made is refused with
 * 510. `once`: never. A later failure says when an earlier attempt may have acted
 * (`earlierAttemptMayHaveActed`).
 */
export type Repeat = 'safe' | 'keyed' | 'targetStatus' | 'once';

/**
 * Where a client reads the time and how it waits: the real clock in n8n; a test gives its own, so
 * retries and `Retry-After` waits are checked without waiting.
 */
export interface Clock {
	/** Epoch milliseconds. */
	now(): number;
	/** Resolves after `ms` milliseconds. */
	sleep(ms: number): Promise<void>;
}

/** The real clock: `Date.now` and n8n's `sleep`. */
export const SYSTEM_CLOCK: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

/** How a client retries safe reads. */
export interface ClientOptions {
	/** The retry numbers; `false` sends every request once. Default {@link DEFAULT_RETRY_POLICY}. */
	retry?: RetryPolicy | false;
	/** Epoch milliseconds after which no retry starts (e.g. the end of a poll's time budget). */
	deadline?: number;
	/**
	 * Epoch milliseconds by which every answer must have come (e.g. a poll's share of its budget):
	 * a request still waiting then is abandoned as a timeout. Default: {@link REQUEST_TIMEOUT_MS}
	 * after it was sent.
	 */
	answerBy?: number;
	/** What the credential is needed for, said when the node has none selected (e.g. "to list the banks"). */
	purpose?: string;
	/** The clock retries wait on; default {@link SYSTEM_CLOCK}. */
	clock?: Clock;
}

/** What one request's attempts have met so far. */
interface Tally {
	/** When the first attempt started, epoch milliseconds. */
	startedAt: number;
	attempts: number;
	/** Resends after a lost answer. */
	lost: number;
	/** Whether an earlier attempt may have been acted on (a 503, or a lost answer). */
	mayHaveActed: boolean;
}

/** Milliseconds to wait for an answer before giving up on a request. */
const REQUEST_TIMEOUT_MS = 60_000;

/** Shortest wait for an answer, in milliseconds, however close `answerBy` is. */
const MIN_REQUEST_TIMEOUT_MS = 1_000;

/** The time an HTTP `Date` header gives, in Unix seconds; undefined when absent or unreadable. */
function headerDate(headers: IN8nHttpFullResponse['headers'] | undefined): number | undefined {
	const value = headers?.date ?? headers?.Date;
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' || text === '') return undefined;
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** An answer of HTTP 401 to a request that carried the session token: the session has ended. */
class SessionEnded {
	constructor(readonly answer: IN8nHttpFullResponse) {}
}

/**
 * Keeps one login per lost session, however many requests are in flight (service rules §2.1). n8n
 * logs in again on every 401 it sees, once per request; so requests are sent with HTTP errors
 * returned (n8n then leaves a 401 alone), and one request at a time, the *leader*, is sent the
 * ordinary way, letting n8n log in and store the new token. The others wait for the leader, then
 * go out with the stored token. A 401 to a request sent before the last renewal is sent again; a
 * 401 after it means the session ended again, and that request leads. A client's first request
 * leads too, so a credential without a token logs in once.
 */
class SessionGate {
	private leader: Promise<unknown> | undefined;

	/** Whether a request went through since the last renewal (then followers may go at once). */
	private open = false;

	/** Renewals so far; a request remembers the value it was sent under. */
	private generation = 0;

	/**
	 * Sends one request under the gate. `send('lead')` must let n8n handle a 401 (log in, retry);
	 * `send('follow')` must return a 401 as a {@link SessionEnded}.
	 */
	async run<T>(send: (role: 'lead' | 'follow') => Promise<T | SessionEnded>): Promise<T> {
		for (;;) {
			if (this.leader) {
				// When the leader could not open the session (wrong keys, refused merchant), the
				// requests that waited for it fail with that error rather than each logging in again.
				const failed = await this.leader.then(
					() => undefined,
					(error: unknown) => (readFailure(error).session ? { error } : undefined),
				);
				if (failed) return await Promise.reject(failed.error);
				continue;
			}
			if (!this.open) return await this.lead(send);
			const sentUnder = this.generation;
			const answer = await send('follow');
			if (!(answer instanceof SessionEnded)) return answer;
			// Renewed meanwhile: the stored token is new, send again. Otherwise renew (or wait for
			// the renewal another request has just started).
			if (sentUnder === this.generation && !this.leader) this.open = false;
		}
	}

	private async lead<T>(send: (role: 'lead' | 'follow') => Promise<T | SessionEnded>): Promise<T> {
		const attempt = send('lead');
		this.leader = attempt;
		const settled = await attempt.then(
			(answer) => ({ answer: answer as T }),
			(error: unknown) => ({ error }),
		);
		this.generation++;
		this.leader = undefined;
		if ('answer' in settled) {
			this.open = true;
			return settled.answer;
		}
		// A failure that is not about the session (e.g. a 503) still proved the session works.
		const failure = readFailure(settled.error);
		if (!failure.session && failure.httpStatus !== 401) this.open = true;
		return await Promise.reject(settled.error);
	}
}

/**
 * Sends requests through n8n's `httpRequestWithAuthentication`, so the credential signs or logs in
 * by itself, and turns failures into NodeApiErrors a merchant can act on. One client per credential
 * and node run (or poll, or webhook call); nothing kept across runs. A request is sent again as its
 * {@link Repeat} allows (service rules §11); a 429 (and a busy creation) pauses every request of
 * the client. Session requests share one login per lost session ({@link SessionGate}).
 */
export class PaymentsClient {
	private baseUrlValue: string | undefined;

	private readonly gate = new SessionGate();

	/** Epoch ms before which no request of this client starts (a 429's Retry-After, a busy creation's backoff). */
	private notBefore = 0;

	private retryPolicy: RetryPolicy | false;

	private readonly clock: Clock;

	private earliestDate: number | undefined;

	constructor(
		readonly context: RequestContext,
		readonly credential: CredentialKind,
		private readonly options: ClientOptions = {},
	) {
		this.retryPolicy = options.retry ?? DEFAULT_RETRY_POLICY;
		this.clock = options.clock ?? SYSTEM_CLOCK;
	}

	/**
	 * The service's clock as its answers gave it: the earliest `Date` header (Unix seconds) among
	 * the answers this client received, success or not; undefined before the first answer, or when
	 * the service sends no `Date`. What a read shows is at least as new as this time.
	 */
	get earliestAnswerDate(): number | undefined {
		return this.earliestDate;
	}

	/** Turns automatic retries of safe reads on (the default policy) or off, e.g. per item. */
	setRetries(enabled: boolean): void {
		this.retryPolicy = enabled ? (this.options.retry ?? DEFAULT_RETRY_POLICY) : false;
	}

	/**
	 * The credential's base URL, trimmed and without a trailing slash.
	 * @throws NodeOperationError when the node has no credential of this client's type selected, or
	 *   the credential's Base URL is not an http(s) URL.
	 */
	async baseUrl(itemIndex?: number): Promise<string> {
		if (this.baseUrlValue) return this.baseUrlValue;
		const type = CREDENTIAL_TYPES[this.credential];
		if (!this.context.getNode().credentials?.[type]) {
			// An optional credential (the read-only key of the pickers) may be left empty; say which
			// one to select instead of n8n's "Node does not require credentials".
			throw new NodeOperationError(
				this.context.getNode(),
				`No ${CREDENTIAL_NAMES[this.credential]} credential is selected`,
				{
					description: `Select one in the node's credential field${this.options.purpose ? ` ${this.options.purpose}` : ''}.`,
					itemIndex,
				},
			);
		}
		const credentials = await this.context.getCredentials(type);
		const baseUrl = normaliseBaseUrl(credentials.baseUrl);
		if (!baseUrl) {
			throw new NodeOperationError(
				this.context.getNode(),
				`The Base URL of the ${type} credential is not a URL`,
				{
					description:
						'Open the credential and enter the address of the service, e.g. https://api-stg.example.com',
					itemIndex,
				},
			);
		}
		this.baseUrlValue = baseUrl;
		return baseUrl;
	}

	/**
	 * Sends `request` and returns the parsed answer, sending it again as its {@link Repeat} allows.
	 * @param control `stop()` is asked before each retry: once true, no further attempt starts.
	 *   `onSend()` is called as each attempt is sent (to count them).
	 * @throws NodeApiError (built once, here) naming `failure.action`, the service's code and
	 *   message, with the item index (a session failure: the credential's own message; a 429: the
	 *   wait asked, `context.retryAfterSeconds`). NodeOperationError: no credential, or a bad Base URL.
	 */
	async request<T = unknown>(
		request: ServiceRequest,
		failure: FailureContext,
		control: { stop?: () => boolean; onSend?: () => void } = {},
	): Promise<T> {
		const baseURL = await this.baseUrl(failure.itemIndex);
		const tally: Tally = { startedAt: this.clock.now(), attempts: 0, lost: 0, mayHaveActed: false };
		for (;;) {
			await this.waitForTurn();
			tally.attempts++;
			control.onSend?.();
			const outcome = await this.attempt<T>(baseURL, request);
			if (outcome.ok) return outcome.value;
			const fail = () => {
				if (outcome.error instanceof NodeOperationError) return outcome.error;
				const { attempts, mayHaveActed } = tally;
				const failed = { ...outcome.failure, attempts };
				if (mayHaveActed) failed.earlierAttemptMayHaveActed = true;
				return toNodeApiError(this.context.getNode(), failed, request.family, failure);
			};
			if (control.stop?.()) throw fail();
			const delay = this.nextDelay(request, outcome.failure, tally);
			if (delay === undefined) throw fail();
			await this.clock.sleep(delay);
			if (control.stop?.()) throw fail();
		}
	}

	/**
	 * How long to wait before `request` is sent again after `problem`, or undefined when it is not
	 * sent again (service rules §11). A 429's `Retry-After` pauses every request of the client; so
	 * does a busy creation's backoff. Counts what the next attempt must know in `tally`.
	 */
	private nextDelay(request: ServiceRequest, problem: ServiceFailure, tally: Tally) {
		const now = this.clock.now();
		if (problem.httpStatus === 429 && problem.retryAfterSeconds !== undefined)
			this.notBefore = Math.max(this.notBefore, now + problem.retryAfterSeconds * 1000);
		const repeat = request.repeat ?? (request.method === 'GET' ? 'safe' : 'once');
		const safe = repeat === 'safe';
		const lost = (repeat === 'keyed' || repeat === 'targetStatus') && isLostAnswer(problem);
		const busy = problem.httpStatus === 429 || problem.httpStatus === 503;
		const resendBusy = repeat === 'keyed' && busy;
		let delay: number | undefined;
		if (lost) {
			delay =
				tally.lost < LOST_ANSWER_POLICY.maxResends ? lostAnswerDelay(tally.lost + 1) : undefined;
		} else if (safe || resendBusy) {
			const policy = safe ? this.retryPolicy : DEFAULT_RETRY_POLICY;
			delay = policy
				? nextRetryDelay(problem, tally.attempts, now - tally.startedAt, policy)
				: undefined;
		}
		if (delay === undefined || now + delay >= (this.options.deadline ?? Infinity)) return undefined;
		// A busy creation pauses every request of the run, not only its own resend.
		if (resendBusy) this.notBefore = Math.max(this.notBefore, now + delay);
		if (lost) tally.lost++;
		// The service may have acted on a 503 or on a request whose answer was lost.
		tally.mayHaveActed ||= problem.httpStatus === 503 || lost;
		return delay;
	}

	/**
	 * Waits until no pause is in force (`notBefore`); a pause extended while waiting is waited out
	 * too. Each wait is one sleep, so a test clock that stands still never loops.
	 */
	private async waitForTurn(): Promise<void> {
		let waited = Number.NaN;
		while (this.notBefore !== waited) {
			waited = this.notBefore;
			const wait = waited - this.clock.now();
			if (wait > 0) await this.clock.sleep(wait);
		}
	}

	/** How long the next attempt may wait for its answer: until `answerBy`, within bounds. */
	private timeoutMs(): number {
		const { answerBy } = this.options;
		if (answerBy === undefined) return REQUEST_TIMEOUT_MS;
		return Math.min(
			REQUEST_TIMEOUT_MS,
			Math.max(MIN_REQUEST_TIMEOUT_MS, Math.round(answerBy - this.clock.now())),
		);
	}

	/** One attempt: the answer, or what went wrong (never throws for a failed request). */
	private async attempt<T>(
		baseURL: string,
		request: ServiceRequest,
	): Promise<{ ok: true; value: T } | { ok: false; failure: ServiceFailure; error?: unknown }> {
		const options: IHttpRequestOptions = {
			method: request.method,
			baseURL,
			url: request.path,
			json: true,
			timeout: this.timeoutMs(),
			returnFullResponse: true,
		};
		if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
		if (request.body !== undefined) options.body = request.body;
		if (request.headers) options.headers = request.headers;
		// A change is never sent on to another address: n8n would turn a redirected POST into a GET
		// (and its body would be lost). Reads follow redirects as n8n does.
		if (request.method !== 'GET') options.disableFollowRedirect = true;
		const type = CREDENTIAL_TYPES[this.credential];
		const send = async (role: 'lead' | 'follow'): Promise<IN8nHttpFullResponse | SessionEnded> => {
			// Copies: the credential's authenticate() must sign each attempt afresh.
			const attemptOptions: IHttpRequestOptions = {
				...options,
				headers: options.headers ? { ...options.headers } : undefined,
			};
			// HTTP errors come back as answers, so n8n never repeats a request on its own; only a
			// session leader lets n8n see a 401 and log in again.
			if (role === 'follow' || this.credential !== 'session')
				attemptOptions.ignoreHttpStatusErrors = true;
			const answer = (await this.context.helpers.httpRequestWithAuthentication.call(
				this.context,
				type,
				attemptOptions,
			)) as IN8nHttpFullResponse;
			if (role === 'follow' && this.credential === 'session' && answer.statusCode === 401)
				return new SessionEnded(answer);
			return answer;
		};
		try {
			const answer =
				this.credential === 'session'
					? await this.gate.run<IN8nHttpFullResponse>(send)
					: ((await send('follow')) as IN8nHttpFullResponse);
			const date = headerDate(answer.headers);
			if (date !== undefined && (this.earliestDate === undefined || date < this.earliestDate))
				this.earliestDate = date;
			if (answer.statusCode >= 200 && answer.statusCode < 300)
				return { ok: true, value: answer.body as T };
			return { ok: false, failure: readAnswer(answer.statusCode, answer.headers, answer.body) };
		} catch (error) {
			// A NodeOperationError was raised before anything was sent (e.g. a missing credential).
			if (error instanceof NodeOperationError) return { ok: false, failure: {}, error };
			return { ok: false, failure: readFailure(error), error };
		}
	}
}
