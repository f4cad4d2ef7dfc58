import { PackageDirectoryLoader } from 'n8n-core';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { existsSync, readFileSync } from 'fs';
import path from 'path';

import { PACKAGE_ROOT } from '../harness/packageInfo';
import { paymentsNode, startFixture, WorkflowBuilder } from '../harness/fixtures';

// `npm test` builds first: these tests check the package exactly as n8n installs and loads it.
describe('the built package, loaded the way n8n loads community packages', () => {
	test('package.json names the three built nodes and the four credentials, and nothing is a run-time dependency', async () => {
		const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.dependencies).toBeUndefined();
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		expect(Object.keys(loader.nodeTypes).sort()).toEqual([
			'paymentsService',
			'paymentsServiceNotificationTrigger',
			'paymentsServiceTrigger',
		]);
		expect(Object.keys(loader.credentialTypes).sort()).toEqual([
			'paymentsServiceCashoutApi',
			'paymentsServiceDepositApi',
			'paymentsServiceReadOnlyApi',
			'paymentsServiceSessionApi',
		]);
	});

	test('every operation has an action text (AI agent tools), and the node is usable as a tool', async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		const description = loader.nodeTypes.paymentsService.type.description as INodeTypeDescription;
		expect(description.usableAsTool).toBe(true);
		const operations = description.properties.filter(
			(property: INodeProperties) => property.name === 'operation',
		);
		const resources = description.properties
			.find((property) => property.name === 'resource')!
			.options!.map((option) => (option as { value: string }).value);
		expect(
			operations.map((property) => property.displayOptions?.show?.resource?.[0]).sort(),
		).toEqual([...resources].sort());
		for (const operation of operations) {
			for (const option of operation.options as Array<{ action?: string; name: string }>) {
				expect([option.name, option.action]).toEqual([
					option.name,
					expect.stringMatching(/^[A-Z][a-z]/),
				]);
			}
		}
	});

	test('the icons and the codex file are in dist where the descriptions point', () => {
		for (const file of [
			'icons/payments-service.svg',
			'icons/payments-service.dark.svg',
			'nodes/PaymentsService/PaymentsService.node.json',
			'nodes/PaymentsService/PaymentsServiceTrigger.node.json',
			'nodes/PaymentsService/PaymentsServiceNotificationTrigger.node.json',
		]) {
			expect([file, existsSync(path.join(PACKAGE_ROOT, 'dist', file))]).toEqual([file, true]);
		}
	});

	test('a workflow runs with the built node and credentials', async () => {
		const fx = await startFixture({ source: 'dist' });
		try {
			const builder = new WorkflowBuilder('built');
			builder.then(
				paymentsNode(
					{ resource: 'exchangeRate', operation: 'get', country: 'MX', amount: 10 },
					'paymentsServiceReadOnlyApi',
				),
			);
			const run = await fx.engine.run(builder.build());
			expect(run.output('Payments Service')[0].json).toMatchObject({
				currency: 'MXN',
				converted_amount: 171.2,
			});
		} finally {
			await fx.close();
		}
	});
});
