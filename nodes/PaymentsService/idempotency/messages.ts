import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestKey } from './keys';
import type { ServiceFailure } from '../transport/errors';

/** What the create-once flow tells the user (service rules §5.2): its errors and advice, in one voice. */

/** `2026-11-24 00:00 UTC` */
function utcMinute(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * What to tell the user when a creation's outcome is unknown (no answer, or a 5xx): the key used,
 * and how to retry without creating a second record. `field` names what the key is sent as
 * ("idempotency key", "external ID"); `code` is the service's answer to a repeat (104, 511).
 */
export function safeRetryAdvice(
	creation: RequestKey,
	field: string,
	code: number,
	noun: string,
): string {
	const repeat = `the service recognises the repeat (${code}) and this node reports the existing ${noun} instead of making a second one`;
	if (!creation.derived)
		return `The ${field} of this ${noun} is ${creation.key}. Retrying with the same ${field} is safe at any time: ${repeat}.`;
	return (
		`The ${field} of this ${noun} is ${creation.key} (derived). Retry On Fail and n8n's Retry of this execution send the same one at any time: ${repeat}. ` +
		`A new execution on the same input before ${utcMinute(creation.window!.endMs)} sends it too, and fails as a repeat without making a second ${noun}. ` +
		`To retry it any other way, look the ${noun} up first, or give it this ${field} yourself.`
	);
}

/**
 * Fails item `itemIndex` when the service refused its key as already used and the record could not
 * be found and compared, unless the Unconfirmed Repeat option says to output it (then it returns,
 * and the caller outputs the item with `matches_request: null`).
 * @throws NodeOperationError `<message>` with `description`: what is known and what to do.
 */
export function failUnlessUnconfirmedAllowed(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	message: string,
	description: string,
): void {
	if (options.unconfirmedRepeat === 'output') return;
	throw new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: `${description} To output such items instead, set Options → Unconfirmed Repeat to "Output It Unconfirmed".`,
	});
}

/**
 * The error of a derived key that the service already knows from another execution of the same
 * request (same workflow, node, trigger data, position and fields): the node cannot tell a re-run
 * from a second request, so it makes nothing and reports nothing as made (service rules §5.2).
 * @param found What is known of the existing record, e.g. " (cashout 8405147, PENDING)", or "".
 * @param givenField The field that makes two requests distinct ("External ID", "Invoice ID").
 */
export function repeatOfAnotherExecution(
	context: IExecuteFunctions,
	itemIndex: number,
	noun: string,
	creation: RequestKey,
	field: string,
	found: string,
	givenField: string,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`${noun.charAt(0).toUpperCase()}${noun.slice(1)} in item ${itemIndex} was not created: it repeats a ${noun} an earlier execution requested from the same input`,
		{
			itemIndex,
			description:
				`The service already has the ${noun} of the ${field} derived for this request (${creation.key})${found}. ` +
				`An earlier execution of this workflow, started by the same trigger data, asked for it at the same position with the same fields, and this node cannot tell a re-run of that execution from a second request. ` +
				`If this execution repeats it (a re-run after a lost answer), nothing more is needed: that ${noun} stands. ` +
				`If it is another ${noun}, give each its own ${givenField} (for example the order or withdrawal ID) and run it again. Nothing was created twice.`,
		},
	);
}

/**
 * What a creation's failure says when its outcome is unknown (no answer came back, or the service
 * answered 5xx): that the service may have acted, and how to retry safely ({@link safeRetryAdvice}).
 * Given to the client as the request's `unknownOutcome`, so the error is built with it once.
 */
export function unknownCreationOutcome(
	creation: RequestKey,
	field: string,
	code: number,
	noun: string,
): (failure: ServiceFailure) => string {
	return (failure) => {
		const cause =
			failure.httpStatus === undefined
				? `No answer came back, so the ${noun} may or may not have been created.`
				: `The service failed (HTTP ${failure.httpStatus}) and may or may not have created the ${noun}.`;
		return `${cause} ${safeRetryAdvice(creation, field, code, noun)}`;
	};
}
