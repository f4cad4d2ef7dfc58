/** Which credentials n8n shows for a node's parameters, decided by n8n's own display logic. */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeTypeDescription,
} from 'n8n-workflow';

/**
 * The names of the credentials n8n shows for a node of `description` (at `typeVersion`) with
 * `parameters`, in the description's order: n8n's display rules applied to the parameters n8n
 * fills in for it, defaults included, as the engine and the editor do.
 */
export function credentialsShown(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion = 1,
): string[] {
	const node = { typeVersion, parameters: {} } as unknown as INode;
	const values =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? parameters;
	return (description.credentials ?? [])
		.filter((credential) => NodeHelpers.displayParameter(values, credential, node, description))
		.map((credential) => credential.name);
}
