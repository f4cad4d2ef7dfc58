/**
 * `npm test` leaves the machine as it found it: n8n-core keeps its instance settings
 * (`<user folder>/.n8n/config`, with a new encryption key) in `N8N_USER_FOLDER`, else in the user's
 * home. Jest's global setup points it at a temporary folder before any test file loads n8n-core (the
 * workers inherit the variable); the global teardown deletes it.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

export async function setup(): Promise<void> {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'payments-service-test-n8n-'));
}

export async function teardown(): Promise<void> {
	const folder = process.env.N8N_USER_FOLDER;
	if (folder?.includes('payments-service-test-n8n-'))
		rmSync(folder, { recursive: true, force: true });
}
