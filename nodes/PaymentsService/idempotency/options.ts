import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_DUPLICATE_WINDOW } from './keys';

/** The options of the three creations that decide what counts as the same request (service rules §5.2). */

/**
 * The Idempotency Key option of a creation sent with `X-Idempotency-Key` (deposits, refunds;
 * service rules §5.2, §7). `what` names the creation: "the same deposit being created twice".
 */
export function idempotencyKeyOption(what: string): INodeProperties {
	return {
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description: `Key that stops ${what}: up to 128 visible ASCII characters (no spaces), sent as given. Empty: one is derived from the workflow, node, run, item, the request and the Duplicate Window, so every re-run of the same request sends the same key.`,
	};
}

/** The Duplicate Window option of every creation (service rules §5.2). */
export const duplicateWindowOption: INodeProperties = {
	displayName: 'Duplicate Window',
	name: 'duplicateWindow',
	type: 'options',
	default: DEFAULT_DUPLICATE_WINDOW,
	options: [
		{
			name: 'Same UTC Hour',
			value: 'hour',
			description: 'A re-run within the same UTC hour is a retry; later, a new request',
		},
		{
			name: 'Same UTC Day',
			value: 'day',
			description: 'A re-run on the same UTC day is a retry; on another day, a new request',
		},
		{
			name: 'Same UTC Month',
			value: 'month',
			description: 'A re-run within the same UTC month is a retry; in another month, a new request',
		},
	],
	description:
		'Only when no key or ID is given: how long a re-run of the same request (Retry On Fail, Retry of a failed execution, a manual re-run) counts as the same request, so it is recognised instead of made twice',
};

/** The Unconfirmed Repeat option of every creation (service rules §5.2). */
export const unconfirmedRepeatOption: INodeProperties = {
	displayName: 'Unconfirmed Repeat',
	name: 'unconfirmedRepeat',
	type: 'options',
	default: 'fail',
	options: [
		{
			name: 'Fail the Item',
			value: 'fail',
			description:
				'The item fails (or goes to the error output) and says what to check: nothing reads as made unless it was found',
		},
		{
			name: 'Output It Unconfirmed',
			value: 'output',
			description: 'The item is output with matches_request null',
		},
	],
	description:
		'What to do when the service says the key was already used but the record it belongs to cannot be found and compared with this request (no Session credential selected, or not in the list yet)',
};
