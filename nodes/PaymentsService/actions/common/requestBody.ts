import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { bodyFromParameters, type FieldProblem, type RequestField } from '../../helpers/requestFields';

/**
 * Builds a request body from the node's fields for item `itemIndex`, one row of `fields` each
 * (helpers/requestFields.ts): parameters of their own, and the collections they sit in.
 * @param noun what the body creates, capitalised, for the error message ("Deposit", "Cashout").
 * @throws NodeOperationError for a JSON field that is not a JSON object; nothing is sent.
 */
export function bodyFromFields(context: IExecuteFunctions, itemIndex: number, fields: readonly RequestField[], noun: string): IDataObject {
	const collections = new Map<string, IDataObject>();
	const read = (param: string, collection: string | undefined) => {
		if (!collection) return context.getNodeParameter(param, itemIndex, '');
		if (!collections.has(collection)) collections.set(collection, context.getNodeParameter(collection, itemIndex, {}) as IDataObject);
		return collections.get(collection)![param];
	};
	const built = bodyFromParameters(fields, read);
	if ('body' in built) return built.body;
	throw new NodeOperationError(context.getNode(), `${noun} in item ${itemIndex} is invalid: ${built.field.displayName} ${built.problem}`, {
		itemIndex,
		description: `Nothing was sent. Write ${built.field.displayName} as a JSON object, e.g. {"account_number": "123"}.`,
	});
}

/**
 * The error for a body that broke rules: `<noun> in item <n> is invalid: <field> <rule>` naming
 * the first problem, every problem in the description, and that nothing was sent.
 */
export function invalidBodyError(context: IExecuteFunctions, itemIndex: number, noun: string, problems: FieldProblem[]): NodeOperationError {
	const lines = problems.map((problem) => `${problem.field} ${problem.problem}`);
	return new NodeOperationError(context.getNode(), `${noun} in item ${itemIndex} is invalid: ${lines[0]}`, {
		itemIndex,
		description: `Nothing was sent. Fix ${lines.length === 1 ? 'this field' : `these ${lines.length} fields`}: ${lines.join('; ')}.`,
	});
}
