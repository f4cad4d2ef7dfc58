import fc from 'fast-check';
import {
	isMalformed,
	parseNotification,
	type Notification,
} from '../../../../nodes/PaymentsService/trigger/notification/parsing';
import { memoryKey } from '../../../../nodes/PaymentsService/trigger/notification/memory';

const CASHOUT_FORM =
	'date=2026-11-02+12%3A00%3A00&bank_reference_id=bank-ref-700123&comments=payout+%237&external_id=p-7&control=AB12&cashout_id=700123&status_reason=';

describe('parseNotification (service rules §10)', () => {
	test('a deposit notification, as JSON or as the text of a body n8n did not parse', () => {
		for (const body of [
			{ deposit_id: 3000000001 },
			{ deposit_id: '3000000001' },
			'{"deposit_id": 3000000001}',
			Buffer.from('{"deposit_id":3000000001}'),
		]) {
			expect(parseNotification(body)).toEqual({
				kind: 'deposit',
				depositId: 3000000001,
				fields: {
					deposit_id:
						typeof body === 'object' && !Buffer.isBuffer(body) ? body.deposit_id : 3000000001,
				},
			});
		}
	});

	test('a cashout notification, as n8n parses the form or as raw form text: read by cashout_id, every field kept', () => {
		const form = Object.fromEntries(new URLSearchParams(CASHOUT_FORM));
		for (const body of [form, CASHOUT_FORM]) {
			expect(parseNotification(body)).toEqual({
				kind: 'cashout',
				cashoutId: 700123,
				externalId: 'p-7',
				fields: form,
			});
		}
		// n8n's form parser gives an object without a prototype.
		const bare = Object.assign(Object.create(null) as Record<string, unknown>, form);
		expect(parseNotification(bare)).toMatchObject({ kind: 'cashout', cashoutId: 700123 });
	});

	test('a cashout without its id is read by external_id', () => {
		expect(parseNotification({ cashout_id: '', external_id: ' p-8 ' })).toEqual({
			kind: 'cashout',
			externalId: 'p-8',
			fields: { cashout_id: '', external_id: ' p-8 ' },
		});
	});

	test.each([
		[undefined, /not a JSON object or a form/],
		['', /not a JSON object or a form/],
		[[1, 2], /not a JSON object or a form/],
		[{}, /no deposit_id, cashout_id or external_id/],
		[{ date: '2026-11-02 12:00:00' }, /no deposit_id, cashout_id or external_id/],
		[{ deposit_id: 'abc' }, /deposit_id is not a positive whole number/],
		[{ deposit_id: 0 }, /deposit_id is not a positive whole number/],
		[{ deposit_id: -5 }, /deposit_id is not a positive whole number/],
		[{ deposit_id: 1.5 }, /deposit_id is not a positive whole number/],
		[{ deposit_id: '12345678901234567' }, /deposit_id is not a positive whole number/],
		[{ deposit_id: { $gt: 1 } }, /deposit_id is not a positive whole number/],
		[{ cashout_id: '7x', external_id: 'p-7' }, /cashout_id is not a positive whole number/],
		[{ cashout_id: ['1', '2'] }, /cashout_id is given more than once/],
		[{ deposit_id: 1, cashout_id: 2 }, /both a deposit and a cashout/],
		[{ external_id: 'x'.repeat(101) }, /longer than 100/],
		[{ external_id: { a: 1 } }, /external_id is not a text/],
	])('%j is malformed', (body, problem) => {
		const parsed = parseNotification(body);
		expect(isMalformed(parsed) && parsed.problem).toMatch(problem);
	});

	test('the problem never repeats a value of the body', () => {
		fc.assert(
			fc.property(fc.string({ minLength: 1 }), (value) => {
				const parsed = parseNotification({ deposit_id: `${value}x` });
				return isMalformed(parsed) && !parsed.problem.includes(`${value}x`);
			}),
		);
	});

	test('record keys: d:<deposit_id>, c:<cashout_id>, x:<external_id>', () => {
		const keys = [{ deposit_id: 5 }, { cashout_id: 6, external_id: 'e' }, { external_id: 'e' }].map(
			(body) => memoryKey(parseNotification(body) as Notification),
		);
		expect(keys).toEqual(['d:5', 'c:6', 'x:e']);
	});
});
