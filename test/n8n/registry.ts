/**
 * The npm registry n8n's community-package installer downloads from in a run (regular mode).
 *
 * n8n's installer (`POST /rest/community-packages`, the Community Nodes page's Install) downloads
 * with npm from `N8N_COMMUNITY_PACKAGES_REGISTRY`, but any registry other than its default,
 * https://registry.npmjs.org, needs n8n's Enterprise licence (`getNpmRegistry` in
 * community-packages.service: `feat:communityNodes:customRegistry`), in every release this
 * project supports. So n8n keeps its default, as a merchant's does, and the run serves that
 * address from its own machine:
 *
 * - verdaccio, bound to 127.0.0.1 on a free port, storage in the run folder, no uplinks (nothing
 *   is fetched from the internet), serving HTTPS with a certificate made for the run, for the
 *   name registry.npmjs.org (and 127.0.0.1, where the run publishes);
 * - an HTTPS proxy on 127.0.0.1 that n8n and the npm it runs use (`HTTPS_PROXY`, and npm's
 *   `https-proxy` in the nodes folder's `.npmrc`): it connects registry.npmjs.org:443 to verdaccio
 *   and ports of this machine to themselves, refuses every other address, and records each;
 * - the run's certificate trusted by n8n (`NODE_EXTRA_CA_CERTS`) and by its npm (`cafile`, which
 *   replaces npm's list of authorities: that npm can reach no other HTTPS server).
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'fs';
import { request as httpsRequest } from 'https';
import { createServer, type Server } from 'http';
import { connect, type Socket } from 'net';
import path from 'path';

import { PACKAGE_NAME } from '../harness/packageInfo';
import type { NodeInstall, VerdaccioInstall } from './install';
import {
	debianBinary,
	freePort,
	runCommand,
	startProcess,
	tail,
	waitFor,
	type Managed,
} from './processes';

/** The registry n8n's installer uses unless licensed for another (its `DEFAULT_REGISTRY`). */
export const REGISTRY_HOST = 'registry.npmjs.org';
/** The registry's address as n8n and npm name it. */
export const REGISTRY_URL = `https://${REGISTRY_HOST}/`;

/** The verdaccio the runs start (installed into the cache by `ensureVerdaccio`). */
export const VERDACCIO_VERSION = '6.10.4';
/** How long verdaccio may take to answer its ping. */
const START_TIMEOUT_MS = 60_000;

/** Files of the registry's certificate. */
export interface Certificate {
	key: string;
	cert: string;
}

/**
 * verdaccio's configuration (verdaccio reads YAML, of which JSON is a part): storage and users in
 * `dir`, HTTPS on 127.0.0.1:`port` with `certificate`, every package readable by anyone and
 * publishable by a registered user, no uplinks (a package it does not hold is 404: nothing is
 * fetched from the internet), no web interface, and its log as JSON lines on stdout (one per
 * request, with method, path, status and bytes sent).
 */
export function verdaccioConfig(dir: string, port: number, certificate: Certificate): object {
	return {
		storage: path.join(dir, 'storage'),
		auth: { htpasswd: { file: path.join(dir, 'htpasswd'), max_users: 1 } },
		uplinks: {},
		packages: {
			'**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
		},
		listen: `https://127.0.0.1:${port}`,
		https: { key: certificate.key, cert: certificate.cert },
		web: { enable: false },
		log: { type: 'stdout', format: 'json', level: 'http' },
	};
}

/**
 * The version published as the update: higher than `version` and marked as the run's own
 * (`0.1.0` → `0.1.1-update.1`; a prerelease `0.2.0-beta.1` → `0.2.0-beta.1.update.1`), so it can
 * never be mistaken for a release.
 * @throws on a version that is not `major.minor.patch[-prerelease]`.
 */
export function updateVersion(version: string): string {
	const match = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/.exec(version);
	if (!match) throw new Error(`"${version}" is not a version npm publishes`);
	const [, major, minor, patch, prerelease] = match;
	return prerelease
		? `${major}.${minor}.${patch}-${prerelease}.update.1`
		: `${major}.${minor}.${Number(patch) + 1}-update.1`;
}

/** A request verdaccio answered, from its log. */
export interface RegistryRequest {
	method: string;
	url: string;
	status: number;
	/** Bytes of the answer's body. */
	bytesOut: number;
}

/** The requests verdaccio answered, from its JSON log (lines of other kinds are skipped). */
export function registryRequests(log: string): RegistryRequest[] {
	const requests: RegistryRequest[] = [];
	for (const line of log.split('\n')) {
		if (!line.startsWith('{')) continue;
		let entry: {
			request?: { method?: string; url?: string };
			status?: number;
			bytes?: { out?: number };
		};
		try {
			entry = JSON.parse(line) as typeof entry;
		} catch {
			continue;
		}
		if (!entry.request?.url || typeof entry.status !== 'number') continue;
		requests.push({
			method: entry.request.method ?? '',
			url: entry.request.url,
			status: entry.status,
			bytesOut: entry.bytes?.out ?? 0,
		});
	}
	return requests;
}

/**
 * The tarballs of `name` verdaccio sent whole (200, a body): their versions and sizes, in order.
 */
export function servedTarballs(
	requests: RegistryRequest[],
	name: string,
): Array<{ version: string; bytes: number }> {
	const prefix = `/${name}/-/${name.replace(/^@[^/]+\//, '')}-`;
	return requests
		.filter(
			(request) =>
				request.method === 'GET' &&
				request.status === 200 &&
				request.bytesOut > 0 &&
				request.url.startsWith(prefix) &&
				request.url.endsWith('.tgz'),
		)
		.map((request) => ({
			version: request.url.slice(prefix.length, -'.tgz'.length),
			bytes: request.bytesOut,
		}));
}

/**
 * npm's configuration for the folder n8n installs packages in (`<n8n folder>/nodes/.npmrc`: npm
 * reads a project's `.npmrc`, and n8n runs npm there). n8n 1.x runs npm with only PATH, NODE_PATH
 * and NODE_ENV from its environment, so the proxy and the certificate must be npm's own
 * settings: `https-proxy`, `cafile` (only the run's certificate is trusted), its own `cache` (the
 * run's packages never enter the user's npm cache), and the registry n8n uses by default (for
 * `npm outdated`, which n8n runs without naming one).
 */
export function n8nNpmConfig(proxyUrl: string, caFile: string, cacheDir: string): string {
	return [
		`registry=${REGISTRY_URL}`,
		`https-proxy=${proxyUrl}`,
		`cafile=${caFile}`,
		`cache=${cacheDir}`,
		'',
	].join('\n');
}

/**
 * n8n's own environment for the registry: its HTTPS requests (the installer asks the registry
 * whether the version exists, and n8n's servers for the package's status) go through the proxy,
 * and Node trusts the run's certificate. Local addresses (the sandbox, the mocks) go direct.
 */
export function n8nRegistryEnv(proxyUrl: string, caFile: string): NodeJS.ProcessEnv {
	return {
		HTTPS_PROXY: proxyUrl,
		https_proxy: proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: caFile,
	};
}

/** One address asked of the proxy, and whether it was connected (registry.npmjs.org only). */
export interface ProxyRequest {
	/** `host:port` of a CONNECT, or the URL of a plain proxy request. */
	target: string;
	connected: boolean;
}

/**
 * Where the proxy joins a CONNECT to `target` (`host:port`): registry.npmjs.org:443 to verdaccio's
 * port; a port of this machine (127.0.0.1, localhost) to itself, for clients that send everything
 * to the proxy whatever `NO_PROXY` says (n8n 1.100's AI nodes do); anything else nowhere.
 */
export function tunnelPort(target: string, registryPort: number): number | undefined {
	if (target === `${REGISTRY_HOST}:443`) return registryPort;
	const local = /^(?:127\.0\.0\.1|localhost):(\d{1,5})$/.exec(target);
	return local && Number(local[1]) > 0 && Number(local[1]) < 65536 ? Number(local[1]) : undefined;
}

/** The HTTPS proxy of a run. */
export interface RegistryProxy {
	url: string;
	requests: ProxyRequest[];
	close(): Promise<void>;
}

/**
 * Starts the proxy on 127.0.0.1: a CONNECT is joined where {@link tunnelPort} says (the TLS is
 * verdaccio's, the proxy sees none of it); anything else is answered 403.
 */
export async function startRegistryProxy(registryPort: number): Promise<RegistryProxy> {
	const requests: ProxyRequest[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((request, response) => {
		// A plain request through the proxy (e.g. axios to an https URL in n8n 1.x): refused.
		requests.push({ target: request.url ?? '', connected: false });
		response.writeHead(403).end('refused: this proxy reaches only the local npm registry');
	});
	server.on('connect', (request, client: Socket, head: Buffer) => {
		const target = request.url ?? '';
		sockets.add(client);
		client.on('close', () => sockets.delete(client));
		client.on('error', () => client.destroy());
		const port = tunnelPort(target, registryPort);
		requests.push({ target, connected: port !== undefined });
		if (port === undefined) {
			client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		const upstream = connect(port, '127.0.0.1', () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		sockets.add(upstream);
		upstream.on('close', () => sockets.delete(upstream));
		upstream.on('error', () => client.destroy());
		client.on('close', () => upstream.destroy());
	});
	const port = await freePort();
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The registry of a run: verdaccio, the proxy, the certificate, and how to publish. */
export interface LocalRegistry {
	/** https://127.0.0.1:<port>/ (where the run publishes). */
	url: string;
	verdaccio: Managed;
	version: string;
	proxy: RegistryProxy;
	certificate: Certificate;
	/** The npm configuration the run publishes with (the registry's token, its certificate). */
	publishConfig: string;
	/** npm's cache for n8n's installs (in the run folder). */
	cacheDir: string;
	/** The requests verdaccio answered so far. */
	requests(): RegistryRequest[];
}

/** Debian's openssl (installed when missing), which makes the registry's certificate. */
export async function opensslBinary(): Promise<string> {
	return await debianBinary('openssl', '/usr/bin/openssl');
}

/** Makes a self-signed certificate for registry.npmjs.org and 127.0.0.1 (Debian's openssl). */
async function makeCertificate(dir: string): Promise<Certificate> {
	const openssl = await opensslBinary();
	const certificate = { key: path.join(dir, 'key.pem'), cert: path.join(dir, 'cert.pem') };
	await runCommand(
		openssl,
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-keyout',
			certificate.key,
			'-out',
			certificate.cert,
			'-days',
			'2',
			'-subj',
			`/CN=${REGISTRY_HOST}`,
			'-addext',
			`subjectAltName=DNS:${REGISTRY_HOST},IP:127.0.0.1`,
		],
		{ what: 'Making the registry certificate (openssl)' },
	);
	return certificate;
}

/** An HTTPS request to verdaccio (trusting the run's certificate); resolves status and body. */
function registryCall(
	url: string,
	ca: string,
	method = 'GET',
	body?: object,
): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const call = httpsRequest(
			url,
			{
				method,
				ca,
				headers: payload ? { 'content-type': 'application/json' } : {},
				timeout: 10_000,
			},
			(response) => {
				let text = '';
				response.on('data', (chunk: Buffer) => (text += chunk.toString()));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
			},
		);
		call.on('timeout', () => call.destroy(new Error(`${method} ${url} timed out`)));
		call.on('error', reject);
		call.end(payload);
	});
}

/**
 * Starts verdaccio (`verdaccioInstall`, on `node`: it needs Node ≥ 22) and the proxy, and registers the user the run
 * publishes as; everything lives in `<runDir>/registry`.
 */
export async function startLocalRegistry(
	runDir: string,
	logDir: string,
	node: NodeInstall,
	verdaccioInstall: VerdaccioInstall,
): Promise<LocalRegistry> {
	const dir = path.join(runDir, 'registry');
	mkdirSync(dir, { recursive: true });
	const certificate = await makeCertificate(dir);
	const ca = readFileSync(certificate.cert, 'utf8');
	const port = await freePort();
	const configFile = path.join(dir, 'config.yaml');
	writeFileSync(configFile, JSON.stringify(verdaccioConfig(dir, port, certificate), null, 2));
	const verdaccio = startProcess(
		'verdaccio',
		node.bin,
		[verdaccioInstall.bin, '--config', configFile],
		{
			env: { PATH: node.path, HOME: dir, NODE_ENV: 'production' },
			cwd: dir,
			logFile: path.join(logDir, 'verdaccio.log'),
		},
	);
	const url = `https://127.0.0.1:${port}/`;
	await waitFor(
		`verdaccio to answer on ${url}`,
		async () => {
			if (verdaccio.exited())
				throw new Error(`verdaccio exited while starting:\n${tail(verdaccio.log(), 30)}`);
			return (await registryCall(`${url}-/ping`, ca)).status === 200;
		},
		{ timeoutMs: START_TIMEOUT_MS, intervalMs: 250, detail: () => tail(verdaccio.log()) },
	);
	const user = await registryCall(`${url}-/user/org.couchdb.user:payments-e2e`, ca, 'PUT', {
		name: 'payments-e2e',
		password: `e2e-${port}-${process.pid}`,
	});
	const token = (JSON.parse(user.body) as { token?: string }).token;
	if (user.status !== 201 || !token)
		throw new Error(`verdaccio did not register the publishing user: ${user.status} ${user.body}`);
	const publishConfig = path.join(dir, 'publish.npmrc');
	writeFileSync(
		publishConfig,
		`//127.0.0.1:${port}/:_authToken=${token}\ncafile=${certificate.cert}\n`,
	);
	const { version } = verdaccioInstall;
	const proxy = await startRegistryProxy(port);
	return {
		url,
		verdaccio,
		version,
		proxy,
		certificate,
		publishConfig,
		cacheDir: path.join(dir, 'n8n-npm-cache'),
		requests: () => registryRequests(verdaccio.log()),
	};
}

/**
 * Environment for the npm the run publishes with: only PATH and HOME, so no `npm_config_*` of
 * the `npm run` that started the run (its registry among them) reaches it.
 */
function publishEnv(registry: LocalRegistry): NodeJS.ProcessEnv {
	return { PATH: process.env.PATH, HOME: path.dirname(registry.publishConfig) };
}

/**
 * Publishes `tarball` to the run's verdaccio as the `latest` version; every setting on the command
 * line, so it can reach no other registry.
 */
export async function publish(registry: LocalRegistry, tarball: string): Promise<void> {
	await runCommand(
		'npm',
		[
			'publish',
			tarball,
			`--registry=${registry.url}`,
			`--userconfig=${registry.publishConfig}`,
			'--tag=latest',
			'--ignore-scripts',
			'--provenance=false',
			'--loglevel=error',
		],
		{
			cwd: path.dirname(registry.publishConfig),
			env: publishEnv(registry),
			what: `npm publish ${path.basename(tarball)} to the local registry`,
		},
	);
}

/**
 * The same build as `tarball` with `version` in its package.json, packed again into `outDir`
 * (in a temporary copy: the repository's package.json is never touched). Resolves its path.
 */
export async function repack(tarball: string, version: string, outDir: string): Promise<string> {
	const work = mkdtempSync(path.join(outDir, 'repack-'));
	await runCommand('tar', ['-xzf', tarball, '-C', work], { what: 'Unpacking the package tarball' });
	const folder = path.join(work, 'package');
	const manifestPath = path.join(folder, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	if (manifest.name !== PACKAGE_NAME)
		throw new Error(`${tarball} holds ${String(manifest.name)}, not ${PACKAGE_NAME}`);
	writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
	const output = await runCommand(
		'npm',
		['pack', folder, '--json', '--ignore-scripts', '--loglevel=error', '--pack-destination', work],
		{ cwd: work, env: { PATH: process.env.PATH, HOME: work }, what: 'npm pack (update)' },
	);
	const [{ filename }] = JSON.parse(
		output.slice(output.indexOf('['), output.lastIndexOf(']') + 1),
	) as Array<{
		filename: string;
	}>;
	const packed = path.join(outDir, filename);
	renameSync(path.join(work, filename), packed);
	return packed;
}

/** The HTTP status verdaccio answers for `urlPath` (asked directly, trusting the run's certificate). */
export async function registryStatus(registry: LocalRegistry, urlPath: string): Promise<number> {
	const ca = readFileSync(registry.certificate.cert, 'utf8');
	return (await registryCall(`${registry.url}${urlPath.replace(/^\//, '')}`, ca)).status;
}

/** The size in bytes of a file (a tarball, to compare with what verdaccio sent). */
export function fileSize(file: string): number {
	return statSync(file).size;
}
