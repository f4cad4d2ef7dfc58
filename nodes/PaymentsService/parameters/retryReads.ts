import type { INodeProperties } from 'n8n-workflow';

/** The option of read operations that turns automatic retries off. */
export const retryReadsOption: INodeProperties = {
	displayName: 'Retry Reads Automatically',
	name: 'retryReads',
	type: 'boolean',
	default: true,
	description:
		'Whether to repeat a read by itself after a 429 (waiting what the service asks, up to 30 s), a 5xx or a lost connection: up to 4 attempts within 60 seconds. Operations that move money or change state are never repeated.',
};
