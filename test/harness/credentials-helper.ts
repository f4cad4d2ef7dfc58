import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers } from 'n8n-workflow';

/** A stored credential, as n8n keeps it in its database (decrypted here). */
export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * The credentials side of an n8n instance, for running workflows on n8n-core in tests and the demo.
 *
 * It follows what n8n's own CredentialsHelper (packages/cli) does with a credential type:
 * - `getDecrypted` returns the stored values with the type's defaults filled in;
 * - `preAuthentication` runs the type's hook only when its hidden `expirable` property is empty or
 *   n8n reports the credential expired (after a 401), then persists the result in the store, so the
 *   next execution reuses it;
 * - `authenticate` calls a function `authenticate`, or applies a generic one by resolving its
 *   `={{$credentials.x}}` expressions through the workflow's expression engine.
 *
 * State lives in this instance (one per test or demo run): a store of credentials by id.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, StoredCredential>();

	/** Every `preAuthentication` call that ran the type's hook: type name and whether expired. */
	readonly preAuthenticationRuns: Array<{ type: string; expired: boolean }> = [];

	constructor(private readonly types: Map<string, ICredentialType>) {
		super();
	}

	/** Adds or replaces a stored credential. */
	add(credential: StoredCredential): void {
		this.store.set(credential.id, { ...credential, data: { ...credential.data } });
	}

	/** A copy of the stored values of credential `id`. */
	stored(id: string): ICredentialDataDecryptedObject {
		const credential = this.store.get(id);
		if (!credential) throw new Error(`No stored credential ${id}`);
		return { ...credential.data };
	}

	/** The credential type named `name`. */
	typeByName(name: string): ICredentialType {
		return this.type(name);
	}

	private type(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}

	private find(details: INodeCredentialsDetails, type: string): StoredCredential {
		const credential = details.id ? this.store.get(details.id) : undefined;
		if (!credential || credential.type !== type) {
			throw new Error(
				`Credential "${details.name}" (${details.id ?? 'no id'}) of type ${type} is not stored`,
			);
		}
		return credential;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.find(nodeCredentials, type);
		const withDefaults = NodeHelpers.getNodeParameters(
			this.type(type).properties,
			stored.data as never,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject) };
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const stored = this.find(nodeCredentials, type);
		return {
			id: stored.id,
			name: stored.name,
			type: stored.type,
			data: undefined,
			getData: () => ({ ...stored.data }),
			getDataToSave: () => ({ id: stored.id, name: stored.name, type: stored.type, data: '' }),
			setData: () => undefined,
		} as unknown as ICredentials;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.find(nodeCredentials, type);
		stored.data = { ...data };
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.type(typeName);
		if (typeof type.authenticate === 'function') {
			return await type.authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (type.authenticate && type.authenticate.type === 'generic') {
			if (!workflow || !node)
				throw new Error('Generic authentication needs the workflow and the node');
			const options = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [where, values] of Object.entries(type.authenticate.properties)) {
				options[where] = options[where] ?? {};
				for (const [key, value] of Object.entries(values as Record<string, string>)) {
					const resolve = (text: string) =>
						String(
							workflow.expression.getSimpleParameterValue(
								node,
								text,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						);
					options[where][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		// n8n always logs in when testing a credential (its tester runs a temporary NoOp node).
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials)
			return undefined;
		this.preAuthenticationRuns.push({ type: typeName, expired: credentialsExpired });
		const output = (await type.preAuthentication.call(
			{ helpers: { httpRequest: helpers.helpers.httpRequest } },
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		const details = node.credentials?.[typeName];
		if (details) {
			const stored = this.find(details, typeName);
			stored.data = { ...stored.data, ...output };
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}
}
