import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

import { checkSingleRelease, n8nOverrides } from './install';

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
});
