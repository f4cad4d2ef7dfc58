import type {
	INodeCredentialDescription,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPES, type CredentialKind } from '../transport/client';
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
import type { OperationModule } from './types';
import { isOptionsCollection, optionsCollection } from '../parameters/options';

/**
 * The operation registry: every resource of the action node, its operations, their action texts,
 * the credential each uses and whether it only reads. The node description (resource and operation
 * options, parameters, which credential shows for which operation) and the router are built from
 * it, so adding an operation is an entry here plus its `<operation>.operation.ts` file.
 */

/** One operation: what the user picks and sees, and what runs. */
export interface OperationDefinition {
	/** Operation value, unique within its resource (e.g. `getMany`). */
	value: string;
	/** Label in the operation list (e.g. "Get Many"). */
	name: string;
	description: string;
	/** What the operation does, for the AI agent and the node's subtitle (e.g. "Get many deposits"). */
	action: string;
	/** The credential the operation runs with. */
	credential: CredentialKind;
	/**
	 * The credential its pickers read lists with (Payment Method and Bank read with the read-only
	 * key), when that is another one. It is offered as an optional second credential: the
	 * operation runs without it, and its pickers then take a typed code (see {@link buildCredentials}).
	 */
	pickerCredential?: CredentialKind;
	/**
	 * The credential a creation looks its earlier record up with, after the service answered that
	 * the key was already used (the Session credential reads the reporting lists; service rules
	 * §5.2). Optional like a picker credential: without it the creation runs and reports the
	 * earlier record without its id.
	 */
	lookupCredential?: CredentialKind;
	/**
	 * The credential Summarize reads exchange rates with when Convert Totals To is set (the
	 * read-only key; service rules §9.1). Optional like a picker credential, and shown only then.
	 */
	rateCredential?: CredentialKind;
	/**
	 * True when the operation only reads (service rules §11): its requests are retried automatically
	 * after a 429, a 5xx or a lost connection, and it offers the option to turn that off.
	 */
	reads: boolean;
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
			credential: 'session',
			reads: true,
			module: listOperation(resource),
		},
		{
			value: 'summarize',
			name: 'Summarize',
			description: `Count and total the ${plural} of a period by status, currency, country, method, day or hour, optionally with them in a CSV file from the same read`,
			action: `Summarize ${plural}`,
			credential: 'session',
			rateCredential: 'readOnly',
			reads: true,
			module: summarizeOperation(resource),
		},
		{
			value: 'exportToFile',
			name: 'Export to File',
			description: `Write the ${plural} of a period to a CSV file, streamed`,
			action: `Export ${plural} to a CSV file`,
			credential: 'session',
			reads: true,
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
				credential: 'session',
				reads: true,
				module: balanceGet,
			},
			{
				value: 'getDailyReport',
				name: 'Get Daily Report',
				description: 'Get the balance report, one entry per day of a period',
				action: 'Get the daily balance report',
				credential: 'session',
				reads: true,
				module: listOperation('balanceReport'),
			},
			{
				value: 'reconcile',
				name: 'Reconcile',
				description:
					'Set the daily balance report beside the deposits, cashouts, notes and settlements of each day, and name every difference',
				action: 'Reconcile the daily balance report',
				credential: 'session',
				reads: true,
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
				credential: 'readOnly',
				reads: true,
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
				credential: 'cashout',
				reads: false,
				module: cashoutCancel,
			},
			{
				value: 'create',
				name: 'Create',
				description:
					'Create a cashout (payout); a repeat with the same external ID reads it instead of paying twice',
				action: 'Create a cashout',
				credential: 'cashout',
				pickerCredential: 'readOnly',
				lookupCredential: 'session',
				reads: false,
				module: cashoutCreate,
			},
			...reportingOperations('cashout'),
			{
				value: 'getStatus',
				name: 'Get Status',
				description: 'Read the status of a cashout, with the bank’s rejection reason if any',
				action: 'Get the status of a cashout',
				credential: 'cashout',
				reads: true,
				module: cashoutGetStatus,
			},
			{
				value: 'putOnHold',
				name: 'Put On Hold',
				description: 'Stop a pending cashout from being processed',
				action: 'Put a cashout on hold',
				credential: 'cashout',
				reads: false,
				module: cashoutPutOnHold,
			},
			{
				value: 'releaseHold',
				name: 'Release Hold',
				description: 'Let a cashout on hold be processed again',
				action: 'Release a cashout from hold',
				credential: 'cashout',
				reads: false,
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
				credential: 'deposit',
				pickerCredential: 'readOnly',
				lookupCredential: 'session',
				reads: false,
				module: depositCreate,
			},
			{
				value: 'flagForReview',
				name: 'Flag for Review',
				description: 'Open a review ticket for a deposit, optionally with files, and confirm it',
				action: 'Flag a deposit for review',
				credential: 'session',
				reads: false,
				module: depositFlagForReview,
			},
			{
				value: 'flagReversalForReview',
				name: 'Flag Reversal for Review',
				description:
					'Open a review ticket for a deposit reversal, optionally with files, and confirm it',
				action: 'Flag a deposit reversal for review',
				credential: 'session',
				reads: false,
				module: depositFlagReversalForReview,
			},
			...reportingOperations('deposit'),
			{
				value: 'getStatus',
				name: 'Get Status',
				description: 'Read the current status of a created deposit',
				action: 'Get the status of a deposit',
				credential: 'deposit',
				reads: true,
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
				credential: 'readOnly',
				reads: true,
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
				credential: 'readOnly',
				reads: true,
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
				credential: 'deposit',
				lookupCredential: 'session',
				reads: false,
				module: refundCreate,
			},
			...reportingOperations('refund'),
			{
				value: 'getStatus',
				name: 'Get Status',
				description: 'Read the current status of a refund, optionally with its voucher',
				action: 'Get the status of a refund',
				credential: 'deposit',
				reads: true,
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
				credential: 'session',
				reads: false,
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
				credential: 'session',
				reads: false,
				module: ticketAddAttachment,
			},
			{
				value: 'confirm',
				name: 'Confirm',
				description: 'Submit a draft ticket to the support team',
				action: 'Confirm a ticket',
				credential: 'session',
				reads: false,
				module: ticketConfirm,
			},
			{
				value: 'createDraft',
				name: 'Create Draft',
				description: 'Create a support ticket in draft state',
				action: 'Create a draft ticket',
				credential: 'session',
				reads: false,
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

/** An operation's parameters, with the retry option added to (or as) its Options collection. */
function parametersOf(operation: OperationDefinition): INodeProperties[] {
	const properties = [...operation.module.properties];
	if (!operation.reads) return properties;
	const at = properties.findIndex(isOptionsCollection);
	if (at >= 0) {
		const options = properties[at];
		properties[at] = { ...options, options: [...(options.options ?? []), retryReadsOption] };
	} else {
		properties.push(optionsCollection([retryReadsOption]));
	}
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

function usesOf(kind: CredentialKind): CredentialUse[] {
	return RESOURCES.flatMap((resource) =>
		resource.operations.flatMap((operation): CredentialUse[] => {
			if (operation.credential === kind)
				return [{ resource: resource.value, operation, optional: false }];
			if (
				operation.pickerCredential === kind ||
				operation.lookupCredential === kind ||
				operation.rateCredential === kind
			)
				return [{ resource: resource.value, operation, optional: true }];
			return [];
		}),
	);
}

/**
 * Where hiding by resource and by operation is not enough, written out: n8n's `hide` rule hides a
 * credential when any one parameter matches, so a credential used by Deposit → Create and Bank →
 * Get Many would still show on Deposit → Get Many (resource and operation each used elsewhere).
 * The read-only credential is therefore also hidden
 * - wherever the reporting lists' Get Many has Simplify (no operation of the read-only key has it);
 * - on Summarize while Convert Totals To is empty (it reads the exchange rates only to convert);
 * - on Refund → Create, by its Deposit Identified By (Refund counts as a read-only resource through
 *   Summarize, and Create through Deposit → Create's pickers).
 * A test checks, with n8n's display logic, that every operation shows exactly its credentials, so an
 * operation added to one of these pairs without its rule here fails it.
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
