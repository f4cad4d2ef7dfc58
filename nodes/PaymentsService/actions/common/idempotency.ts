import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_DUPLICATE_WINDOW,
	deriveRequestKey,
	duplicateWindowAt,
	givenKeyProblem,
	isDuplicateWindow,
	type GivenKeyKind,
	type WindowSpan,
} from '../../auth/idempotency';
import type { ServiceFailure } from '../../transport/errors';

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

/** The key of one creation: the one the user gave, or the one derived for the request. */
export interface CreationKey {
	key: string;
	/** True when the key was derived ({@link deriveRequestKey}); false when the user gave it. */
	derived: boolean;
	/** The duplicate window a derived key belongs to (undefined for a given key). */
	window?: WindowSpan;
}

/** What {@link creationKey} needs to know about the creation. */
export interface CreationKeyRequest {
	/** The key the user gave (trimmed text), or undefined/'' to derive one. */
	given: unknown;
	/** What the given key is sent as, for its rule. */
	kind: GivenKeyKind;
	/** The field's name in the panel, e.g. "External ID". */
	label: string;
	/** What is created, capitalised, for the error message ("Deposit", "Cashout", "Refund"). */
	noun: string;
	/** The request body without the key itself. */
	content: unknown;
	/** The operation's Options collection (Duplicate Window). */
	options: IDataObject;
}

/**
 * The key of item `itemIndex`'s creation: the given key, exactly as given, or a key derived from the
 * workflow, the node, the run index (`$runIndex`: each pass of a loop is a run of its own), the
 * item index, the request's content and the Duplicate Window (service rules §5.2).
 * @throws NodeOperationError naming the item, the field and the rule when the given key cannot be
 *   sent as it is (nothing is sent, nothing is stripped).
 */
export function creationKey(
	context: IExecuteFunctions,
	itemIndex: number,
	request: CreationKeyRequest,
): CreationKey {
	const given =
		typeof request.given === 'string'
			? request.given
			: request.given === undefined || request.given === null
				? ''
				: String(request.given);
	if (given !== '') {
		const problem = givenKeyProblem(request.kind, given);
		if (problem) {
			throw new NodeOperationError(
				context.getNode(),
				`${request.noun} in item ${itemIndex} is invalid: ${request.label} ${problem}`,
				{
					itemIndex,
					description: `Nothing was sent. Fix the ${request.label}, or leave it empty to have one derived. A key is sent exactly as given, never shortened or stripped.`,
				},
			);
		}
		return { key: given, derived: false };
	}
	const windowKind = isDuplicateWindow(request.options.duplicateWindow)
		? request.options.duplicateWindow
		: DEFAULT_DUPLICATE_WINDOW;
	const window = duplicateWindowAt(windowKind, Date.now());
	const node = context.getNode();
	const key = deriveRequestKey({
		workflowId: context.getWorkflow().id,
		nodeId: node.id ?? node.name,
		runIndex: runIndexOf(context, itemIndex),
		itemIndex,
		content: request.content,
		window: window.label,
	});
	return { key, derived: true, window };
}

/**
 * The `X-Idempotency-Key` of a deposit or refund creation (service rules §5.2): the Idempotency Key
 * option when filled in (trimmed; sent as given, or refused), else derived from the request.
 * @param noun "Deposit" or "Refund", for the error message.
 * @throws NodeOperationError as {@link creationKey}.
 */
export function idempotencyKeyCreation(
	context: IExecuteFunctions,
	itemIndex: number,
	noun: string,
	request: IDataObject,
	options: IDataObject,
): CreationKey {
	return creationKey(context, itemIndex, {
		given: typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : undefined,
		kind: 'idempotencyKey',
		label: 'Idempotency Key',
		noun,
		content: request,
		options,
	});
}

/**
 * n8n's `$runIndex` for the running node: how many times it ran before in this execution. As an AI
 * agent's tool every call is a run of its own, and a model that calls again after a lost answer
 * asks for the same payment: there the run index is left out (0), so identical calls within the
 * Duplicate Window are one request.
 */
function runIndexOf(context: IExecuteFunctions, itemIndex: number): number {
	if (isToolExecution(context)) return 0;
	const runIndex = context.getWorkflowDataProxy(itemIndex).$runIndex as unknown;
	return typeof runIndex === 'number' && Number.isInteger(runIndex) && runIndex >= 0 ? runIndex : 0;
}

/** `2026-11-24 00:00 UTC` */
function utcMinute(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * What to tell the user when a creation's outcome is unknown (no answer, or a 5xx): the key used,
 * and how to retry without creating a second record. `field` names what the key is sent as
 * ("idempotency key", "external ID"); `code` is the service's answer to a repeat (104, 511).
 */
export function safeRetryAdvice(
	creation: CreationKey,
	field: string,
	code: number,
	noun: string,
): string {
	const repeat = `the service recognises the repeat (${code}) and this node reports the existing ${noun} instead of making a second one`;
	if (!creation.derived)
		return `The ${field} of this ${noun} is ${creation.key}. Retrying with the same ${field} is safe at any time: ${repeat}.`;
	return (
		`The ${field} of this ${noun} is ${creation.key} (derived). Retry On Fail, n8n's Retry of this execution, or a re-run on the same input before ` +
		`${utcMinute(creation.window!.endMs)} sends the same one: ${repeat}. After that time the derived ${field} changes, so look the ${noun} up first, ` +
		`or give it this ${field} yourself.`
	);
}

/**
 * What a creation's failure says when its outcome is unknown (no answer came back, or the service
 * answered 5xx): that the service may have acted, and how to retry safely ({@link safeRetryAdvice}).
 * Given to the client as the request's `unknownOutcome`, so the error is built with it once.
 */
export function unknownCreationOutcome(
	creation: CreationKey,
	field: string,
	code: number,
	noun: string,
): (failure: ServiceFailure) => string {
	return (failure) => {
		const cause =
			failure.httpStatus === undefined
				? `No answer came back, so the ${noun} may or may not have been created.`
				: `The service failed (HTTP ${failure.httpStatus}) and may or may not have created the ${noun}.`;
		return `${cause} ${safeRetryAdvice(creation, field, code, noun)}`;
	};
}

/**
 * Whether the node runs as an AI agent's tool: its type is the tool variant n8n makes of it
 * (`…paymentsServiceTool`), or the context says so (`isToolExecution`, where n8n has it).
 */
function isToolExecution(context: IExecuteFunctions): boolean {
	if (context.getNode().type.endsWith('Tool')) return true;
	const ask = (context as { isToolExecution?: () => boolean }).isToolExecution;
	return typeof ask === 'function' && ask.call(context) === true;
}
