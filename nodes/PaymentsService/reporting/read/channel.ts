/**
 * What several concurrent producers make, handed to one consumer one value at a time, with nothing
 * read ahead: a producer that offers a value waits until the consumer has taken it, so a consumer
 * that stops early (a limit) causes no request it did not ask for. The reading of a period's pages
 * (period.ts: readPeriodPages) runs on it.
 */

/** What a producer uses to hand values over. */
export interface Channel<T> {
	/** Offers `value`; resolves once the consumer has taken it, or once the hand-off has stopped. */
	give(value: T): Promise<void>;
	/** Queues `value` for the consumer without waiting for it to be taken. */
	post(value: T): void;
	/**
	 * Whether the hand-off has stopped (the consumer left, or a producer failed): a producer starts
	 * no new request once it is true.
	 */
	halted(): boolean;
}

/**
 * Runs `producers` copies of `produce` at once and yields what they hand over, in the order it was
 * offered. Stops at the first failure: no value is yielded after it, producers see `halted()` and
 * the offers in wait are released, every producer is awaited (requests in flight end), then the
 * failure is thrown. A consumer that breaks out of its loop stops the producers the same way.
 * @param onChange called when a producer ends and when the hand-off stops, for producers that
 *   wait on a condition of their own (e.g. more work) to look again.
 * @throws the first error a producer threw.
 */
export async function* fromProducers<T>(
	producers: number,
	produce: (channel: Channel<T>) => Promise<void>,
	onChange: () => void = () => {},
): AsyncGenerator<T> {
	const ready: Array<{ value: T; taken: () => void }> = [];
	let wake: (() => void) | undefined;
	let failure: { error: unknown } | undefined;
	let stopped = false;
	const signal = () => {
		wake?.();
		wake = undefined;
	};
	const channel: Channel<T> = {
		give: async (value) =>
			await new Promise<void>((taken) => {
				ready.push({ value, taken });
				signal();
			}),
		post: (value) => {
			ready.push({ value, taken: () => {} });
			signal();
		},
		halted: () => stopped || failure !== undefined,
	};
	let running = producers;
	const workers = Array.from({ length: producers }, async () => {
		try {
			await produce(channel);
		} catch (error) {
			failure = failure ?? { error };
		}
		running--;
		onChange();
		signal();
	});
	let handedOut: (() => void) | undefined;
	try {
		for (;;) {
			if (failure) break;
			const entry = ready.shift();
			if (entry) {
				handedOut = entry.taken;
				yield entry.value;
				handedOut = undefined;
				entry.taken();
				continue;
			}
			if (running === 0) break;
			await new Promise<void>((resolve) => (wake = resolve));
		}
	} finally {
		stopped = true;
		handedOut?.();
		for (const entry of ready.splice(0)) entry.taken();
		onChange();
		await Promise.all(workers);
	}
	if (failure) throw failure.error;
}
