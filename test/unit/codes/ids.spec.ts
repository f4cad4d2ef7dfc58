import fc from 'fast-check';

import { positiveId } from '../../../nodes/PaymentsService/codes/ids';

describe('positiveId: the one rule for the service’s ids', () => {
	test('whole numbers from 1 to 2^53 − 1, as numbers or digits (spaces around ignored)', () => {
		expect(
			[1, '42', ' 7 ', 300012345, '9007199254740991', Number.MAX_SAFE_INTEGER].map(positiveId),
		).toEqual([1, 42, 7, 300012345, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
	});

	test('nothing else: zero, negatives, fractions, exponents, hex, 2^53 and above, empty, other types', () => {
		const refused = [
			0,
			'0',
			-5,
			'-5',
			1.5,
			'1.5',
			'1e3',
			1e21,
			'0x10',
			'9007199254740992',
			Number.MAX_SAFE_INTEGER + 1,
			'',
			' ',
			NaN,
			Infinity,
			null,
			undefined,
			true,
			{},
			[1],
		];
		expect(refused.map(positiveId)).toEqual(refused.map(() => undefined));
	});

	test('any safe positive integer comes back as itself, from the number or its digits', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => {
				expect([positiveId(id), positiveId(String(id)), positiveId(` ${id} `)]).toEqual([
					id,
					id,
					id,
				]);
			}),
		);
	});
});
