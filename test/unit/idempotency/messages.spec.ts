import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { RequestKey } from '../../../nodes/PaymentsService/idempotency/keys';
import {
	keyOfAnotherRecord,
	repeatMessage,
	repeatOfAnotherExecution,
	unconfirmedRepeat,
	unknownOutcome,
	type CreationNames,
} from '../../../nodes/PaymentsService/idempotency/messages';

/**
 * The create-once flow's messages (idempotency/messages.ts): one voice for the three creations,
 * each naming the item, the key and what to do; the field to change is the key's own when the user
 * gave it.
 */

const context = { getNode: () => ({ name: 'Payments Service' }) as INode } as IExecuteFunctions;
const DEPOSIT: CreationNames = {
	noun: 'deposit',
	key: {
		name: 'idempotency key',
		repeatCode: 104,
		field: 'Idempotency Key',
		distinctField: 'Invoice ID',
	},
};
const derived: RequestKey = {
	value: 'n8n-key',
	derived: true,
	window: { label: '2026-11-27', startMs: 0, endMs: Date.UTC(2026, 10, 28) },
};
const given: RequestKey = { value: 'order-7', derived: false };

describe('messages of the create-once flow', () => {
	test('an unknown outcome says the service may have acted, the key and how to retry: any time for a given key, within the window for a derived one', () => {
		expect(unknownOutcome(DEPOSIT, given)({})).toBe(
			'No answer came back, so the deposit may or may not have been created. The idempotency key of this deposit is order-7. Retrying with the same idempotency key is safe at any time: the service recognises the repeat (104) and this node reports the existing deposit instead of making a second one.',
		);
		expect(unknownOutcome(DEPOSIT, given, 'refund of deposit 9')({})).toMatch(
			/^No answer came back, so the refund of deposit 9 may or may not have been created\. /,
		);
		expect(unknownOutcome(DEPOSIT, derived)({ httpStatus: 500 })).toBe(
			"The service failed (HTTP 500) and may or may not have created the deposit. The idempotency key of this deposit is n8n-key (derived). Retry On Fail and n8n's Retry of this execution send the same one at any time: the service recognises the repeat (104) and this node reports the existing deposit instead of making a second one. A new execution on the same input before 2026-11-28 00:00 UTC sends it too, and fails as a repeat without making a second deposit. To retry it any other way, look the deposit up first, or give it this idempotency key yourself.",
		);
	});

	test('a repeat of another execution names the record when it is known', () => {
		const error = repeatOfAnotherExecution(context, 1, DEPOSIT, 'n8n-key', 'deposit 9 (PENDING)');
		expect(error.message).toBe(
			'Deposit in item 1 was not created: it repeats a deposit an earlier execution requested from the same input',
		);
		expect(error.description).toMatch(
			/^The service already has the deposit of the idempotency key derived for this request \(n8n-key\): deposit 9 \(PENDING\)\. .* give each its own Invoice ID .* Nothing was created twice\.$/,
		);
		expect(repeatOfAnotherExecution(context, 1, DEPOSIT, 'n8n-key', '').description).toMatch(
			/^The service already has the deposit of the idempotency key derived for this request \(n8n-key\)\. /,
		);
	});

	test('a key of another record names the differing fields, and the field to change: the key itself when the user gave it', () => {
		const differing = ['amount: 12.00 asked, 10 on the existing deposit'];
		const error = keyOfAnotherRecord(context, 0, DEPOSIT, given, 'deposit 9 (PENDING)', differing);
		expect(error.message).toBe(
			'Deposit in item 0 was not created: idempotency key order-7 already belongs to another deposit',
		);
		expect(error.description).toBe(
			'The service refused it (104): deposit 9 (PENDING) differs from this request (amount: 12.00 asked, 10 on the existing deposit). No second deposit was made. Give this deposit its own Idempotency Key.',
		);
		expect(keyOfAnotherRecord(context, 0, DEPOSIT, derived, '', differing).description).toBe(
			'The service refused it (104): the deposit made with this idempotency key differs from this request (amount: 12.00 asked, 10 on the existing deposit). No second deposit was made. Give this deposit its own Invoice ID.',
		);
	});

	test('an unconfirmed repeat says what is known, why it was not found, where to look and how to output it anyway', () => {
		const error = unconfirmedRepeat(
			context,
			2,
			DEPOSIT,
			given,
			{ label: '', note: ' Without an Invoice ID it cannot be looked up.' },
			'Deposit → Get Many, or the merchant panel',
		);
		expect(error.message).toBe(
			'Deposit in item 2: idempotency key order-7 was already used, and the deposit it belongs to could not be confirmed',
		);
		expect(error.description).toBe(
			'The service refused a second deposit with this idempotency key (104), so no second deposit was made, but the deposit it belongs to could not be found and compared with this request. Without an Invoice ID it cannot be looked up. Look it up (Deposit → Get Many, or the merchant panel): if it is this deposit, nothing more is needed; if not, give this deposit its own Idempotency Key. To output such items instead, set Options → Unconfirmed Repeat to "Output It Unconfirmed".',
		);
	});

	test.each([
		[
			'found',
			{ label: 'deposit 9 (PENDING)', note: '', compared: ['amount', 'currency', 'country'] },
			' It is deposit 9 (PENDING), with the same amount, currency and country.',
		],
		[
			'byKey',
			{ label: '', note: ' Not listed yet.', compared: [] },
			" It is the deposit of this key: its idempotency key was derived from this request's fields, and this execution sent it before (that answer was lost), so it is this deposit. Not listed yet.",
		],
		[
			'unconfirmed',
			{ label: '', note: ' Not listed yet.', compared: [] },
			' Not listed yet. It could not be compared with this request: if it is not this deposit, give this one its own Invoice ID.',
		],
	] as const)(
		'a repeat answer, %s: made now by this execution, or already made',
		(confirmation, found, how) => {
			const message = (madeNow: boolean) =>
				repeatMessage(
					DEPOSIT,
					derived,
					{ confirmation, ...found, compared: [...found.compared] },
					madeNow,
				);
			expect(message(false)).toBe(
				`Deposit already created by an earlier attempt (idempotency key n8n-key); no second deposit was made.${how}`,
			);
			expect(message(true)).toBe(
				`Deposit created (idempotency key n8n-key): this execution sent it before without learning the outcome, and the service recognised it sent again (104); no second deposit was made.${how}`,
			);
		},
	);
});
