import type {
	INodeCredentialDescription,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPES, type CredentialKind, type Repeat } from '../transport/client';
import { LOOK_UP_CREDENTIAL } from '../idempotency/lookUp';
import { type RecordListResource, REPORTING_LISTS } from '../reporting/lists';
import * as balanceGet from './balance/get.operation';
import * as balanceReconcile from './balance/reconcile.operation';
import * as bankGetMany from './bank/getMany.operation';
import * as cashoutCancel from './cashout/cancel.operation';
import * as cashoutCreate from './cashout/create.operation';
import * as cashoutGetStatus from './cashout/getStatus.operation';
import * as cashoutPutOnHold from './cashout/putOnHold.operation';
import * as cashoutReleaseHold from './cashout/releaseHold.operation';
import * as depositCreate from './deposit/create.operation';
import * as depositFlagForReview from './deposit/flagForReview.operation';
import * as depositFlagReversalForReview from './deposit/flagReversalForReview.operation';
import * as depositGetStatus from './deposit/getStatus.operation';
import * as exchangeRateGet from './exchangeRate/get.operation';
import * as paymentMethodGetMany from './paymentMethod/getMany.operation';
import * as refundCreate from './refund/create.operation';
import * as refundGetStatus from './refund/getStatus.operation';
import * as sessionLogOut from './session/logOut.operation';
import * as ticketAddAttachment from './ticket/addAttachment.operation';
import * as ticketConfirm from './ticket/confirm.operation';
import * as ticketCreateDraft from './ticket/createDraft.operation';
import { listOperation } from './common/list';
import { exportToFileOperation } from './report/exportToFile.operation';
import { summarizeOperation } from './report/summarize.operation';
import { TOOL_DESCRIPTIONS } from './toolDescriptions';
import { retryReadsOption } from '../parameters/retryReads';
import { concurrencyOption } from './common/parameters';
import type { OperationModule } from './types';
import { isOptionsCollection, optionsCollection } from '../parameters/options';

/**
 * The operation registry: every resource of the action node, its operations, their action texts
 * and how each runs ({@link RunPolicy}). The node description (resource and operation options,
 * parameters, which credential shows for which operation) and the router are built from it, so
 * adding an operation is an entry here plus its `<operation>.operation.ts` file.
 */

/**
 * How an operation runs, declared once in its entry: the router and the node description read it.
 * An operation other than a creation declares `{ credential, repeat }`; a creation adds
 * `items: 'concurrent'`.
 */
export interface RunPolicy {
	/** The credential its client is bound to (one client, and one login, serves every item). */
	credential: CredentialKind;
	/**
	 * How its request may be sent again (transport/client.ts, service rules §11). `safe`: a read,
	 * offered Options → Retry Reads Automatically; `keyed`: a creation, offered the Session credential
	 * to look an earlier record up with ({@link LOOK_UP_CREDENTIAL}); `targetStatus`, `once`.
	 */
	repeat: Repeat;
	/** Its items: one after another (unset), up to Options → Concurrency at once, or once per run. */
	items?: 'concurrent' | 'oncePerRun';
}

/** One operation: what the user picks and sees, and what runs. */
export interface OperationDefinition {
	/** Operation value, unique within its resource (e.g. `getMany`). */
	value: string;
	/** Label in the operation list (e.g. "Get Many"). */
	name: string;
	description: string;
	/** What the operation does, for the AI agent and the node's subtitle (e.g. "Get many deposits"). */
	action: string;
	run: RunPolicy;
	/**
	 * The credential its pickers read lists with (Payment Method and Bank read with the read-only
	 * key), when that is another one: offered as an optional second credential (the operation runs
	 * without it, and its pickers then take a typed code; see {@link buildCredentials}).
	 */
	pickerCredential?: CredentialKind;
	/**
	 * The credential Summarize reads exchange rates with when Convert Totals To is set (the
	 * read-only key; service rules §9.1). Optional like a picker credential, and shown only then.
	 */
	rateCredential?: CredentialKind;
	module: OperationModule;
}

/** One resource and its operations (in the order shown). */
export interface ResourceDefinition {
	value: string;
	name: string;
	/** The operation selected when the resource is picked. */
	defaultOperation: string;
	operations: OperationDefinition[];
}

/** Get Many, Summarize and Export to File of a reporting list, their texts made from its plural. */
function reportingOperations(resource: RecordListResource): OperationDefinition[] {
	const { plural } = REPORTING_LISTS[resource];
	return [
		{
			value: 'getMany',
			name: 'Get Many',
			description: `List ${plural} created in a period`,
			action: `Get many ${plural}`,
			run: { credential: 'session', repeat: 'safe' },
			module: listOperation(resource),
		},
		{
			value: 'summarize',
			name: 'Summarize',
			description: `Count and total the ${plural} of a period by status, currency, country, method, day or hour, optionally with them in a CSV file from the same read`,
			action: `Summarize ${plural}`,
			run: { credential: 'session', repeat: 'safe' },
			rateCredential: 'readOnly',
			module: summarizeOperation(resource),
		},
		{
			value: 'exportToFile',
			name: 'Export to File',
			description: `Write the ${plural} of a period to a CSV file, streamed`,
			action: `Export ${plural} to a CSV file`,
			run: { credential: 'session', repeat: 'safe' },
			module: exportToFileOperation(resource),
		},
	];
}

export const RESOURCES: readonly ResourceDefinition[] = [
	{
		value: 'balance',
		name: 'Balance',
		defaultOperation: 'get',
		operations: [
			{
				value: 'get',
				name: 'Get',
				description: 'Get the total available balance',
				action: 'Get the balance',
				run: { credential: 'session', repeat: 'safe' },
				module: balanceGet,
			},
			{
				value: 'getDailyReport',
				name: 'Get Daily Report',
				description: 'Get the balance report, one entry per day of a period',
				action: 'Get the daily balance report',
				run: { credential: 'session', repeat: 'safe' },
				module: listOperation('balanceReport'),
			},
			{
				value: 'reconcile',
				name: 'Reconcile',
				description:
					'Set the daily balance report beside the deposits, cashouts, notes and settlements of each day, and name every difference',
				action: 'Reconcile the daily balance report',
				run: { credential: 'session', repeat: 'safe' },
				module: balanceReconcile,
			},
		],
	},
	{
		value: 'bank',
		name: 'Bank',
		defaultOperation: 'getMany',
		operations: [
			{
				value: 'getMany',
				name: 'Get Many',
				description: 'List the bank codes accepted for cashouts in a country',
				action: 'Get many banks',
				run: { credential: 'readOnly', repeat: 'safe' },
				module: bankGetMany,
			},
		],
	},
	{
		value: 'cashout',
		name: 'Cashout',
		defaultOperation: 'getMany',
		operations: [
			{
				value: 'cancel',
				name: 'Cancel',
				description: 'Cancel a cashout that has not been sent to the bank',
				action: 'Cancel a cashout',
				run: { credential: 'cashout', repeat: 'targetStatus' },
				module: cashoutCancel,
			},
			{
				value: 'create',
				name: 'Create',
				description:
					'Create a cashout (payout); a repeat with the same external ID reads it instead of paying twice',
				action: 'Create a cashout',
				run: { credential: 'cashout', repeat: 'keyed', items: 'concurrent' },
				pickerCredential: 'readOnly',
				module: cashoutCreate,
			},
			...reportingOperations('cashout'),
			{
				value: 'getStatus',
				name: 'Get Status',
				description: 'Read the status of a cashout, with the bank’s rejection reason if any',
				action: 'Get the status of a cashout',
				run: { credential: 'cashout', repeat: 'safe' },
				module: cashoutGetStatus,
			},
			{
				value: 'putOnHold',
				name: 'Put On Hold',
				description: 'Stop a pending cashout from being processed',
				action: 'Put a cashout on hold',
				run: { credential: 'cashout', repeat: 'targetStatus' },
				module: cashoutPutOnHold,
			},
			{
				value: 'releaseHold',
				name: 'Release Hold',
				description: 'Let a cashout on hold be processed again',
				action: 'Release a cashout from hold',
				run: { credential: 'cashout', repeat: 'targetStatus' },
				module: cashoutReleaseHold,
			},
		],
	},
	{
		value: 'chargeback',
		name: 'Chargeback',
		defaultOperation: 'getMany',
		operations: reportingOperations('chargeback'),
	},
	{
		value: 'note',
		name: 'Credit/Debit Note',
		defaultOperation: 'getMany',
		operations: reportingOperations('note'),
	},
	{
		value: 'deposit',
		name: 'Deposit',
		defaultOperation: 'getMany',
		operations: [
			{
				value: 'create',
				name: 'Create',
				description: 'Create a deposit (pay-in), ONE_SHOT or HOSTED',
				action: 'Create a deposit',
				run: { credential: 'deposit', repeat: 'keyed', items: 'concurrent' },
				pickerCredential: 'readOnly',
				module: depositCreate,
			},
			{
				value: 'flagForReview',
				name: 'Flag for Review',
				description: 'Open a review ticket for a deposit, optionally with files, and confirm it',
				action: 'Flag a deposit for review',
				run: { credential: 'session', repeat: 'once' },
				module: depositFlagForReview,
			},
			{
				value: 'flagReversalForReview',
				name: 'Flag Reversal for Review',
				description:
					'Open a review ticket for a deposit reversal, optionally with files, and confirm it',
				action: 'Flag a deposit reversal for review',
				run: { credential: 'session', repeat: 'once' },
				module: depositFlagReversalForReview,
			},
			...reportingOperations('deposit'),
			{
				value: 'getStatus',
				name: 'Get Status',
				description: 'Read the current status of a created deposit',
				action: 'Get the status of a deposit',
				run: { credential: 'deposit', repeat: 'safe' },
				module: depositGetStatus,
			},
		],
	},
	{
		value: 'exchangeRate',
		name: 'Exchange Rate',
		defaultOperation: 'get',
		operations: [
			{
				value: 'get',
				name: 'Get',
				description:
					'Get the rate of a country’s local currency against USD, and an amount converted',
				action: 'Get an exchange rate',
				run: { credential: 'readOnly', repeat: 'safe' },
				module: exchangeRateGet,
			},
		],
	},
	{
		value: 'paymentMethod',
		name: 'Payment Method',
		defaultOperation: 'getMany',
		operations: [
			{
				value: 'getMany',
				name: 'Get Many',
				description: 'List the payment methods deposits can use in a country',
				action: 'Get many payment methods',
				run: { credential: 'readOnly', repeat: 'safe' },
				module: paymentMethodGetMany,
			},
		],
	},
	{
		value: 'refund',
		name: 'Refund',
		defaultOperation: 'getMany',
		operations: [
			{
				value: 'create',
				name: 'Create',
				description:
					'Refund a deposit, in full or in part; a repeat with the same idempotency key requests nothing new',
				action: 'Create a refund',
				run: { credential: 'deposit', repeat: 'keyed', items: 'concurrent' },
				module: refundCreate,
			},
			...reportingOperations('refund'),
			{
				value: 'getStatus',
				name: 'Get Status',
				description: 'Read the current status of a refund, optionally with its voucher',
				action: 'Get the status of a refund',
				run: { credential: 'deposit', repeat: 'safe' },
				module: refundGetStatus,
			},
		],
	},
	{
		value: 'session',
		name: 'Session',
		defaultOperation: 'logOut',
		operations: [
			{
				value: 'logOut',
				name: 'Log Out',
				description: 'End the stored session at once; the next request logs in again',
				action: 'Log out of the session',
				run: { credential: 'session', repeat: 'once', items: 'oncePerRun' },
				module: sessionLogOut,
			},
		],
	},
	{
		value: 'settlement',
		name: 'Settlement',
		defaultOperation: 'getMany',
		operations: reportingOperations('settlement'),
	},
	{
		value: 'ticket',
		name: 'Ticket',
		defaultOperation: 'createDraft',
		operations: [
			{
				value: 'addAttachment',
				name: 'Add Attachment',
				description: 'Attach a file to a draft ticket',
				action: 'Add an attachment to a ticket',
				run: { credential: 'session', repeat: 'once' },
				module: ticketAddAttachment,
			},
			{
				value: 'confirm',
				name: 'Confirm',
				description: 'Submit a draft ticket to the support team',
				action: 'Confirm a ticket',
				run: { credential: 'session', repeat: 'once' },
				module: ticketConfirm,
			},
			{
				value: 'createDraft',
				name: 'Create Draft',
				description: 'Create a support ticket in draft state',
				action: 'Create a draft ticket',
				run: { credential: 'session', repeat: 'once' },
				module: ticketCreateDraft,
			},
		],
	},
];

/** The operation `operation` of resource `resource`, or undefined. */
export function findOperation(
	resource: string,
	operation: string,
): OperationDefinition | undefined {
	return RESOURCES.find((entry) => entry.value === resource)?.operations.find(
		(entry) => entry.value === operation,
	);
}

/**
 * An operation's parameters, with the options its run policy offers in its Options collection
 * (added to it, or as it): Concurrency first for concurrent items, Retry Reads last for reads.
 */
function parametersOf(operation: OperationDefinition): INodeProperties[] {
	const properties = [...operation.module.properties];
	const first = operation.run.items === 'concurrent' ? [concurrencyOption] : [];
	const last = operation.run.repeat === 'safe' ? [retryReadsOption] : [];
	if (!first.length && !last.length) return properties;
	const at = properties.findIndex(isOptionsCollection);
	if (at < 0) return [...properties, optionsCollection([...first, ...last])];
	const own = (properties[at].options ?? []) as INodeProperties[];
	properties[at] = { ...properties[at], options: [...first, ...own, ...last] };
	return properties;
}

/** The Resource and Operation selectors and every operation's parameters, in the registry's order. */
export function buildProperties(): INodeProperties[] {
	// n8n lists options alphabetically by name.
	const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);
	const resourceOptions: INodePropertyOptions[] = RESOURCES.map((resource) => ({
		name: resource.name,
		value: resource.value,
	})).sort(byName);
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resourceOptions,
			default: 'deposit',
		},
	];
	for (const resource of RESOURCES) {
		const defaultOperation = resource.defaultOperation;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: resource.operations
				.map((operation) => ({
					name: operation.name,
					value: operation.value,
					description: operation.description,
					action: operation.action,
				}))
				.sort(byName),
			default: defaultOperation,
		});
	}
	properties.push(...buildToolDescriptions());
	for (const resource of RESOURCES) {
		for (const operation of resource.operations) {
			properties.push(
				...updateDisplayOptions(
					{ show: { resource: [resource.value], operation: [operation.value] } },
					parametersOf(operation),
				),
			);
		}
	}
	return properties;
}

/** The label of each credential's field in the node's panel. */
const CREDENTIAL_LABELS: Readonly<Record<CredentialKind, string>> = {
	session: 'Session Credential',
	readOnly: 'Read-Only Credential',
	deposit: 'Deposit Credential',
	cashout: 'Cashout Credential',
};

/**
 * One use of a credential: an operation that runs with it, or that uses it optionally (its pickers
 * read lists with it, or it looks an earlier record up with it).
 */
interface CredentialUse {
	resource: string;
	operation: OperationDefinition;
	optional: boolean;
}

/**
 * The credentials an operation may use besides the one it runs with, each optional: its pickers',
 * a creation's look-ups' (`repeat: 'keyed'`: idempotency/lookUp.ts) and Summarize's rates'.
 */
function optionalCredentialsOf(operation: OperationDefinition): CredentialKind[] {
	const lookUps = operation.run.repeat === 'keyed' ? LOOK_UP_CREDENTIAL : undefined;
	return [operation.pickerCredential, lookUps, operation.rateCredential].filter(
		(kind): kind is CredentialKind => kind !== undefined,
	);
}

function usesOf(kind: CredentialKind): CredentialUse[] {
	return RESOURCES.flatMap((resource) =>
		resource.operations.flatMap((operation): CredentialUse[] => {
			if (operation.run.credential === kind)
				return [{ resource: resource.value, operation, optional: false }];
			if (optionalCredentialsOf(operation).includes(kind))
				return [{ resource: resource.value, operation, optional: true }];
			return [];
		}),
	);
}

/**
 * Where hiding by resource and by operation is not enough (n8n's `hide` hides a credential when any
 * one parameter matches: one used by Deposit → Create and Bank → Get Many would still show on
 * Deposit → Get Many), the read-only credential is also hidden wherever Get Many has Simplify (no
 * read-only operation has it), on Summarize while Convert Totals To is empty, and on Refund →
 * Create by its Deposit Identified By (Refund is a read-only resource through Summarize, Create
 * through Deposit → Create's pickers). A test checks with n8n's display logic that every operation shows
 * exactly its credentials, so an operation added to one of these pairs without its rule fails it.
 */
const EXTRA_HIDE: Partial<Record<CredentialKind, Record<string, Array<string | boolean>>>> = {
	readOnly: { simplify: [true, false], convertTo: [''], identifyBy: ['depositId', 'invoiceId'] },
};

/**
 * The node's credentials, each shown for exactly the operations that use it, to run or for their
 * pickers, labelled by what it is (`displayName`). n8n keeps one entry per credential type, so a
 * credential some operation uses optionally is optional for all (`required: false`); an operation
 * that runs with it names it when it is missing ("No … credential is selected").
 * Rules use `hide`, never `show`: n8n's editor turns a parameter named by a credential's `show`
 * rule into an authentication selector (`getMainAuthField`) and drops Resource from the panel. So a
 * credential is hidden for the resources and operations it has no use in, plus {@link EXTRA_HIDE}.
 * A test checks, with n8n's own display logic, that every operation shows exactly its credentials.
 */
export function buildCredentials(): INodeCredentialDescription[] {
	const kinds = Object.keys(CREDENTIAL_TYPES) as CredentialKind[];
	return kinds.map((kind) => {
		const uses = usesOf(kind);
		const resources = new Set(uses.map((use) => use.resource));
		const operations = new Set(uses.map((use) => use.operation.value));
		const hide: Record<string, Array<string | boolean>> = {};
		const unusedResources = RESOURCES.map((resource) => resource.value).filter(
			(resource) => !resources.has(resource),
		);
		const unusedOperations = [
			...new Set(
				RESOURCES.flatMap((resource) => resource.operations.map((operation) => operation.value)),
			),
		].filter((operation) => !operations.has(operation));
		if (unusedResources.length) hide.resource = unusedResources.sort();
		if (unusedOperations.length) hide.operation = unusedOperations.sort();
		const description: INodeCredentialDescription = {
			name: CREDENTIAL_TYPES[kind],
			displayName: CREDENTIAL_LABELS[kind],
			required: !uses.some((use) => use.optional),
			displayOptions: { hide },
		};
		Object.assign(hide, EXTRA_HIDE[kind]);
		return description;
	});
}

/**
 * The tool description of each operation, for the node used as an AI agent's tool: a
 * `toolDescription` parameter per operation, shown only on the tool variant (`@tool`), whose default
 * (actions/toolDescriptions.ts) says what the operation does, what it returns and the formats it
 * takes. n8n sends a tool's `toolDescription` to the model and, when a node defines that parameter,
 * adds none of its own (otherwise it would describe the tool by the action text alone, e.g. "Get
 * many deposits in Payments Service"). The workflow builder can edit it like n8n's own.
 * @throws Error when an operation has no tool description (a test runs this for every operation).
 */
export function buildToolDescriptions(): INodeProperties[] {
	return RESOURCES.flatMap((resource) =>
		resource.operations.map((operation): INodeProperties => {
			const text = TOOL_DESCRIPTIONS[`${resource.value}.${operation.value}`];
			if (!text) throw new Error(`No tool description for ${resource.value}.${operation.value}`);
			return {
				displayName: 'Tool Description',
				name: 'toolDescription',
				type: 'string',
				default: text,
				typeOptions: { rows: 4 },
				description: 'What the AI agent is told this tool does, returns and takes',
				displayOptions: {
					show: { '@tool': [true], resource: [resource.value], operation: [operation.value] },
				},
			};
		}),
	);
}
