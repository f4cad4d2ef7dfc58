import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

const SCAN = path.join(__dirname, 'scan.mjs');
const ROOT = path.resolve(__dirname, '..', '..');

function scan(args: string[]) {
	const result = spawnSync(process.execPath, [SCAN, ...args], { cwd: ROOT, encoding: 'utf8' });
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('n8n’s community-package scanner, as `npm run lint` runs it', () => {
	let fixture: string;
	beforeAll(() => {
		fixture = mkdtempSync(path.join(tmpdir(), 'scan-fixture-'));
		// This package's own package.json and one node that logs to the console behind an inline
		// eslint-disable comment, which the scanner ignores.
		writeFileSync(path.join(fixture, 'package.json'), readFileSync(path.join(ROOT, 'package.json')));
		mkdirSync(path.join(fixture, 'nodes', 'Noisy'), { recursive: true });
		writeFileSync(
			path.join(fixture, 'nodes', 'Noisy', 'Noisy.node.js'),
			'// eslint-disable-next-line no-console\nconsole.log("hello");\nmodule.exports = {};\n',
		);
	});
	afterAll(() => rmSync(fixture, { recursive: true, force: true }));

	test('a console call fails the scan even behind an eslint-disable comment', () => {
		const { status, output } = scan(['--dist', fixture]);
		expect(status).toBe(1);
		expect(output).toMatch(/no-console/);
	});

	test('this package’s sources pass', () => {
		const { status, output } = scan(['--source', ROOT]);
		expect([status, output]).toEqual([0, expect.stringContaining('passed')]);
	});
});
