import { NodeHelpers, type INode, type INodeTypeDescription } from 'n8n-workflow';

import { PaymentsService } from '../../../nodes/PaymentsService/PaymentsService.node';
import { RESOURCES } from '../../../nodes/PaymentsService/actions/registry';
import { TOOL_DESCRIPTIONS } from '../../../nodes/PaymentsService/actions/toolDescriptions';

const action = new PaymentsService().description;
/** The tool variant as n8n derives it: the same description under a name ending in "Tool". */
const tool: INodeTypeDescription = {
	...action,
	name: `${action.name}Tool`,
	displayName: `${action.displayName} Tool`,
};
const node = { typeVersion: 1, parameters: {} } as unknown as INode;

/** The parameter values n8n fills in for a node of `type` with `parameters` (defaults included). */
function values(type: INodeTypeDescription, parameters: Record<string, string>) {
	return NodeHelpers.getNodeParameters(type.properties, parameters, true, false, node, type)!;
}

const operations = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => [resource.value, operation.value]),
);

describe('what an AI agent is told about each operation', () => {
	test('every operation has a tool description, and no description names an operation that does not exist', () => {
		expect(Object.keys(TOOL_DESCRIPTIONS).sort()).toEqual(
			operations.map(([resource, operation]) => `${resource}.${operation}`).sort(),
		);
	});

	test.each(operations)(
		'%s %s: the tool variant describes it by its own text; the action node shows no tool description',
		(resource, operation) => {
			expect(values(tool, { resource, operation }).toolDescription).toBe(
				TOOL_DESCRIPTIONS[`${resource}.${operation}`],
			);
			expect(values(action, { resource, operation })).not.toHaveProperty('toolDescription');
		},
	);

	test('a tool description the workflow builder typed is kept', () => {
		expect(
			values(tool, {
				resource: 'deposit',
				operation: 'getMany',
				toolDescription: 'Yesterday’s deposits',
			}).toolDescription,
		).toBe('Yesterday’s deposits');
	});

	test('money-moving operations say so first', () => {
		for (const key of ['cashout.create', 'deposit.create', 'refund.create'])
			expect(TOOL_DESCRIPTIONS[key]).toMatch(/^(Sends money|Charges a customer|Returns money)/);
	});
});
