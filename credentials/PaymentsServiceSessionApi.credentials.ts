import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IN8nHttpFullResponse,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { extractSessionToken, normaliseBaseUrl, parseMerchantId } from '../nodes/PaymentsService/helpers/session';

/**
 * An error for a refused login or merchant switch. It deliberately has no axios `response`: n8n
 * would read a 401 there as an expired token and log in a second time with the same wrong keys.
 * `serviceFailure` carries the status and the service's code and text for the node's message.
 */
function loginError(step: string, error: unknown, hint: string): Error {
	const response = (error as { response?: { status?: number; data?: unknown } }).response;
	const data = (response?.data ?? {}) as { code?: unknown; description?: unknown; message?: unknown };
	const said =
		typeof data.description === 'string' ? data.description : typeof data.message === 'string' ? data.message : '';
	const code = typeof data.code === 'number' || typeof data.code === 'string' ? data.code : undefined;
	let text: string;
	if (response?.status === 403 && String(code) === '83') {
		text = `${step} refused from this location (code 83)${said ? `: ${said}` : ''}. The API user may only log in from the networks allowed in the merchant panel.`;
	} else if (response?.status) {
		text = `${step} failed (HTTP ${response.status}${code !== undefined ? `, code ${String(code)}` : ''})${said ? `: ${said}` : ''}. ${hint}`;
	} else {
		text = `${step} failed: ${(error as Error).message}`;
	}
	return Object.assign(new Error(text), {
		serviceFailure: { httpStatus: response?.status, code, message: said || undefined },
	});
}

/**
 * Session login for the reporting and support-ticket APIs ({base_url}, /v1).
 * Spec: Authentication, Session token; Endpoints: Login, Switch context.
 *
 * `preAuthentication` logs in once, reads the BEARER_TOKEN cookie and, when a merchant ID is set,
 * switches the new session to it. n8n stores the token in the hidden expirable `sessionToken`
 * field and reuses it for every execution until the service answers 401; then n8n calls
 * `preAuthentication` again and repeats the request once.
 */
export class PaymentsServiceSessionApi implements ICredentialType {
	name = 'paymentsServiceSessionApi';

	displayName = 'Payments Service Session API';

	icon: Icon = { light: 'file:../icons/payments-service.svg', dark: 'file:../icons/payments-service.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-payments-service#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://merchants-api-stg.example.com',
			description:
				'Address of the reporting and support-ticket API, without /v1. Staging and production differ only in the host.',
		},
		{
			displayName: 'Access Key',
			name: 'accessKey',
			// The API user's e-mail address, not a secret (n8n's community rule agrees; this older rule
			// goes by the word "key" in the name).
			// eslint-disable-next-line n8n-nodes-base/cred-class-field-type-options-password-missing
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
			placeholder: '1002',
			description:
				'Merchant account (MID) the session works under. Leave empty for the API user’s default merchant account.',
		},
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
		const baseURL = normaliseBaseUrl(credentials.baseUrl);
		if (!baseURL) {
			throw new Error('The Base URL of the credential is not an http(s) URL, e.g. https://merchants-api-stg.example.com');
		}
		const merchantId = parseMerchantId(credentials.merchantId);
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
			throw loginError('Login', error, 'Check the Access Key and Secret Key of the credential.');
		}
		const sessionToken = extractSessionToken(login.headers['set-cookie']);
		if (!sessionToken) {
			throw new Error(
				'Login answered without a BEARER_TOKEN cookie; check that the Base URL is the reporting API address',
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
					`Switching the session to merchant ID ${merchantId}`,
					error,
					'The API user may not belong to that merchant account: fix or clear the Merchant ID of the credential.',
				);
			}
		}
		return { sessionToken };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.sessionToken}}',
			},
		},
	};

	// n8n logs in (preAuthentication) before testing, so this checks login, merchant switch and token.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/v1/balance',
			method: 'GET',
		},
	};
}
