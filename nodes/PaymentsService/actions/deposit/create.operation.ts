import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { IDEMPOTENCY_HEADER } from '../../codes/constants';
import { givenKeyProblem } from '../../idempotency/keys';
import { REPORTING_LISTS } from '../../reporting/lists';
import {
	DEPOSIT_COLLECTIONS,
	DEPOSIT_FIELDS,
	validateDepositRequest,
} from '../../bodies/depositSchema';
import { fieldParameters } from '../../bodies/requestFields';
import type { PaymentsClient } from '../../transport/client';
import { readDeposit } from '../../transport/deposits';
import { isFailureKind } from '../../transport/errors';
import { findInexactNumbers } from '../../bodies/jsonNumbers';
import {
	duplicateWindowOption,
	failUnlessUnconfirmedAllowed,
	idempotencyKeyCreation,
	idempotencyKeyOption,
	recordAttempt,
	recordRefusedRepeat,
	repeatOfAnotherExecution,
	unconfirmedRepeatOption,
	unknownCreationOutcome,
	type CreationKey,
} from '../../idempotency/creation';
import {
	createdBeforeAttempt,
	differences,
	findEarlierRecord,
	recoveryNote,
	recoveryPeriod,
	type Recovery,
} from '../../idempotency/recovery';
import { bodyFromFields, invalidBodyError } from '../common/requestBody';
import { toNodeError } from '../common/nodeError';
import { optionsCollection } from '../../parameters/options';
import { positiveId } from '../../codes/ids';

export const properties: INodeProperties[] = [
	{
		displayName: 'Specify Body',
		name: 'specifyBody',
		type: 'options',
		default: 'fields',
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		description:
			'Whether to fill in the deposit field by field or to send a whole request body as JSON',
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: '{\n  "amount": "100.00",\n  "currency": "BRL",\n  "country": "BR"\n}',
		required: true,
		displayOptions: { show: { specifyBody: ['json'] } },
		description:
			'The deposit request body, with the field names of the API (snake_case). The fields the node knows are validated before sending; others are sent as they are and listed in the output as unchecked_fields.',
	},
	...updateDisplayOptions(
		{ show: { specifyBody: ['fields'] } },
		fieldParameters(DEPOSIT_FIELDS, DEPOSIT_COLLECTIONS),
	),
	optionsCollection([
		duplicateWindowOption,
		idempotencyKeyOption('the same deposit being created twice'),
		unconfirmedRepeatOption,
		{
			displayName: 'Put QR Code in Binary Property',
			name: 'qrCodeToBinary',
			type: 'boolean',
			default: false,
			description: 'Whether to output the QR code of a ONE_SHOT deposit as a PNG file',
		},
		{
			displayName: 'QR Code Binary Property',
			name: 'qrCodeBinaryProperty',
			type: 'string',
			default: 'qrCode',
			displayOptions: { show: { qrCodeToBinary: [true] } },
			description: 'Name of the binary property the PNG is written to',
		},
	]),
];

/** The deposit body of item `itemIndex` from the JSON Body parameter, refused when not exactly an object. */
function bodyFromJson(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = context.getNodeParameter('jsonBody', itemIndex) as unknown;
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = JSON.parse(raw);
		} catch (error) {
			throw new NodeOperationError(
				context.getNode(),
				`JSON Body of item ${itemIndex} is not valid JSON`,
				{
					itemIndex,
					description: `${(error as Error).message}. Write the deposit request as a JSON object.`,
				},
			);
		}
		// JSON.parse rounds numbers past a double's precision: refuse rather than send another amount.
		const inexact = findInexactNumbers(raw);
		if (inexact.length) {
			throw new NodeOperationError(
				context.getNode(),
				`JSON Body of item ${itemIndex} has the number ${inexact[0]}, which a JavaScript number cannot carry exactly`,
				{
					itemIndex,
					description: `Nothing was sent. It would arrive as ${String(Number(inexact[0]))}. Write ${inexact.length === 1 ? 'it' : `these numbers (${inexact.join(', ')})`} as text instead, e.g. "amount": "${inexact[0]}".`,
				},
			);
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(
			context.getNode(),
			`JSON Body of item ${itemIndex} must be a JSON object`,
			{
				itemIndex,
				description:
					'Write the deposit request as an object, e.g. {"amount": "10.00", "currency": "BRL", "country": "BR"}.',
			},
		);
	}
	return parsed as IDataObject;
}

/**
 * Deposit → Create: `POST /v3/deposits` (service rules §5.1, §5.2), signed with the deposit
 * credential and sent with an `X-Idempotency-Key` (given, or derived: idempotency/creation.ts). One
 * item per input item: the service's answer (`checkout_type`, `deposit_id`, `redirect_url`,
 * `payment_info`…) plus `idempotency_key`, or after a 104 the existing deposit
 * (`already_created: true`).
 * @throws NodeOperationError for a field that breaks its rule (nothing is sent), for a repeat of
 *   another execution's request and for a repeat that cannot be confirmed; NodeApiError for a
 *   refusal or a failure.
 */
export async function execute(
	this: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { request, unchecked } = checkedRequest.call(this, itemIndex);
	const creation = idempotencyKeyCreation(this, itemIndex, 'Deposit', request, options);
	const idempotencyKey = creation.key;
	// Without an invoice ID the key is sent as the invoice ID, so the deposit can be traced back
	// (and found again after a lost answer). A given key that is not a valid invoice ID is not.
	if (
		request.invoice_id === undefined &&
		givenKeyProblem('invoiceId', idempotencyKey) === undefined
	) {
		request.invoice_id = idempotencyKey;
	}
	await refuseRepeatOfPreviousWindow.call(this, request, creation, itemIndex);
	recordAttempt(this, creation);
	let result: IDataObject;
	try {
		result = await client.request<IDataObject>(
			{
				family: 'payments',
				method: 'POST',
				path: '/v3/deposits',
				body: request,
				headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
			},
			{
				action: `Creating the deposit of item ${itemIndex}`,
				itemIndex,
				unknownOutcome: unknownCreationOutcome(creation, 'idempotency key', 104, 'deposit'),
			},
		);
	} catch (error) {
		if (!isFailureKind(error, 'keyAlreadyUsed'))
			throw toNodeError(this.getNode(), error, itemIndex);
		const json = await alreadyCreated.call(this, client, request, creation, itemIndex, options);
		return [{ json: { ...json, ...unchecked } }];
	}
	const output: INodeExecutionData = {
		json: { ...result, idempotency_key: idempotencyKey, ...unchecked },
	};
	const qrCode = await qrCodeBinary.call(this, result, request, options);
	if (qrCode) output.binary = qrCode;
	return [output];
}

/**
 * The request of item `itemIndex` from its fields or its JSON body, every known field checked;
 * `unchecked` names the fields the table does not know, sent as they are (service rules §5.1).
 * @throws NodeOperationError naming every broken field (nothing is sent).
 */
function checkedRequest(
	this: IExecuteFunctions,
	itemIndex: number,
): { request: IDataObject; unchecked: IDataObject } {
	const specifyBody = this.getNodeParameter('specifyBody', itemIndex, 'fields') as string;
	const body =
		specifyBody === 'json'
			? bodyFromJson(this, itemIndex)
			: bodyFromFields(this, itemIndex, DEPOSIT_FIELDS, 'Deposit');
	const checked = validateDepositRequest(body);
	if (!checked.ok) throw invalidBodyError(this, itemIndex, 'Deposit', checked.problems);
	return {
		request: { ...checked.value },
		unchecked: checked.unchecked.length ? { unchecked_fields: checked.unchecked } : {},
	};
}

/**
 * On a first attempt just after a Duplicate Window boundary, with a derived invoice ID and a
 * Session credential, looks for the deposit of the previous window's key in the deposit list: a
 * re-run of a request whose answer was lost before the boundary sent that key, as its invoice ID
 * too. Without a Session credential nothing is read.
 * @throws NodeOperationError ({@link repeatOfAnotherExecution}) when that deposit exists.
 */
async function refuseRepeatOfPreviousWindow(
	this: IExecuteFunctions,
	request: IDataObject,
	creation: CreationKey,
	itemIndex: number,
): Promise<void> {
	const previousKey = creation.previousWindowKey;
	if (!previousKey || request.invoice_id !== creation.key) return;
	const earlier = await findEarlierRecord(
		this,
		itemIndex,
		{ ...depositLookup(request), match: (record) => record.externalId === previousKey },
		recoveryPeriod({ ...creation, key: previousKey }, Date.now()),
	);
	if (earlier.outcome !== 'found') return;
	throw repeatOfAnotherExecution(
		this,
		itemIndex,
		'deposit',
		{ ...creation, key: previousKey },
		'idempotency key',
		` (deposit ${String(earlier.record.idDeposit)}, ${String(earlier.record.status)}, created in the previous Duplicate Window)`,
		'Invoice ID',
	);
}

/**
 * The ONE_SHOT answer's QR code as a PNG in binary data, when Options → Put QR Code in Binary
 * Property is on and the answer has one; undefined otherwise.
 */
async function qrCodeBinary(
	this: IExecuteFunctions,
	result: IDataObject,
	request: IDataObject,
	options: IDataObject,
): Promise<INodeExecutionData['binary']> {
	if (options.qrCodeToBinary !== true) return undefined;
	const paymentInfo = result.payment_info as IDataObject | undefined;
	const secondary = paymentInfo?.secondary_metadata as IDataObject | undefined;
	const qrCode = secondary?.qr_code;
	if (typeof qrCode !== 'string' || qrCode === '') return undefined;
	const property = String(options.qrCodeBinaryProperty || 'qrCode');
	const base64 = qrCode.replace(/^data:image\/png;base64,/, '');
	return {
		[property]: await this.helpers.prepareBinaryData(
			Buffer.from(base64, 'base64'),
			`deposit-${String(result.deposit_id ?? request.invoice_id ?? 'qr')}.png`,
			'image/png',
		),
	};
}

/** The deposit list read that finds a deposit of `request`: its filters (narrowing the first read). */
function depositLookup(request: IDataObject) {
	const payer = (request.payer as IDataObject | undefined) ?? {};
	return {
		list: REPORTING_LISTS.deposit,
		filters: {
			country: request.country,
			clientDocument: payer.document,
			paymentMethod: request.payment_method,
		},
	};
}

/**
 * The item of a 104 (key already used): no deposit is made again (service rules §5.2).
 * - A derived key no attempt of this execution sent: another execution's deposit, so the item
 *   fails ({@link repeatOfAnotherExecution}).
 * - Otherwise, with a Session credential on the node and an invoice ID to find it by, the deposit
 *   is found in the deposit list by invoice ID alone, compared with this request (amount, currency,
 *   country, payer document) and its current status read (`GET /v3/deposits/{id}`):
 *   `already_created: true, matches_request: true`. The payment instructions (`redirect_url`,
 *   `payment_info`) came only in the lost answer: no call gives them again.
 * @throws NodeOperationError when a field differs, when the deposit was created before this
 *   execution first sent the key, and when the deposit cannot be found and compared (no Session
 *   credential, no invoice ID, not in the list yet), unless Options → Unconfirmed Repeat says to
 *   output it (`matches_request: null`).
 */
async function alreadyCreated(
	this: IExecuteFunctions,
	client: PaymentsClient,
	request: IDataObject,
	creation: CreationKey,
	itemIndex: number,
	options: IDataObject,
): Promise<IDataObject> {
	const key = creation.key;
	const invoiceId = request.invoice_id as string | undefined;
	const recovery: Recovery = invoiceId
		? await findEarlierRecord(
				this,
				itemIndex,
				{ ...depositLookup(request), match: (record) => record.externalId === invoiceId },
				recoveryPeriod(creation, Date.now()),
			)
		: { outcome: 'not-found', pagesRead: 0, capped: false };
	const found = recovery.outcome === 'found' ? recovery.record : undefined;
	const described = found ? ` (deposit ${String(found.idDeposit)}, ${String(found.status)})` : '';
	const ours =
		!creation.derived ||
		(creation.earlierAttemptMs !== undefined &&
			!(found && createdBeforeAttempt(found, 'creationDate', creation.earlierAttemptMs)));
	if (!ours) {
		recordRefusedRepeat(this, creation);
		throw repeatOfAnotherExecution(
			this,
			itemIndex,
			'deposit',
			creation,
			'idempotency key',
			described,
			'Invoice ID',
		);
	}
	let depositId: number | null = null;
	let status: string | null = null;
	let compared: string;
	if (found) {
		refuseAnotherDeposit.call(this, request, found, key, itemIndex);
		depositId = positiveId(found.idDeposit) ?? null;
		status = await currentStatus(client, found, depositId, itemIndex);
		compared = ` It is deposit ${String(depositId)} (${String(status)}), with the same amount, currency, country and payer. Its payment instructions (redirect_url, payment_info) came only in the lost answer and cannot be read again: read the deposit with Deposit → Get Status, and if the customer needs instructions, create a new deposit with its own Invoice ID.`;
	} else {
		compared = unconfirmed.call(this, options, itemIndex, key, invoiceId, recovery);
	}
	return {
		already_created: true,
		matches_request: found ? true : null,
		deposit_id: depositId,
		status,
		merchant_invoice_id: invoiceId ?? null,
		idempotency_key: key,
		payment_instructions_recovered: false,
		message: `Deposit already created by an earlier attempt (idempotency key ${key}${invoiceId ? `, invoice ${invoiceId}` : ''}); no second deposit was made.${compared}`,
	};
}

/**
 * Compares the deposit found under this key with the request: amount, currency, country and payer
 * document.
 * @throws NodeOperationError naming each field that differs: the key belongs to another deposit.
 */
function refuseAnotherDeposit(
	this: IExecuteFunctions,
	request: IDataObject,
	record: IDataObject,
	key: string,
	itemIndex: number,
): void {
	const payer = (request.payer as IDataObject | undefined) ?? {};
	const differing = differences(
		[
			{ field: 'amount', asked: request.amount, found: record.requestedAmount },
			{ field: 'currency', asked: request.currency, found: record.requestedCurrency },
			{ field: 'country', asked: request.country, found: record.country },
			{ field: 'payer.document', asked: payer.document, found: record.clientDocument },
		],
		'deposit',
	);
	if (!differing.length) return;
	throw new NodeOperationError(
		this.getNode(),
		`Deposit in item ${itemIndex} was not created: idempotency key ${key} was already used for another deposit`,
		{
			itemIndex,
			description: `The service refused it (104): deposit ${String(record.idDeposit)} (invoice ${String(request.invoice_id)}) was created with this key and differs from this request (${differing.join('; ')}). No second deposit was made. Give this deposit its own Idempotency Key or Invoice ID.`,
		},
	);
}

/** The deposit's current status (`GET /v3/deposits/{id}`), or the list's when that read fails. */
async function currentStatus(
	client: PaymentsClient,
	record: IDataObject,
	depositId: number | null,
	itemIndex: number,
): Promise<string | null> {
	const listed = typeof record.status === 'string' ? record.status : null;
	if (depositId === null) return listed;
	try {
		const current = await readDeposit(client, depositId, {
			action: `Reading the status of deposit ${depositId}`,
			itemIndex,
		});
		return typeof current.status === 'string' ? current.status : listed;
	} catch {
		// The list's status stands; the deposit exists either way.
		return listed;
	}
}

/**
 * What a 104 says when its deposit cannot be found and compared (no Session credential, no invoice
 * ID, not in the list yet): it fails the item unless Options → Unconfirmed Repeat says to output it,
 * and then returns the sentence the output's message ends with.
 * @throws NodeOperationError saying what is known and what to check.
 */
function unconfirmed(
	this: IExecuteFunctions,
	options: IDataObject,
	itemIndex: number,
	key: string,
	invoiceId: string | undefined,
	recovery: Recovery,
): string {
	const why = invoiceId
		? recoveryNote(recovery, 'deposit', 'deposit')
		: ' Without an Invoice ID it cannot be looked up.';
	failUnlessUnconfirmedAllowed(
		this,
		itemIndex,
		options,
		`Deposit in item ${itemIndex}: idempotency key ${key} was already used, and the deposit it belongs to could not be confirmed`,
		`The service refused a second deposit with this key (104), so no second deposit was made, but the deposit it belongs to could not be found and compared with this request.${why} Look it up (Deposit → Get Many by invoice ${invoiceId ?? 'ID'}, or the merchant panel): if it is this deposit, read it with Deposit → Get Status; its payment instructions came only in the lost answer, so a customer who needs them needs a new deposit with its own Invoice ID.`,
	);
	return `${why} It could not be compared with this request: if it is not this deposit, give this one its own Idempotency Key.`;
}
