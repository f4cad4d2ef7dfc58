import fc from 'fast-check';

import { showValue, SHOWN_VALUE_LENGTH } from '../../../nodes/PaymentsService/parameters/values';

describe('showValue: a value as an error message shows it', () => {
	test('texts, numbers, booleans, null and undefined in double quotes, as JavaScript writes them', () => {
		expect(['abc', 5, 1e21, Number.NaN, true, null, undefined, ''].map(showValue)).toEqual([
			'"abc"',
			'"5"',
			'"1e+21"',
			'"NaN"',
			'"true"',
			'"null"',
			'"undefined"',
			'""',
		]);
	});

	test('control characters and quotes are escaped, so the value cannot break the message or a log line', () => {
		expect(showValue('a"b\r\n\t\u0000=cmd')).toBe('"a\\"b\\r\\n\\t\\u0000=cmd"');
	});

	test('dates in ISO 8601, objects written as one text (Luxon) as that text, others as JSON, a cycle by its kind', () => {
		const cycle: Record<string, unknown> = {};
		cycle.self = cycle;
		expect(showValue(new Date(Date.UTC(2026, 0, 5)))).toBe('"2026-01-05T00:00:00.000Z"');
		expect(showValue(new Date(Number.NaN))).toBe('"Invalid Date"');
		expect(showValue({ toJSON: () => '2026-01-05T00:00:00.000+00:00' })).toBe(
			'"2026-01-05T00:00:00.000+00:00"',
		);
		expect(showValue({ a: [1] })).toBe('"{\\"a\\":[1]}"');
		expect(showValue(cycle)).toBe('"object"');
	});

	test('whatever the value, the shown text is a JSON string of at most SHOWN_VALUE_LENGTH characters', () => {
		fc.assert(
			fc.property(fc.anything({ withBigInt: true, withDate: true }), (value) => {
				const shown = JSON.parse(showValue(value)) as unknown;
				expect(typeof shown).toBe('string');
				expect((shown as string).length).toBeLessThanOrEqual(SHOWN_VALUE_LENGTH);
			}),
		);
	});
});
