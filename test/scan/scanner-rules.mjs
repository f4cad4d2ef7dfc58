#!/usr/bin/env node
// Prints, as JSON, the rules n8n's community-package scanner (@n8n/scan-community-package, its
// exported buildScanConfig) turns on for each file it lints in this repository's sources, beside the
// rules our eslint.config.ts (what `n8n-node lint` runs) turns on for the same file, or null when our
// lint does not lint it. scanner-rules.test.ts judges the two. Rules are { name: [severity, ...options] }
// with severity 1 (warn) or 2 (error); rules that are off are left out.
//
// Usage: node test/scan/scanner-rules.mjs [--config <eslint config file>]   (default: eslint.config.ts)
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
process.stdout.write(JSON.stringify(report));
