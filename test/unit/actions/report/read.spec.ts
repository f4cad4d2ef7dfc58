import type { IDataObject } from 'n8n-workflow';

import {
	readAll,
	readIntoSinks,
	type ReadCounts,
	type RecordSink,
	type ReportRead,
} from '../../../../nodes/PaymentsService/actions/report/read';
import { recordKey, REPORTING_LISTS } from '../../../../nodes/PaymentsService/reporting/lists';
import { splitIntoBalancedWindows } from '../../../../nodes/PaymentsService/reporting/read/windows';
import type { PaymentsClient } from '../../../../nodes/PaymentsService/transport/client';

const list = REPORTING_LISTS.deposit;
const START = Date.UTC(2026, 10, 1) / 1000;
const iso = (second: number) => new Date(second * 1000).toISOString().replace('.000Z', 'Z');

/** `count` deposits, one every 97 seconds from START, their status in turn PENDING and COMPLETED. */
const deposits = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({
		idDeposit: 1000 + index,
		creationDate: iso(START + index * 97),
		lastChangeDate: iso(START + index * 97),
		status: index % 2 ? 'COMPLETED' : 'PENDING',
		amount: index,
	}));

/** A service double listing `records` newest first, 50 a page; counts the requests. */
function fakeService(records: IDataObject[]) {
	const seconds = (record: IDataObject) => Date.parse(String(record.creationDate)) / 1000;
	const requests: IDataObject[] = [];
	const client = {
		context: { getNode: () => ({ name: 'test' }) },
		async request(request: { qs: IDataObject }): Promise<unknown> {
			requests.push(request.qs);
			await new Promise((resolve) => setImmediate(resolve));
			const page = Number(request.qs.page);
			const data = records
				.filter((r) => seconds(r) >= Number(request.qs.from) && seconds(r) <= Number(request.qs.to))
				.sort((a, b) => seconds(b) - seconds(a))
				.slice(page * 50, page * 50 + 50);
			return { data, page, rows: data.length, maxRows: 50 };
		},
	};
	return { client: client as unknown as PaymentsClient, requests };
}

/** The read of [START, START + seconds] at `concurrency`, in `status` when given. */
function planOf(seconds: number, concurrency: number, status?: string): ReportRead {
	return {
		list: list as ReportRead['list'],
		query: { list },
		period: { from: START, to: START + seconds },
		timeZone: 'UTC',
		windows: splitIntoBalancedWindows(START, START + seconds, concurrency).reverse(),
		concurrency,
		keyOf: (record) => recordKey(list, record),
		status,
	};
}

/** A sink that keeps `keep(record)` and records what it took, window by window. */
function recordingSink<V>(keep: (record: Record<string, unknown>) => V) {
	const taken: V[][] = [];
	const sink: RecordSink<V> = { keep, take: (values) => taken.push(values) };
	return { sink, taken };
}

describe('A report’s one read: each window read to its end goes to every sink', () => {
	test('two sinks take the same records, each once, in the Status filter, from one read of each page', async () => {
		const records = deposits(1_200);
		const { client, requests } = fakeService(records);
		const ids = recordingSink((record) => record.idDeposit);
		const amounts = recordingSink((record) => `${String(record.amount)}`);
		const counts = await readAll(client, planOf(1_200 * 97, 4, 'COMPLETED'), 0, [
			ids.sink,
			amounts.sink,
		]);
		const completed = records.filter((record) => record.status === 'COMPLETED');
		expect(ids.taken.flat().sort()).toEqual(completed.map((record) => record.idDeposit).sort());
		expect(amounts.taken.flat().sort()).toEqual(
			completed.map((record) => String(record.amount)).sort(),
		);
		// Side by side: the k-th value each sink took is of the same record.
		expect(ids.taken.flat().map((id) => String(Number(id) - 1000))).toEqual(amounts.taken.flat());
		expect(counts).toEqual({
			windows: ids.taken.length,
			copies: records.length,
			records: completed.length,
		});
		const pages = new Set(
			requests.map((qs) => `${String(qs.from)}-${String(qs.to)}#${String(qs.page)}`),
		);
		expect(pages.size).toBe(requests.length);
	});

	test('readIntoSinks yields once per window, after its sinks took it, so the consumer paces the read', async () => {
		const { client, requests } = fakeService(deposits(300));
		const { sink, taken } = recordingSink((record) => record.idDeposit);
		const counts: ReadCounts = { windows: 0, copies: 0, records: 0 };
		const reading = readIntoSinks(client, planOf(300 * 97, 1), 0, [sink], counts, 2);
		const first = await reading.next();
		expect(first.done).toBe(false);
		expect([taken.length, counts.windows]).toEqual([1, 1]);
		const sentWhenPaused = requests.length;
		await new Promise((resolve) => setTimeout(resolve, 20));
		// Nobody asked for the next window: at most the page already requested went out.
		expect(requests.length).toBeLessThanOrEqual(sentWhenPaused + 1);
		await reading.return(undefined);
	});

	test('a failed request ends the read with its error, and the sinks have taken only windows read to their end', async () => {
		const records = deposits(600);
		const service = fakeService(records).client as unknown as {
			context: unknown;
			request: (request: { qs: IDataObject }) => Promise<unknown>;
		};
		let calls = 0;
		const failing = {
			context: service.context,
			request: async (request: { qs: IDataObject }) => {
				if (++calls === 5) throw new Error('page failed');
				return await service.request(request);
			},
		} as unknown as PaymentsClient;
		const { sink, taken } = recordingSink((record) => record.idDeposit);
		await expect(readAll(failing, planOf(600 * 97, 2), 0, [sink])).rejects.toThrow('page failed');
		expect(taken.flat().length).toBeLessThan(records.length);
	});
});
