import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeCredentials,
	INodeParameters,
} from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import { createEngine, type Engine, type PackageSource, type WorkflowJson } from './engine';
import { PACKAGE_NAME } from './packageInfo';
import type { StoredCredential } from './credentials-helper';

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

/**
 * A describe block's fixture: started before its first test (with `options`) and closed after its
 * last, or, with `shared`, the file's {@link sharedFixture} (not closed here); with `merchantId`,
 * its Session credential works under that merchant ID. Before each test the
 * sandbox's request log and injected faults are cleared, so a test asserts only the requests it
 * caused. Call inside the `describe`; the object returned reads the fixture at each use (`fx.sandbox`,
 * `fx.engine`), and throws when used outside the block's tests.
 */
export function useFixture(
	options: { sandbox?: SandboxOptions; shared?: () => Fixture; merchantId?: string } = {},
): Fixture {
	let started: Fixture | undefined;
	const fixture = (): Fixture => {
		if (!started) throw new Error('useFixture: used outside the tests of its describe block');
		return started;
	};
	beforeAll(async () => {
		started = options.shared ? options.shared() : await startFixture({ sandbox: options.sandbox });
		if (options.merchantId)
			storeSandboxCredentials(started.engine, started.sandbox, options.merchantId);
	});
	if (!options.shared) afterAll(async () => await started?.close());
	beforeEach(() => {
		fixture().sandbox.log.clear();
		fixture().sandbox.faults.clear();
	});
	return {
		get sandbox() {
			return fixture().sandbox;
		},
		get engine() {
			return fixture().engine;
		},
		close: async () => await fixture().close(),
	};
}

/**
 * One credential of each type of this package, with `sandbox`'s demo values, under
 * {@link CREDENTIAL_IDS}; the Session credential with `merchantId` ('' = the user's default MID).
 */
export function sandboxCredentials(sandbox: Sandbox, merchantId = ''): StoredCredential[] {
	const { readOnlyKey, session, deposit, cashout } = sandbox.credentials;
	const api = sandbox.apiUrl;
	const credential = (
		type: CredentialTypeName,
		name: string,
		data: ICredentialDataDecryptedObject,
	) => ({
		id: CREDENTIAL_IDS[type],
		name,
		type,
		data,
	});
	const { accessKey, secretKey } = session;
	return [
		credential('paymentsServiceSessionApi', 'Sandbox session', {
			baseUrl: sandbox.baseUrl,
			...{ accessKey, secretKey, merchantId },
		}),
		credential('paymentsServiceReadOnlyApi', 'Sandbox read-only key', {
			baseUrl: api,
			readOnlyKey,
		}),
		credential('paymentsServiceDepositApi', 'Sandbox deposit API', {
			baseUrl: api,
			...{ apiKey: deposit.apiKey, apiSignature: deposit.apiSignature },
		}),
		credential('paymentsServiceCashoutApi', 'Sandbox cashout API', {
			baseUrl: api,
			...{ login: cashout.login, pass: cashout.pass, apiSignature: cashout.apiSignature },
		}),
	];
}

/** The data of an SMTP credential for the local SMTP sink on `port` (no TLS, no login). */
export const smtpSinkData = (port: number): ICredentialDataDecryptedObject => ({
	host: '127.0.0.1',
	port,
	secure: false,
	disableStartTls: true,
	user: '',
	password: '',
});

/** Stores one credential of each type of this package, pointing at `sandbox`. */
export function storeSandboxCredentials(engine: Engine, sandbox: Sandbox, merchantId = ''): void {
	for (const credential of sandboxCredentials(sandbox, merchantId))
		engine.addCredential(credential);
}

/**
 * Stores under `id` a copy of the fixture's credential of `type` (or of the stored credential
 * `from`) with `change` applied and no session token; returns a node's `credentials` field that
 * selects it (for `paymentsNode`'s `extra`).
 */
export function storeCredentialCopy(
	fx: Fixture,
	type: CredentialTypeName,
	id: string,
	change: IDataObject,
	from: string = CREDENTIAL_IDS[type],
): { credentials: INodeCredentials } {
	fx.engine.addCredential({
		id,
		name: id,
		type,
		data: { ...fx.engine.credentials.stored(from), ...change, sessionToken: '' },
	});
	return { credentials: { [type]: { id, name: id } } };
}

/** Stores the fixture's Session credential again without its session token: the next request logs in. */
export function dropSessionToken(fx: Fixture): void {
	storeCredentialCopy(
		fx,
		'paymentsServiceSessionApi',
		CREDENTIAL_IDS.paymentsServiceSessionApi,
		{},
	);
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
 * A workflow of a Manual Trigger and one Payments Service node (`parameters`, the stored credential
 * of `credentialType`, `extra` node fields), after nodes that output `items` (Edit Fields and Split
 * Out, named `itemsName`) or one item with `files` (named `filesName`) when given; named `name`
 * (default: resource and operation).
 */
export function nodeWorkflow(
	parameters: INodeParameters,
	credentialType: CredentialTypeName,
	options: {
		extra?: Partial<INode>;
		items?: IDataObject[];
		itemsName?: string;
		files?: FileSpec[];
		filesName?: string;
		name?: string;
		settings?: WorkflowJson['settings'];
	} = {},
): WorkflowJson {
	const builder = new WorkflowBuilder(
		options.name ?? `${String(parameters.resource)} ${String(parameters.operation)}`,
	);
	if (options.items) builder.items(options.itemsName ?? 'Items', options.items);
	if (options.files) builder.files(options.filesName ?? 'Files', options.files);
	builder.then(paymentsNode(parameters, credentialType, options.extra));
	const built = builder.build();
	return options.settings ? { ...built, settings: options.settings } : built;
}

/** A file for {@link WorkflowBuilder.files}. */
export interface FileSpec {
	property: string;
	fileName: string;
	mimeType: string;
	data: Buffer;
}

/**
 * Builds workflows the way a user draws them: a Manual Trigger, then nodes connected to the
 * previous one (or to named nodes). Only n8n's own nodes and this package's nodes are used, so a
 * built workflow can be exported and imported into n8n as is.
 */
export class WorkflowBuilder {
	private readonly nodes: INode[] = [];

	private readonly connections: WorkflowJson['connections'] = {};

	private last: string;

	constructor(private readonly name: string) {
		this.last = 'When clicking ‘Execute workflow’';
		this.nodes.push({
			id: 'trigger',
			name: this.last,
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		});
	}

	private connect(from: string, to: string, toIndex = 0): void {
		const outputs = (this.connections[from] = this.connections[from] ?? { main: [[]] });
		outputs.main[0]!.push({ node: to, type: 'main', index: toIndex });
	}

	/** Adds `node` after the last node added (or after `from`); returns its name. */
	then(node: INode, from: string = this.last): string {
		this.nodes.push({ ...node, position: [this.nodes.length * 200, 0] });
		this.connect(from, node.name);
		this.last = node.name;
		return node.name;
	}

	/** Adds nodes that output the given items (Edit Fields in raw JSON mode, then Split Out). */
	items(name: string, json: Array<Record<string, unknown>>): string {
		this.then({
			id: `${name}-set`,
			name: `${name} (list)`,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [0, 0],
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items: json }), options: {} },
		});
		return this.then({
			id: name,
			name,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [0, 0],
			parameters: { fieldToSplitOut: 'items', options: {} },
		});
	}

	/**
	 * Adds nodes that output one item carrying `json` and the given files as binary properties:
	 * per file, Edit Fields holds its base64 text and Convert to File makes it a file; Merge
	 * (combine by position) joins the branches into one item.
	 */
	files(name: string, files: FileSpec[], json: Record<string, unknown> = {}): string {
		const from = this.last;
		const branches = files.map((file, index) => {
			const set = this.then(
				{
					id: `${name}-set-${index}`,
					name: `${name} (${file.property} content)`,
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [0, 0],
					parameters: {
						mode: 'raw',
						jsonOutput: JSON.stringify({ ...json, content: file.data.toString('base64') }),
						options: {},
					},
				},
				from,
			);
			return this.then(
				{
					id: `${name}-file-${index}`,
					name: `${name} (${file.property})`,
					type: 'n8n-nodes-base.convertToFile',
					typeVersion: 1.1,
					position: [0, 0],
					parameters: {
						operation: 'toBinary',
						sourceProperty: 'content',
						binaryPropertyName: file.property,
						options: { fileName: file.fileName, mimeType: file.mimeType, dataIsBase64: true },
					},
				},
				set,
			);
		});
		const merge: INode = {
			id: name,
			name,
			type: 'n8n-nodes-base.merge',
			typeVersion: 3.2,
			position: [this.nodes.length * 200, 0],
			parameters: {
				numberInputs: files.length,
				mode: 'combine',
				combineBy: 'combineByPosition',
				options: {},
			},
		};
		this.nodes.push(merge);
		branches.forEach((branch, index) => this.connect(branch, name, index));
		this.last = name;
		return name;
	}

	/**
	 * Adds n8n's Loop Over Items (Split in Batches v3) after the last node, with `body` inside the
	 * loop: the loop output feeds `body`, whose output goes back into the loop; the done output is
	 * left open. Every pass runs `body` once more (run index 0, 1, 2…) with item index 0 when the
	 * batch size is 1. Returns the body's name.
	 */
	loopOverItems(name: string, body: INode, batchSize = 1): string {
		const loop = this.then({
			id: name,
			name,
			type: 'n8n-nodes-base.splitInBatches',
			typeVersion: 3,
			position: [0, 0],
			parameters: { batchSize, options: {} },
		});
		this.nodes.push({ ...body, position: [this.nodes.length * 200, 200] });
		this.connections[loop] = { main: [[], [{ node: body.name, type: 'main', index: 0 }]] };
		this.connect(body.name, loop);
		this.last = body.name;
		return body.name;
	}

	build(): WorkflowJson {
		return { name: this.name, nodes: this.nodes, connections: this.connections };
	}
}
