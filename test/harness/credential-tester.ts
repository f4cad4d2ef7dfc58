import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	IRunExecutionData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import type { Engine } from './engine';

/**
 * Tests a stored credential the way n8n's "Test" button does (CredentialsTester in packages/cli):
 * the credential's `test.request` runs as the routing request of a temporary NoOp node through
 * n8n-core's RoutingNode, so `preAuthentication` (always, when testing) and `authenticate` apply;
 * a non-2xx answer fails the test, and `responseSuccessBody` rules turn a 2xx body into a failure.
 */
export async function testCredential(
	engine: Engine,
	credentialId: string,
	typeName: string,
): Promise<INodeCredentialTestResult> {
	const type = engine.credentials.typeByName(typeName);
	if (!type.test)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	const stored = engine.credentials.stored(credentialId);
	const data = NodeHelpers.getNodeParameters(
		type.properties,
		stored as never,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: credentialId,
		name: credentialId,
		type: typeName,
		data,
	};

	const noOp = engine.nodeTypes.getByNameAndVersion('n8n-nodes-base.noOp');
	const nodeType: INodeType = {
		description: {
			...noOp.description,
			credentials: [{ name: typeName, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: type.test.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		credentials: { [typeName]: { id: credentialId, name: credentialId } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		},
	});
	const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const context = new ExecuteContext(
		workflow,
		node,
		engine.additionalData('credential-test', {
			name: 'credential test',
			nodes: [node],
			connections: {},
		}),
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (caught) {
		const error = caught as {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
			message: string;
		};
		if (error.cause?.response) {
			const { status, statusText } = error.cause.response;
			for (const rule of type.test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
		}
		if (error.cause?.code) return { status: 'Error', message: error.cause.code };
		return { status: 'Error', message: error.message };
	}
	for (const rule of type.test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json as Record<string, unknown> | undefined;
		if (body?.[rule.properties.key] === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
