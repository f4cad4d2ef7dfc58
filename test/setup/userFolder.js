/**
 * `npm test` leaves the machine as it found it: n8n-core keeps its instance settings
 * (`<user folder>/.n8n/config`, with a new encryption key) in `N8N_USER_FOLDER`, else in the user's
 * home. Jest's global setup (`setup`) points it at a temporary folder before any test file loads
 * n8n-core (the workers inherit the variable); the global teardown deletes it.
 */
const { mkdtempSync, rmSync } = require('fs');
const { tmpdir } = require('os');
const path = require('path');

const PREFIX = 'payments-service-test-n8n-';

module.exports = {
	setup() {
		process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), PREFIX));
	},
	teardown() {
		const folder = process.env.N8N_USER_FOLDER;
		if (folder?.includes(PREFIX)) rmSync(folder, { recursive: true, force: true });
	},
};
