/**
 * Runs `task` over `inputs` with at most `limit` tasks in flight and returns the results in input
 * order, whatever order they finish in. The first failure rejects the whole run; tasks not yet
 * started are then not started.
 *
 * @param limit at least 1; values below are treated as 1.
 */
export async function mapWithConcurrency<I, O>(
	inputs: readonly I[],
	limit: number,
	task: (input: I, index: number) => Promise<O>,
): Promise<O[]> {
	const results = new Array<O>(inputs.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index).catch(async (error: unknown) => {
				failed = true;
				return await Promise.reject(error);
			});
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(Math.floor(limit) || 1, inputs.length)) }, worker);
	await Promise.all(workers);
	return results;
}
