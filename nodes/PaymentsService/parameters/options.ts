import type { INodeProperties } from 'n8n-workflow';

/**
 * The parameter name of every Options collection of the package's nodes: operations and triggers
 * read their optional settings with `getNodeParameter('options', …)`.
 */
export const OPTIONS_PARAMETER = 'options';

/**
 * An Options collection: the optional settings a user adds one by one under "Add Option", written
 * as n8n's own nodes write it (displayName `Options`, name `options`, placeholder `Add Option`,
 * default `{}`). Every node of the package builds its Options collection here.
 *
 * @param options the settings it offers, in the order given (n8n shows them alphabetically).
 */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: OPTIONS_PARAMETER,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** Whether `property` is an Options collection built by {@link optionsCollection}. */
export function isOptionsCollection(property: INodeProperties): boolean {
	return property.name === OPTIONS_PARAMETER && property.type === 'collection';
}
