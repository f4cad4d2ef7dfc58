import fc from 'fast-check';

import { mapWithConcurrency } from '../../nodes/PaymentsService/helpers/concurrency';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Lets every pending promise callback run. */
const flush = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
	await sleep(0);
};

interface Deferred<T> {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (reason: unknown) => void;
}
function deferred<T>(): Deferred<T> {
	let resolve!: (value: T) => void;
	let reject!: (reason: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

describe('mapWithConcurrency', () => {
	test('results come back in input order whatever order the tasks finish in', async () => {
		const delays = [30, 5, 20, 1, 15, 0, 10];
		const finished: number[] = [];
		const results = await mapWithConcurrency(delays, 3, async (delay, index) => {
			await sleep(delay);
			finished.push(index);
			return `r${index}:${delay}`;
		});
		expect(results).toEqual(delays.map((delay, index) => `r${index}:${delay}`));
		expect(finished).not.toEqual([...finished].sort((a, b) => a - b));
	});

	test('the task receives each input with its index, once', async () => {
		const calls: Array<[string, number]> = [];
		await mapWithConcurrency(['a', 'b', 'c'], 2, async (input, index) => {
			calls.push([input, index]);
			return input;
		});
		expect(calls.sort((x, y) => x[1] - y[1])).toEqual([
			['a', 0],
			['b', 1],
			['c', 2],
		]);
	});

	test('never more than limit tasks in flight, and the limit is used (property)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 25 }),
				fc.integer({ min: 1, max: 6 }),
				async (delays, limit) => {
					let inFlight = 0;
					let peak = 0;
					const results = await mapWithConcurrency(delays, limit, async (delay, index) => {
						inFlight++;
						peak = Math.max(peak, inFlight);
						await sleep(delay);
						inFlight--;
						return index * 2;
					});
					expect(peak).toBeLessThanOrEqual(limit);
					expect(peak).toBe(Math.min(limit, delays.length));
					expect(results).toEqual(delays.map((_, index) => index * 2));
				},
			),
			{ numRuns: 40 },
		);
	});

	test('the first failure rejects the run with that error and no new task starts after it', async () => {
		const gates = Array.from({ length: 10 }, () => deferred<number>());
		const started: number[] = [];
		const run = mapWithConcurrency(gates, 3, async (gate, index) => {
			started.push(index);
			return await gate.promise;
		});
		const outcome = run.then(
			() => 'resolved',
			(error: unknown) => error,
		);
		await flush();
		expect(started).toEqual([0, 1, 2]);

		const failure = new Error('window 1 failed');
		gates[1].reject(failure);
		await flush();
		expect(await outcome).toBe(failure);

		// the tasks still in flight finish; their workers must not pick up more inputs
		gates[0].resolve(0);
		gates[2].resolve(2);
		await flush();
		expect(started).toEqual([0, 1, 2]);
	});

	test('a failure after some successes still rejects and stops the queue', async () => {
		const started: number[] = [];
		await expect(
			mapWithConcurrency([0, 1, 2, 3, 4, 5, 6, 7], 2, async (value) => {
				started.push(value);
				await sleep(2);
				if (value === 3) throw new Error('boom at 3');
				return value;
			}),
		).rejects.toThrow('boom at 3');
		await sleep(20);
		// 3 fails while 2 (or 4) is in flight: at most one more task may already have started
		expect(Math.max(...started)).toBeLessThanOrEqual(4);
		expect(started.length).toBeLessThan(8);
	});

	test.each([0, -3, Number.NaN, 0.4])('a limit of %p is treated as 1 (one task at a time)', async (limit) => {
		let inFlight = 0;
		let peak = 0;
		const results = await mapWithConcurrency([1, 2, 3, 4], limit, async (value) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await sleep(1);
			inFlight--;
			return value * 10;
		});
		expect(peak).toBe(1);
		expect(results).toEqual([10, 20, 30, 40]);
	});

	test('empty input resolves to an empty array without calling the task', async () => {
		const task = jest.fn(async (value: number) => value);
		await expect(mapWithConcurrency([], 4, task)).resolves.toEqual([]);
		expect(task).not.toHaveBeenCalled();
	});

	test('a limit above the input count runs every task at once', async () => {
		let inFlight = 0;
		let peak = 0;
		await mapWithConcurrency([1, 2, 3], 100, async () => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await sleep(2);
			inFlight--;
		});
		expect(peak).toBe(3);
	});
});
