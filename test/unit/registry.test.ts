import { NodeHelpers, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';

import { PaymentsService } from '../../nodes/PaymentsService/PaymentsService.node';
import { RESOURCES } from '../../nodes/PaymentsService/actions/registry';
import { CREDENTIAL_TYPES } from '../../nodes/PaymentsService/transport/client';

const description = new PaymentsService().description;
const everyOperation = RESOURCES.flatMap((resource) => resource.operations.map((operation) => ({ resource, operation })));

/** The credentials n8n shows for a resource and operation, decided by n8n's own display logic. */
function credentialsShown(resource: string, operation: string): string[] {
	return (description.credentials ?? [])
		.filter((credential) => NodeHelpers.displayParameter({ resource, operation }, credential, { typeVersion: 1 }, description))
		.map((credential) => credential.name);
}

/** The parameters n8n shows for a resource and operation (top level). */
function parametersShown(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter({ resource, operation }, property, { typeVersion: 1 }, description),
	);
}

describe('the operation registry builds the node description', () => {
	test.each(everyOperation.map(({ resource, operation }) => [resource.value, operation.value, operation.credential]))(
		'%s → %s shows exactly the credential it uses (%s)',
		(resource, operation, credential) => {
			expect(credentialsShown(resource, operation)).toEqual([CREDENTIAL_TYPES[credential as keyof typeof CREDENTIAL_TYPES]]);
		},
	);

	test('the check would catch an operation showing another credential', () => {
		// A credential whose lists pair a resource with another resource's operation.
		const leaky = { name: 'paymentsServiceCashoutApi', displayOptions: { show: { resource: ['cashout', 'deposit'], operation: ['getStatus'] } } };
		expect(NodeHelpers.displayParameter({ resource: 'deposit', operation: 'getStatus' }, leaky, { typeVersion: 1 }, description)).toBe(true);
	});

	test('every resource and operation of the registry is selectable, with its action text, in alphabetical order', () => {
		const resourceProperty = description.properties.find((property) => property.name === 'resource')!;
		const resources = (resourceProperty.options as INodePropertyOptions[]).map((option) => option.name);
		expect(resources).toEqual([...resources].sort((a, b) => a.localeCompare(b)));
		expect(resources).toHaveLength(RESOURCES.length);
		for (const resource of RESOURCES) {
			const operationProperty = description.properties.find(
				(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === resource.value,
			)!;
			const options = operationProperty.options as INodePropertyOptions[];
			expect(options.map((option) => option.name)).toEqual(options.map((option) => option.name).sort((a, b) => a.localeCompare(b)));
			expect(options.map((option) => [option.value, option.action])).toEqual(
				[...resource.operations].sort((a, b) => a.name.localeCompare(b.name)).map((operation) => [operation.value, operation.action]),
			);
			expect(operationProperty.default).toBe(resource.defaultOperation);
		}
	});

	test('each operation shows its own parameters and none of another operation', () => {
		for (const { resource, operation } of everyOperation) {
			const shown = new Set(parametersShown(resource.value, operation.value).map((property) => property.name));
			const own = operation.module.properties;
			// Parameters without conditions of their own (e.g. Limit depends on Return All) always show.
			for (const property of own.filter((candidate) => !candidate.displayOptions)) {
				expect([operation.value, property.name, shown.has(property.name)]).toEqual([operation.value, property.name, true]);
			}
			const allowed = new Set(['resource', 'operation', ...own.map((property) => property.name), ...(operation.reads ? ['options'] : [])]);
			expect([resource.value, operation.value, [...shown].filter((name) => !allowed.has(name))]).toEqual([resource.value, operation.value, []]);
		}
	});

	test('reads offer the option to turn automatic retries off; money-moving operations do not', () => {
		for (const { resource, operation } of everyOperation) {
			const options = parametersShown(resource.value, operation.value).filter((property) => property.name === 'options');
			const retry = options.flatMap((property) => (property.options ?? []) as INodeProperties[]).some((option) => option.name === 'retryReads');
			expect([resource.value, operation.value, retry]).toEqual([resource.value, operation.value, operation.reads]);
		}
	});
});
