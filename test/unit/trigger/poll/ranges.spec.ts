import fc from 'fast-check';

import {
	overlay,
	readToAt,
	splitByCounts,
	within,
	type ReadRange,
} from '../../../../nodes/PaymentsService/trigger/poll/ranges';
import { packRanges, unpackRanges } from '../../../../nodes/PaymentsService/trigger/poll/storage';

/*
 * When each part of the look-back was last read (trigger/poll/ranges.ts): reads laid over older
 * ones, the time a creation second was read up to, windows cut by the counts read, and the packed
 * form in static data.
 */

/** Every second of [from, to] with the readTo it has in `ranges` (undefined where none). */
const readTos = (ranges: readonly ReadRange[], from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, index) => readToAt(ranges, from + index));

describe('overlay: a read laid over what was known', () => {
	test('a read replaces exactly the seconds it covers; the rest keeps its readTo, counts in proportion', () => {
		const before: ReadRange[] = [{ from: 0, to: 99, readTo: 500, count: 100 }];
		const after = overlay(before, [{ from: 40, to: 59, readTo: 900, count: 7 }]);
		expect(after).toEqual([
			{ from: 0, to: 39, readTo: 500, count: 40 },
			{ from: 40, to: 59, readTo: 900, count: 7 },
			{ from: 60, to: 99, readTo: 500, count: 40 },
		]);
	});

	test('neighbours read at the same time merge, their counts added; a part never read keeps no count', () => {
		const after = overlay(
			[{ from: 0, to: 9, readTo: 100 }],
			[
				{ from: 10, to: 19, readTo: 200, count: 3 },
				{ from: 20, to: 29, readTo: 200, count: 4 },
			],
		);
		expect(after).toEqual([
			{ from: 0, to: 9, readTo: 100 },
			{ from: 10, to: 29, readTo: 200, count: 7 },
		]);
	});

	test('property: any reads laid one after another give each second the readTo of the last read covering it', () => {
		const rangeArb = fc
			.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 60 }), fc.nat(1_000))
			.map(([from, length, readTo]) => ({ from, to: from + length, readTo }));
		fc.assert(
			fc.property(fc.array(rangeArb, { maxLength: 8 }), (reads) => {
				let ranges: ReadRange[] = [];
				const expected: Array<number | undefined> = new Array(261).fill(undefined);
				for (const read of reads) {
					ranges = overlay(ranges, [read]);
					for (let second = read.from; second <= read.to; second++) expected[second] = read.readTo;
				}
				expect(readTos(ranges, 0, 260)).toEqual(expected);
				for (let index = 1; index < ranges.length; index++)
					expect(ranges[index].from).toBeGreaterThan(ranges[index - 1].to);
			}),
			{ seed: 42, numRuns: 300 },
		);
	});
});

describe('within', () => {
	test('cuts ranges to a period', () => {
		expect(
			within(
				[
					{ from: 0, to: 9, readTo: 1, count: 10 },
					{ from: 10, to: 19, readTo: 2 },
				],
				5,
				12,
			),
		).toEqual([
			{ from: 5, to: 9, readTo: 1, count: 5 },
			{ from: 10, to: 12, readTo: 2 },
		]);
	});
});

describe('splitByCounts: windows of about a target of records by the counts last read', () => {
	test('5,000 records read evenly over a day: windows of about 1,000, covering the day exactly', () => {
		const day = [{ from: 0, to: 86_399, readTo: 90_000, count: 5_000 }];
		const windows = splitByCounts([{ from: 0, to: 86_399 }], day, 1_000);
		expect(windows).toHaveLength(5);
		expect(windows[0].from).toBe(0);
		expect(windows.at(-1)!.to).toBe(86_399);
		for (let index = 1; index < windows.length; index++)
			expect(windows[index].from).toBe(windows[index - 1].to + 1);
	});

	test('a window no read counted is kept whole', () => {
		expect(splitByCounts([{ from: 0, to: 99 }], [{ from: 0, to: 99, readTo: 5 }], 10)).toEqual([
			{ from: 0, to: 99 },
		]);
	});
});

describe('packed ranges', () => {
	test('pack and unpack give back the ranges, readTo before or after the range, a count or none', () => {
		const ranges: ReadRange[] = [
			{ from: 1_699_000_000, to: 1_699_003_599, readTo: 1_699_500_000, count: 1_234 },
			{ from: 1_699_003_600, to: 1_699_999_999, readTo: 1_699_999_100 },
			{ from: 1_700_000_005, to: 1_700_000_005, readTo: 1_699_999_105, count: 0 },
		];
		const packed = packRanges(ranges);
		expect(unpackRanges(packed)).toEqual(ranges);
		expect(packed.length / ranges.length).toBeLessThan(20);
	});

	test('a damaged or disordered string is refused', () => {
		expect(unpackRanges('1.2')).toBeUndefined();
		expect(unpackRanges('a.b.c.d.e')).toBeUndefined();
		expect(unpackRanges('5.1.1._,-3.1.1._')).toBeUndefined();
		expect(unpackRanges('')).toEqual([]);
	});
});
