/**
 * The house rules (house-rules.ts) with ESLint's RuleTester, and the reason each is kept: on the
 * code each catches, eslint-plugin-n8n-nodes-base (which n8n's scanner and our lint run in full)
 * reports nothing. If one of those tests fails, n8n's rule now catches the case: drop ours.
 * The last block keeps the cases of the rules we dropped, to show n8n's rules catch them.
 */
import { Linter, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

import { rules } from './house-rules';

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

/**
 * eslint-plugin-n8n-nodes-base, loaded as n8n's scanner loads it: under NODE_ENV=test (jest's) it
 * takes every file for a node file named Test.node.ts, its own test fixtures' convention.
 */
function loadN8nNodesBase(): { rules: Record<string, never> } {
	const saved = process.env.NODE_ENV;
	delete process.env.NODE_ENV;
	try {
		let plugin: { rules: Record<string, never> } | undefined;
		jest.isolateModules(() => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			plugin = require('eslint-plugin-n8n-nodes-base');
		});
		return plugin!;
	} finally {
		process.env.NODE_ENV = saved;
	}
}
const n8nNodesBase = loadN8nNodesBase();
const linter = new Linter({ configType: 'flat' });

/** How many times eslint-plugin-n8n-nodes-base's rule `rule` reports on `code` in file `filename`. */
function n8nReports(rule: string, code: string, filename: string): number {
	const messages = linter.verify(
		code,
		[
			{
				files: ['**/*.ts'],
				languageOptions: { parser: tseslint.parser as never },
				plugins: { 'n8n-nodes-base': n8nNodesBase as never },
				rules: { [`n8n-nodes-base/${rule}`]: 'error' },
			},
		],
		filename,
	);
	const fatal = messages.find((message) => message.fatal);
	if (fatal) throw new Error(`${filename}: ${fatal.message}`);
	return messages.filter((message) => message.ruleId === `n8n-nodes-base/${rule}`).length;
}

/** A node class with the given execute() body and description fields. */
function nodeSource(
	execute: string,
	description = "name: 'acme', group: ['transform'], credentials: [{ name: 'acmeApi', required: true }], properties: []",
) {
	return `
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
export class Acme implements INodeType {
	description: INodeTypeDescription = { displayName: 'Acme', ${description} } as INodeTypeDescription;
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		${execute}
	}
}`;
}

const perItem = (onFail: string, thrown = 'throw error;') => `
	const items = this.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try { out.push({ json: {}, pairedItem: { item: i } }); }
		catch (error) { ${onFail} ${thrown} }
	}
	return [out];`;

/** An item loop whose try block has a loop of its own that throws without an item index. */
const NESTED_LOOP_THROW = `
	const items = this.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			for (const key of Object.keys(items[i].json)) if (!key) throw new NodeApiError(this.getNode(), {});
		} catch (error) { if (this.continueOnFail()) { continue; } throw error; }
	}
	return [out];`;

describe('house rules', () => {
	tester.run('continue-on-fail-in-execute', rules['continue-on-fail-in-execute'], {
		valid: [
			{
				filename: 'Acme.node.ts',
				code: nodeSource(
					perItem(
						'if (this.continueOnFail()) { out.push({ json: { error: String(error) }, pairedItem: { item: i } }); continue; }',
					),
				),
			},
			// a class that is not a node
			{ filename: 'Other.ts', code: 'export class Other { async execute() { return 1; } }' },
		],
		invalid: [
			// execute() that only hands over to a router: the check must sit in execute() itself
			{
				filename: 'Acme.node.ts',
				code: nodeSource('return await router.call(this);'),
				errors: [{ messageId: 'missing' }],
			},
			// our node's shape: the plan and the result list before the item loop
			{
				filename: 'Acme.node.ts',
				code: nodeSource(perItem('')),
				errors: [{ messageId: 'missing' }],
			},
		],
	});

	tester.run('execute-errors-carry-item-index', rules['execute-errors-carry-item-index'], {
		valid: [
			{
				filename: 'Acme.node.ts',
				code: nodeSource(
					perItem(
						'',
						'throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });',
					),
				),
			},
			{
				filename: 'Acme.node.ts',
				code: nodeSource(
					perItem(
						'const itemIndex = i;',
						'throw new NodeApiError(this.getNode(), {}, { itemIndex });',
					),
				),
			},
			// outside any loop: nothing to pair the error with
			{
				filename: 'Acme.node.ts',
				code: nodeSource("throw new NodeOperationError(this.getNode(), 'no items');"),
			},
		],
		invalid: [
			{
				filename: 'Acme.node.ts',
				code: nodeSource(
					perItem('', 'throw new NodeOperationError(this.getNode(), error as Error);'),
				),
				errors: [{ messageId: 'missing', data: { name: 'NodeOperationError' } }],
			},
			{
				filename: 'Acme.node.ts',
				code: nodeSource(
					perItem('', 'throw new NodeApiError(this.getNode(), {}, { message: "x" });'),
				),
				errors: [{ messageId: 'missing', data: { name: 'NodeApiError' } }],
			},
			{
				// a nested loop inside the try block
				filename: 'Acme.node.ts',
				code: nodeSource(NESTED_LOOP_THROW),
				errors: [{ messageId: 'missing', data: { name: 'NodeApiError' } }],
			},
		],
	});

	const withCredentials = (credentials: string, properties = '[]') =>
		nodeSource(
			'return [[]];',
			`name: 'acme', credentials: ${credentials}, properties: ${properties}`,
		);
	tester.run('single-credential-per-node', rules['single-credential-per-node'], {
		valid: [
			{ filename: 'Acme.node.ts', code: withCredentials("[{ name: 'acmeApi', required: true }]") },
			{
				filename: 'Acme.node.ts',
				code: withCredentials(
					"[{ name: 'acmeApi', required: true, displayOptions: { show: { authentication: ['apiKey'] } } }, { name: 'acmeOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } }]",
				),
			},
			// a built list cannot be judged statically
			{ filename: 'Acme.node.ts', code: withCredentials('buildCredentials()') },
			// only .node.ts files
			{ filename: 'acme.ts', code: withCredentials("[{ name: 'acmeApi' }, { name: 'otherApi' }]") },
		],
		invalid: [
			{
				filename: 'Acme.node.ts',
				code: withCredentials(
					"[{ name: 'acmeApi', required: true }, { name: 'acmeSigningApi', required: true }]",
				),
				errors: [{ messageId: 'multiple' }],
			},
			{
				// overlapping values
				filename: 'Acme.node.ts',
				code: withCredentials(
					"[{ name: 'a', displayOptions: { show: { kind: ['x', 'y'] } } }, { name: 'b', displayOptions: { show: { kind: ['y'] } } }]",
				),
				errors: [{ messageId: 'multiple' }],
			},
			{
				// a multiOptions parameter can hold both values at once
				filename: 'Acme.node.ts',
				code: withCredentials(
					"[{ name: 'a', displayOptions: { show: { kinds: ['x'] } } }, { name: 'b', displayOptions: { show: { kinds: ['y'] } } }]",
					"[{ displayName: 'Kinds', name: 'kinds', type: 'multiOptions', default: [], options: [] }]",
				),
				errors: [{ messageId: 'multiple' }],
			},
		],
	});
});

describe('what eslint-plugin-n8n-nodes-base misses, which the house rules catch', () => {
	it('continue-on-fail-in-execute: n8n looks only at an execute() that is a single for loop', () => {
		const rule = 'node-execute-block-missing-continue-on-fail';
		// n8n's rule works: it catches its own template's shape
		const template = nodeSource(
			'for (let i = 0; i < 1; i++) { try { return [[]]; } catch (error) { throw error; } }',
		);
		expect(n8nReports(rule, template, 'nodes/Acme/Acme.node.ts')).toBe(1);
		// and misses ours (set-up before the loop), and a hand-over to a router
		expect(n8nReports(rule, nodeSource(perItem('')), 'nodes/Acme/Acme.node.ts')).toBe(0);
		expect(
			n8nReports(rule, nodeSource('return await router.call(this);'), 'nodes/Acme/Acme.node.ts'),
		).toBe(0);
	});

	it('execute-errors-carry-item-index: n8n looks only at throws in resource/operation branches', () => {
		const rule = 'node-execute-block-error-missing-item-index';
		const template = nodeSource(`
			const items = this.getInputData();
			const out: INodeExecutionData[] = [];
			const resource = this.getNodeParameter('resource', 0);
			const operation = this.getNodeParameter('operation', 0);
			for (let i = 0; i < items.length; i++) {
				try {
					if (resource === 'thing') { if (operation === 'get') { throw new NodeOperationError(this.getNode(), 'bad'); } }
				} catch (error) { if (this.continueOnFail()) { continue; } throw error; }
			}
			return [out];`);
		expect(n8nReports(rule, template, 'nodes/Acme/Acme.node.ts')).toBe(1);
		const inCatch = nodeSource(
			perItem('', 'throw new NodeOperationError(this.getNode(), error as Error);'),
		);
		expect(n8nReports(rule, inCatch, 'nodes/Acme/Acme.node.ts')).toBe(0);
		expect(n8nReports(rule, nodeSource(NESTED_LOOP_THROW), 'nodes/Acme/Acme.node.ts')).toBe(0);
	});

	it('single-credential-per-node: no rule of n8n-nodes-base reports a node with two credentials', () => {
		const code = nodeSource(
			'return [[]];',
			"name: 'acme', group: ['transform'], credentials: [{ name: 'acmeApi', required: true }, { name: 'acmeSigningApi', required: true }], properties: []",
		);
		const all = Object.fromEntries(
			Object.keys(n8nNodesBase.rules).map((name) => [`n8n-nodes-base/${name}`, 'error' as const]),
		);
		const reported = linter
			.verify(
				code,
				[
					{
						files: ['**/*.ts'],
						languageOptions: { parser: tseslint.parser as never },
						plugins: { 'n8n-nodes-base': n8nNodesBase as never },
						rules: all,
					},
				],
				'nodes/Acme/Acme.node.ts',
			)
			.map((message) => message.ruleId);
		expect(reported.filter((rule) => /credential/.test(String(rule)))).toEqual([]);
		expect(reported).not.toContain(null);
	});
});

describe('rules we dropped: eslint-plugin-n8n-nodes-base catches their cases', () => {
	const credential = (className: string, name: string) =>
		`import type { ICredentialType } from 'n8n-workflow';\nexport class ${className} implements ICredentialType { name = '${name}'; displayName = 'Acme'; properties = []; }`;
	const named = (name: string) =>
		nodeSource('return [[]];', `name: '${name}', group: ['transform'], properties: []`);

	it.each([
		// [n8n's rule, file, code] — each once our rule's invalid case
		['node-filename-against-convention', 'nodes/Acme/acme.node.ts', named('acme')],
		['node-filename-against-convention', 'nodes/Acme/AcmeCorp.node.ts', named('acme')],
		['node-class-description-name-miscased', 'nodes/Acme/Acme.node.ts', named('Acme')],
		['node-class-description-name-miscased', 'nodes/Acme/AcmeCorp.node.ts', named('acme-corp')],
		[
			'cred-class-name-unsuffixed',
			'credentials/Acme.credentials.ts',
			credential('Acme', 'acmeApi'),
		],
		[
			'cred-class-field-name-uppercase-first-char',
			'credentials/AcmeApi.credentials.ts',
			credential('AcmeApi', 'AcmeApi'),
		],
		[
			'cred-class-field-name-unsuffixed',
			'credentials/AcmeApi.credentials.ts',
			credential('AcmeApi', 'acme'),
		],
		[
			'cred-filename-against-convention',
			'credentials/Acme.credentials.ts',
			credential('AcmeApi', 'acmeApi'),
		],
	])('%s reports %s', (rule, filename, code) => {
		expect(n8nReports(rule, code, filename)).toBe(1);
	});

	it.each([
		['node-filename-against-convention', 'nodes/Acme/Acme.node.ts', named('acme')],
		['node-filename-against-convention', 'nodes/Acme/AcmeV2.node.ts', named('acme')],
		['node-class-description-name-miscased', 'nodes/Acme/AcmeCorp.node.ts', named('acmeCorp')],
		[
			'cred-class-name-unsuffixed',
			'credentials/AcmeApi.credentials.ts',
			credential('AcmeApi', 'acmeApi'),
		],
		[
			'cred-class-field-name-uppercase-first-char',
			'credentials/AcmeApi.credentials.ts',
			credential('AcmeApi', 'acmeApi'),
		],
		[
			'cred-class-field-name-unsuffixed',
			'credentials/AcmeApi.credentials.ts',
			credential('AcmeApi', 'acmeApi'),
		],
		[
			'cred-filename-against-convention',
			'credentials/AcmeApi.credentials.ts',
			credential('AcmeApi', 'acmeApi'),
		],
	])('%s accepts %s', (rule, filename, code) => {
		expect(n8nReports(rule, code, filename)).toBe(0);
	});
});
