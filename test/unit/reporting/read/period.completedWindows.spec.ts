import fc from 'fast-check';

import { recordKey, REPORTING_LISTS } from '../../../../nodes/PaymentsService/reporting/lists';
import type { PaymentsClient } from '../../../../nodes/PaymentsService/transport/client';
import { completedWindows } from '../../../../nodes/PaymentsService/reporting/read/period';
import { listDouble } from '../../../harness/listDouble';

const DAY = 86_400;
const list = REPORTING_LISTS.deposit;
const iso = (second: number) => new Date(second * 1000).toISOString().replace('.000Z', 'Z');

interface Row {
	idDeposit: number;
	creationDate: string;
	lastChangeDate: string;
	status: string;
	second: number;
}

/**
 * A service double listing `rows` newest first, 50 a page; `beforePage(request)` may change the
 * rows before a page is answered (a record created or changed while the list is read).
 */
function fakeService(rows: Row[], beforePage?: (request: { from: number; page: number }) => void) {
	return listDouble(({ from, to, page }) => {
		beforePage?.({ from, page });
		return rows
			.filter((row) => row.second >= from && row.second <= to)
			.sort((a, b) => b.second - a.second || b.idDeposit - a.idDeposit)
			.slice(page * 50, page * 50 + 50)
			.map((row) => ({ ...row }));
	});
}

const rowsAt = (seconds: number[]): Row[] =>
	seconds.map((second, index) => ({
		idDeposit: index,
		creationDate: iso(second),
		lastChangeDate: iso(second),
		status: 'PENDING',
		second,
	}));

async function readAll(
	client: PaymentsClient,
	concurrency: number,
	windowPages?: number,
	keep: (record: Record<string, unknown>) => unknown = (record) => record,
) {
	const windows = [];
	for await (const window of completedWindows(client, { list }, [{ from: 0, to: DAY - 1 }], {
		concurrency,
		windowPages,
		keyOf: (record) => recordKey(list, record),
		keep,
	}))
		windows.push(window);
	return windows;
}

describe('completedWindows: each record once, holding one window at a time', () => {
	test('every record exactly once, whatever the spread and the concurrency (property)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					fc.array(fc.integer({ min: 0, max: DAY - 1 }), { maxLength: 3_000 }),
					fc.array(fc.integer({ min: 36_000, max: 43_200 }), { maxLength: 3_000 }),
				),
				fc.integer({ min: 1, max: 8 }),
				fc.constantFrom(undefined, 2, 5),
				async (seconds, concurrency, windowPages) => {
					const windows = await readAll(
						fakeService(rowsAt(seconds)).client,
						concurrency,
						windowPages,
					);
					const ids = windows.flatMap((window) =>
						window.values.map((value) => (value as Row).idDeposit),
					);
					expect(ids.sort((a, b) => a - b)).toEqual(seconds.map((_, index) => index));
				},
			),
			{ numRuns: 40 },
		);
	});

	test('a record pushed to the next page by a new one, and a record changed while read, count once, as last seen', async () => {
		// 120 deposits in one hour; the window is read alone (concurrency 1), 3 pages.
		const rows = rowsAt(Array.from({ length: 120 }, (_, index) => 1_000 + index));
		let created = false;
		const service = fakeService(rows, ({ page }) => {
			if (page === 1 && !created) {
				created = true;
				// A deposit created during the read, newest: every record moves one place down, so
				// the last of page 0 is also the first of page 1.
				rows.push({ ...rowsAt([1_200])[0], idDeposit: 500 });
				// The last deposit of page 0 is completed meanwhile: page 1 starts with it again.
				const changed = rows.find((row) => row.idDeposit === 70)!;
				changed.status = 'COMPLETED';
				changed.lastChangeDate = iso(2_000);
			}
		});
		const windows = await readAll(service.client, 1);
		const values = windows.flatMap((window) => window.values) as Row[];
		const copies = windows.reduce((sum, window) => sum + window.copies, 0);
		expect(copies).toBeGreaterThan(values.length); // duplicates did arrive
		const ids = values.map((row) => row.idDeposit);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).not.toContain(500); // created after page 0 was read, on a page already read
		expect(values.find((row) => row.idDeposit === 70)?.status).toBe('COMPLETED');
		expect(ids.length).toBe(120);
	});

	test('a filter judges the copy that wins: a record that left the status while read is not counted', async () => {
		// 80 pending deposits; page 0 holds ids 79…30. Before page 1 is read a deposit is created
		// (everything moves one place down) and deposit 30, last of page 0, is cancelled: page 1
		// starts with it again, cancelled.
		const rows = rowsAt(Array.from({ length: 80 }, (_, index) => 1_000 + index));
		const service = fakeService(rows, ({ page }) => {
			if (page === 1 && !rows.some((row) => row.idDeposit === 500)) {
				rows.push({ ...rowsAt([1_200])[0], idDeposit: 500 });
				const changed = rows.find((row) => row.idDeposit === 30)!;
				changed.status = 'CANCELLED';
				changed.lastChangeDate = iso(5_000);
			}
		});
		const windows = await readAll(service.client, 1, undefined, (record) =>
			record.status === 'PENDING' ? record : undefined,
		);
		const ids = windows.flatMap((window) => window.values.map((value) => (value as Row).idDeposit));
		expect(windows[0].copies).toBe(81);
		expect(ids).not.toContain(30);
		expect(ids.sort((a, b) => a - b)).toEqual(
			Array.from({ length: 80 }, (_, index) => index).filter((id) => id !== 30),
		);
	});

	test('what a window holds stays near Window Pages however busy the day: 20,000 deposits at 5 pages', async () => {
		const seconds = Array.from({ length: 20_000 }, (_, index) =>
			Math.floor((index * DAY) / 20_000),
		);
		const capped = await readAll(fakeService(rowsAt(seconds)).client, 8, 5);
		const largest = Math.max(...capped.map((window) => window.copies));
		expect(capped.reduce((sum, window) => sum + window.values.length, 0)).toBe(20_000);
		// Split once a window is estimated beyond 2 × 5 pages: at most about 11 pages of 50.
		expect(largest).toBeLessThanOrEqual(11 * 50);
		// Uncapped, the same read holds windows of a slot's fair share (about 50 pages).
		const uncapped = await readAll(
			fakeService(rowsAt(seconds)).client,
			8,
			Number.POSITIVE_INFINITY,
		);
		expect(Math.max(...uncapped.map((window) => window.copies))).toBeGreaterThan(20 * 50);
	});

	test('a failed request ends the read with its error, and no window that did not end is yielded', async () => {
		const rows = rowsAt(Array.from({ length: 500 }, (_, index) => index * 100));
		const service = fakeService(rows, ({ page }) => {
			if (page === 3) throw new Error('page 3 failed');
		});
		const yielded: number[] = [];
		await expect(
			(async () => {
				for await (const window of completedWindows(
					service.client,
					{ list },
					[{ from: 0, to: DAY - 1 }],
					{
						concurrency: 1,
						keyOf: (record) => recordKey(list, record),
						keep: (record) => record,
					},
				))
					yielded.push(window.values.length);
			})(),
		).rejects.toThrow('page 3 failed');
		expect(yielded).toEqual([]);
	});
});
