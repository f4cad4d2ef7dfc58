import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestHistory } from './history';
import {
	DEFAULT_DUPLICATE_WINDOW,
	deriveRequestKey,
	duplicateWindowAt,
	givenKeyProblem,
	historyKeyOf,
	isDuplicateWindow,
	previousWindowInGrace,
	type GivenKeyKind,
	type RequestKey,
	type WindowSpan,
} from './keys';

/**
 * The key of one creation request (service rules §5.2): the key the user gave, exactly as given, or
 * one derived from where the request is made and what it asks; a request this execution sent
 * before gives its key back (idempotency/history.ts).
 */

/** n8n's data proxy of one item (`$runIndex`, `$()`). */
type DataProxy = ReturnType<IExecuteFunctions['getWorkflowDataProxy']>;

/** What {@link requestKey} needs to know about the creation. */
export interface RequestKeyInput {
	/** The key the user gave (trimmed text), or undefined/'' to derive one. */
	given: unknown;
	/** What the given key is sent as, for its rule. */
	kind: GivenKeyKind;
	/** The field's name in the panel, e.g. "External ID". */
	label: string;
	/** What is created, for the error message ("cashout"). */
	noun: string;
	/** The request body without the key itself. */
	content: unknown;
	/** The operation's Options collection (Duplicate Window). */
	options: IDataObject;
}

/** An item's key and where it stands in the execution. */
export interface ItemKey {
	key: RequestKey;
	/** The name of its history in the execution (idempotency/history.ts). */
	historyKey: string;
	/** The item's place in the execution, `<run index>:<item index>`: whose outcome it is. */
	runItem: string;
	/**
	 * On a first attempt within an hour of a Duplicate Window's start (derived keys only): the key
	 * the same request had in the previous window, looked up before creating, so a re-run just
	 * after a boundary does not pay again.
	 */
	previous?: RequestKey;
}

/**
 * The key of item `itemIndex`'s creation: the given key, exactly as given, or a key derived from the
 * workflow, the node, the run index (`$runIndex`: each pass of a loop is a run of its own), the
 * item index, the execution's origin (the trigger item), the request's content and the Duplicate
 * Window (service rules §5.2). A request this execution sent before (Retry On Fail, or the failed
 * execution n8n's Retry continues) gives its key back unchanged, whatever the clock says.
 * @throws NodeOperationError naming the item, the field and the rule when the given key cannot be
 *   sent as it is (nothing is sent, nothing is stripped).
 */
export function requestKey(
	context: IExecuteFunctions,
	itemIndex: number,
	request: RequestKeyInput,
	histories: Record<string, RequestHistory>,
): ItemKey {
	const given =
		typeof request.given === 'string'
			? request.given
			: request.given === undefined || request.given === null
				? ''
				: String(request.given);
	// One data proxy per item serves every read of it (n8n builds a costly one per call).
	const proxy = context.getWorkflowDataProxy(itemIndex);
	const runItem = `${ranBefore(proxy)}:${itemIndex}`;
	if (given !== '') {
		refuseGivenKey(context, itemIndex, request, given);
		return { key: { value: given, derived: false }, historyKey: `given-${given}`, runItem };
	}
	const node = context.getNode();
	const identity = {
		workflowId: context.getWorkflow().id,
		nodeId: node.id ?? node.name,
		runIndex: runIndexOf(context, proxy),
		itemIndex,
		origin: executionOrigin(context, proxy),
		content: request.content,
	};
	const historyKey = historyKeyOf(identity);
	const sent = histories[historyKey];
	if (sent?.windowStartMs !== undefined && sent.windowEndMs !== undefined) {
		const window = {
			label: sent.windowLabel ?? '',
			startMs: sent.windowStartMs,
			endMs: sent.windowEndMs,
		};
		return { key: { value: sent.key, derived: true, window }, historyKey, runItem };
	}
	const windowKind = isDuplicateWindow(request.options.duplicateWindow)
		? request.options.duplicateWindow
		: DEFAULT_DUPLICATE_WINDOW;
	const now = Date.now();
	const keyIn = (window: WindowSpan): RequestKey => ({
		value: deriveRequestKey({ ...identity, window: window.label }),
		derived: true,
		window,
	});
	const previous = previousWindowInGrace(windowKind, now);
	const key = keyIn(duplicateWindowAt(windowKind, now));
	return { key, historyKey, runItem, ...(previous ? { previous: keyIn(previous) } : {}) };
}

/**
 * Refuses a given key that cannot be sent exactly as given.
 * @throws NodeOperationError naming the item, the field and the rule (nothing is sent, nothing is
 *   stripped).
 */
function refuseGivenKey(
	context: IExecuteFunctions,
	itemIndex: number,
	request: RequestKeyInput,
	given: string,
): void {
	const problem = givenKeyProblem(request.kind, given);
	if (!problem) return;
	const noun = `${request.noun.charAt(0).toUpperCase()}${request.noun.slice(1)}`;
	throw new NodeOperationError(
		context.getNode(),
		`${noun} in item ${itemIndex} is invalid: ${request.label} ${problem}`,
		{
			itemIndex,
			description: `Nothing was sent. Fix the ${request.label}, or leave it empty to have one derived. A key is sent exactly as given, never shortened or stripped.`,
		},
	);
}

/**
 * What started this execution, for the derived key: the item of the trigger (the node with no
 * parents that ran) that the item of `proxy` descends from, through n8n's paired items; when the
 * pairing is broken on the way, the trigger's first item and its item count. Null when the node has
 * no trigger before it (an AI agent's tool). n8n's Retry of a failed execution keeps the trigger's
 * stored output, so it finds the same origin.
 */
function executionOrigin(context: IExecuteFunctions, proxy: DataProxy): unknown {
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
 * n8n's `$runIndex` for the running node: how many times it ran before in this execution. As an AI
 * agent's tool every call is a run of its own, and a model that calls again after a lost answer
 * asks for the same payment: there the run index is left out (0), so identical calls within the
 * Duplicate Window are one request.
 */
function runIndexOf(context: IExecuteFunctions, proxy: DataProxy): number {
	return isToolExecution(context) ? 0 : ranBefore(proxy);
}

/** n8n's `$runIndex`: how many times the running node ran before in this execution (0 when unknown). */
function ranBefore(proxy: DataProxy): number {
	const runIndex = proxy.$runIndex as unknown;
	return typeof runIndex === 'number' && Number.isInteger(runIndex) && runIndex >= 0 ? runIndex : 0;
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
