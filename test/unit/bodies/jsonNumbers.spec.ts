import fc from 'fast-check';

import {
	EXACT_SIGNIFICANT_DIGITS,
	findInexactNumbers,
	significantDigits,
} from '../../../nodes/PaymentsService/bodies/jsonNumbers';

describe('numbers of a JSON body that a JavaScript number would change (service rules §5.1)', () => {
	test('an amount of 18 digits is listed: JSON.parse would round it and ask for another amount', () => {
		expect(
			findInexactNumbers('{"amount": 123456789012345678, "fee": -98765432109876543.21}'),
		).toEqual(['123456789012345678', '-98765432109876543.21']);
	});

	test('written another way but the same value is no change: 100.00, 1e2, 0.10, -0, 2.5E-3', () => {
		expect(
			findInexactNumbers('{"a": 100.00, "b": 1e2, "c": 0.10, "d": -0, "e": 2.5E-3, "f": 7}'),
		).toEqual([]);
	});

	test('text inside strings is no number, escaped quotes included', () => {
		expect(
			findInexactNumbers('{"note": "ref 123456789012345678", "q": "say \\"123456789012345678\\""}'),
		).toEqual([]);
	});

	test('in the order they appear, each occurrence; too many decimals too (0.30000000000000001 is 0.3)', () => {
		expect(
			findInexactNumbers('[9007199254740993, 1, 9007199254740993, 0.30000000000000001, 0.3]'),
		).toEqual(['9007199254740993', '9007199254740993', '0.30000000000000001']);
	});

	test('every number JavaScript writes itself reads back exactly, so none is listed', () => {
		fc.assert(
			fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
				expect(findInexactNumbers(JSON.stringify({ amount: value }))).toEqual([]);
			}),
		);
	});

	test('significant digits as JavaScript writes the number; a 15-digit amount is kept exactly', () => {
		expect(
			[1234567890123456.8, 0, 100, -0.25, 1e21, 123456789012.34].map(significantDigits),
		).toEqual([17, 1, 1, 2, 1, 14]);
		expect(EXACT_SIGNIFICANT_DIGITS).toBe(15);
		expect(findInexactNumbers('{"amount": 9999999999999.99}')).toEqual([]);
	});
});
