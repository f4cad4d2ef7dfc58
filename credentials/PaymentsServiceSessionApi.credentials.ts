import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { readAnswer } from '../nodes/PaymentsService/transport/errors';
import {
	BASE_URL_EXPRESSION,
	baseUrlProperty,
} from '../nodes/PaymentsService/auth/credentialFields';
import {
	extractSessionToken,
	normaliseBaseUrl,
	parseMerchantId,
	SessionLoginError,
	type SessionStep,
} from '../nodes/PaymentsService/auth/session';

/**
 * The error for a failed login or merchant switch: a message the user can act on, and the
 * service's answer for the node's error details (see SessionLoginError).
 */
function loginError(
	step: SessionStep,
	label: string,
	error: unknown,
	hint: string,
): SessionLoginError {
	const failed = error as {
		response?: { status?: number; data?: unknown };
		code?: unknown;
		message?: unknown;
	};
	const response = failed.response;
	// The service's answer read as every other failure is (service rules §4).
	const answer = readAnswer(response?.status ?? 0, undefined, response?.data);
	const said = answer.message ?? '';
	const code = answer.code;
	const status = response?.status;
	const networkCode =
		typeof failed.code === 'string' && /^E[A-Z_]+$/.test(failed.code) ? failed.code : undefined;
	let text: string;
	if (status === 403 && String(code) === '83') {
		text = `${label} refused from this location (code 83)${said ? `: ${said}` : ''}. The API user may only log in from the networks allowed in the merchant panel.`;
	} else if (status !== undefined && status >= 500) {
		text = `${label} failed: the service answered HTTP ${status}${code !== undefined ? ` (code ${String(code)})` : ''}${said ? `: ${said}` : ''}. The service failed, not the credential; try again later.`;
	} else if (status !== undefined) {
		text = `${label} failed (HTTP ${status}${code !== undefined ? `, code ${String(code)}` : ''})${said ? `: ${said}` : ''}. ${hint}`;
	} else {
		text = `${label} failed: the service could not be reached (${networkCode ?? String(failed.message ?? 'no answer')}). Check the Base URL of the credential.`;
	}
	return new SessionLoginError(text, {
		step,
		httpStatus: status,
		code,
		serviceMessage: said || undefined,
		networkCode,
	});
}

/**
 * Session login for the reporting and support-ticket APIs (paths /v1; service rules §2.1).
 *
 * `preAuthentication` logs in once, reads the BEARER_TOKEN cookie and, when a merchant ID is set,
 * switches the new session to it. n8n stores the token in the hidden expirable `sessionToken`
 * field and reuses it for every execution until the service answers 401; then n8n calls
 * `preAuthentication` again and repeats the request once.
 */
export class PaymentsServiceSessionApi implements ICredentialType {
	name = 'paymentsServiceSessionApi';

	displayName = 'Payments Service Session API';

	icon: Icon = {
		light: 'file:../icons/payments-service.svg',
		dark: 'file:../icons/payments-service.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-payments-service#credentials';

	/**
	 * Only this package's nodes (and the AI tool n8n makes of the action node) may use it: n8n 2.x
	 * (checked with 2.35.3 and 2.41.1) refuses it to any other node, the HTTP Request node included,
	 * in the editor, on save and at run time, so its secrets go nowhere but the service. n8n fills the
	 * list of nodes from the nodes that declare the credential; n8n 1.x ignores the setting.
	 */
	restrictToSupportedNodes = true as const;

	properties: INodeProperties[] = [
		baseUrlProperty('reporting'),
		{
			displayName: 'Access Key',
			name: 'accessKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'api-user@example.com',
			description: 'The API user’s e-mail address',
		},
		{
			displayName: 'Secret Key',
			name: 'secretKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API user’s password',
		},
		{
			displayName: 'Merchant ID',
			name: 'merchantId',
			type: 'string',
			default: '',
			placeholder: 'Empty: the API user’s default merchant account',
			description:
				'Merchant account (MID) the session works under, digits only (e.g. 1002). Leave empty for the API user’s default merchant account.',
		},
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const { baseURL, merchantId } = sessionSettings(credentials);
		let login: IN8nHttpFullResponse;
		try {
			login = (await this.helpers.httpRequest({
				method: 'POST',
				baseURL,
				url: '/v1/auth/login',
				body: { accessKey: credentials.accessKey, secretKey: credentials.secretKey },
				json: true,
				returnFullResponse: true,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			throw loginError(
				'login',
				'Login',
				error,
				'Check the Access Key and Secret Key of the credential.',
			);
		}
		const sessionToken = extractSessionToken(login.headers['set-cookie']);
		if (!sessionToken) {
			throw new SessionLoginError(
				'Login answered without a BEARER_TOKEN cookie; check that the Base URL of the credential is the reporting API address',
				{ step: 'login', httpStatus: login.statusCode },
			);
		}
		if (merchantId !== undefined) {
			try {
				await this.helpers.httpRequest({
					method: 'POST',
					baseURL,
					url: `/v1/auth/${merchantId}/switchContext`,
					headers: { Authorization: `Bearer ${sessionToken}`, 'Content-Type': 'application/json' },
					json: true,
				});
			} catch (error) {
				throw loginError(
					'switchContext',
					`Switching the session to merchant ID ${merchantId}`,
					error,
					'The API user may not belong to that merchant account: fix or clear the Merchant ID of the credential.',
				);
			}
		}
		return { sessionToken };
	}

	// Sends the stored token (service rules §2.1). A function rather than a declarative header: n8n
	// evaluates a declarative one as an expression on every request, which costs more than the
	// request's own work on a long list read (docs/credentials.md).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.sessionToken ?? '')}`,
			},
		};
	}

	// n8n logs in (preAuthentication) before testing, so this checks login, merchant switch and token.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/v1/balance',
			method: 'GET',
		},
	};
}

/**
 * The reporting API's base URL and the merchant ID (MID) of the credential, checked before any
 * request (service rules §2.1).
 * @throws SessionLoginError for a base URL that is not http(s), or a MID that is not digits.
 */
function sessionSettings(credentials: ICredentialDataDecryptedObject): {
	baseURL: string;
	merchantId: number | undefined;
} {
	const baseURL = normaliseBaseUrl(credentials.baseUrl);
	if (!baseURL) {
		throw new SessionLoginError(
			'The Base URL of the Payments Service Session API credential is not an http(s) URL; enter the reporting API address, e.g. https://merchants-api-stg.example.com',
			{ step: 'login' },
		);
	}
	try {
		return { baseURL, merchantId: parseMerchantId(credentials.merchantId) };
	} catch (error) {
		throw new SessionLoginError((error as Error).message, { step: 'switchContext' });
	}
}
