import { isDeepStrictEqual } from 'util';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { REPORTING_LISTS } from '../../../../nodes/PaymentsService/reporting/lists';
import {
	comparePaths,
	type TimeWindow,
} from '../../../../nodes/PaymentsService/reporting/read/windows';
import type { PaymentsClient } from '../../../../nodes/PaymentsService/transport/client';
import { listDouble } from '../../../harness/listDouble';
import {
	readPeriodPages,
	type ListPage,
	type ListQuery,
} from '../../../../nodes/PaymentsService/reporting/read/period';

/** Waits `ms`; 0 yields one turn of the event loop (a timer of 0 would wait a millisecond). */
const sleep = (ms: number) =>
	new Promise<void>((resolve) => (ms === 0 ? setImmediate(resolve) : setTimeout(resolve, ms)));

/**
 * A client double serving `pages[w]` pages (the last one short) for window w, each after `delay`
 * ms; it records every request it starts and how many are in flight.
 */
function fakeClient(
	pageCounts: number[],
	options: { delay?: (window: number, page: number) => number; failAt?: [number, number] } = {},
) {
	const started: Array<[number, number]> = [];
	let inFlight = 0;
	let peak = 0;
	let failedAt: number | undefined;
	const client = {
		context: { getNode: () => ({ name: 'test' }) },
		async request(request: { qs: IDataObject }): Promise<unknown> {
			const window = Number(request.qs.from);
			const page = Number(request.qs.page);
			started.push([window, page]);
			inFlight++;
			peak = Math.max(peak, inFlight);
			await sleep(options.delay?.(window, page) ?? 0);
			inFlight--;
			if (options.failAt && options.failAt[0] === window && options.failAt[1] === page) {
				failedAt = started.length;
				throw new Error(`window ${window} page ${page} failed`);
			}
			const last = page === pageCounts[window] - 1;
			const rows = last ? 3 : 50;
			return {
				data: Array.from({ length: rows }, (_, index) => ({ id: `${window}-${page}-${index}` })),
				page,
				rows,
				maxRows: 50,
			};
		},
	};
	return {
		client: client as unknown as PaymentsClient,
		started,
		peak: () => peak,
		startedAfterFailure: () => (failedAt === undefined ? 0 : started.length - failedAt),
	};
}

/** Window w is [w, w]: the fake reads the window index from `from`. */
const windowsOf = (count: number): TimeWindow[] =>
	Array.from({ length: count }, (_, index) => ({ from: index, to: index }));
const query = { list: REPORTING_LISTS.deposit };

async function collect(iterator: AsyncGenerator<ListPage>): Promise<ListPage[]> {
	const pages: ListPage[] = [];
	for await (const page of iterator) pages.push(page);
	return pages;
}

/**
 * The one reader as the recovery lookups and a consumer without creation dates use it: records
 * without dates, so no window is ever split; its pages, each with the index of its window.
 */
async function* periodPages(
	client: PaymentsClient,
	listQuery: ListQuery,
	windows: TimeWindow[],
	options: { concurrency: number },
): AsyncGenerator<ListPage> {
	for await (const event of readPeriodPages(client, listQuery, windows, options)) {
		if (event.kind === 'split') throw new Error(`window ${event.path.join('.')} was split`);
		yield { ...event.page, windowIndex: event.path[0] };
	}
}

describe('readPeriodPages without creation dates: windows read side by side, never split', () => {
	test('every page of every window arrives once, in order within its window, with at most `concurrency` requests in flight (property)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 1, max: 5 }),
				fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 40, maxLength: 40 }),
				async (pageCounts, concurrency, delays) => {
					const fake = fakeClient(pageCounts, {
						delay: (window, page) => delays[(window * 5 + page) % delays.length],
					});
					const pages = await collect(
						periodPages(fake.client, query, windowsOf(pageCounts.length), { concurrency }),
					);
					const byWindow = pageCounts.map((_, window) =>
						pages.filter((page) => page.windowIndex === window).map((page) => page.page),
					);
					expect(byWindow).toEqual(
						pageCounts.map((count) => Array.from({ length: count }, (_, page) => page)),
					);
					expect(pages.filter((page) => page.last).length).toBe(pageCounts.length);
					expect(fake.started).toHaveLength(pageCounts.reduce((sum, count) => sum + count, 0));
					expect(fake.peak()).toBeLessThanOrEqual(Math.min(concurrency, pageCounts.length));
				},
			),
			{ numRuns: 40 },
		);
	});

	test('the concurrency is used: slow windows are read side by side', async () => {
		const fake = fakeClient([3, 3, 3, 3], { delay: () => 10 });
		await collect(periodPages(fake.client, query, windowsOf(4), { concurrency: 4 }));
		expect(fake.peak()).toBe(4);
	});

	test('after the first failure no request starts; the failure is thrown once the requests in flight ended', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 2, max: 6 }),
				fc.integer({ min: 1, max: 4 }),
				fc.integer({ min: 0, max: 3 }),
				async (windows, concurrency, failingPage) => {
					const pageCounts = Array.from({ length: windows }, () => 5);
					const failingWindow = windows - 1;
					const fake = fakeClient(pageCounts, {
						delay: () => 2,
						failAt: [failingWindow, failingPage],
					});
					await expect(
						collect(periodPages(fake.client, query, windowsOf(windows), { concurrency })),
					).rejects.toThrow(`window ${failingWindow} page ${failingPage} failed`);
					// Requests already in flight when the failure came back were started before it; none after.
					const inFlightAtFailure = Math.min(concurrency, windows) - 1;
					expect(fake.startedAfterFailure()).toBe(0);
					expect(fake.started.length).toBeLessThanOrEqual(
						pageCounts.slice(0, failingWindow).reduce((sum, count) => sum + count, 0) +
							failingPage +
							1 +
							inFlightAtFailure,
					);
				},
			),
			{ numRuns: 30 },
		);
	});

	test('a consumer that stops early causes no request it did not ask for', async () => {
		const fake = fakeClient([4, 4], { delay: () => 1 });
		for await (const page of periodPages(fake.client, query, windowsOf(2), { concurrency: 1 })) {
			if (page.page === 1) break;
		}
		expect(fake.started).toEqual([
			[0, 0],
			[0, 1],
		]);
	});

	test('with several windows in flight, stopping early waits for them and starts nothing new', async () => {
		const fake = fakeClient([6, 6, 6], { delay: () => 3 });
		let taken = 0;
		for await (const page of periodPages(fake.client, query, windowsOf(3), { concurrency: 3 })) {
			taken += page.records.length ? 1 : 0;
			if (taken === 4) break;
		}
		const startedAtBreak = fake.started.length;
		await sleep(20);
		expect(fake.started.length).toBe(startedAtBreak);
		expect(startedAtBreak).toBeLessThanOrEqual(4 + 3);
	});
});

describe('readPeriodPages: windows that follow the data', () => {
	/**
	 * A service double holding `seconds` (one record per entry, id = index) that answers a window's
	 * page from its records sorted by `order`; it records every request.
	 */
	function fakeService(seconds: number[], order: 'newestFirst' | 'byId' | 'oldestFirst') {
		const records = seconds.map((second, index) => ({
			idDeposit: index,
			creationDate: new Date(second * 1000).toISOString().replace('.000Z', 'Z'),
			second,
		}));
		// Sorted once: a window is a run of this array, found by binary search (a page of a busy day
		// costs no sort of the whole day).
		const ascending = [...records].sort((a, b) => a.second - b.second || a.idDeposit - b.idDeposit);
		const firstAtOrAfter = (second: number) => {
			let low = 0;
			let high = ascending.length;
			while (low < high) {
				const middle = (low + high) >>> 1;
				if (ascending[middle].second < second) low = middle + 1;
				else high = middle;
			}
			return low;
		};
		const byTime = (from: number, to: number, page: number, direction: typeof order) => {
			const start = firstAtOrAfter(from);
			const end = firstAtOrAfter(to + 1);
			if (direction === 'oldestFirst')
				return ascending.slice(
					Math.min(end, start + page * 50),
					Math.min(end, start + page * 50 + 50),
				);
			const data: typeof records = [];
			for (let index = end - 1 - page * 50; index >= Math.max(start, end - page * 50 - 50); index--)
				data.push(ascending[index]);
			return data;
		};
		const byId = (from: number, to: number, page: number) =>
			records
				.filter((record) => record.second >= from && record.second <= to)
				.slice(page * 50, page * 50 + 50);
		return listDouble(
			({ from, to, page }) =>
				order === 'byId' ? byId(from, to, page) : byTime(from, to, page, order),
			() => sleep(0),
		);
	}

	/** Reads the period and returns the ids of the windows read to their end, newest window first. */
	async function readAll(
		client: PaymentsClient,
		windows: TimeWindow[],
		concurrency: number,
		options: Partial<Parameters<typeof readPeriodPages>[3]> = {},
	) {
		const byPath = new Map<string, { path: readonly number[]; ids: number[] }>();
		const splits: TimeWindow[][] = [];
		for await (const event of readPeriodPages(client, query, windows, {
			concurrency,
			dateField: 'creationDate',
			...options,
		})) {
			const key = event.path.join('.');
			if (event.kind === 'split') {
				byPath.delete(key);
				splits.push(event.into);
				continue;
			}
			const entry = byPath.get(key) ?? { path: event.path, ids: [] };
			byPath.set(key, entry);
			entry.ids.push(...event.page.records.map((record) => record.idDeposit as number));
		}
		const ordered = [...byPath.values()].sort((a, b) => comparePaths(a.path, b.path));
		return { ids: ordered.flatMap((entry) => entry.ids), splits };
	}

	const DAY = 86_400;
	const dayArb = fc.oneof(
		// Uniform, peaked, or a few dense seconds.
		fc
			.integer({ min: 0, max: 3_000 })
			.map((count) =>
				Array.from({ length: count }, (_, index) => Math.floor((index * DAY) / Math.max(1, count))),
			),
		fc.array(fc.integer({ min: 36_000, max: 36_000 + 7_200 }), { maxLength: 2_500 }),
		fc.array(fc.constantFrom(100, 101, 50_000, DAY - 1), { maxLength: 400 }),
		fc.array(fc.integer({ min: 0, max: DAY - 1 }), { maxLength: 2_000 }),
	);

	test('every record exactly once, whatever the spread, the concurrency and the service’s order (property)', async () => {
		await fc.assert(
			fc.asyncProperty(
				dayArb,
				fc.integer({ min: 1, max: 8 }),
				fc.constantFrom('newestFirst' as const, 'byId' as const, 'oldestFirst' as const),
				async (seconds, concurrency, order) => {
					const service = fakeService(seconds, order);
					const { ids } = await readAll(service.client, [{ from: 0, to: DAY - 1 }], concurrency);
					expect([...ids].sort((a, b) => a - b)).toEqual(seconds.map((_, index) => index));
				},
			),
			{ numRuns: 60 },
		);
	});

	test('with a newest-first service the output is newest first, and concurrency 8 divides a busy day into at least 8 windows', async () => {
		const seconds = Array.from({ length: 5_000 }, (_, index) => Math.floor((index * DAY) / 5_000));
		const service = fakeService(seconds, 'newestFirst');
		const { ids, splits } = await readAll(service.client, [{ from: 0, to: DAY - 1 }], 8);
		expect(ids).toEqual(seconds.map((_, index) => index).reverse());
		expect(splits.length).toBeGreaterThan(0);
		const leaves = new Set(
			service.requests
				.filter((request) => request.page === 0)
				.map((request) => `${request.from}-${request.to}`),
		);
		expect(leaves.size).toBeGreaterThanOrEqual(9);
		// Splitting costs a few requests over the 101 pages of one window, not a multiple of them.
		expect(service.requests.length).toBeLessThan(125);
	});

	test('a first page that is not full costs one request; at concurrency 1 a busy day is read as one window', async () => {
		const quiet = fakeService([5, 6, 7], 'newestFirst');
		await readAll(quiet.client, [{ from: 0, to: DAY - 1 }], 8);
		expect(quiet.requests).toHaveLength(1);
		const busy = fakeService(
			Array.from({ length: 5_000 }, (_, index) => Math.floor((index * DAY) / 5_000)),
			'newestFirst',
		);
		await readAll(busy.client, [{ from: 0, to: DAY - 1 }], 1);
		expect(new Set(busy.requests.map((request) => `${request.from}-${request.to}`)).size).toBe(1);
		expect(busy.requests).toHaveLength(101);
	});

	test('alone, a window estimated above 1,000 pages is divided early, so a 55,000-record day is read without nearing the 2,000-page stop', async () => {
		const seconds = Array.from({ length: 55_000 }, (_, index) =>
			Math.floor((index * DAY) / 55_000),
		);
		const service = fakeService(seconds, 'newestFirst');
		const { ids } = await readAll(service.client, [{ from: 0, to: DAY - 1 }], 1);
		const newestFirst = seconds.map((_, index) => index).reverse();
		// jest's toEqual takes a second over 55,000 numbers: it runs only to report a difference.
		if (!isDeepStrictEqual(ids, newestFirst)) expect(ids).toEqual(newestFirst);
		const windows = new Map<string, number>();
		for (const request of service.requests)
			windows.set(
				`${request.from}-${request.to}`,
				(windows.get(`${request.from}-${request.to}`) ?? 0) + 1,
			);
		expect(windows.size).toBeGreaterThan(1);
		expect(Math.max(...windows.values())).toBeLessThan(1_000);
		expect(service.requests.length).toBeLessThan(1_110);
	});

	test('a service that never stops answering full, undated pages: a window is halved at 2,000 pages; a single second fails with the window named', async () => {
		const requests: Array<{ from: number; to: number }> = [];
		const client = {
			context: { getNode: () => ({ name: 'test' }) },
			async request(request: { qs: IDataObject }): Promise<unknown> {
				requests.push({ from: Number(request.qs.from), to: Number(request.qs.to) });
				return {
					data: Array.from({ length: 50 }, (_, index) => ({
						idDeposit: requests.length * 50 + index,
					})),
					rows: 50,
					maxRows: 50,
				};
			},
		} as unknown as PaymentsClient;
		await expect(readAll(client, [{ from: 0, to: 1 }], 1)).rejects.toThrow(
			/created 1970-01-01T00:00:0[01]Z – 1970-01-01T00:00:0[01]Z did not end after 2000 full pages/,
		);
		expect(
			requests.slice(0, 2_000).every((request) => request.from === 0 && request.to === 1),
		).toBe(true);
		expect(requests[2_000]).toEqual({ from: 1, to: 1 });
		expect(requests).toHaveLength(4_000);
	});

	describe('first-page mode (the polling trigger)', () => {
		test('every record exactly once, whatever the spread, the concurrency and the service’s order (property)', async () => {
			await fc.assert(
				fc.asyncProperty(
					dayArb,
					fc.integer({ min: 1, max: 8 }),
					fc.constantFrom('newestFirst' as const, 'byId' as const, 'oldestFirst' as const),
					async (seconds, concurrency, order) => {
						const service = fakeService(seconds, order);
						const { ids } = await readAll(service.client, [{ from: 0, to: DAY - 1 }], concurrency, {
							firstPages: true,
							windowPages: 20,
						});
						expect([...ids].sort((a, b) => a - b)).toEqual(seconds.map((_, index) => index));
						// Listed newest first, only a window of one busy second is read past its first page.
						if (order === 'newestFirst')
							for (const request of service.requests.filter((r) => r.page > 0)) {
								const inWindow = seconds.filter((at) => at >= request.from && at <= request.to);
								expect(new Set(inWindow).size).toBe(1);
							}
					},
				),
				{ numRuns: 60 },
			);
		});

		test('newest first, each request is a first page, a busy day is divided into parts read side by side, and it costs about one request per 49 records', async () => {
			const seconds = Array.from({ length: 5_000 }, (_, index) =>
				Math.floor((index * DAY) / 5_000),
			);
			const service = fakeService(seconds, 'newestFirst');
			const { ids, splits } = await readAll(service.client, [{ from: 0, to: DAY - 1 }], 4, {
				firstPages: true,
				windowPages: 20,
			});
			expect([...ids].sort((a, b) => a - b)).toEqual(seconds.map((_, index) => index));
			expect(service.requests.filter((request) => request.page !== 0)).toEqual([]);
			// Peeled (two parts each) until the density says the rest holds more than one part's 20 pages.
			expect(splits.some((into) => into.length > 2)).toBe(true);
			expect(service.requests.length).toBeLessThan(5_000 / 49 + 40);
		});

		test('a second holding more records than a page is read page after page, the rest by first pages', async () => {
			const seconds = [...Array.from({ length: 120 }, () => 500), 10, 20, 30];
			const service = fakeService(seconds, 'newestFirst');
			const { ids } = await readAll(service.client, [{ from: 0, to: 999 }], 2, {
				firstPages: true,
			});
			expect([...ids].sort((a, b) => a - b)).toEqual(seconds.map((_, index) => index));
			const paged = service.requests.filter((request) => request.page > 0);
			expect(paged.map((request) => `${request.from}-${request.to}`)).toEqual([
				'500-999',
				'500-999',
			]);
		});

		test('stop: once it says true no request starts, and the read ends without error', async () => {
			const seconds = Array.from({ length: 5_000 }, (_, index) =>
				Math.floor((index * DAY) / 5_000),
			);
			const service = fakeService(seconds, 'newestFirst');
			await readAll(service.client, [{ from: 0, to: DAY - 1 }], 4, {
				firstPages: true,
				stop: () => service.requests.length >= 10,
			});
			// The requests in flight when it turned true end; none starts after.
			expect(service.requests.length).toBeGreaterThanOrEqual(10);
			expect(service.requests.length).toBeLessThan(14);
		});

		test('statuses: each window is read once in each status, under paths [window, status]', async () => {
			const statuses: string[] = [];
			const client = {
				context: { getNode: () => ({ name: 'test' }) },
				async request(request: { qs: IDataObject }): Promise<unknown> {
					statuses.push(`${String(request.qs.from)}:${String(request.qs.status)}`);
					return { data: [], page: 0, rows: 0, maxRows: 50 };
				},
			} as unknown as PaymentsClient;
			const paths: string[] = [];
			for await (const event of readPeriodPages(client, query, windowsOf(2), {
				concurrency: 1,
				statuses: ['PENDING', 'COMPLETED'],
			}))
				paths.push(event.path.join('.'));
			expect(statuses).toEqual(['0:PENDING', '0:COMPLETED', '1:PENDING', '1:COMPLETED']);
			expect(paths).toEqual(['0.0', '0.1', '1.0', '1.1']);
		});
	});
});
