import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { ApiFamily } from '../helpers/errorCodes';
import { normaliseBaseUrl } from '../helpers/session';
import { readFailure, toNodeApiError, type FailureContext } from './errors';

/** The credential types of this package, by the API part they open. */
export const CREDENTIAL_TYPES = {
	session: 'paymentsServiceSessionApi',
	readOnly: 'paymentsServiceReadOnlyApi',
	deposit: 'paymentsServiceDepositApi',
	cashout: 'paymentsServiceCashoutApi',
} as const;
export type CredentialKind = keyof typeof CREDENTIAL_TYPES;

/** Any n8n context that can send authenticated requests. */
export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** One request to the service, relative to the credential's base URL. */
export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path starting with /v1 or /v3. */
	path: string;
	qs?: IDataObject;
	/** JSON object, an already-serialised string, or a multipart Buffer. */
	body?: IDataObject | string | Buffer;
	headers?: IDataObject;
}

/** Milliseconds to wait for an answer before giving up on a request. */
const REQUEST_TIMEOUT_MS = 60_000;

function familyOf(kind: CredentialKind, path: string): ApiFamily {
	if (kind === 'cashout') return 'cashout';
	if (kind !== 'session') return 'payments';
	return path.startsWith('/v1/tickets') || /\/flagForReview/.test(path) ? 'tickets' : 'reporting';
}

/**
 * Sends requests through n8n's `httpRequestWithAuthentication`, so each credential type signs or
 * logs in by itself, and turns failures into NodeApiErrors a merchant can act on.
 *
 * Create one per node run (it remembers each credential's base URL for that run only); it keeps no
 * state across runs or workers.
 */
export class PaymentsClient {
	private readonly baseUrls = new Map<CredentialKind, string>();

	constructor(readonly context: RequestContext) {}

	/**
	 * The base URL of the credential of `kind`.
	 * @throws NodeOperationError when the credential's Base URL is not an http(s) URL.
	 */
	async baseUrl(kind: CredentialKind, itemIndex?: number): Promise<string> {
		const known = this.baseUrls.get(kind);
		if (known) return known;
		const credentials = await this.context.getCredentials(CREDENTIAL_TYPES[kind]);
		const baseUrl = normaliseBaseUrl(credentials.baseUrl);
		if (!baseUrl) {
			throw new NodeOperationError(
				this.context.getNode(),
				`The Base URL of the ${CREDENTIAL_TYPES[kind]} credential is not a URL`,
				{
					description: 'Open the credential and enter the address of the service, e.g. https://api-stg.example.com',
					itemIndex,
				},
			);
		}
		this.baseUrls.set(kind, baseUrl);
		return baseUrl;
	}

	/**
	 * Sends `request` with the credential of `kind` and returns the parsed answer.
	 *
	 * @throws NodeApiError naming `failure.action`, the service's code and message, with the item
	 *   index; a 429 carries the wait the service asked for (`context.retryAfterSeconds`).
	 */
	async request<T = unknown>(
		kind: CredentialKind,
		request: ServiceRequest,
		failure: Omit<FailureContext, 'family'>,
	): Promise<T> {
		const baseURL = await this.baseUrl(kind, failure.itemIndex);
		const options: IHttpRequestOptions = {
			method: request.method,
			baseURL,
			url: request.path,
			json: true,
			timeout: REQUEST_TIMEOUT_MS,
		};
		if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
		if (request.body !== undefined) options.body = request.body;
		if (request.headers) options.headers = request.headers;
		try {
			return (await this.context.helpers.httpRequestWithAuthentication.call(
				this.context,
				CREDENTIAL_TYPES[kind],
				options,
			)) as T;
		} catch (error) {
			// A NodeOperationError was raised before anything was sent (e.g. a missing credential).
			throw error instanceof NodeOperationError
				? error
				: toNodeApiError(this.context.getNode(), readFailure(error), {
						...failure,
						family: familyOf(kind, request.path),
					});
		}
	}
}
