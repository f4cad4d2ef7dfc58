import type { INodeProperties } from 'n8n-workflow';

/**
 * What the four credentials share: the Base URL field and how it is read (trimmed, without
 * trailing slashes; service rules §1). n8n's lint rules read each credential's own literals (name,
 * display name, icon, documentation URL, the secret fields), so those stay in the classes.
 */

/** The two base addresses of the service (service rules §1). */
export type ServiceAddress = 'reporting' | 'payment';

/**
 * The Base URL field of a credential for the reporting and ticket API (paths /v1) or the payment
 * API (paths /v3).
 */
export function baseUrlProperty(address: ServiceAddress): INodeProperties {
	return {
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder:
			address === 'reporting'
				? 'https://merchants-api-stg.example.com'
				: 'https://api-stg.example.com',
		description:
			address === 'reporting'
				? 'Address of the reporting and support-ticket API, without /v1. Staging and production differ only in the host.'
				: 'Address of the payment API, without /v3. Staging and production differ only in the host.',
	};
}

/**
 * The Base URL as a credential test request reads it: the same rule as `normaliseBaseUrl`
 * (auth/session.ts), written as an n8n expression because test requests are declarative.
 */
export const BASE_URL_EXPRESSION = '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}';
