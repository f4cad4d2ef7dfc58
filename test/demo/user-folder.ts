/**
 * A temporary n8n user folder for the demo, set before n8n-core is loaded: n8n-core keeps its
 * instance settings (`<user folder>/.n8n/config`, with a new encryption key) in `N8N_USER_FOLDER`,
 * else in the user's home, and the demo must leave the machine as it found it. Imported first by
 * run.ts; `removeUserFolder()` deletes the folder at the end.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

const folder = mkdtempSync(path.join(tmpdir(), 'payments-service-demo-n8n-'));
process.env.N8N_USER_FOLDER = folder;

/** The temporary user folder n8n-core writes to during the demo. */
export const demoUserFolder = folder;

/** Deletes the temporary user folder and everything n8n-core wrote into it. */
export function removeUserFolder(): void {
	rmSync(folder, { recursive: true, force: true });
}

// Also on every other way out (a failure before the demos start, process.exit).
process.on('exit', removeUserFolder);
