import { dateStopped } from '../harness/clock';

/*
 * n8n's `sleep` (@n8n/utils), which the node's retries (through n8n-workflow) and n8n's Retry On
 * Fail wait with. While a test holds n8n's clock still (`fakeDate` without `flowing`,
 * test/harness/clock.ts) a wait ends at once: the code under test reads the time from `Date`, so
 * it cannot tell how long the wait lasted, and the order of events stays the same. Otherwise it
 * waits the real time. The backoffs of the polling trigger's simulation alone took 12 s.
 */
jest.mock('@n8n/utils/sleep', () => {
	const actual = jest.requireActual<typeof import('@n8n/utils/sleep')>('@n8n/utils/sleep');
	return {
		...actual,
		sleep: async (ms: number) =>
			dateStopped()
				? await new Promise<void>((resolve) => setImmediate(resolve))
				: await actual.sleep(ms),
	};
});
