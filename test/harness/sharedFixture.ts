import type { SandboxOptions } from '../sandbox';
import { startFixture, type Fixture } from './fixtures';

/**
 * One fixture for the describe blocks of a test file that only read what the others leave alone
 * (reference data, credential tests): started before the file's first test, closed after its last,
 * so the file generates the sandbox's data once. A block that changes what another reads (its
 * sessions, the records it lists) starts its own with startFixture. Call at the file's top level;
 * the returned function gives the fixture inside hooks and tests.
 */
export function sharedFixture(options: { sandbox?: SandboxOptions } = {}): () => Fixture {
	let fixture: Fixture | undefined;
	beforeAll(async () => {
		fixture = await startFixture(options);
	});
	afterAll(async () => await fixture?.close());
	return () => {
		if (!fixture) throw new Error('sharedFixture: used before the file’s beforeAll ran');
		return fixture;
	};
}
