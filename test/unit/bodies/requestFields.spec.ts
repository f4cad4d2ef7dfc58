import { z } from 'zod';
import type { IDataObject } from 'n8n-workflow';

import {
	bodyFromParameters,
	bodySchema,
	checkBody,
	fieldParameters,
	textField,
	type RequestField,
} from '../../../nodes/PaymentsService/bodies/requestFields';
import { PICKERS } from '../../../nodes/PaymentsService/reference/pickers';

/** A field of the table with `input`, at `path`, held by the parameter `param` (of `collection`). */
const field = (
	path: string,
	input: RequestField['input'],
	more: Partial<RequestField> = {},
): RequestField => ({
	path,
	param: path.replace(/\W(\w)/g, (_, letter: string) => letter.toUpperCase()),
	displayName: path,
	description: `The ${path}`,
	input,
	rule: z.string(),
	...more,
});

/** A table like the bodies' own: parameters of their own, a collection, nested paths, each input kind. */
const TABLE: RequestField[] = [
	field('amount', 'text', { required: true, rule: z.union([z.number(), z.string()]) }),
	field('country', { picker: 'country' }, { required: true }),
	field('notes', 'text', { placeholder: 'Anything', collection: 'more' }),
	field('tags', 'list', { collection: 'more', rule: z.array(z.string()) }),
	field('metadata', 'json', { collection: 'more', rule: z.record(z.unknown()) }),
	field('express', 'boolean', { collection: 'more', rule: z.boolean() }),
	field('expires', 'number', { collection: 'more', default: 60, rule: z.number().int() }),
	field('kind', { options: ['ONE', 'TWO'] }, { collection: 'more' }),
	field('payer.email', 'text', {
		required: true,
		collection: 'payer',
		rule: z.string().regex(/@/, 'must be an e-mail address'),
	}),
	field('payer.address.state', 'text', { collection: 'payer', rule: z.string().max(3) }),
];

/** The body `values` (by parameter name) make; fails the test on a problem. */
function bodyOf(values: Record<string, unknown>): IDataObject {
	const result = bodyFromParameters(TABLE, (param) => values[param]);
	if (!('body' in result)) throw new Error(`${result.field.path} ${result.problem}`);
	return result.body;
}

describe('textField', () => {
	test('makes a text field of a collection, or of its own, with its rule and placeholder', () => {
		const rule = z.string();
		expect(textField('payer.city', 'city', 'payer', 'City', 'Where', rule, 'Lima')).toEqual({
			path: 'payer.city',
			param: 'city',
			collection: 'payer',
			displayName: 'City',
			description: 'Where',
			input: 'text',
			rule,
			placeholder: 'Lima',
		});
		expect(textField('city', 'city', undefined, 'City', 'Where', rule)).toMatchObject({
			collection: undefined,
			placeholder: undefined,
		});
	});
});

describe('fieldParameters', () => {
	const parameters = fieldParameters(TABLE, [
		{ name: 'more', displayName: 'Additional Fields', placeholder: 'Add Field' },
		{
			name: 'payer',
			displayName: 'Payer',
			placeholder: 'Add Payer Field',
			description: 'Who pays',
		},
		{ name: 'empty', displayName: 'Nothing', placeholder: 'Add' },
	]);
	const byName = (name: string, within = parameters) => within.find((entry) => entry.name === name);

	test('gives the parameters of their own in table order, then one collection per entry', () => {
		expect(parameters.map((entry) => [entry.name, entry.type])).toEqual([
			['amount', 'string'],
			['country', PICKERS.country.type],
			['more', 'collection'],
			['payer', 'collection'],
			['empty', 'collection'],
		]);
	});

	test('a collection lists its fields sorted by name, empty as {}, its description only when given', () => {
		const more = byName('more')!;
		expect(more).toMatchObject({ displayName: 'Additional Fields', default: {} });
		expect((more.options as typeof parameters).map((option) => option.displayName)).toEqual([
			'expires',
			'express',
			'kind',
			'metadata',
			'notes',
			'tags',
		]);
		expect(more).not.toHaveProperty('description');
		expect(byName('payer')).toMatchObject({ description: 'Who pays' });
		expect(byName('empty')!.options).toEqual([]);
	});

	test('required is shown on a parameter of its own only; inside a collection it is the body’s rule', () => {
		expect(byName('amount')).toMatchObject({ required: true });
		const payer = byName('payer')!.options as typeof parameters;
		expect(byName('payerEmail', payer)).not.toHaveProperty('required');
	});

	test.each([
		['a text field', 'notes', { type: 'string', default: '', placeholder: 'Anything' }],
		['a list', 'tags', { type: 'string', default: '' }],
		['a boolean', 'express', { type: 'boolean', default: false }],
		['a number with its own default', 'expires', { type: 'number', default: 60 }],
		[
			'options, defaulting to the first',
			'kind',
			{
				type: 'options',
				default: 'ONE',
				options: [
					{ name: 'ONE', value: 'ONE' },
					{ name: 'TWO', value: 'TWO' },
				],
			},
		],
	])('%s gets its parameter type and default', (_what, name, expected) => {
		expect(byName(name, byName('more')!.options as typeof parameters)).toMatchObject(expected);
	});

	test('a picker takes the picker’s settings; extra settings override what the table made', () => {
		expect(byName('country')).toMatchObject({
			...PICKERS.country,
			name: 'country',
			required: true,
		});
		const [number] = fieldParameters(
			[field('count', 'number', { extra: { typeOptions: { minValue: 1 }, default: 5 } })],
			[],
		);
		expect(number).toMatchObject({ type: 'number', default: 5, typeOptions: { minValue: 1 } });
	});
});

describe('bodyFromParameters', () => {
	test('puts each value at its path, nested paths as objects', () => {
		expect(
			bodyOf({ amount: '10', payerEmail: 'a@b.co', payerAddressState: 'SP', express: false }),
		).toEqual({
			amount: '10',
			express: false,
			payer: { email: 'a@b.co', address: { state: 'SP' } },
		});
	});

	test('trims text and leaves out empty text, unset values and null; keeps 0 and false', () => {
		expect(
			bodyOf({ amount: '  12.5 ', notes: '   ', payerEmail: null, expires: 0, express: false }),
		).toEqual({ amount: '12.5', expires: 0, express: false });
	});

	test('an options value is put as chosen, untouched (the editor never leaves it empty)', () => {
		expect(bodyOf({ kind: 'TWO' })).toEqual({ kind: 'TWO' });
		expect(bodyOf({ kind: '' })).toEqual({ kind: '' });
	});

	test('a value that is not text (from an expression) is put as it is', () => {
		expect(bodyOf({ amount: 12.5, notes: 7 })).toEqual({ amount: 12.5, notes: 7 });
	});

	test('splits a list on commas, trimming each entry and dropping empty ones', () => {
		expect(bodyOf({ tags: ' a, ,b ,c,, ' })).toEqual({ tags: ['a', 'b', 'c'] });
		expect(bodyOf({ tags: ' , ' })).toEqual({ tags: [] });
	});

	test('reads a picker’s value, from a resource locator or a plain string saved before', () => {
		expect(bodyOf({ country: { __rl: true, mode: 'list', value: ' BR ' } })).toEqual({
			country: 'BR',
		});
		expect(bodyOf({ country: { mode: 'id', value: 'MX' } })).toEqual({ country: 'MX' });
		expect(bodyOf({ country: 'CO' })).toEqual({ country: 'CO' });
		expect(bodyOf({ country: { __rl: true, mode: 'list', value: '' } })).toEqual({});
	});

	test('parses JSON text into an object', () => {
		expect(bodyOf({ metadata: ' {"order": 7, "tags": ["x"]} ' })).toEqual({
			metadata: { order: 7, tags: ['x'] },
		});
	});

	test.each([
		['{"order": 7', 'is not valid JSON'],
		['[1, 2]', 'must be a JSON object'],
		['null', 'must be a JSON object'],
		['42', 'must be a JSON object'],
		['"text"', 'must be a JSON object'],
	])('JSON text %j is refused: the field %s, and no body', (text, problem) => {
		const result = bodyFromParameters(TABLE, (param) => ({ metadata: text, amount: '1' })[param]);
		expect(result).toEqual({ field: TABLE[4], problem });
	});

	test('asks for each field by its parameter and its collection', () => {
		const asked: Array<[string, string | undefined]> = [];
		bodyFromParameters(TABLE, (param, collection) => void asked.push([param, collection]));
		expect(asked).toEqual(TABLE.map((entry) => [entry.param, entry.collection]));
	});
});

describe('bodySchema and checkBody', () => {
	const checker = bodySchema(TABLE);
	const valid = { amount: '100.50', country: 'BR', payer: { email: 'jane@example.com' } };
	/** The problems of `body` as `field: problem` lines; fails the test when it is accepted. */
	const problems = (body: unknown) => {
		const result = checkBody(checker, body);
		if (result.ok) throw new Error(`expected ${JSON.stringify(body)} to be refused`);
		return result.problems.map((entry) => `${entry.field}: ${entry.problem}`);
	};

	test('knows the top-level keys of the table', () => {
		expect([...checker.known].sort()).toEqual(
			[
				'amount',
				'country',
				'expires',
				'express',
				'kind',
				'metadata',
				'notes',
				'payer',
				'tags',
			].sort(),
		);
	});

	test('a valid body is returned as given; top-level keys the table does not know pass, named as unchecked', () => {
		const body = { ...valid, express: true, provider_field: { any: 1 }, other: 2 };
		expect(checkBody(checker, body)).toEqual({
			ok: true,
			value: body,
			unchecked: ['provider_field', 'other'],
		});
	});

	test.each([
		['null', null],
		['an array', [valid]],
		['text', '{"amount": 1}'],
		['a number', 42],
	])('a body that is %s is refused as not a JSON object', (_what, body) => {
		expect(problems(body)).toEqual(['(body): must be a JSON object']);
	});

	test.each([
		['a required field missing', { country: 'BR', payer: valid.payer }, 'amount: is required'],
		[
			'a required field inside an object given without it',
			{ ...valid, payer: { address: { state: 'SP' } } },
			'payer.email: is required',
		],
		['a field of the wrong type', { ...valid, country: 55 }, 'country: must be string, got number'],
		['an object given as text', { ...valid, payer: 'jane' }, 'payer: must be object, got string'],
		[
			'a value neither number nor text where the rule takes both',
			{ ...valid, amount: true },
			'amount: must be a decimal number or text such as "100.50", got boolean',
		],
		[
			'a broken rule, with the rule’s own message',
			{ ...valid, payer: { email: 'jane' } },
			'payer.email: must be an e-mail address',
		],
		[
			'a key inside an object the table does not know (a typo)',
			{ ...valid, payer: { ...valid.payer, emial: 'x' } },
			'payer.emial: is not a field of the request; check the spelling against the API reference',
		],
		[
			'two unknown keys deeper down',
			{ ...valid, payer: { ...valid.payer, address: { state: 'SP', zip: '1', town: 'x' } } },
			'payer.address.zip, payer.address.town: is not a field of the request; check the spelling against the API reference',
		],
	])('%s is named with its path', (_what, body, problem) => {
		expect(problems(body)).toEqual([problem]);
	});

	test('every broken rule is reported, not only the first', () => {
		expect(
			problems({ country: 'BRA1', payer: { email: 'x', address: { state: 'LONG' } } }),
		).toEqual([
			'amount: is required',
			'payer.email: must be an e-mail address',
			'payer.address.state: String must contain at most 3 character(s)',
		]);
	});

	test('optional fields and objects may be absent', () => {
		expect(checkBody(checker, { amount: 1, country: 'BR', payer: { email: 'a@b' } })).toMatchObject(
			{
				ok: true,
			},
		);
	});
});
