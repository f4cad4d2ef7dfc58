/**
 * House rules: three ESLint checks of our own for what `eslint-plugin-n8n-nodes-base` misses. n8n's
 * community-package scanner and `n8n-node lint` run that plugin's three rulesets (all 132 rules,
 * save five switched off for community nodes, which eslint.config.ts switches off too), so we keep
 * a rule here only when it catches a case that plugin provably does not. Each rule says below what
 * it catches, why, and what n8n's rule misses; the tests (house-rules.test.ts) run n8n's rule on the
 * same code to show the gap, so a test fails when n8n's rule closes it and ours can go.
 *
 * Five rules we once kept here are gone: n8n's plugin catches their cases (the tests show it):
 * node-filename-against-convention, node-class-description-name-miscased (camelCase names),
 * cred-class-name-unsuffixed, cred-class-field-name-unsuffixed with
 * cred-class-field-name-uppercase-first-char, and cred-filename-against-convention.
 */
import type { Rule } from 'eslint';

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

/**
 * `continue-on-fail-in-execute`: the `execute()` of a node class calls `this.continueOnFail()`.
 *
 * Why: with Settings → On Error → Continue, n8n expects a failed item to become an error item and
 * the next item to run; a node that never asks `this.continueOnFail()` stops the workflow at the
 * first bad item whatever the user chose. Our node asks it once, in execute()'s item loop
 * (PaymentsService.node.ts), so that is where the call must stay.
 *
 * What n8n-nodes-base misses: its node-execute-block-missing-continue-on-fail looks only at an
 * execute() whose whole body is one `for` loop. Ours starts with the run plan and ends with a
 * return, so n8n's rule never looks at it, nor at an execute() that hands over to a router.
 */
const continueOnFailInExecute: Rule.RuleModule = {
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

/**
 * `execute-errors-carry-item-index`: a `new NodeOperationError(...)` or `new NodeApiError(...)`
 * written inside a loop of a node class's `execute()` passes an options object with `itemIndex`.
 *
 * Why: n8n names the failed item, and pairs an error with its input item, from the error's
 * `itemIndex`; an error built in the item loop without it cannot say which item failed.
 *
 * What n8n-nodes-base misses: its node-execute-block-error-missing-item-index looks only at `throw`
 * statements in the `if (resource === …) { if (operation === …) { … } }` branches of the try block
 * of execute()'s item loop (n8n's own node template). A throw in the catch block, in a nested loop,
 * or in a loop without those branches (ours dispatches through the run plan) is never looked at.
 * Ours also accepts further options beside `itemIndex` (such as `description`), which n8n's rule
 * reports.
 */
const executeErrorsCarryItemIndex: Rule.RuleModule = {
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

/**
 * `single-credential-per-node`: a `.node.ts` file's `description.credentials`, when it is an array
 * literal of two or more, lists only credentials shown by mutually exclusive `displayOptions.show`
 * values of one single-value parameter (a multiOptions parameter can hold both values at once).
 *
 * Why: n8n asks the user for every credential whose display conditions hold, so two that can show
 * together make one node need two credentials. Version 2 of the Notification Trigger was made to
 * take one kind and one credential per node (version 1 needed both); this keeps it so. A list built
 * by a function (the action node's, from actions/registry.ts) cannot be judged here and is skipped.
 *
 * What n8n-nodes-base misses: it has no rule on how many credentials a node lists. The rule of this
 * name for @n8n/eslint-plugin-community-nodes is only a proposal; ours is written from it.
 */
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

/** The house rules, by name. */
export const rules: Record<string, Rule.RuleModule> = {
	'continue-on-fail-in-execute': continueOnFailInExecute,
	'execute-errors-carry-item-index': executeErrorsCarryItemIndex,
	'single-credential-per-node': singleCredentialPerNode,
};

/** The ESLint plugin `house`, and the flat config that enables all its rules as errors. */
export const housePlugin = { meta: { name: 'house' }, rules };
export const houseRules = {
	plugins: { house: housePlugin },
	rules: Object.fromEntries(Object.keys(rules).map((name) => [`house/${name}`, 'error' as const])),
};
