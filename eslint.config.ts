// Lint with the rules n8n applies to community packages:
// - eslint-plugin-n8n-nodes-base (community package.json, credential and node rules),
// - @n8n/eslint-plugin-community-nodes (the rules of n8n's community-package scanner),
// - our own rules for what n8n's master adds to that plugin's recommended config and no published
//   version carries yet (test/scan/upstream-rules.ts; eslint loads this TypeScript config through jiti).
import eslint from '@eslint/js';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

import { upstreamRecommended } from './test/scan/upstream-rules';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'gulpfile.js', 'jest.config.js'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'prefer-spread': 'off' },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{
		files: ['package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		rules: {
			...n8nNodesBase.configs.community.rules,
			'@typescript-eslint/no-unused-expressions': 'off',
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Off in n8n's scanner too: not valid for community nodes, and the community rule
			// credential-password-field judges password masking more accurately.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'],
		...communityNodes.configs.recommended,
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		...upstreamRecommended,
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			// A warning that judges by the field name: apiSignature, pass and readOnlyKey hold secrets
			// (signing secrets, the cashout passphrase, an API key), so they stay masked.
			'@n8n/community-nodes/credential-unnecessary-password': 'off',
		},
	},
	// n8n's scanner ignores inline eslint-disable comments; so does this lint, where the scanner looks.
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'],
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' },
	},
);
