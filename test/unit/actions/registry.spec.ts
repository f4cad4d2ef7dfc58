import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { credentialsShown as shown } from '../../harness/credentialsShown';
import { PaymentsService } from '../../../nodes/PaymentsService/PaymentsService.node';
import {
	RESOURCES,
	type OperationDefinition,
} from '../../../nodes/PaymentsService/actions/registry';
import { LIST_SEARCH_METHODS } from '../../../nodes/PaymentsService/reference/pickers';
import { CREDENTIAL_TYPES } from '../../../nodes/PaymentsService/transport/client';

const description = new PaymentsService().description;
const everyOperation = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({ resource, operation })),
);

/**
 * The credentials n8n shows for a resource and operation, decided by n8n's own display logic on
 * the parameters n8n fills in for it (defaults included, as the engine and the editor do).
 */
function credentialsShown(
	resource: string,
	operation: string,
	parameters: INodeParameters = {},
): string[] {
	return shown(description, { resource, operation, ...parameters }).sort();
}

/**
 * The credentials an operation may use besides the one it runs with: its pickers', a creation's
 * look-ups' (every `keyed` operation: the Session credential) and Summarize's rates'.
 */
const optionalOf = (operation: OperationDefinition) =>
	[
		operation.pickerCredential,
		operation.run.repeat === 'keyed' ? ('session' as const) : undefined,
		operation.rateCredential,
	].filter((kind) => kind !== undefined);

/**
 * The credentials an operation uses with its default parameters: the one it runs with, the one its
 * pickers read with, the one a creation looks records up with (and, with `converting`, the one
 * Summarize reads exchange rates with when Convert Totals To is set).
 */
function credentialsOf(operation: OperationDefinition, converting = false): string[] {
	return [
		operation.run.credential,
		...optionalOf(operation).filter((kind) => converting || kind !== operation.rateCredential),
	]
		.map((kind) => CREDENTIAL_TYPES[kind])
		.sort();
}

/** Credentials some operation uses optionally: n8n keeps one entry per type, so they are optional everywhere. */
const optionalCredentials = new Set<string>(
	everyOperation.flatMap(({ operation }) =>
		optionalOf(operation).map((kind) => CREDENTIAL_TYPES[kind]),
	),
);

/** The parameters n8n shows for a resource and operation (top level). */
function parametersShown(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(
			{ resource, operation },
			property,
			{ typeVersion: 1 },
			description,
		),
	);
}

describe('the operation registry builds the node description', () => {
	test.each(
		everyOperation.map(({ resource, operation }) => [
			resource.value,
			operation.value,
			credentialsOf(operation).join(' + '),
		]),
	)('%s → %s shows exactly the credentials it uses (%s)', (resource, operation) => {
		const definition = everyOperation.find(
			(entry) => entry.resource.value === resource && entry.operation.value === operation,
		)!.operation;
		expect(credentialsShown(resource, operation)).toEqual(credentialsOf(definition));
	});

	const summaries = everyOperation.filter(({ operation }) => operation.value === 'summarize');

	test.each(summaries.map(({ resource }) => [resource.value]))(
		'%s → Summarize with Convert Totals To set also shows the Read-Only API credential, which reads the rates',
		(resource) => {
			const definition = summaries.find((entry) => entry.resource.value === resource)!.operation;
			expect(definition.rateCredential).toBe('readOnly');
			expect(credentialsShown(resource, 'summarize', { convertTo: 'USD' })).toEqual(
				credentialsOf(definition, true),
			);
			expect(credentialsShown(resource, 'summarize', { convertTo: '' })).toEqual([
				CREDENTIAL_TYPES.session,
			]);
		},
	);

	test('the credential an operation runs with is required, unless some operation also uses it optionally (pickers, look-ups)', () => {
		expect([...optionalCredentials].sort()).toEqual(
			[CREDENTIAL_TYPES.readOnly, CREDENTIAL_TYPES.session].sort(),
		);
		for (const credential of description.credentials ?? []) {
			expect([credential.name, credential.required]).toEqual([
				credential.name,
				!optionalCredentials.has(credential.name),
			]);
		}
	});

	test('Deposit Create and Cashout Create offer the read-only key for their pickers and the session for look-ups; Deposit Get Many offers neither extra, whatever its period', () => {
		expect(credentialsShown('deposit', 'create')).toEqual(
			[CREDENTIAL_TYPES.deposit, CREDENTIAL_TYPES.readOnly, CREDENTIAL_TYPES.session].sort(),
		);
		expect(credentialsShown('refund', 'create')).toEqual(
			[CREDENTIAL_TYPES.deposit, CREDENTIAL_TYPES.session].sort(),
		);
		for (const period of ['today', 'last90Days', 'custom']) {
			expect(credentialsShown('deposit', 'getMany', { period })).toEqual([
				CREDENTIAL_TYPES.session,
			]);
			expect(credentialsShown('cashout', 'getMany', { period })).toEqual([
				CREDENTIAL_TYPES.session,
			]);
		}
	});

	test('every picker of the node has its list method', () => {
		expect(Object.keys(new PaymentsService().methods.listSearch).sort()).toEqual(
			Object.values(LIST_SEARCH_METHODS).sort(),
		);
	});

	test('every resource and operation of the registry is selectable, with its action text, in alphabetical order', () => {
		const resourceProperty = description.properties.find(
			(property) => property.name === 'resource',
		)!;
		const resources = (resourceProperty.options as INodePropertyOptions[]).map(
			(option) => option.name,
		);
		expect(resources).toEqual([...resources].sort((a, b) => a.localeCompare(b)));
		expect(resources).toHaveLength(RESOURCES.length);
		for (const resource of RESOURCES) {
			const operationProperty = description.properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.[0] === resource.value,
			)!;
			const options = operationProperty.options as INodePropertyOptions[];
			expect(options.map((option) => option.name)).toEqual(
				options.map((option) => option.name).sort((a, b) => a.localeCompare(b)),
			);
			expect(options.map((option) => [option.value, option.action])).toEqual(
				[...resource.operations]
					.sort((a, b) => a.name.localeCompare(b.name))
					.map((operation) => [operation.value, operation.action]),
			);
			expect(operationProperty.default).toBe(resource.defaultOperation);
		}
	});

	test('each operation shows its own parameters and none of another operation', () => {
		for (const { resource, operation } of everyOperation) {
			const shown = new Set(
				parametersShown(resource.value, operation.value).map((property) => property.name),
			);
			const own = operation.module.properties;
			// Parameters without conditions of their own (e.g. Limit depends on Return All) always show.
			for (const property of own.filter((candidate) => !candidate.displayOptions)) {
				expect([operation.value, property.name, shown.has(property.name)]).toEqual([
					operation.value,
					property.name,
					true,
				]);
			}
			const allowed = new Set([
				'resource',
				'operation',
				...own.map((property) => property.name),
				...(operation.run.repeat === 'safe' ? ['options'] : []),
			]);
			expect([
				resource.value,
				operation.value,
				[...shown].filter((name) => !allowed.has(name)),
			]).toEqual([resource.value, operation.value, []]);
		}
	});

	test('reads offer the option to turn automatic retries off; money-moving operations do not', () => {
		for (const { resource, operation } of everyOperation) {
			const options = parametersShown(resource.value, operation.value).filter(
				(property) => property.name === 'options',
			);
			const retry = options
				.flatMap((property) => (property.options ?? []) as INodeProperties[])
				.some((option) => option.name === 'retryReads');
			expect([resource.value, operation.value, retry]).toEqual([
				resource.value,
				operation.value,
				operation.run.repeat === 'safe',
			]);
		}
	});
});
