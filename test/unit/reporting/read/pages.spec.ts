import fc from 'fast-check';

import { RecordCollector } from '../../../../nodes/PaymentsService/reporting/read/deduplication';
import { hasNextPage } from '../../../../nodes/PaymentsService/reporting/read/pages';

const rowsOf = (count: number) => Array.from({ length: count }, (_, i) => ({ id: i }));

describe('hasNextPage', () => {
	test('a full page (rows == maxRows) asks for the next page', () => {
		expect(hasNextPage({ data: rowsOf(50), page: 0, rows: 50, maxRows: 50 })).toBe(true);
		expect(hasNextPage({ data: rowsOf(10), page: 3, rows: 10, maxRows: 10 })).toBe(true);
	});

	test('a page with fewer rows than maxRows is the last one', () => {
		expect(hasNextPage({ data: rowsOf(49), page: 0, rows: 49, maxRows: 50 })).toBe(false);
		expect(hasNextPage({ data: rowsOf(1), page: 2, rows: 1, maxRows: 50 })).toBe(false);
	});

	test('missing rows falls back to the length of data', () => {
		expect(hasNextPage({ data: rowsOf(50), maxRows: 50 })).toBe(true);
		expect(hasNextPage({ data: rowsOf(20), maxRows: 50 })).toBe(false);
	});

	test('missing or zero maxRows falls back to 50', () => {
		expect(hasNextPage({ data: rowsOf(50) })).toBe(true);
		expect(hasNextPage({ data: rowsOf(49) })).toBe(false);
		expect(hasNextPage({ data: rowsOf(50), rows: 50, maxRows: 0 })).toBe(true);
		expect(hasNextPage({ data: rowsOf(10), rows: 10, maxRows: 0 })).toBe(false);
	});

	test('an empty page never asks for more', () => {
		expect(hasNextPage({ data: [], page: 0, rows: 0, maxRows: 50 })).toBe(false);
		expect(hasNextPage({ data: [], rows: 0, maxRows: 0 })).toBe(false);
		expect(hasNextPage({})).toBe(false);
	});

	test('the rows field wins over the length of data', () => {
		expect(hasNextPage({ data: rowsOf(3), rows: 50, maxRows: 50 })).toBe(true);
		expect(hasNextPage({ data: rowsOf(50), rows: 3, maxRows: 50 })).toBe(false);
	});
});

type Row = { id?: string; lastChangeDate?: string; v: string };

const collector = () => new RecordCollector<Row>((row) => row.id);

describe('RecordCollector', () => {
	test('a record seen twice is kept once, at the position of its first arrival', () => {
		const c = collector();
		expect(c.add({ id: 'a', v: 'a1' })).toBe(true);
		expect(c.add({ id: 'b', v: 'b1' })).toBe(true);
		expect(c.add({ id: 'a', v: 'a2' })).toBe(false);
		expect(c.add({ id: 'c', v: 'c1' })).toBe(true);
		expect(c.records().map((row) => row.id)).toEqual(['a', 'b', 'c']);
		expect(c.size).toBe(3);
	});

	test('a later copy without a newer lastChangeDate keeps the first data', () => {
		const c = collector();
		c.add({ id: 'a', lastChangeDate: '2026-01-02T00:00:00Z', v: 'first' });
		c.add({ id: 'a', lastChangeDate: '2026-01-02T00:00:00Z', v: 'same time' });
		c.add({ id: 'a', lastChangeDate: '2026-01-01T00:00:00Z', v: 'older' });
		c.add({ id: 'a', v: 'no date' });
		expect(c.records()).toEqual([{ id: 'a', lastChangeDate: '2026-01-02T00:00:00Z', v: 'first' }]);
	});

	test('a later copy with a newer lastChangeDate replaces the data but keeps the position', () => {
		const c = collector();
		c.add({ id: 'a', lastChangeDate: '2026-01-01T00:00:00Z', v: 'a-old' });
		c.add({ id: 'b', v: 'b' });
		c.add({ id: 'a', lastChangeDate: '2026-01-01T00:00:01Z', v: 'a-new' });
		expect(c.records()).toEqual([
			{ id: 'a', lastChangeDate: '2026-01-01T00:00:01Z', v: 'a-new' },
			{ id: 'b', v: 'b' },
		]);
	});

	test('a copy with a date replaces a first copy that had none', () => {
		const c = collector();
		c.add({ id: 'a', v: 'undated' });
		c.add({ id: 'a', lastChangeDate: '2026-01-01T00:00:00Z', v: 'dated' });
		expect(c.records()).toEqual([{ id: 'a', lastChangeDate: '2026-01-01T00:00:00Z', v: 'dated' }]);
	});

	test('records without a key are all kept, in arrival order', () => {
		const c = collector();
		c.add({ v: 'x' });
		c.add({ id: 'a', v: 'a' });
		c.add({ v: 'x' });
		c.add({ v: 'y' });
		expect(c.records().map((row) => row.v)).toEqual(['x', 'a', 'x', 'y']);
		expect(c.size).toBe(4);
	});

	test('records() returns the collected records, not a live view of the collector', () => {
		const c = collector();
		c.add({ id: 'a', v: 'a' });
		const snapshot = c.records();
		c.add({ id: 'b', v: 'b' });
		expect(snapshot).toHaveLength(1);
	});

	test('for any sequence with duplicate ids, records() has unique keys in first-arrival order', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						id: fc.option(fc.integer({ min: 0, max: 15 }).map(String), { nil: undefined, freq: 5 }),
						day: fc.option(fc.integer({ min: 1, max: 28 }), { nil: undefined }),
					}),
					{ maxLength: 80 },
				),
				(draws) => {
					const c = collector();
					const input: Row[] = draws.map((draw, index) => ({
						...(draw.id === undefined ? {} : { id: draw.id }),
						...(draw.day === undefined
							? {}
							: { lastChangeDate: `2026-01-${String(draw.day).padStart(2, '0')}T00:00:00Z` }),
						v: String(index),
					}));
					for (const row of input) c.add(row);

					// expected: walk the input, one slot per new key (or per keyless record)
					const expectedKeys: Array<string | undefined> = [];
					const seen = new Set<string>();
					for (const row of input) {
						if (row.id === undefined) expectedKeys.push(undefined);
						else if (!seen.has(row.id)) {
							seen.add(row.id);
							expectedKeys.push(row.id);
						}
					}
					const records = c.records();
					expect(records.map((row) => row.id)).toEqual(expectedKeys);
					const keys = records.filter((row) => row.id !== undefined).map((row) => row.id);
					expect(new Set(keys).size).toBe(keys.length);
					expect(c.size).toBe(expectedKeys.length);
					// each kept keyed record is one of the input copies with the newest date (first such on ties)
					for (const kept of records) {
						if (kept.id === undefined) continue;
						const copies = input.filter((row) => row.id === kept.id);
						const time = (row: Row) =>
							row.lastChangeDate ? Date.parse(row.lastChangeDate) : Number.NEGATIVE_INFINITY;
						const newest = Math.max(...copies.map(time));
						expect(kept).toBe(copies.find((row) => time(row) === newest));
					}
				},
			),
			{ numRuns: 200 },
		);
	});
});
