import { execFileSync } from 'child_process';
import path from 'path';

/** The rules one file gets, as scanner-rules.mjs prints them: { name: [severity, ...options] }. */
type Rules = Record<string, unknown[]>;
type FileRules = { file: string; scanner: Rules; ours: Rules | null };

/**
 * Scanner warnings our lint switches off, each for the reason eslint.config.ts gives beside it.
 * Warnings do not fail the scanner; errors all must be errors here.
 */
const WARNINGS_OFF = new Set(['@n8n/community-nodes/credential-unnecessary-password']);

const ROOT = path.resolve(__dirname, '..', '..');

/** What n8n's scanner and our eslint config turn on for each file the scanner lints. */
function readRules(): FileRules[] {
	const env = { ...process.env };
	delete env.NODE_ENV;
	const output = execFileSync('node', [path.join(__dirname, 'scanner-rules.mjs')], {
		cwd: ROOT,
		env,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	return JSON.parse(output) as FileRules[];
}

describe("npm run lint runs n8n's community-package scanner's rules", () => {
	let files: FileRules[];
	beforeAll(() => {
		files = readRules();
	});

	it('lints every file the scanner lints: package.json and the .ts and .json of nodes/ and credentials/', () => {
		expect(files.map((entry) => entry.file)).toEqual(
			expect.arrayContaining([
				'package.json',
				'credentials/PaymentsServiceCashoutApi.credentials.ts',
				'nodes/PaymentsService/PaymentsService.node.ts',
				'nodes/PaymentsService/PaymentsService.node.json',
			]),
		);
		expect(files.filter((entry) => entry.ours === null).map((entry) => entry.file)).toEqual([]);
	});

	it('reports as an error, with the same options, every rule the scanner reports as an error', () => {
		const missing = files.flatMap(({ file, scanner, ours }) =>
			Object.entries(scanner)
				.filter(([, setting]) => setting[0] === 2)
				.filter(([name, setting]) => JSON.stringify(ours?.[name]) !== JSON.stringify(setting))
				.map(([name, setting]) => `${file}: ${name} ${JSON.stringify(setting)}`),
		);
		expect(missing).toEqual([]);
		// all of eslint-plugin-n8n-nodes-base's node rules reach a node file (97, less the scanner's 3 off)
		const node = files.find((entry) => entry.file.endsWith('PaymentsService.node.ts'));
		const base = Object.keys(node?.ours ?? {}).filter((name) => name.startsWith('n8n-nodes-base/'));
		expect(base.length).toBeGreaterThanOrEqual(94);
	});

	it('keeps every scanner warning on, save the ones switched off with a reason', () => {
		const missing = files.flatMap(({ file, scanner, ours }) =>
			Object.entries(scanner)
				.filter(([name, setting]) => setting[0] === 1 && !WARNINGS_OFF.has(name))
				.filter(([name]) => !ours?.[name])
				.map(([name]) => `${file}: ${name}`),
		);
		expect(missing).toEqual([]);
	});

	it('adds the house rules on nodes/ and credentials/ sources', () => {
		for (const file of [
			'nodes/PaymentsService/PaymentsService.node.ts',
			'credentials/PaymentsServiceCashoutApi.credentials.ts',
		]) {
			const ours = files.find((entry) => entry.file === file)?.ours ?? {};
			expect(Object.keys(ours).filter((name) => name.startsWith('house/'))).toEqual([
				'house/continue-on-fail-in-execute',
				'house/execute-errors-carry-item-index',
				'house/single-credential-per-node',
			]);
		}
	});
});
