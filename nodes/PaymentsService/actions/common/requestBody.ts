import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { findInexactNumbers } from '../../bodies/jsonNumbers';
import {
	bodyFromParameters,
	type FieldProblem,
	type RequestField,
} from '../../bodies/requestFields';

/**
 * Builds a request body from the node's fields for item `itemIndex`, one row of `fields` each
 * (bodies/requestFields.ts): parameters of their own, and the collections they sit in.
 * @param noun what the body creates, for the error message ("deposit", "cashout").
 * @throws NodeOperationError for a JSON field that is not a JSON object, or a field marked
 *   `refuseEmptyExpression` whose expression resolved to nothing; nothing is sent.
 */
export function bodyFromFields(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: readonly RequestField[],
	noun: string,
): IDataObject {
	const collections = new Map<string, IDataObject>();
	const read = (param: string, collection: string | undefined) => {
		if (!collection) return context.getNodeParameter(param, itemIndex, '');
		if (!collections.has(collection))
			collections.set(
				collection,
				context.getNodeParameter(collection, itemIndex, {}) as IDataObject,
			);
		return collections.get(collection)![param];
	};
	refuseEmptyExpressions(context, itemIndex, fields, noun, read);
	const built = bodyFromParameters(fields, read);
	if ('body' in built) return built.body;
	throw new NodeOperationError(
		context.getNode(),
		`${capitalised(noun)} in item ${itemIndex} is invalid: ${built.field.displayName} ${built.problem}`,
		{
			itemIndex,
			description: `Nothing was sent. Write ${built.field.displayName} as a JSON object, e.g. {"account_number": "123"}.`,
		},
	);
}

/**
 * The error for a body that broke rules: `<Noun> in item <n> is invalid: <field> <rule>` naming
 * the first problem, every problem in the description, and that nothing was sent.
 * @param noun what the body creates ("deposit").
 */
export function invalidBodyError(
	context: IExecuteFunctions,
	itemIndex: number,
	noun: string,
	problems: FieldProblem[],
): NodeOperationError {
	const lines = problems.map((problem) => `${problem.field} ${problem.problem}`);
	return new NodeOperationError(
		context.getNode(),
		`${capitalised(noun)} in item ${itemIndex} is invalid: ${lines[0]}`,
		{
			itemIndex,
			description: `Nothing was sent. Fix ${lines.length === 1 ? 'this field' : `these ${lines.length} fields`}: ${lines.join('; ')}.`,
		},
	);
}

/** `noun` as a sentence starts it: "deposit" → "Deposit". */
const capitalised = (noun: string) => `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;

/** Whether a parameter's value is empty: nothing, or text of spaces only. */
function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Refuses the fields marked `refuseEmptyExpression` whose value is an expression (`={{ … }}`) that
 * resolved to nothing (`undefined`, `null`, empty text): for those fields, leaving the value out
 * changes what the request does (a refund without an amount refunds everything), so only a field
 * left empty in the panel on purpose may be empty.
 * @throws NodeOperationError naming the item, the field, the expression and the fix.
 */
function refuseEmptyExpressions(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: readonly RequestField[],
	noun: string,
	read: (param: string, collection: string | undefined) => unknown,
): void {
	for (const field of fields) {
		if (!field.refuseEmptyExpression) continue;
		const raw = field.collection
			? (
					context.getNodeParameter(
						field.collection,
						itemIndex,
						{},
						{ rawExpressions: true },
					) as IDataObject
				)[field.param]
			: context.getNodeParameter(field.param, itemIndex, '', { rawExpressions: true });
		if (typeof raw !== 'string' || !raw.startsWith('=')) continue;
		const value = read(field.param, field.collection);
		if (!isEmptyValue(value)) continue;
		const got = value === undefined ? 'undefined' : value === null ? 'null' : 'empty text';
		throw new NodeOperationError(
			context.getNode(),
			`${capitalised(noun)} in item ${itemIndex} is invalid: ${field.displayName} is an expression that resolved to nothing`,
			{
				itemIndex,
				description:
					`Nothing was sent. ${field.displayName} is ${raw.slice(1)}, which gave ${got} for this item: check the field it reads in the input item. ${field.emptyMeaning ?? ''}`.trim(),
			},
		);
	}
}

/**
 * The request body of item `itemIndex` from the JSON Body parameter (`jsonBody`): a JSON object,
 * with every number exactly as written.
 * @param noun what the body creates, for the error ("deposit").
 * @param example a short valid body, shown in the fix.
 * @throws NodeOperationError when it is not valid JSON, not an object, or has a number a
 *   JavaScript number cannot carry exactly (it would arrive as another amount); nothing is sent.
 */
export function bodyFromJson(
	context: IExecuteFunctions,
	itemIndex: number,
	noun: string,
	example: string,
): IDataObject {
	const raw = context.getNodeParameter('jsonBody', itemIndex) as unknown;
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = JSON.parse(raw);
		} catch (error) {
			throw new NodeOperationError(
				context.getNode(),
				`JSON Body of item ${itemIndex} is not valid JSON`,
				{
					itemIndex,
					description: `${(error as Error).message}. Write the ${noun} request as a JSON object.`,
				},
			);
		}
		// JSON.parse rounds numbers past a double's precision: refuse rather than send another amount.
		const inexact = findInexactNumbers(raw);
		if (inexact.length) {
			throw new NodeOperationError(
				context.getNode(),
				`JSON Body of item ${itemIndex} has the number ${inexact[0]}, which a JavaScript number cannot carry exactly`,
				{
					itemIndex,
					description: `Nothing was sent. It would arrive as ${String(Number(inexact[0]))}. Write ${inexact.length === 1 ? 'it' : `these numbers (${inexact.join(', ')})`} as text instead, e.g. "amount": "${inexact[0]}".`,
				},
			);
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(
			context.getNode(),
			`JSON Body of item ${itemIndex} must be a JSON object`,
			{
				itemIndex,
				description: `Write the ${noun} request as an object, e.g. ${example}.`,
			},
		);
	}
	return parsed as IDataObject;
}

/**
 * The parameters that choose between fields and a JSON body (`specifyBody`, `jsonBody`, read by
 * {@link bodyFromJson}).
 * @param noun what the body creates ("deposit"); @param example the JSON Body's default.
 */
export function specifyBodyProperties(noun: string, example: string): INodeProperties[] {
	return [
		{
			displayName: 'Specify Body',
			name: 'specifyBody',
			type: 'options',
			default: 'fields',
			options: [
				{ name: 'Using Fields Below', value: 'fields' },
				{ name: 'Using JSON', value: 'json' },
			],
			description: `Whether to fill in the ${noun} field by field or to send a whole request body as JSON`,
		},
		{
			displayName: 'JSON Body',
			name: 'jsonBody',
			type: 'json',
			default: example,
			required: true,
			displayOptions: { show: { specifyBody: ['json'] } },
			description: `The ${noun} request body, with the field names of the API (snake_case). The fields the node knows are validated before sending; others are sent as they are and listed in the output as unchecked_fields.`,
		},
	];
}
