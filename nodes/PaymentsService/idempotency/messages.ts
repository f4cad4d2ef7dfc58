import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { RequestKey } from './keys';
import type { ServiceFailure } from '../transport/errors';

/**
 * Everything the create-once flow tells the user (service rules §5.2), in one voice for the three
 * creations: what a repeat answer (104, 511) turned out to be, why a record could not be confirmed,
 * and how to retry safely when the outcome is unknown (the look-up's own notes are in lookUp.ts).
 * Each message names the item, the key and what to do; none names a secret.
 */

/** How a creation's record and key are named in messages. */
export interface CreationNames {
	/** The record: "cashout", "deposit" or "refund". */
	noun: string;
	key: {
		/** What the key is sent as: "external ID" or "idempotency key". */
		name: string;
		/** The service's answer to a key sent again: 511 (cashouts) or 104 (deposits, refunds). */
		repeatCode: number;
		/** The key's field in the panel: "External ID" or "Idempotency Key". */
		field: string;
		/** The field that makes two requests with derived keys distinct ("External ID", "Invoice ID"). */
		distinctField: string;
	};
}

/** The field to change so that a request gets a key of its own: the key's own when the user gave it. */
const fieldToChange = (names: CreationNames, key: RequestKey) =>
	key.derived ? names.key.distinctField : names.key.field;

/** How a repeat answer was confirmed as this request's record. */
export type Confirmation =
	/** Found in the reporting list and compared. */
	| 'found'
	/** Not found, but the key itself names this request (a key derived from its fields and sent by this execution). */
	| 'byKey'
	/** Neither: output only because Options → Unconfirmed Repeat says so. */
	| 'unconfirmed';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** ": cashout 8405147 (PENDING)", or "" when nothing is known of the record. */
const named = (label: string) => (label ? `: ${label}` : '');

/** `2026-11-24 00:00 UTC` */
function utcMinute(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * What a creation's failure says when its outcome is unknown (no answer came back, or the service
 * answered 5xx): that the service may have acted, the key used, and how to retry without making a
 * second record. Given to the client as the request's `unknownOutcome`, so the error is built once.
 * @param subject The record asked for, when more than its noun says: "refund of deposit 123".
 */
export function unknownOutcome(
	names: CreationNames,
	key: RequestKey,
	subject = names.noun,
): (failure: ServiceFailure) => string {
	const { noun } = names;
	const field = names.key.name;
	const repeat = `the service recognises the repeat (${names.key.repeatCode}) and this node reports the existing ${noun} instead of making a second one`;
	const advice = key.derived
		? `The ${field} of this ${noun} is ${key.value} (derived). Retry On Fail and n8n's Retry of this execution send the same one at any time: ${repeat}. ` +
			`A new execution on the same input before ${utcMinute(key.window!.endMs)} sends it too, and fails as a repeat without making a second ${noun}. ` +
			`To retry it any other way, look the ${noun} up first, or give it this ${field} yourself.`
		: `The ${field} of this ${noun} is ${key.value}. Retrying with the same ${field} is safe at any time: ${repeat}.`;
	return (failure) => {
		const cause =
			failure.httpStatus === undefined
				? `No answer came back, so the ${subject} may or may not have been created.`
				: `The service failed (HTTP ${failure.httpStatus}) and may or may not have created the ${subject}.`;
		return `${cause} ${advice}`;
	};
}

/**
 * The error of a derived key that the service already knows from another execution of the same
 * request (same workflow, node, trigger data, position and fields): the node cannot tell a re-run
 * from a second request, so it makes nothing and reports nothing as made.
 * @param label The existing record as a noun phrase ("cashout 8405147 (PENDING)"), or "" when
 *   nothing is known of it.
 */
export function repeatOfAnotherExecution(
	context: IExecuteFunctions,
	itemIndex: number,
	names: CreationNames,
	key: string,
	label: string,
): NodeOperationError {
	const { noun } = names;
	return new NodeOperationError(
		context.getNode(),
		`${capitalised(noun)} in item ${itemIndex} was not created: it repeats a ${noun} an earlier execution requested from the same input`,
		{
			itemIndex,
			description:
				`The service already has the ${noun} of the ${names.key.name} derived for this request (${key})${named(label)}. ` +
				`An earlier execution of this workflow, started by the same trigger data, asked for it at the same position with the same fields, and this node cannot tell a re-run of that execution from a second request. ` +
				`If this execution repeats it (a re-run after a lost answer), nothing more is needed: that ${noun} stands. ` +
				`If it is another ${noun}, give each its own ${names.key.distinctField} (for example the order or withdrawal ID) and run it again. Nothing was created twice.`,
		},
	);
}

/**
 * The error of a key whose record differs from this request: the key belongs to another record.
 * @param differing One entry a field: "amount: 300.00 asked, 250 on the existing cashout".
 */
export function keyOfAnotherRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	names: CreationNames,
	key: RequestKey,
	label: string,
	differing: string[],
): NodeOperationError {
	const { noun } = names;
	return new NodeOperationError(
		context.getNode(),
		`${capitalised(noun)} in item ${itemIndex} was not created: ${names.key.name} ${key.value} already belongs to another ${noun}`,
		{
			itemIndex,
			description: `The service refused it (${names.key.repeatCode}): ${label || `the ${noun} made with this ${names.key.name}`} differs from this request (${differing.join('; ')}). No second ${noun} was made. Give this ${noun} its own ${fieldToChange(names, key)}.`,
		},
	);
}

/**
 * The error of a repeat answer whose record could not be found and compared (no Session credential,
 * not in the list yet, a given key sent again by a new execution).
 * @param found What is known of the record (a noun phrase, or "") and why it was not found (the
 *   look-up's note, starting with a space, or "").
 * @param whereToLook Where the user finds the record: "Cashout → Get Many, or the merchant panel".
 */
export function unconfirmedRepeat(
	context: IExecuteFunctions,
	itemIndex: number,
	names: CreationNames,
	key: RequestKey,
	found: { label: string; note: string },
	whereToLook: string,
): NodeOperationError {
	const { noun } = names;
	const known = found.label ? ` (the service has ${found.label})` : '';
	return new NodeOperationError(
		context.getNode(),
		`${capitalised(noun)} in item ${itemIndex}: ${names.key.name} ${key.value} was already used, and the ${noun} it belongs to could not be confirmed`,
		{
			itemIndex,
			description:
				`The service refused a second ${noun} with this ${names.key.name} (${names.key.repeatCode}), so no second ${noun} was made, but the ${noun} it belongs to could not be found and compared with this request${known}.${found.note} ` +
				`Look it up (${whereToLook}): if it is this ${noun}, nothing more is needed; if not, give this ${noun} its own ${fieldToChange(names, key)}. ` +
				'To output such items instead, set Options → Unconfirmed Repeat to "Output It Unconfirmed".',
		},
	);
}

/**
 * The message of an item whose key the service already knew (104, 511), and how it was confirmed.
 * Made now (this execution's own request, its outcome unknown until the repeat answer): "Cashout
 * created (external ID payout-7): this execution sent it before without learning the outcome, and
 * the service recognised it sent again (511); no second cashout was made."; otherwise "Cashout
 * already created by an earlier attempt (external ID payout-7); no second cashout was made.".
 * @param found How it was confirmed; the record as a noun phrase ("cashout 8405147 (PENDING)", or
 *   ""); the look-up's note; the fields compared with the found record.
 */
export function repeatMessage(
	names: CreationNames,
	key: RequestKey,
	found: { confirmation: Confirmation; label: string; note: string; compared: string[] },
	madeNow: boolean,
): string {
	const { noun } = names;
	const fields = found.compared.length
		? found.compared.length === 1
			? found.compared[0]
			: `${found.compared.slice(0, -1).join(', ')} and ${found.compared[found.compared.length - 1]}`
		: '';
	const how =
		found.confirmation === 'found'
			? ` It is ${found.label || `the ${noun} found`}${fields ? `, with the same ${fields}` : ''}.`
			: found.confirmation === 'byKey'
				? ` It is ${found.label || `the ${noun} of this key`}: its ${names.key.name} was derived from this request's fields, and this execution sent it before (that answer was lost), so it is this ${noun}.${found.note}`
				: `${found.label ? ` It is ${found.label}.` : ''}${found.note} It could not be compared with this request: if it is not this ${noun}, give this one its own ${fieldToChange(names, key)}.`;
	const what = madeNow
		? `${capitalised(noun)} created (${names.key.name} ${key.value}): this execution sent it before without learning the outcome, and the service recognised it sent again (${names.key.repeatCode}); no second ${noun} was made.`
		: `${capitalised(noun)} already created by an earlier attempt (${names.key.name} ${key.value}); no second ${noun} was made.`;
	return `${what}${how}`;
}
