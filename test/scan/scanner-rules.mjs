#!/usr/bin/env node
// `npm run lint:rules`: checks that our lint (eslint.config.ts, what `n8n-node lint` runs) applies
// the rules n8n's community-package scanner (@n8n/scan-community-package, its exported
// buildScanConfig) applies, file by file, for every file the scanner lints in this repository:
// - our lint lints every such file (package.json and the .ts and .json of nodes/ and credentials/);
// - every rule the scanner reports as an error is an error here too, with the same options, and all
//   of eslint-plugin-n8n-nodes-base's node rules reach a node file;
// - every scanner warning stays on, save the ones switched off with a reason (WARNINGS_OFF);
// - the house rules are on for nodes/ and credentials/ sources.
// Prints what is missing and exits 1; exits 0 when nothing is. Rules are { name: [severity,
// ...options] } with severity 1 (warn) or 2 (error); rules that are off are left out.
//
// Usage: node test/scan/scanner-rules.mjs [--config <eslint config file>] [--json]
//   --config: judge another eslint config (default: eslint.config.ts);
//   --json: print the rules of each file, as judged, instead of judging them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';

// The scanner makes a temporary folder when loaded (for registry downloads, unused here); its own
// copy of `tmp` removes it on exit once told to.
const scannerModule = import.meta.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
const scannerRequire = createRequire(scannerModule);
scannerRequire('tmp').setGracefulCleanup();
// The scanner's own glob, to list the files as it does.
const glob = scannerRequire('fast-glob');
const { buildScanConfig, SOURCE_FILE_PATTERNS } = await import(scannerModule);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const at = process.argv.indexOf('--config');
const configFile = at >= 0 ? path.resolve(process.argv[at + 1]) : undefined;

const SEVERITY = { off: 0, warn: 1, error: 2 };

/** The rules a config turns on, as { name: [severity, ...options] }. */
function enabled(config) {
	const rules = {};
	for (const [name, value] of Object.entries(config?.rules ?? {})) {
		const [level, ...options] = Array.isArray(value) ? value : [value];
		const severity = typeof level === 'number' ? level : SEVERITY[level];
		if (severity > 0) rules[name] = [severity, ...options];
	}
	return rules;
}

const scanner = new ESLint({
	cwd: root,
	overrideConfigFile: true,
	overrideConfig: await buildScanConfig(),
});
const ours = new ESLint({ cwd: root, ...(configFile ? { overrideConfigFile: configFile } : {}) });
const files = glob.sync(SOURCE_FILE_PATTERNS, {
	cwd: root,
	ignore: ['node_modules/**', '**/package-lock.json'],
});
const report = [];
for (const file of files.sort()) {
	const linted = !(await ours.isPathIgnored(file));
	const config = linted ? await ours.calculateConfigForFile(file) : undefined;
	report.push({
		file,
		scanner: enabled(await scanner.calculateConfigForFile(file)),
		ours: config ? enabled(config) : null,
	});
}
if (process.argv.includes('--json')) {
	process.stdout.write(JSON.stringify(report));
	process.exit(0);
}

/** Scanner warnings our lint switches off, each for the reason eslint.config.ts gives beside it. */
const WARNINGS_OFF = new Set(['@n8n/community-nodes/credential-unnecessary-password']);
const HOUSE_RULES = [
	'house/continue-on-fail-in-execute',
	'house/execute-errors-carry-item-index',
	'house/single-credential-per-node',
];
/** eslint-plugin-n8n-nodes-base's node rules (97) less the 3 the scanner switches off. */
const NODE_BASE_RULES = 94;

const problems = [];
const expectedFiles = [
	'package.json',
	'credentials/PaymentsServiceCashoutApi.credentials.ts',
	'nodes/PaymentsService/PaymentsService.node.ts',
	'nodes/PaymentsService/PaymentsService.node.json',
];
for (const file of expectedFiles)
	if (!report.some((entry) => entry.file === file))
		problems.push(`${file}: the scanner no longer lints it (update this check)`);
for (const { file, scanner, ours } of report) {
	if (ours === null) {
		problems.push(`${file}: the scanner lints it, our lint does not`);
		continue;
	}
	for (const [name, setting] of Object.entries(scanner)) {
		if (setting[0] === 2 && JSON.stringify(ours[name]) !== JSON.stringify(setting))
			problems.push(
				`${file}: ${name} ${JSON.stringify(setting)} is not an error with these options here`,
			);
		if (setting[0] === 1 && !WARNINGS_OFF.has(name) && !ours[name])
			problems.push(`${file}: the scanner's warning ${name} is off here`);
	}
	if (/^(nodes|credentials)\/.*\.ts$/.test(file)) {
		const house = Object.keys(ours).filter((name) => name.startsWith('house/'));
		if (JSON.stringify(house) !== JSON.stringify(HOUSE_RULES))
			problems.push(
				`${file}: house rules ${JSON.stringify(house)}, expected ${JSON.stringify(HOUSE_RULES)}`,
			);
	}
	if (file.endsWith('.node.ts')) {
		const base = Object.keys(ours).filter((name) => name.startsWith('n8n-nodes-base/')).length;
		if (base < NODE_BASE_RULES)
			problems.push(
				`${file}: ${base} rules of eslint-plugin-n8n-nodes-base, fewer than ${NODE_BASE_RULES}`,
			);
	}
}
if (problems.length > 0) {
	process.stderr.write(
		`Our lint misses what n8n's community-package scanner checks:\n${problems.map((line) => `- ${line}`).join('\n')}\n`,
	);
	process.exit(1);
}
process.stdout.write(
	`lint:rules: ${report.length} files; every rule the scanner applies is applied here, and the house rules on nodes/ and credentials/\n`,
);
