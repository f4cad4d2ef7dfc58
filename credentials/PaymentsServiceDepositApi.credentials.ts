import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	BASE_URL_EXPRESSION,
	baseUrlProperty,
} from '../nodes/PaymentsService/auth/credentialFields';
import { DEFAULT_DEPOSIT_AUTHORIZATION_SCHEME } from '../nodes/PaymentsService/codes/service';
import { signDepositRequest } from '../nodes/PaymentsService/auth/signature';

/**
 * Deposit API key and signature secret (POST /v3/deposits, GET /v3/deposits/{id}).
 * Service rules §2.3.
 *
 * Every request gets `X-Login`, `X-Date` (taken at signing time) and
 * `Authorization: <scheme><hex HMAC-SHA256(X-Date + X-Login + body)>` over the exact body bytes
 * sent. Re-signing already signed options (n8n does so when it repeats a request) replaces the
 * three headers; it never signs twice over.
 */
export class PaymentsServiceDepositApi implements ICredentialType {
	name = 'paymentsServiceDepositApi';

	displayName = 'Payments Service Deposit API';

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
		baseUrlProperty('payment'),
		{
			displayName: 'API Key (X-Login)',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The deposit API key from the merchant panel, sent as X-Login',
		},
		{
			displayName: 'API Signature',
			name: 'apiSignature',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The deposit API signature secret from the merchant panel. It differs from the cashout signature secret.',
		},
		{
			displayName: 'Authorization Scheme',
			name: 'authorizationScheme',
			type: 'string',
			default: DEFAULT_DEPOSIT_AUTHORIZATION_SCHEME,
			description:
				'Text put before the control hash in the Authorization header, including its trailing space. Change it only if your provider’s documentation names another.',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const scheme =
			typeof credentials.authorizationScheme === 'string' && credentials.authorizationScheme !== ''
				? credentials.authorizationScheme
				: DEFAULT_DEPOSIT_AUTHORIZATION_SCHEME;
		return signDepositRequest(
			requestOptions,
			{
				apiKey: String(credentials.apiKey ?? ''),
				apiSignature: String(credentials.apiSignature ?? ''),
				scheme,
			},
			new Date(),
		);
	}

	// A signed status read of deposit 0, which never exists: with valid keys the service answers
	// 404 (code 208), which proves both key and signature; the rules below turn the answers that
	// mean "wrong credentials" into a failed test.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/v3/deposits/0',
			method: 'GET',
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 100,
					message: 'The API Key (X-Login) is not valid (code 100)',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 102,
					message:
						'The signature does not match: check the API Signature and the Authorization Scheme (code 102)',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 103,
					message: "The service refused the request date: check this machine's clock (code 103)",
				},
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'code', value: 101, message: 'A required header is missing (code 101)' },
			},
		],
	};
}
