import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_CREATION_CONCURRENCY,
	DEFAULT_WINDOW_CONCURRENCY,
	MAX_CREATION_CONCURRENCY,
} from '../../codes/limits';
import { isCountryCode } from '../../reference/countries';
import { locatorValue } from '../../reference/pickers';
import { positiveId } from '../../codes/ids';
import { numberOf, showValue } from '../../parameters/values';

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
	const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	const id = positiveId(text);
	if (id === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`${label} must be a positive whole number, got ${showValue(typeof raw === 'string' ? text : raw)} (item ${itemIndex})`,
			{
				itemIndex,
				description: `Set "${label}" to the identifier the service assigned, e.g. 123456.`,
			},
		);
	}
	return id;
}

/**
 * Reads a required text parameter, trimmed (a number an expression gave as its text).
 * @throws NodeOperationError when it is empty, or neither a text nor a number (true, an object).
 */
export function readRequiredText(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	const raw = context.getNodeParameter(parameter, itemIndex, '') as unknown;
	if (
		typeof raw !== 'string' &&
		!(typeof raw === 'number' && Number.isFinite(raw)) &&
		raw != null
	) {
		throw new NodeOperationError(
			context.getNode(),
			`${label} must be a text, got ${showValue(raw)} (item ${itemIndex})`,
			{ itemIndex, description: hint },
		);
	}
	const value = String(raw ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${label} is empty (item ${itemIndex})`, {
			itemIndex,
			description: hint,
		});
	}
	return value;
}

/**
 * Reads a required 2-letter country code from a Country picker (or a plain string saved before the
 * parameter was a picker), upper-cased.
 * @throws NodeOperationError when it is empty or not 2 letters.
 */
export function readCountry(
	context: IExecuteFunctions,
	parameter: string,
	itemIndex: number,
): string {
	const country = String(
		locatorValue(context.getNodeParameter(parameter, itemIndex, '')) ?? '',
	).trim();
	if (country === '') {
		throw new NodeOperationError(context.getNode(), `Country is empty (item ${itemIndex})`, {
			itemIndex,
			description: 'Pick a country from the list, or type a 2-letter country code such as BR.',
		});
	}
	if (!isCountryCode(country)) {
		throw new NodeOperationError(
			context.getNode(),
			`Country must be a 2-letter country code, got "${country}" (item ${itemIndex})`,
			{
				itemIndex,
				description: 'Use an ISO 3166-1 alpha-2 code such as BR, MX or CO.',
			},
		);
	}
	return country.toUpperCase();
}

/**
 * Options → Concurrency of the creations: how many items are sent at once. Unset, it is
 * {@link DEFAULT_CREATION_CONCURRENCY} from node version 1.2 and 1 before (saved workflows keep
 * one item after another); the router reads it ({@link readConcurrency}).
 */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	default: DEFAULT_CREATION_CONCURRENCY,
	typeOptions: { minValue: 1, maxValue: MAX_CREATION_CONCURRENCY },
	description: `How many items are sent to the service at the same time (1 to ${MAX_CREATION_CONCURRENCY}). Output items keep the input order. When an item fails and the node stops, the items already sent finish first and count as sent for Retry. Not set: ${DEFAULT_CREATION_CONCURRENCY} (1 on nodes saved before version 1.2).`,
};

/**
 * The Concurrency of a run, from the first item's options (one value per run): unset,
 * {@link DEFAULT_CREATION_CONCURRENCY} from node version 1.2, 1 before.
 * @throws NodeOperationError when it is not a whole number from 1 to {@link MAX_CREATION_CONCURRENCY}
 *   (nothing is sent).
 */
export function readConcurrency(context: IExecuteFunctions): number {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	if (options.concurrency === undefined || options.concurrency === null)
		return context.getNode().typeVersion >= 1.2 ? DEFAULT_CREATION_CONCURRENCY : 1;
	const concurrency = Number(options.concurrency);
	if (
		typeof options.concurrency === 'boolean' ||
		options.concurrency === '' ||
		!Number.isInteger(concurrency) ||
		concurrency < 1 ||
		concurrency > MAX_CREATION_CONCURRENCY
	) {
		throw new NodeOperationError(
			context.getNode(),
			`Concurrency must be a whole number from 1 to ${MAX_CREATION_CONCURRENCY}, got ${showValue(options.concurrency)} (item 0)`,
			{
				itemIndex: 0,
				description: `Nothing was sent. Set Options → Concurrency to how many items to send at once, from 1 to ${MAX_CREATION_CONCURRENCY}.`,
			},
		);
	}
	return concurrency;
}

/** Most windows of a period read at once (option "Window Concurrency"). */
const MAX_WINDOW_CONCURRENCY = 10;

/**
 * Options → Window Concurrency of Get Many (with Return All) and the reports: how many windows of a
 * period are read at once (reporting/read/). Read by {@link readWindowConcurrency}.
 */
export const windowConcurrencyOption: INodeProperties = {
	displayName: 'Window Concurrency',
	name: 'windowConcurrency',
	type: 'number',
	default: DEFAULT_WINDOW_CONCURRENCY,
	typeOptions: { minValue: 1, maxValue: MAX_WINDOW_CONCURRENCY },
	description:
		'How many windows of the period are read at the same time (Get Many: when returning all records). A long period is split into windows of under 60 days, and a busy window is split further.',
};

/**
 * The Window Concurrency of item `itemIndex` ({@link DEFAULT_WINDOW_CONCURRENCY} when unset).
 * @throws NodeOperationError when it is not a whole number from 1 to 10 (nothing is sent).
 */
export function readWindowConcurrency(context: IExecuteFunctions, itemIndex: number): number {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const concurrency = numberOf(options.windowConcurrency ?? DEFAULT_WINDOW_CONCURRENCY);
	if (
		concurrency === undefined ||
		!Number.isInteger(concurrency) ||
		concurrency < 1 ||
		concurrency > MAX_WINDOW_CONCURRENCY
	) {
		throw new NodeOperationError(
			context.getNode(),
			`Window Concurrency must be a whole number from 1 to ${MAX_WINDOW_CONCURRENCY}, got ${showValue(options.windowConcurrency)} (item ${itemIndex})`,
			{
				itemIndex,
				description: `Set Options → Window Concurrency to a number from 1 to ${MAX_WINDOW_CONCURRENCY}.`,
			},
		);
	}
	return concurrency;
}

/**
 * Checks that every value of a multiple choice is one of `allowed` (a value can come from an
 * expression, or from a workflow written for another list).
 * @throws NodeOperationError naming the parameter, the value, the item and the values allowed.
 */
export function checkChoices(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	values: unknown,
	allowed: readonly string[],
	listLabel: string,
): string[] {
	const list = Array.isArray(values)
		? values
		: typeof values === 'string' && values.trim() !== ''
			? values.split(',')
			: values === undefined || values === null || values === ''
				? []
				: [values];
	const chosen: string[] = [];
	for (const raw of list) {
		const value = typeof raw === 'string' ? raw.trim() : '';
		if (!allowed.includes(value)) {
			throw new NodeOperationError(
				context.getNode(),
				`${parameter} ${showValue(typeof raw === 'string' ? value : raw)} is not a field of ${listLabel}s (item ${itemIndex})`,
				{
					itemIndex,
					description: `Use ${allowed.length ? allowed.join(', ') : 'none'} for ${parameter} of ${listLabel}s.`,
				},
			);
		}
		if (!chosen.includes(value)) chosen.push(value);
	}
	return chosen;
}

/**
 * Reads the on/off option `name` (shown as `label`) of the Options collection `options` of item
 * `itemIndex`: `fallback` when it is not set.
 * @throws NodeOperationError when an expression gave something else than true or false (nothing
 *   has been sent).
 */
export function readSwitch(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	option: { name: string; label: string; fallback: boolean },
): boolean {
	const value = options[option.name];
	if (value === undefined || value === null) return option.fallback;
	if (typeof value === 'boolean') return value;
	throw new NodeOperationError(
		context.getNode(),
		`${option.label} must be true or false, got ${showValue(value)} (item ${itemIndex})`,
		{
			itemIndex,
			description: `Turn Options → ${option.label} on or off, or make its expression give true or false.`,
		},
	);
}
