// The tests run in plain Node (jest-light-runner), in a few long-lived test processes: each loads
// n8n-core once, where jest's own runner loaded it again for every test file in a fresh module
// registry (about 2 s of CPU a file). TypeScript is loaded by tsx, one file at a time, without type
// checking (`npm run lint:types` checks the types). The test processes inherit this NODE_OPTIONS;
// `--runInBand` runs the tests in jest's own process, which `npm test` starts with `--import tsx`.
process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--import tsx']
	.filter((option) => option && !option.includes('--import tsx'))
	.concat('--import tsx')
	.join(' ');

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// Child processes, not worker threads: a test that fakes Date, or a module's state, stays in
	// its process, and each process is a plain `node --import tsx`.
	runner: 'jest-light-runner/child-process',
	transform: {},
	testTimeout: 60000,
	setupFiles: ['<rootDir>/test/setup/timeout.js'],
	// Four test processes on a 2-core machine: the engine tests spend much of their time waiting
	// (the client's retry backoff, the sandbox's latency), so four keep both cores busy.
	maxWorkers: 4,
	// A temporary n8n user folder, so n8n-core writes no ~/.n8n/config (test/setup/userFolder.js).
	globalSetup: '<rootDir>/test/setup/globalSetup.js',
	globalTeardown: '<rootDir>/test/setup/globalTeardown.js',
};
