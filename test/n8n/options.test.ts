import path from 'path';

import { parseBenchOptions, parseOptions } from './options';

describe('the command lines of the real-n8n runs and of bench:n8n', () => {
	test('test:n8n: the defaults, then the environment, then the flags', () => {
		expect(parseOptions([], {})).toMatchObject({
			n8nVersion: '2.41.1',
			queue: false,
			workers: 2,
			webhookProcesses: 2,
			quick: false,
			removeDuplicates: false,
			installOnly: false,
		});
		expect(parseOptions([], { E2E_N8N_VERSION: '1.123.81' }).n8nVersion).toBe('1.123.81');
		expect(
			parseOptions(
				[
					'--quick',
					'--n8n-version',
					'1.100.1',
					'--queue',
					'--workers',
					'3',
					'--webhook-processes',
					'0',
					'--remove-duplicates',
					'--install-only',
					'--tarball',
					'pack/n8n-nodes-payments-service-0.1.0.tgz',
				],
				{ E2E_N8N_VERSION: '1.123.81' },
			),
		).toMatchObject({
			n8nVersion: '1.100.1',
			quick: true,
			queue: true,
			workers: 3,
			webhookProcesses: 0,
			removeDuplicates: true,
			installOnly: true,
			tarball: path.resolve('pack/n8n-nodes-payments-service-0.1.0.tgz'),
		});
	});

	test.each([
		[['--bogus'], /Unknown option '--bogus'/],
		[['--workers', '0'], /--workers must be a whole number of at least 1, got "0"/],
		[['--n8n-version'], /argument missing/],
		[['--n8n-version', 'latest'], /--n8n-version must be a version like 2.41.1, got "latest"/],
		[['extra'], /Unexpected argument 'extra'/],
	])('test:n8n refuses %j, saying why', (argv, message) => {
		expect(() => parseOptions(argv, {})).toThrow(message);
	});

	test('bench:n8n: the defaults, the flags, and a malformed value refused', () => {
		expect(parseBenchOptions([])).toMatchObject({
			records: 100_000,
			modes: ['unset', 'filesystem', 'default'],
			routes: ['A', 'B', 'C'],
			live: false,
			maxOldSpaceMiB: undefined,
		});
		expect(
			parseBenchOptions([
				'--records',
				'5000',
				'--routes',
				'b,c',
				'--modes',
				'default',
				'--live',
				'--max-old-space',
				'384',
			]),
		).toMatchObject({
			records: 5000,
			routes: ['B', 'C'],
			modes: ['default'],
			live: true,
			maxOldSpaceMiB: 384,
		});
		expect(() => parseBenchOptions(['--max-old-space', '32'])).toThrow(/at least 64, got "32"/);
		expect(() => parseBenchOptions(['--routes', 'D'])).toThrow(
			/--routes takes a comma-separated list of A, B, C/,
		);
	});
});
