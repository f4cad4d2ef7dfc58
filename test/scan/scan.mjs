#!/usr/bin/env node
// Runs n8n's community-package scanner (@n8n/scan-community-package) the way n8n runs it before
// listing a package, without downloading anything from the registry: its exported analysis on
//  1. the sources (package.json, nodes/, credentials/), as it lints the provenance-attested checkout;
//  2. the packed tarball (compiled .js and the published package.json), as it lints the artifact.
// Like the scanner, it ignores inline eslint-disable comments. Exits 1 on any violation.
//
// Usage: node test/scan/scan.mjs                 the repository and `npm pack` of it (needs dist/)
//        node test/scan/scan.mjs --source <dir>  only the sources in <dir>
//        node test/scan/scan.mjs --dist <dir>    only an unpacked package in <dir>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The scanner makes a temporary folder when loaded (for registry downloads, unused here); its own
// copy of `tmp` removes it on exit once told to.
const scannerModule = import.meta.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
createRequire(scannerModule)('tmp').setGracefulCleanup();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(scannerModule);

// eslint-plugin-n8n-nodes-base switches to its own test fixtures' file naming under NODE_ENV=test
// (which jest sets); the scanner runs without it.
delete process.env.NODE_ENV;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST_FILE_PATTERNS = ['**/*.js', 'package.json'];

function option(name) {
	const at = process.argv.indexOf(name);
	return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Packs the repository into a temporary folder and unpacks it; returns the package folder. */
function packed() {
	const folder = mkdtempSync(path.join(tmpdir(), 'payments-service-scan-'));
	execFileSync('npm', ['pack', '--silent', '--pack-destination', folder], {
		cwd: root,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const tarball = readdirSync(folder).find((file) => file.endsWith('.tgz'));
	if (!tarball) throw new Error('npm pack produced no tarball');
	execFileSync('tar', ['-xzf', tarball], { cwd: folder });
	return {
		dir: path.join(folder, 'package'),
		cleanup: () => rmSync(folder, { recursive: true, force: true }),
	};
}

async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) {
		process.stdout.write(`scan ${label}: passed (${result.message ?? 'no violations'})\n`);
		return true;
	}
	process.stdout.write(`scan ${label}: FAILED: ${result.message}\n${result.details ?? ''}\n`);
	return false;
}

const source = option('--source');
const dist = option('--dist');
let passed = true;
if (source || dist) {
	if (source)
		passed =
			(await scan(`sources in ${source}`, path.resolve(source), SOURCE_FILE_PATTERNS)) && passed;
	if (dist)
		passed = (await scan(`package in ${dist}`, path.resolve(dist), DIST_FILE_PATTERNS)) && passed;
} else {
	passed = (await scan('sources', root, SOURCE_FILE_PATTERNS)) && passed;
	const tarball = packed();
	try {
		passed = (await scan('packed tarball', tarball.dir, DIST_FILE_PATTERNS)) && passed;
	} finally {
		tarball.cleanup();
	}
}
process.exit(passed ? 0 : 1);
