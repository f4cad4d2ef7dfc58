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
import { CASHOUT_CREDENTIAL_MAX_LENGTH } from '../nodes/PaymentsService/codes/service';
import { signCashoutRequest } from '../nodes/PaymentsService/auth/signature';

/**
 * Cashout API login, pass and signature secret (all /v3/cashout/* calls).
 * Service rules §2.4.
 *
 * Adds `login` and `pass` to the JSON body, serialises it once and sets `Payload-Signature` to the
 * hex HMAC-SHA256 of exactly those bytes. Re-signing already signed options replaces login, pass
 * and the signature; it never wraps twice.
 */
export class PaymentsServiceCashoutApi implements ICredentialType {
	name = 'paymentsServiceCashoutApi';

	displayName = 'Payments Service Cashout API';

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
			displayName: 'Login',
			name: 'login',
			type: 'string',
			default: '',
			required: true,
			typeOptions: { maxLength: CASHOUT_CREDENTIAL_MAX_LENGTH },
			description:
				'Cashout API login from the merchant panel (Settings, API Access); up to 32 characters',
		},
		{
			displayName: 'Pass',
			name: 'pass',
			type: 'string',
			typeOptions: { password: true, maxLength: CASHOUT_CREDENTIAL_MAX_LENGTH },
			default: '',
			required: true,
			description: 'Cashout API passphrase from the merchant panel; up to 32 characters',
		},
		{
			displayName: 'API Signature',
			name: 'apiSignature',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The cashout API signature secret that keys the Payload-Signature HMAC. It differs from the deposit signature secret.',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return signCashoutRequest(requestOptions, {
			login: String(credentials.login ?? ''),
			pass: String(credentials.pass ?? ''),
			apiSignature: String(credentials.apiSignature ?? ''),
		});
	}

	// A signed status read of cashout 0, which never exists: with valid credentials the service
	// answers 412 code 509 (not found); the rules turn the answers that mean "wrong credentials"
	// into a failed test. Nothing is changed on the service.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/v3/cashout/status',
			method: 'POST',
			body: { cashout_id: 0 },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 401,
					message: 'The Login or Pass is not valid (code 401)',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 302,
					message: 'The payload signature does not match: check the API Signature (code 302)',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 402,
					message: "This machine's IP address is not registered for the cashout API (code 402)",
				},
			},
		],
	};
}
