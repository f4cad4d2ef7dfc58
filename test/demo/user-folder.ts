/**
 * A temporary n8n user folder for the demo, set before n8n-core is loaded: n8n-core keeps its
 * instance settings (`<user folder>/.n8n/config`, with a new encryption key) in `N8N_USER_FOLDER`,
 * else in the user's home, and the demo must leave the machine as it found it. The folder comes with
 * its settings file and a new key, so that n8n-core does not print that it generated one between
 * the demo's lines. Imported first by run.ts; `removeUserFolder()` deletes the folder at the end.
 */
import { randomBytes } from 'crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

const folder = mkdtempSync(path.join(tmpdir(), 'payments-service-demo-n8n-'));
process.env.N8N_USER_FOLDER = folder;
mkdirSync(path.join(folder, '.n8n'), { mode: 0o700 });
writeFileSync(
	path.join(folder, '.n8n', 'config'),
	JSON.stringify({ encryptionKey: randomBytes(24).toString('base64') }),
	{ mode: 0o600 },
);

/** The temporary user folder n8n-core writes to during the demo. */
export const demoUserFolder = folder;

/** Deletes the temporary user folder and everything n8n-core wrote into it. */
export function removeUserFolder(): void {
	rmSync(folder, { recursive: true, force: true });
}

// Also on every other way out (a failure before the demos start, process.exit).
process.on('exit', removeUserFolder);
