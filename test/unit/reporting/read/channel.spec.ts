import { fromProducers } from '../../../../nodes/PaymentsService/reporting/read/channel';

const tick = async () => await new Promise<void>((resolve) => setImmediate(resolve));

describe('fromProducers: several producers, one consumer, nothing read ahead', () => {
	test('yields what every producer gives, and a producer waits until its value was taken', async () => {
		const given: string[] = [];
		const taken: string[] = [];
		const read = fromProducers<string>(2, async (channel) => {
			for (const n of [1, 2, 3]) {
				const value = `${given.length}:${n}`;
				given.push(value);
				await channel.give(value);
			}
		});
		for await (const value of read) {
			taken.push(value);
			await tick();
			// Each producer has at most one value on offer: never more than 2 given and not taken.
			expect(given.length - taken.length).toBeLessThanOrEqual(2);
		}
		expect(taken).toHaveLength(6);
		expect(new Set(taken)).toEqual(new Set(given));
	});

	test('a consumer that stops releases the waiting producers, which see halted() and end before the loop returns', async () => {
		const ended: boolean[] = [];
		const changes: number[] = [];
		let offers = 0;
		const read = fromProducers<number>(
			3,
			async (channel) => {
				while (!channel.halted()) {
					offers++;
					await channel.give(offers);
				}
				ended.push(true);
			},
			() => changes.push(ended.length),
		);
		for await (const value of read) {
			if (value >= 2) break;
		}
		expect(ended).toEqual([true, true, true]);
		// Called once per producer that ended and once when the hand-off stopped.
		expect(changes).toHaveLength(4);
		expect(offers).toBeLessThanOrEqual(5);
	});

	test('the first failure stops the hand-off: nothing more is yielded, every producer is awaited, then it is thrown', async () => {
		const yielded: string[] = [];
		let slowEnded = false;
		let index = 0;
		const failing = fromProducers<string>(2, async (channel) => {
			const me = index++;
			if (me === 0) {
				await channel.give('a');
				throw new Error('page 3 failed');
			}
			// A request in flight when the other producer fails: awaited, its value never yielded.
			await new Promise((resolve) => setTimeout(resolve, 20));
			slowEnded = true;
			if (!channel.halted()) await channel.give('late');
		});
		await expect(
			(async () => {
				for await (const value of failing) yielded.push(value);
			})(),
		).rejects.toThrow('page 3 failed');
		expect(yielded).toEqual(['a']);
		expect(slowEnded).toBe(true);
	});

	test('post() queues without waiting for the consumer', async () => {
		const read = fromProducers<number>(1, async (channel) => {
			channel.post(1);
			channel.post(2);
			await channel.give(3);
		});
		const values: number[] = [];
		for await (const value of read) values.push(value);
		expect(values).toEqual([1, 2, 3]);
	});
});
