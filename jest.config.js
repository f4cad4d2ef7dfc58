// Jest loads every module afresh per test file (n8n's engine about a second, n8n-workflow alone
// 0.3 s), so `npm test` runs the specs (*.spec.ts) through a few group files (*.test.ts): one per
// subject in test/engine/, three in test/unit/, one in test/sandbox/. A spec named on the command line
// (`npx jest test/unit/reporting/csv.spec.ts`) runs by itself.
const specNamed = process.argv.slice(2).some((argument) => /\.spec\.ts$/.test(argument));

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: specNamed ? ['**/*.test.ts', '**/*.spec.ts'] : ['**/*.test.ts'],
	// The long runs have their own command, `npm run test:long` (test/engine/long.test.ts).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/engine/long\\.test\\.ts$'],
	// esbuild, file by file (test/setup/esbuildTransform.js): on a clean checkout ts-jest spent
	// seconds per worker loading TypeScript and transpiling. Types are checked by `npm run lint:types`.
	transform: {
		'^.+\\.ts$': '<rootDir>/test/setup/esbuildTransform.js',
		// n8n's Send Email node reaches sanitize-html, whose HTML parser ships only as ES modules.
		'^.+/node_modules/.+\\.js$': '<rootDir>/test/setup/esbuildTransform.js',
	},
	transformIgnorePatterns: [
		'/node_modules/(?!(sanitize-html/node_modules/)?(htmlparser2|domhandler|domutils|dom-serializer|entities|domelementtype)/)',
	],
	testTimeout: 60000,
	// Two workers on a 2-core machine (jest's default would be one). A third was no faster once
	// n8n's waits ended at once (below): the tests are then busy, not waiting.
	maxWorkers: 2,
	// Largest first on a clean checkout too, a group of specs weighing what its specs weigh.
	testSequencer: '<rootDir>/test/setup/sequencer.js',
	// n8n's waits end at once while a test holds n8n's clock still (test/setup/n8nSleep.ts).
	setupFiles: ['<rootDir>/test/setup/n8nLogs.ts', '<rootDir>/test/setup/n8nSleep.ts'],
	// A temporary n8n user folder, so n8n-core writes no ~/.n8n/config (test/setup/userFolder.ts).
	globalSetup: '<rootDir>/test/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
};
