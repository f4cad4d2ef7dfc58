/**
 * Our own ESLint rules for the checks n8n's master adds to `@n8n/eslint-plugin-community-nodes`'s
 * `recommended` config that no published version of the plugin carries yet (the newest on the
 * registry, 0.32.0, lacks them). Each rule is written from the upstream rule's documented
 * behaviour, under the upstream rule's name, so that `npm run lint` fails today where n8n's
 * scanner will fail tomorrow. When a published plugin carries a rule, drop ours and enable theirs.
 *
 * - require-continue-on-fail: a node class's `execute()` itself calls `this.continueOnFail()`.
 * - node-operation-error-itemindex: `new NodeOperationError(...)` / `new NodeApiError(...)` inside a
 *   loop of `execute()` passes an options object with `itemIndex` (upstream limits this to loops over
 *   `this.getInputData()`; ours takes every loop in `execute()`, which is stricter).
 * - single-credential-per-node: a `.node.ts` file's `description.credentials`, when an array
 *   literal of two or more, holds only credentials shown by mutually exclusive
 *   `displayOptions.show` values of one single-value parameter.
 * - node-filename-against-convention: `Foo.node.ts` (or `FooV2.node.ts`) holds the node whose
 *   `description.name` is `foo`.
 * - node-class-description-name-camelcase: `description.name` is camelCase.
 * - cred-class-name-suffix: a credential class name ends with `Api`.
 * - cred-class-name-field-conventions: a credential's `name` starts lowercase and ends with `Api`.
 * - cred-filename-against-convention: `FooApi.credentials.ts` holds the class `FooApi`.
 */
import type { Rule } from 'eslint';
import path from 'path';

/** Any AST node, as ESLint hands it over (ESTree plus typescript-eslint's TS nodes). */
type AnyNode = { type: string; [key: string]: unknown };
type ClassNode = AnyNode & {
	id: { name: string } | null;
	body: { body: AnyNode[] };
	implements?: AnyNode[];
};

const SKIP = new Set(['parent', 'loc', 'range', 'tokens', 'comments']);

/** The direct child nodes of an AST node. */
function children(node: AnyNode): AnyNode[] {
	const out: AnyNode[] = [];
	for (const [key, value] of Object.entries(node)) {
		if (SKIP.has(key)) continue;
		if (Array.isArray(value)) {
			for (const child of value)
				if (child && typeof child === 'object' && 'type' in child) out.push(child as AnyNode);
		} else if (value && typeof value === 'object' && 'type' in value) {
			out.push(value as AnyNode);
		}
	}
	return out;
}

/** Visits `node` and its descendants depth first, with the chain of loops each sits in. */
function walk(
	node: AnyNode,
	visit: (node: AnyNode, inLoop: boolean) => void,
	inLoop = false,
): void {
	visit(node, inLoop);
	const loop = /^(For|ForIn|ForOf|While|DoWhile)Statement$/.test(node.type);
	const fn = /Function/.test(node.type);
	for (const child of children(node)) walk(child, visit, fn ? false : inLoop || loop);
}

/** True when the class says `implements <name>` (e.g. INodeType, ICredentialType). */
function implementsInterface(node: ClassNode, name: string): boolean {
	return (node.implements ?? []).some((clause) => {
		const expression = clause.expression as AnyNode | undefined;
		return expression?.type === 'Identifier' && expression.name === name;
	});
}

function keyName(property: AnyNode): string | undefined {
	const key = property.key as AnyNode | undefined;
	if (!key) return undefined;
	if (key.type === 'Identifier') return key.name as string;
	if (key.type === 'Literal' && typeof key.value === 'string') return key.value;
	return undefined;
}

/** The class member (property or method) named `name`. */
function classMember(node: ClassNode, name: string): AnyNode | undefined {
	return node.body.body.find((member) => keyName(member) === name);
}

/** The property `name` of an object literal. */
function objectProperty(object: AnyNode | undefined, name: string): AnyNode | undefined {
	if (object?.type !== 'ObjectExpression') return undefined;
	return (object.properties as AnyNode[]).find(
		(property) => property.type === 'Property' && keyName(property) === name,
	);
}

function stringValue(node: AnyNode | undefined): string | undefined {
	if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
	if (node?.type === 'TemplateLiteral' && (node.expressions as AnyNode[]).length === 0) {
		return ((node.quasis as AnyNode[])[0].value as { cooked: string }).cooked;
	}
	return undefined;
}

/** The object literal assigned to `description` in a node class, if it is one. */
function nodeDescription(node: ClassNode): AnyNode | undefined {
	let value = classMember(node, 'description')?.value as AnyNode | undefined;
	while (value?.type === 'TSAsExpression' || value?.type === 'TSSatisfiesExpression')
		value = value.expression as AnyNode;
	return value?.type === 'ObjectExpression' ? value : undefined;
}

const isNodeFile = (filename: string) => filename.endsWith('.node.ts');
const isCredentialFile = (filename: string) => filename.endsWith('.credentials.ts');

const requireContinueOnFail: Rule.RuleModule = {
	meta: {
		type: 'problem',
		docs: { description: 'execute() of a node class calls this.continueOnFail()' },
		messages: {
			missing:
				'execute() must handle this.continueOnFail() itself: wrap item processing in try/catch and check this.continueOnFail() in the catch block.',
		},
		schema: [],
	},
	create(context) {
		return {
			ClassDeclaration(estree) {
				const node = estree as unknown as ClassNode;
				if (!implementsInterface(node, 'INodeType')) return;
				const execute = classMember(node, 'execute');
				if (execute?.type !== 'MethodDefinition') return;
				let found = false;
				walk(execute.value as AnyNode, (child) => {
					const callee = child.callee as AnyNode | undefined;
					if (
						child.type === 'CallExpression' &&
						callee?.type === 'MemberExpression' &&
						(callee.object as AnyNode).type === 'ThisExpression' &&
						(callee.property as AnyNode).name === 'continueOnFail'
					) {
						found = true;
					}
				});
				if (!found) context.report({ node: execute.key as never, messageId: 'missing' });
			},
		};
	},
};

const nodeOperationErrorItemIndex: Rule.RuleModule = {
	meta: {
		type: 'problem',
		docs: {
			description:
				'NodeOperationError / NodeApiError thrown in an item loop of execute() carry { itemIndex }',
		},
		messages: {
			missing:
				'`new {{name}}(...)` inside a loop of execute() must pass `{ itemIndex }` as its third argument.',
		},
		schema: [],
	},
	create(context) {
		return {
			ClassDeclaration(estree) {
				const node = estree as unknown as ClassNode;
				if (!implementsInterface(node, 'INodeType')) return;
				const execute = classMember(node, 'execute');
				if (execute?.type !== 'MethodDefinition') return;
				const body = (execute.value as AnyNode).body as AnyNode;
				for (const statement of children(body)) {
					walk(statement, (child, inLoop) => {
						const callee = child.callee as AnyNode | undefined;
						if (child.type !== 'NewExpression' || callee?.type !== 'Identifier') return;
						const name = callee.name as string;
						if (name !== 'NodeOperationError' && name !== 'NodeApiError') return;
						if (!inLoop) return;
						const options = (child.arguments as AnyNode[])[2];
						if (!objectProperty(options, 'itemIndex'))
							context.report({ node: child as never, messageId: 'missing', data: { name } });
					});
				}
			},
		};
	},
};

/** The values a credential's displayOptions.show gives each parameter, or undefined when not literal. */
function showConditions(credential: AnyNode): Map<string, string[] | undefined> {
	const conditions = new Map<string, string[] | undefined>();
	const show = objectProperty(
		objectProperty(credential, 'displayOptions')?.value as AnyNode,
		'show',
	);
	const value = show?.value as AnyNode | undefined;
	if (value?.type !== 'ObjectExpression') return conditions;
	for (const property of value.properties as AnyNode[]) {
		const name = property.type === 'Property' ? keyName(property) : undefined;
		const list = property.value as AnyNode | undefined;
		if (!name || list?.type !== 'ArrayExpression') continue;
		const values = (list.elements as AnyNode[]).map((element) =>
			element?.type === 'Literal' && element.value !== null
				? `${typeof element.value}:${String(element.value)}`
				: undefined,
		);
		conditions.set(
			name,
			values.every((entry) => entry !== undefined) ? (values as string[]) : undefined,
		);
	}
	return conditions;
}

const singleCredentialPerNode: Rule.RuleModule = {
	meta: {
		type: 'problem',
		docs: { description: 'A node uses one credential at a time' },
		messages: {
			multiple:
				'A node can use only one credential at a time. Show alternative credentials by mutually exclusive displayOptions.show values of one parameter; move settings that do not authenticate to node parameters.',
		},
		schema: [],
	},
	create(context) {
		if (!isNodeFile(context.filename)) return {};
		return {
			ClassDeclaration(estree) {
				const node = estree as unknown as ClassNode;
				if (!implementsInterface(node, 'INodeType')) return;
				const description = nodeDescription(node);
				const credentials = objectProperty(description, 'credentials')?.value as
					AnyNode | undefined;
				if (credentials?.type !== 'ArrayExpression') return;
				const elements = credentials.elements as AnyNode[];
				if (elements.length < 2) return;
				const multiOptions = new Set<string>();
				const properties = objectProperty(description, 'properties')?.value as AnyNode | undefined;
				for (const property of properties?.type === 'ArrayExpression'
					? (properties.elements as AnyNode[])
					: []) {
					if (stringValue(objectProperty(property, 'type')?.value as AnyNode) === 'multiOptions') {
						const name = stringValue(objectProperty(property, 'name')?.value as AnyNode);
						if (name) multiOptions.add(name);
					}
				}
				const exclusive = (left: AnyNode, right: AnyNode) => {
					const a = showConditions(left);
					const b = showConditions(right);
					for (const [name, values] of a) {
						const others = b.get(name);
						if (multiOptions.has(name) || !values || !others) continue;
						if (values.every((value) => !others.includes(value))) return true;
					}
					return false;
				};
				for (let i = 0; i < elements.length; i++) {
					for (let j = i + 1; j < elements.length; j++) {
						if (!exclusive(elements[i], elements[j])) {
							context.report({ node: credentials as never, messageId: 'multiple' });
							return;
						}
					}
				}
			},
		};
	},
};

const nodeFilenameAgainstConvention: Rule.RuleModule = {
	meta: {
		type: 'problem',
		docs: { description: 'A node file is named after description.name' },
		messages: {
			rename: 'Node filename must match description.name: rename the file to "{{expected}}".',
		},
		schema: [],
	},
	create(context) {
		if (!isNodeFile(context.filename)) return {};
		return {
			ClassDeclaration(estree) {
				const node = estree as unknown as ClassNode;
				if (!implementsInterface(node, 'INodeType')) return;
				const name = stringValue(objectProperty(nodeDescription(node), 'name')?.value as AnyNode);
				if (!name) return;
				const expected = name.charAt(0).toUpperCase() + name.slice(1);
				const actual = path.basename(context.filename, '.node.ts').replace(/V\d+$/, '');
				if (actual !== expected)
					context.report({
						node: node.id as never,
						messageId: 'rename',
						data: { expected: `${expected}.node.ts` },
					});
			},
		};
	},
};

const nodeClassDescriptionNameCamelcase: Rule.RuleModule = {
	meta: {
		type: 'problem',
		docs: { description: 'description.name of a node is camelCase' },
		messages: {
			camel:
				'Node description.name "{{name}}" must be camelCase (a lowercase letter, then letters and digits).',
		},
		schema: [],
	},
	create(context) {
		return {
			ClassDeclaration(estree) {
				const node = estree as unknown as ClassNode;
				if (!implementsInterface(node, 'INodeType')) return;
				const property = objectProperty(nodeDescription(node), 'name');
				const name = stringValue(property?.value as AnyNode);
				if (name !== undefined && !/^[a-z][a-zA-Z0-9]*$/.test(name))
					context.report({ node: property as never, messageId: 'camel', data: { name } });
			},
		};
	},
};

/** Runs `check` on every class in a `.credentials.ts` file that implements ICredentialType. */
function credentialRule(
	description: string,
	message: string,
	check: (node: ClassNode, filename: string) => AnyNode | undefined,
): Rule.RuleModule {
	return {
		meta: { type: 'problem', docs: { description }, messages: { bad: message }, schema: [] },
		create(context) {
			if (!isCredentialFile(context.filename)) return {};
			return {
				ClassDeclaration(estree) {
					const node = estree as unknown as ClassNode;
					if (!implementsInterface(node, 'ICredentialType')) return;
					const culprit = check(node, context.filename);
					if (culprit) context.report({ node: culprit as never, messageId: 'bad' });
				},
			};
		},
	};
}

const credClassNameSuffix = credentialRule(
	'A credential class name ends with Api',
	'Credential class names must end with "Api".',
	(node) =>
		node.id && !node.id.name.endsWith('Api') ? (node.id as unknown as AnyNode) : undefined,
);

const credClassNameFieldConventions = credentialRule(
	'A credential name starts lowercase and ends with Api',
	'A credential\'s name must start with a lowercase letter and end with "Api".',
	(node) => {
		const member = classMember(node, 'name');
		const name = stringValue(member?.value as AnyNode);
		return name !== undefined && (/^[A-Z]/.test(name) || !name.endsWith('Api'))
			? member
			: undefined;
	},
);

const credFilenameAgainstConvention = credentialRule(
	'A credential file is named after its class',
	'Credential filename must match the class name: name the file <ClassName>.credentials.ts.',
	(node, filename) =>
		node.id && path.basename(filename, '.credentials.ts') !== node.id.name
			? (node.id as unknown as AnyNode)
			: undefined,
);

/** The rules, under the names n8n's plugin gives them upstream. */
export const rules: Record<string, Rule.RuleModule> = {
	'require-continue-on-fail': requireContinueOnFail,
	'node-operation-error-itemindex': nodeOperationErrorItemIndex,
	'single-credential-per-node': singleCredentialPerNode,
	'node-filename-against-convention': nodeFilenameAgainstConvention,
	'node-class-description-name-camelcase': nodeClassDescriptionNameCamelcase,
	'cred-class-name-suffix': credClassNameSuffix,
	'cred-class-name-field-conventions': credClassNameFieldConventions,
	'cred-filename-against-convention': credFilenameAgainstConvention,
};

/** An ESLint plugin holding the rules, and the flat config that enables them all as errors. */
export const upstreamRulesPlugin = { meta: { name: 'upstream-community-nodes' }, rules };
export const upstreamRecommended = {
	plugins: { 'upstream-community-nodes': upstreamRulesPlugin },
	rules: Object.fromEntries(
		Object.keys(rules).map((name) => [`upstream-community-nodes/${name}`, 'error' as const]),
	),
};
