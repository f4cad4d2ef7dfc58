// Lint with the rules n8n's community-package scanner (@n8n/scan-community-package, its
// buildScanConfig) and `n8n-node lint` apply to nodes/, credentials/ and package.json:
// - all of eslint-plugin-n8n-nodes-base: its community (package.json), credentials and nodes
//   rulesets, which together hold every rule of the plugin, with the scanner's five switched off;
// - @n8n/eslint-plugin-community-nodes' recommended config, and no-console;
// - our house rules, for what those miss (test/scan/house-rules.ts, each with its reason).
// `npm run lint:rules` (test/scan/scanner-rules.mjs) checks that every rule the scanner reports as an
// error is an error here too, on every file it lints. eslint loads this TypeScript config through jiti.
import eslint from '@eslint/js';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

import { houseRules } from './test/scan/house-rules';

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
	// The scanner also lints the JSON under nodes/ and credentials/ (the codex files).
	{
		files: ['credentials/**/*.json', 'nodes/**/*.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.{ts,json}', 'nodes/**/*.{ts,json}', 'package.json'],
		...communityNodes.configs.recommended,
	},
	{
		files: ['credentials/**/*.{ts,json}', 'nodes/**/*.{ts,json}', 'package.json'],
		rules: { 'no-console': 'error' },
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		...houseRules,
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
		files: ['credentials/**/*.{ts,json}', 'nodes/**/*.{ts,json}', 'package.json'],
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' },
	},
);
