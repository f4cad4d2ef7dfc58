import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Reads a required identifier parameter (deposit, cashout or ticket id) as a positive whole number.
 * @throws NodeOperationError naming the field, the item and the bad value.
 */
export function readPositiveInteger(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
): number {
	const raw = context.getNodeParameter(parameter, itemIndex) as unknown;
	const text = typeof raw === 'number' ? String(raw) : String(raw ?? '').trim();
	if (!/^\d+$/.test(text) || Number(text) <= 0 || !Number.isSafeInteger(Number(text))) {
		throw new NodeOperationError(
			context.getNode(),
			`${label} must be a positive whole number, got "${text}" (item ${itemIndex})`,
			{ itemIndex, description: `Set "${label}" to the identifier the service assigned, e.g. 123456.` },
		);
	}
	return Number(text);
}

/**
 * Reads a required text parameter, trimmed.
 * @throws NodeOperationError when it is empty.
 */
export function readRequiredText(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	const value = String(context.getNodeParameter(parameter, itemIndex, '') ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${label} is empty (item ${itemIndex})`, {
			itemIndex,
			description: hint,
		});
	}
	return value;
}
