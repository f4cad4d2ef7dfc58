import { request } from 'http';
import { createServer as createTcpServer, connect, type AddressInfo, type Server } from 'net';
import path from 'path';

import {
	n8nNpmConfig,
	n8nRegistryEnv,
	registryRequests,
	servedTarballs,
	startRegistryProxy,
	tunnelPort,
	updateVersion,
	verdaccioConfig,
	type RegistryProxy,
} from './registry';

/** Two lines verdaccio 6 logs per request (the first before the answer, with no bytes yet). */
function logged(method: string, url: string, status: number, out: number): string {
	return [
		JSON.stringify({
			level: 25,
			sub: 'in',
			request: { method, url },
			status: 200,
			bytes: { in: 0, out: 0 },
		}),
		JSON.stringify({
			level: 25,
			sub: 'in',
			request: { method, url },
			status,
			bytes: { in: 0, out },
		}),
	].join('\n');
}

describe("the run's npm registry", () => {
	test('verdaccio: storage and users in the run folder, HTTPS on 127.0.0.1, no uplinks, publish only when registered', () => {
		const config = verdaccioConfig('/run/registry', 4873, {
			key: '/run/registry/key.pem',
			cert: '/run/registry/cert.pem',
		}) as Record<string, unknown>;
		expect(config).toMatchObject({
			storage: path.join('/run/registry', 'storage'),
			auth: { htpasswd: { file: path.join('/run/registry', 'htpasswd'), max_users: 1 } },
			uplinks: {},
			listen: 'https://127.0.0.1:4873',
			https: { key: '/run/registry/key.pem', cert: '/run/registry/cert.pem' },
			log: { format: 'json', level: 'http' },
		});
		const packages = config.packages as Record<string, Record<string, string>>;
		for (const rule of Object.values(packages)) {
			// A `proxy` entry would fetch a package the registry lacks from an uplink.
			expect(rule).not.toHaveProperty('proxy');
			expect(rule.publish).toBe('$authenticated');
		}
	});

	test.each([
		['0.1.0', '0.1.1-update.1'],
		['1.9.9', '1.9.10-update.1'],
		['0.2.0-beta.1', '0.2.0-beta.1.update.1'],
	])('the update of %s is %s: higher, and marked as the run’s own', (version, update) => {
		expect(updateVersion(version)).toBe(update);
	});

	test.each(['latest', '1.2', 'v1.2.3', '1.2.3-'])(
		'refuses to make an update of "%s"',
		(version) => {
			expect(() => updateVersion(version)).toThrow(/is not a version npm publishes/);
		},
	);

	test.each([
		['registry.npmjs.org:443', 4873],
		['127.0.0.1:5678', 5678],
		['localhost:80', 80],
		['registry.npmjs.org:80', undefined],
		['api.n8n.io:443', undefined],
		['127.0.0.1.example.com:443', undefined],
		['127.0.0.1:0', undefined],
	])('the proxy joins %s to port %s', (target, port) => {
		expect(tunnelPort(target, 4873)).toBe(port);
	});

	test('what verdaccio sent: the tarballs answered whole, from its log lines only', () => {
		const log = [
			'(node:1) Warning: Verdaccio does not need superuser privileges',
			JSON.stringify({ level: 30, msg: 'http address - https://127.0.0.1:4873/' }),
			logged('GET', '/n8n-nodes-payments-service', 200, 963),
			logged(
				'GET',
				'/n8n-nodes-payments-service/-/n8n-nodes-payments-service-0.1.0.tgz',
				200,
				247104,
			),
			logged('GET', '/n8n-nodes-payments-service/-/n8n-nodes-payments-service-0.1.0.tgz', 304, 0),
			logged('GET', '/lodash', 404, 43),
			logged('GET', '/n8n-nodes-other/-/n8n-nodes-other-1.0.0.tgz', 200, 1000),
			'{"truncated',
			logged(
				'GET',
				'/n8n-nodes-payments-service/-/n8n-nodes-payments-service-0.1.1-update.1.tgz',
				200,
				247113,
			),
		].join('\n');
		const requests = registryRequests(log);
		expect(requests.filter((request) => request.url === '/lodash').at(-1)).toEqual({
			method: 'GET',
			url: '/lodash',
			status: 404,
			bytesOut: 43,
		});
		expect(servedTarballs(requests, 'n8n-nodes-payments-service')).toEqual([
			{ version: '0.1.0', bytes: 247104 },
			{ version: '0.1.1-update.1', bytes: 247113 },
		]);
	});

	test("n8n's npm: the proxy, only the run's certificate, a cache of its own, n8n's default registry", () => {
		expect(
			n8nNpmConfig('http://127.0.0.1:9', '/run/cert.pem', '/run/npm-cache').split('\n'),
		).toEqual([
			'registry=https://registry.npmjs.org/',
			'https-proxy=http://127.0.0.1:9',
			'cafile=/run/cert.pem',
			'cache=/run/npm-cache',
			'',
		]);
		expect(n8nRegistryEnv('http://127.0.0.1:9', '/run/cert.pem')).toEqual({
			HTTPS_PROXY: 'http://127.0.0.1:9',
			https_proxy: 'http://127.0.0.1:9',
			NO_PROXY: '127.0.0.1,localhost',
			no_proxy: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: '/run/cert.pem',
		});
	});

	describe('the proxy', () => {
		let registry: Server;
		let proxy: RegistryProxy;
		beforeAll(async () => {
			// Stands in for verdaccio's port: answers every line with "registry: <line>".
			registry = createTcpServer((socket) =>
				socket.on('data', (chunk: Buffer) => socket.write(`registry: ${chunk.toString()}`)),
			);
			await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
			proxy = await startRegistryProxy((registry.address() as AddressInfo).port);
		});
		afterAll(async () => {
			await proxy.close();
			await new Promise((resolve) => registry.close(resolve));
		});

		/** Sends a CONNECT for `target` through the proxy, then `line`; resolves all it received. */
		function tunnel(target: string, line: string): Promise<string> {
			return new Promise((resolve, reject) => {
				const { port } = new URL(proxy.url);
				const socket = connect(Number(port), '127.0.0.1', () =>
					socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
				);
				let received = '';
				socket.on('data', (chunk: Buffer) => {
					received += chunk.toString();
					if (received.includes('200 Connection Established\r\n\r\n') && !received.includes(line))
						socket.write(line);
					if (received.includes(`registry: ${line}`)) socket.end();
				});
				socket.on('end', () => resolve(received));
				socket.on('error', reject);
			});
		}

		test('joins registry.npmjs.org:443 to the registry and a local port to itself, refuses every other address, recording each', async () => {
			expect(await tunnel('registry.npmjs.org:443', 'hello')).toMatch(
				/^HTTP\/1\.1 200 Connection Established\r\n\r\nregistry: hello$/,
			);
			expect(await tunnel('api.n8n.io:443', 'status?')).toBe('HTTP/1.1 403 Forbidden\r\n\r\n');
			// A port of this machine (what n8n 1.100's AI nodes send through the proxy): joined to itself.
			const local = `127.0.0.1:${(registry.address() as AddressInfo).port}`;
			expect(await tunnel(local, 'mock')).toMatch(
				/200 Connection Established\r\n\r\nregistry: mock$/,
			);
			// A plain proxy request (what axios sends for an https URL): refused too.
			const status = await new Promise<number>((resolve, reject) => {
				const { port } = new URL(proxy.url);
				request(
					{ host: '127.0.0.1', port, method: 'POST', path: 'https://api.n8n.io/api/package' },
					(response) => {
						response.resume();
						resolve(response.statusCode ?? 0);
					},
				)
					.on('error', reject)
					.end();
			});
			expect(status).toBe(403);
			expect(proxy.requests).toEqual([
				{ target: 'registry.npmjs.org:443', connected: true },
				{ target: 'api.n8n.io:443', connected: false },
				{ target: `127.0.0.1:${(registry.address() as AddressInfo).port}`, connected: true },
				{ target: 'https://api.n8n.io/api/package', connected: false },
			]);
		});
	});
});
