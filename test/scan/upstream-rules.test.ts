import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

import { rules } from './upstream-rules';

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

/** A node class with the given execute() body and description fields. */
function nodeSource(
	execute: string,
	description = "name: 'acme', credentials: [{ name: 'acmeApi', required: true }], properties: []",
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

describe("our rules for what n8n's master adds to @n8n/eslint-plugin-community-nodes", () => {
	tester.run('require-continue-on-fail', rules['require-continue-on-fail'], {
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
			{
				filename: 'Acme.node.ts',
				code: nodeSource(perItem('')),
				errors: [{ messageId: 'missing' }],
			},
		],
	});

	tester.run('node-operation-error-itemindex', rules['node-operation-error-itemindex'], {
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
			// a built list cannot be judged statically (upstream skips it too)
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

	tester.run('node-filename-against-convention', rules['node-filename-against-convention'], {
		valid: [
			{ filename: 'nodes/Acme/Acme.node.ts', code: nodeSource('return [[]];') },
			{ filename: 'nodes/Acme/AcmeV2.node.ts', code: nodeSource('return [[]];') },
		],
		invalid: [
			{
				filename: 'nodes/Acme/acme.node.ts',
				code: nodeSource('return [[]];'),
				errors: [{ messageId: 'rename', data: { expected: 'Acme.node.ts' } }],
			},
			{
				filename: 'nodes/Acme/AcmeCorp.node.ts',
				code: nodeSource('return [[]];'),
				errors: [{ messageId: 'rename' }],
			},
		],
	});

	tester.run(
		'node-class-description-name-camelcase',
		rules['node-class-description-name-camelcase'],
		{
			valid: [
				{
					filename: 'Acme.node.ts',
					code: nodeSource('return [[]];', "name: 'acmeCorp', properties: []"),
				},
			],
			invalid: [
				{
					filename: 'Acme.node.ts',
					code: nodeSource('return [[]];', "name: 'Acme', properties: []"),
					errors: [{ messageId: 'camel' }],
				},
				{
					filename: 'Acme.node.ts',
					code: nodeSource('return [[]];', "name: 'acme-corp', properties: []"),
					errors: [{ messageId: 'camel' }],
				},
			],
		},
	);

	const credential = (className: string, name: string) =>
		`import type { ICredentialType } from 'n8n-workflow';\nexport class ${className} implements ICredentialType { name = '${name}'; displayName = 'Acme'; properties = []; }`;
	tester.run('cred-class-name-suffix', rules['cred-class-name-suffix'], {
		valid: [{ filename: 'AcmeApi.credentials.ts', code: credential('AcmeApi', 'acmeApi') }],
		invalid: [
			{
				filename: 'Acme.credentials.ts',
				code: credential('Acme', 'acmeApi'),
				errors: [{ messageId: 'bad' }],
			},
		],
	});
	tester.run('cred-class-name-field-conventions', rules['cred-class-name-field-conventions'], {
		valid: [{ filename: 'AcmeApi.credentials.ts', code: credential('AcmeApi', 'acmeApi') }],
		invalid: [
			{
				filename: 'AcmeApi.credentials.ts',
				code: credential('AcmeApi', 'AcmeApi'),
				errors: [{ messageId: 'bad' }],
			},
			{
				filename: 'AcmeApi.credentials.ts',
				code: credential('AcmeApi', 'acme'),
				errors: [{ messageId: 'bad' }],
			},
		],
	});
	tester.run('cred-filename-against-convention', rules['cred-filename-against-convention'], {
		valid: [
			{ filename: 'credentials/AcmeApi.credentials.ts', code: credential('AcmeApi', 'acmeApi') },
		],
		invalid: [
			{
				filename: 'credentials/Acme.credentials.ts',
				code: credential('AcmeApi', 'acmeApi'),
				errors: [{ messageId: 'bad' }],
			},
		],
	});
});
