import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

import {
	checkSingleRelease,
	gypProgress,
	installFailure,
	n8nOverrides,
	npmProgress,
	retryCommand,
} from './install';

/** Writes node_modules/<name>/package.json under `dir`. */
function pkg(
	dir: string,
	name: string,
	version: string,
	dependencies: Record<string, string> = {},
): string {
	const folder = path.join(dir, 'node_modules', name);
	mkdirSync(folder, { recursive: true });
	writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name, version, dependencies }));
	return folder;
}

describe('the n8n install the real-n8n runs test', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'n8n-install-'));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	test('one release passes: every pinned n8n package at its pin, nested copies included', () => {
		pkg(root, 'n8n', '2.41.3', {
			'n8n-core': '2.41.2',
			'@n8n/agents': '0.26.2',
			lodash: '4.17.21',
		});
		const core = pkg(root, 'n8n-core', '2.41.2', { 'n8n-workflow': '2.41.0' });
		pkg(root, 'n8n-workflow', '2.40.0');
		pkg(core, 'n8n-workflow', '2.41.0');
		pkg(root, '@n8n/agents', '0.26.2');
		pkg(root, 'lodash', '4.17.20');
		expect(() => checkSingleRelease(root)).not.toThrow();
	});

	test('a mixed install (pins forced back to another release) is refused, naming each package', () => {
		pkg(root, 'n8n', '2.41.3', { 'n8n-core': '2.41.2', '@n8n/agents': '0.26.2' });
		pkg(root, 'n8n-core', '2.41.1');
		expect(() => checkSingleRelease(root)).toThrow(
			/mixes releases[\s\S]*n8n pins n8n-core@2\.41\.2, installed 2\.41\.1[\s\S]*n8n pins @n8n\/agents@0\.26\.2, installed missing/,
		);
	});

	test('n8n 1.x gets its xlsx from npm; 2.x installs keep their overrides (and their cache)', () => {
		expect(n8nOverrides('1.123.81')).toEqual({
			cssomnom: 'npm:cssom@0.5.0',
			xlsx: 'npm:@e965/xlsx@0.20.2',
		});
		expect(n8nOverrides('2.41.1')).toEqual({ cssomnom: 'npm:cssom@0.5.0' });
	});

	test("an npm install's progress counts the package documents read and the tarballs downloaded", () => {
		const log = [
			'npm http fetch GET 200 https://registry.npmjs.org/n8n 163ms (cache miss)',
			'npm http fetch GET 200 https://registry.npmjs.org/@n8n%2fconfig 22ms (cache miss)',
			'npm http cache ms@https://registry.npmjs.org/ms/-/ms-2.1.3.tgz 1ms (cache hit)',
			'npm http fetch GET 200 https://registry.npmjs.org/ms/-/ms-2.1.3.tgz 180ms (cache miss)',
			'npm warn deprecated inflight@1.0.6: This module is not supported',
		].join('\n');
		expect(npmProgress(log)).toBe('2 package documents read, 1 package downloaded');
		expect(npmProgress('')).toBe('0 package documents read, 0 packages downloaded');
	});

	test("node-gyp's progress is the file it compiles or links last, not its compiler warnings", () => {
		const log = [
			'gyp info spawn make',
			'  CC(target) Release/obj.target/sqlite3/gyp/sqlite-autoconf-3440200/sqlite3.o',
			'../sqlite3.c:1234: warning: unused variable',
			'  |       ^~~~~~~',
		].join('\n');
		expect(gypProgress(log)).toBe('compiling sqlite3.o (build step 1)');
		expect(
			gypProgress(`${log}\n  SOLINK_MODULE(target) Release/obj.target/node_sqlite3.node`),
		).toBe('linking node_sqlite3.node (build step 2)');
		expect(gypProgress('gyp info it worked if it ends with ok')).toBeUndefined();
	});

	test('a failed install names the step that failed, keeps nothing, and says how to retry', () => {
		const error = installFailure(
			'Installing n8n 2.41.1',
			'/home/me/.cache/n8n-nodes-payments-service/n8n-2.41.1',
			new Error(
				'Building sqlite3 5.1.7 for Node 24.21.0 (node-gyp rebuild) failed (exit 1):\ngyp ERR!',
			),
		);
		expect(error.message).toMatch(
			/^Installing n8n 2\.41\.1 failed, so n8n-2\.41\.1 is not in the cache \(nothing half-done is kept\):\nBuilding sqlite3 5\.1\.7 for Node 24\.21\.0 \(node-gyp rebuild\) failed \(exit 1\):\ngyp ERR!\nTo retry, run `.+` again/,
		);
		expect(
			retryCommand(['node', 'test/n8n/try.ts', '--check'], { npm_lifecycle_event: 'try' }),
		).toBe('npm run try -- --check');
		expect(retryCommand(['node', 'test/n8n/run.ts'], { npm_lifecycle_event: 'test:n8n' })).toBe(
			'npm run test:n8n',
		);
		expect(retryCommand(['node', `${process.cwd()}/test/n8n/run.ts`, '--quick'], {})).toBe(
			'npx tsx test/n8n/run.ts --quick',
		);
		expect(
			retryCommand(['node', `${process.cwd()}/test/n8n/run.ts`], { npm_lifecycle_event: 'npx' }),
		).toBe('npx tsx test/n8n/run.ts');
	});
});
