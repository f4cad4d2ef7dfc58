import { z, type ZodTypeAny } from 'zod';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { locatorValue, PICKERS, type PickerKind } from '../reference/pickers';

/**
 * Request bodies described by one table: each row is a field of the body, how the node asks for it,
 * and its rule. The node's parameters, the body built from them and the zod schema that checks the
 * body before anything is sent all come from the same rows, so a field is added in one place.
 */

/** How the node asks for a field, and how the answer becomes the body value. */
export type FieldInput =
	| 'text' // trimmed text; empty means absent
	| 'number'
	| 'boolean'
	| 'list' // comma-separated text -> array of text
	| 'json' // a JSON object typed as text
	| { options: readonly string[] }
	| { picker: PickerKind }; // a resource locator (list or typed code); its value reads like text

/** One field of a request body. */
export interface RequestField {
	/** Path of the field in the body, dot-separated (`payer.address.state`). */
	path: string;
	/** The node parameter that holds it. */
	param: string;
	/** The collection parameter it sits in; undefined for a parameter of its own. */
	collection?: string;
	displayName: string;
	description: string;
	placeholder?: string;
	input: FieldInput;
	/** The parameter's default (text fields default to ''). */
	default?: string | number | boolean;
	/** Required in the body (and shown as required in the node). */
	required?: boolean;
	/** The rule for the body value; the message of each check completes "<path> …". */
	rule: ZodTypeAny;
	/** Extra parameter settings (e.g. `typeOptions`). */
	extra?: Partial<INodeProperties>;
	/**
	 * True when leaving the field out changes what the request does (a refund without an amount
	 * refunds everything): an expression that resolves to nothing is then refused, and only a field
	 * left empty on purpose is left out.
	 */
	refuseEmptyExpression?: boolean;
	/** What an empty value means, said when an expression resolved to nothing (e.g. "Empty means a full refund: …"). */
	emptyMeaning?: string;
}

/** A text field of `collection` (undefined: a parameter of its own) checked by `rule`. */
export function textField(
	path: string,
	param: string,
	collection: string | undefined,
	displayName: string,
	description: string,
	rule: ZodTypeAny,
	placeholder?: string,
): RequestField {
	return { path, param, collection, displayName, description, input: 'text', rule, placeholder };
}

/** A collection parameter that groups fields. */
export interface FieldCollection {
	name: string;
	displayName: string;
	placeholder: string;
	description?: string;
}

/** One broken rule: the field's path in the body (`payer.email`) and what is wrong with it. */
export interface FieldProblem {
	field: string;
	problem: string;
}

function parameterOf(field: RequestField): INodeProperties {
	const input = field.input;
	const base = {
		displayName: field.displayName,
		name: field.param,
		description: field.description,
		...(field.placeholder ? { placeholder: field.placeholder } : {}),
		...(field.required && !field.collection ? { required: true } : {}),
	};
	let property: INodeProperties;
	if (typeof input === 'object' && 'picker' in input)
		property = { ...base, ...PICKERS[input.picker] };
	else if (input === 'boolean')
		property = { ...base, type: 'boolean', default: field.default ?? false };
	else if (input === 'number') property = { ...base, type: 'number', default: field.default ?? 0 };
	else if (typeof input === 'object' && 'options' in input) {
		property = {
			...base,
			type: 'options',
			default: field.default ?? input.options[0],
			options: input.options.map((value) => ({ name: value, value })),
		};
	} else property = { ...base, type: 'string', default: field.default ?? '' };
	return { ...property, ...field.extra };
}

/**
 * The node parameters of `fields`: parameters of their own in table order, then one collection per
 * entry of `collections`, its options sorted by name (as n8n lists them).
 */
export function fieldParameters(
	fields: readonly RequestField[],
	collections: readonly FieldCollection[],
): INodeProperties[] {
	const own = fields.filter((field) => !field.collection).map(parameterOf);
	const grouped = collections.map((collection): INodeProperties => ({
		displayName: collection.displayName,
		name: collection.name,
		type: 'collection',
		placeholder: collection.placeholder,
		default: {},
		...(collection.description ? { description: collection.description } : {}),
		options: fields
			.filter((field) => field.collection === collection.name)
			.map(parameterOf)
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	}));
	return [...own, ...grouped];
}

function setAt(body: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let target = body;
	for (const key of keys.slice(0, -1)) {
		if (!target[key] || typeof target[key] !== 'object') target[key] = {};
		target = target[key] as IDataObject;
	}
	target[keys[keys.length - 1]] = value as IDataObject[string];
}

/**
 * Builds the request body from parameter values: `read(param, collection)` gives a field's value
 * (undefined when not set). Empty text is left out; lists are split on commas; JSON text is parsed;
 * a picker gives the value it holds (a resource locator's `value`, or a plain string saved before).
 * Returns the body, or the first field whose text could not be read (JSON that is not an object).
 */
export function bodyFromParameters(
	fields: readonly RequestField[],
	read: (param: string, collection: string | undefined) => unknown,
): { body: IDataObject } | { field: RequestField; problem: string } {
	const body: IDataObject = {};
	for (const field of fields) {
		const isPicker = typeof field.input === 'object' && 'picker' in field.input;
		const raw = isPicker
			? locatorValue(read(field.param, field.collection))
			: read(field.param, field.collection);
		if (raw === undefined || raw === null) continue;
		let value: unknown = raw;
		if (field.input === 'text' || field.input === 'list' || field.input === 'json' || isPicker) {
			const text = typeof raw === 'string' ? raw.trim() : raw;
			if (text === '') continue;
			value = text;
			if (field.input === 'list' && typeof text === 'string') {
				value = text
					.split(',')
					.map((entry) => entry.trim())
					.filter(Boolean);
			}
			if (field.input === 'json' && typeof text === 'string') {
				let parsed: unknown;
				try {
					parsed = JSON.parse(text);
				} catch {
					return { field, problem: 'is not valid JSON' };
				}
				if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
					return { field, problem: 'must be a JSON object' };
				value = parsed;
			}
		}
		setAt(body, field.path, value);
	}
	return { body };
}

interface Tree {
	[key: string]: Tree | RequestField;
}

function isField(node: Tree | RequestField): node is RequestField {
	return (
		typeof (node as RequestField).path === 'string' && (node as RequestField).rule !== undefined
	);
}

function schemaOf(tree: Tree, topLevel: boolean): z.ZodObject<Record<string, ZodTypeAny>> {
	const shape: Record<string, ZodTypeAny> = {};
	for (const [key, node] of Object.entries(tree)) {
		shape[key] = isField(node)
			? node.required
				? node.rule
				: node.rule.optional()
			: schemaOf(node, false).optional();
	}
	const object = z.object(shape);
	// Unknown top-level fields pass unchanged (the provider adds fields over time; service rules
	// §5.1); inside objects the table is complete, so an unknown key is a typo.
	return topLevel ? object.passthrough() : object.strict();
}

/** A body checker built from `fields` (see {@link checkBody}). */
export interface BodySchema {
	schema: ZodTypeAny;
	/** Top-level keys the table describes. */
	known: ReadonlySet<string>;
}

/** The zod schema of a body made of `fields`: known fields checked, unknown top-level keys passed through. */
export function bodySchema(fields: readonly RequestField[]): BodySchema {
	const tree: Tree = {};
	for (const field of fields) {
		const keys = field.path.split('.');
		let node = tree;
		for (const key of keys.slice(0, -1))
			node = (node[key] = (node[key] as Tree | undefined) ?? {}) as Tree;
		node[keys[keys.length - 1]] = field;
	}
	return { schema: schemaOf(tree, true), known: new Set(Object.keys(tree)) };
}

function valueAt(body: unknown, path: Array<string | number>): unknown {
	let current: unknown = body;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

/**
 * Checks a body: the fields of the table against their rules, every broken rule reported with its
 * path. Returns the body as given (`ok: true`) with the top-level keys the table does not know
 * (`unchecked`), or every problem (`ok: false`).
 */
export function checkBody(
	checker: BodySchema,
	body: unknown,
): { ok: true; value: IDataObject; unchecked: string[] } | { ok: false; problems: FieldProblem[] } {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		return { ok: false, problems: [{ field: '(body)', problem: 'must be a JSON object' }] };
	}
	const result = checker.schema.safeParse(body);
	if (result.success) {
		return {
			ok: true,
			value: result.data as IDataObject,
			unchecked: Object.keys(body).filter((key) => !checker.known.has(key)),
		};
	}
	const problems = result.error.issues.map((issue) => {
		if (issue.code === z.ZodIssueCode.unrecognized_keys) {
			const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
			return {
				field: issue.keys.map((key) => `${prefix}${key}`).join(', '),
				problem: 'is not a field of the request; check the spelling against the API reference',
			};
		}
		const field = issue.path.join('.') || '(body)';
		let problem = issue.message;
		const value = valueAt(body, issue.path);
		if (value === undefined) problem = 'is required';
		else if (issue.code === z.ZodIssueCode.invalid_type)
			problem = `must be ${issue.expected}, got ${issue.received}`;
		else if (issue.code === z.ZodIssueCode.invalid_union)
			problem = `must be a decimal number or text such as "100.50", got ${typeof value}`;
		return { field, problem };
	});
	return { ok: false, problems };
}
