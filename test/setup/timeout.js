/**
 * The tests' timeout, as jest.config.js `testTimeout` gives it to jest's own runner: under
 * jest-light-runner, jest-circus takes it from this global (what `jest.setTimeout` sets), and would
 * otherwise wait 5 s.
 */
globalThis[Symbol.for('TEST_TIMEOUT_SYMBOL')] = require('../../jest.config').testTimeout;
