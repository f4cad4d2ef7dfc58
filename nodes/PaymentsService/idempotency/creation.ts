import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_DUPLICATE_WINDOW,
	deriveRequestKey,
	duplicateWindowAt,
	givenKeyProblem,
	isDuplicateWindow,
	previousWindowInGrace,
	attemptKeyOf,
	type GivenKeyKind,
	type WindowSpan,
} from './keys';
import type { ServiceFailure } from '../transport/errors';

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
	/** The attempt key: where this request's attempts are remembered in the execution ({@link AttemptRecord}). */
	attemptKey: string;
	/**
	 * When this execution (or the failed one n8n's Retry continues) first sent this key, epoch
	 * milliseconds; undefined when this is the first attempt, or when an earlier attempt was refused
	 * as a repeat of another execution's request.
	 */
	earlierAttemptMs?: number;
	/**
	 * The key the same request had in the previous Duplicate Window, on a first attempt within
	 * an hour (`PREVIOUS_WINDOW_GRACE_MS`) of a window's start (derived keys only): looked for before
	 * creating, so a re-run just after a boundary does not pay again.
	 */
	previousWindowKey?: string;
}

/**
 * What a node remembers of its creation attempts within one execution, in n8n's node context
 * (`this.getContext('node')`, saved with the execution's data): the key each request sent and when,
 * by {@link CreationKey.attemptKey}. n8n's Retry of a failed execution carries the context over, and
 * Retry On Fail runs in the same execution, so both find what the first attempt sent, whatever the
 * clock says; a separate execution starts with none (service rules §5.2).
 */
export interface AttemptRecord {
	key: string;
	/** The window of a derived key, epoch milliseconds (UTC). */
	windowStartMs?: number;
	windowEndMs?: number;
	windowLabel?: string;
	/** When the key was first sent, epoch milliseconds. */
	sentMs: number;
	/** True once the service refused the key as another execution's (the repeat was not ours). */
	refused?: boolean;
}

/** The name of the attempt record in the node context. */
const ATTEMPTS = 'paymentsServiceCreationAttempts';

/**
 * The node's attempt records of this execution, or undefined where the running n8n offers no node
 * context (then every attempt is a first one, and a repeat cannot be told from a retry).
 */
function attemptRecords(context: IExecuteFunctions): Record<string, AttemptRecord> | undefined {
	const getContext = (context as { getContext?: IExecuteFunctions['getContext'] }).getContext;
	if (typeof getContext !== 'function') return undefined;
	let store: IDataObject;
	try {
		store = getContext.call(context, 'node') as IDataObject;
	} catch {
		return undefined;
	}
	if (typeof store[ATTEMPTS] !== 'object' || store[ATTEMPTS] === null) store[ATTEMPTS] = {};
	return store[ATTEMPTS] as unknown as Record<string, AttemptRecord>;
}

/**
 * Remembers that `creation` is about to be sent (call it right before sending): the first attempt
 * of a request records its key, window and time; later attempts keep the first record.
 */
export function recordAttempt(context: IExecuteFunctions, creation: CreationKey): void {
	const records = attemptRecords(context);
	if (!records || records[creation.attemptKey]) return;
	records[creation.attemptKey] = {
		key: creation.key,
		sentMs: Date.now(),
		...(creation.window
			? {
					windowStartMs: creation.window.startMs,
					windowEndMs: creation.window.endMs,
					windowLabel: creation.window.label,
				}
			: {}),
	};
}

/**
 * `creation` as seen by a repeat answer to its own resend (a 503 resent with the same key, service
 * rules §11): the attempt this call recorded ({@link recordAttempt}) sent the key before, so the
 * record may be this request's. Unchanged when an earlier attempt is already known.
 */
export function sentBefore(context: IExecuteFunctions, creation: CreationKey): CreationKey {
	if (creation.earlierAttemptMs !== undefined) return creation;
	const record = attemptRecords(context)?.[creation.attemptKey];
	return record && !record.refused ? { ...creation, earlierAttemptMs: record.sentMs } : creation;
}

/**
 * Remembers that the service refused `creation`'s key as already used when this execution had not
 * sent it before: the record belongs to another execution, and later attempts here are not retries
 * of it.
 */
export function recordRefusedRepeat(context: IExecuteFunctions, creation: CreationKey): void {
	const record = attemptRecords(context)?.[creation.attemptKey];
	if (record) record.refused = true;
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
 * item index, the execution's origin (the trigger item), the request's content and the Duplicate
 * Window (service rules §5.2). An attempt this execution made before (Retry On Fail, or the failed
 * execution n8n's Retry continues) gives its key back unchanged, whatever the clock says.
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
	const records = attemptRecords(context);
	if (given !== '') return givenCreationKey(context, itemIndex, request, given, records);
	const node = context.getNode();
	// One data proxy per item serves both (n8n builds a costly one per call).
	const proxy = context.getWorkflowDataProxy(itemIndex);
	const identity = {
		workflowId: context.getWorkflow().id,
		nodeId: node.id ?? node.name,
		runIndex: runIndexOf(context, proxy),
		itemIndex,
		origin: executionOrigin(context, proxy),
		content: request.content,
	};
	const attemptKey = attemptKeyOf(identity);
	const record = records?.[attemptKey];
	if (record?.windowStartMs !== undefined && record.windowEndMs !== undefined) {
		const window = {
			label: record.windowLabel ?? '',
			startMs: record.windowStartMs,
			endMs: record.windowEndMs,
		};
		return {
			key: record.key,
			derived: true,
			window,
			attemptKey,
			earlierAttemptMs: earlierAttempt(records, attemptKey),
		};
	}
	const windowKind = isDuplicateWindow(request.options.duplicateWindow)
		? request.options.duplicateWindow
		: DEFAULT_DUPLICATE_WINDOW;
	const now = Date.now();
	const window = duplicateWindowAt(windowKind, now);
	const previous = previousWindowInGrace(windowKind, now);
	return {
		key: deriveRequestKey({ ...identity, window: window.label }),
		derived: true,
		window,
		attemptKey,
		...(previous
			? { previousWindowKey: deriveRequestKey({ ...identity, window: previous.label }) }
			: {}),
	};
}

/** When an attempt of this execution first sent the key of `attemptKey` (not when it was refused as another's). */
function earlierAttempt(
	records: Record<string, AttemptRecord> | undefined,
	attemptKey: string,
): number | undefined {
	const record = records?.[attemptKey];
	return record && !record.refused ? record.sentMs : undefined;
}

/**
 * The key the user gave, exactly as given, with what this execution remembers of it.
 * @throws NodeOperationError naming the item, the field and the rule when it cannot be sent as it
 *   is (nothing is sent, nothing is stripped).
 */
function givenCreationKey(
	context: IExecuteFunctions,
	itemIndex: number,
	request: CreationKeyRequest,
	given: string,
	records: Record<string, AttemptRecord> | undefined,
): CreationKey {
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
	const attemptKey = `given-${given}`;
	return {
		key: given,
		derived: false,
		attemptKey,
		earlierAttemptMs: earlierAttempt(records, attemptKey),
	};
}

/**
 * What started this execution, for the derived key: the item of the trigger (the node with no
 * parents that ran) that the item of `proxy` descends from, through n8n's paired items; when the
 * pairing is broken on the way, the trigger's first item and its item count. Null when the node has
 * no trigger before it (an AI agent's tool). n8n's Retry of a failed execution keeps the trigger's
 * stored output, so it finds the same origin.
 */
function executionOrigin(
	context: IExecuteFunctions,
	proxy: ReturnType<IExecuteFunctions['getWorkflowDataProxy']>,
): unknown {
	let roots: string[];
	try {
		roots = context
			.getParentNodes(context.getNode().name)
			.map((parent) => parent.name)
			.filter((name) => context.getParentNodes(name).length === 0);
	} catch {
		return null;
	}
	if (!roots.length) return null;
	for (const root of roots) {
		try {
			const node = proxy.$(root) as {
				isExecuted?: boolean;
				item?: { json?: unknown };
				first(): { json?: unknown } | undefined;
				all(): unknown[];
			};
			if (node.isExecuted === false) continue;
			try {
				return { trigger: root, item: node.item?.json ?? null };
			} catch {
				return { trigger: root, first: node.first()?.json ?? null, count: node.all().length };
			}
		} catch {
			continue;
		}
	}
	return null;
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
function runIndexOf(
	context: IExecuteFunctions,
	proxy: ReturnType<IExecuteFunctions['getWorkflowDataProxy']>,
): number {
	if (isToolExecution(context)) return 0;
	const runIndex = proxy.$runIndex as unknown;
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
		`The ${field} of this ${noun} is ${creation.key} (derived). Retry On Fail and n8n's Retry of this execution send the same one at any time: ${repeat}. ` +
		`A new execution on the same input before ${utcMinute(creation.window!.endMs)} sends it too, and fails as a repeat without making a second ${noun}. ` +
		`To retry it any other way, look the ${noun} up first, or give it this ${field} yourself.`
	);
}

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
			description: 'The item is output with already_created true and matches_request null',
		},
	],
	description:
		'What to do when the service says the key was already used but the record it belongs to cannot be found and compared with this request (no Session credential selected, or not in the list yet)',
};

/**
 * Fails item `itemIndex` when the service refused its key as already used and the record could not
 * be found and compared, unless the Unconfirmed Repeat option says to output it (then it returns,
 * and the caller outputs the item with `matches_request: null`).
 * @throws NodeOperationError `<message>` with `description`: what is known and what to do.
 */
export function failUnlessUnconfirmedAllowed(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	message: string,
	description: string,
): void {
	if (options.unconfirmedRepeat === 'output') return;
	throw new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: `${description} To output such items instead, set Options → Unconfirmed Repeat to "Output It Unconfirmed".`,
	});
}

/**
 * The error of a derived key that the service already knows from another execution of the same
 * request (same workflow, node, trigger data, position and fields): the node cannot tell a re-run
 * from a second request, so it makes nothing and reports nothing as made (service rules §5.2).
 * @param found What is known of the existing record, e.g. " (cashout 8405147, PENDING)", or "".
 * @param givenField The field that makes two requests distinct ("External ID", "Invoice ID").
 */
export function repeatOfAnotherExecution(
	context: IExecuteFunctions,
	itemIndex: number,
	noun: string,
	creation: CreationKey,
	field: string,
	found: string,
	givenField: string,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`${noun.charAt(0).toUpperCase()}${noun.slice(1)} in item ${itemIndex} was not created: it repeats a ${noun} an earlier execution requested from the same input`,
		{
			itemIndex,
			description:
				`The service already has the ${noun} of the ${field} derived for this request (${creation.key})${found}. ` +
				`An earlier execution of this workflow, started by the same trigger data, asked for it at the same position with the same fields, and this node cannot tell a re-run of that execution from a second request. ` +
				`If this execution repeats it (a re-run after a lost answer), nothing more is needed: that ${noun} stands. ` +
				`If it is another ${noun}, give each its own ${givenField} (for example the order or withdrawal ID) and run it again. Nothing was created twice.`,
		},
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
