import type { INode, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import { createEngine, PACKAGE_NAME, type Engine, type PackageSource, type WorkflowJson } from './engine';

/** Ids of the credentials the fixtures store, one per credential type. */
export const CREDENTIAL_IDS = {
	paymentsServiceSessionApi: 'cred-session',
	paymentsServiceReadOnlyApi: 'cred-read-only',
	paymentsServiceDepositApi: 'cred-deposit',
	paymentsServiceCashoutApi: 'cred-cashout',
} as const;
export type CredentialTypeName = keyof typeof CREDENTIAL_IDS;

/** A sandbox, an engine with this package, and one stored credential of each type pointing at it. */
export interface Fixture {
	sandbox: Sandbox;
	engine: Engine;
	close(): Promise<void>;
}

/**
 * Starts the sandbox and an engine, and stores the four credentials with the sandbox's demo values
 * (session credential without a merchant ID: the user's default MID 1001).
 */
export async function startFixture(
	options: { sandbox?: SandboxOptions; source?: PackageSource } = {},
): Promise<Fixture> {
	const sandbox = await startSandbox(options.sandbox);
	const engine = await createEngine({ source: options.source });
	storeSandboxCredentials(engine, sandbox);
	return { sandbox, engine, close: async () => await sandbox.close() };
}

/** Stores one credential of each type of this package, pointing at `sandbox`. */
export function storeSandboxCredentials(engine: Engine, sandbox: Sandbox, merchantId = ''): void {
	const { credentials } = sandbox;
	engine.addCredential({
		id: CREDENTIAL_IDS.paymentsServiceSessionApi,
		name: 'Sandbox session',
		type: 'paymentsServiceSessionApi',
		data: {
			baseUrl: sandbox.baseUrl,
			accessKey: credentials.session.accessKey,
			secretKey: credentials.session.secretKey,
			merchantId,
		},
	});
	engine.addCredential({
		id: CREDENTIAL_IDS.paymentsServiceReadOnlyApi,
		name: 'Sandbox read-only key',
		type: 'paymentsServiceReadOnlyApi',
		data: { baseUrl: sandbox.apiUrl, readOnlyKey: credentials.readOnlyKey },
	});
	engine.addCredential({
		id: CREDENTIAL_IDS.paymentsServiceDepositApi,
		name: 'Sandbox deposit API',
		type: 'paymentsServiceDepositApi',
		data: { baseUrl: sandbox.apiUrl, apiKey: credentials.deposit.apiKey, apiSignature: credentials.deposit.apiSignature },
	});
	engine.addCredential({
		id: CREDENTIAL_IDS.paymentsServiceCashoutApi,
		name: 'Sandbox cashout API',
		type: 'paymentsServiceCashoutApi',
		data: {
			baseUrl: sandbox.apiUrl,
			login: credentials.cashout.login,
			pass: credentials.cashout.pass,
			apiSignature: credentials.cashout.apiSignature,
		},
	});
}

/** A Payments Service node using the stored credential of `credentialType`. */
export function paymentsNode(
	parameters: INodeParameters,
	credentialType: CredentialTypeName,
	extra: Partial<INode> = {},
): INode {
	return {
		id: extra.name ?? 'payments',
		name: 'Payments Service',
		type: `${PACKAGE_NAME}.paymentsService`,
		typeVersion: 1,
		position: [220, 0],
		parameters,
		credentials: { [credentialType]: { id: CREDENTIAL_IDS[credentialType], name: credentialType } },
		...extra,
	};
}

/**
 * Nodes that output the given items with n8n's own nodes: Edit Fields (Set) in raw JSON mode
 * builds `{items: [...]}`, then Split Out turns the array into one item each.
 */
export function itemsNodes(name: string, json: Array<Record<string, unknown>>): INode[] {
	return [
		{
			id: `${name}-set`,
			name: `${name} (list)`,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [110, 0],
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items: json }), options: {} },
		},
		{
			id: name,
			name,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [160, 0],
			parameters: { fieldToSplitOut: 'items', options: {} },
		},
	];
}

/**
 * A workflow: Manual Trigger, then `nodes` connected one after the other.
 */
export function linearWorkflow(name: string, nodes: INode[]): WorkflowJson {
	const trigger: INode = {
		id: 'trigger',
		name: 'When clicking ‘Execute workflow’',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const all = [trigger, ...nodes];
	const connections: WorkflowJson['connections'] = {};
	for (let index = 0; index < all.length - 1; index++) {
		connections[all[index].name] = { main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]] };
	}
	return { name, nodes: all, connections };
}
