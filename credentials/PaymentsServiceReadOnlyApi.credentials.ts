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

/**
 * Read-only key for exchange rates and bank codes ({api_url}, /v3).
 * Service rules §2.2: `Authorization: Bearer <read-only key>`; a wrong key
 * yields HTTP 401 code 100.
 */
export class PaymentsServiceReadOnlyApi implements ICredentialType {
	name = 'paymentsServiceReadOnlyApi';

	displayName = 'Payments Service Read-Only API';

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
			displayName: 'Read-Only Key',
			name: 'readOnlyKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The read-only API key from the merchant panel',
		},
	];

	// A function rather than a declarative header: n8n evaluates a declarative one as an expression
	// on every request, which costs more than the request's own work on a long list read
	// (docs/credentials.md).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.readOnlyKey ?? '')}`,
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/v3/banks',
			qs: { country: 'BR' },
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The Read-Only Key is not valid (code 100)' },
			},
		],
	};
}
