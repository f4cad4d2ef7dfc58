import {
	REFUND_COLLECTIONS,
	REFUND_FIELDS,
	validateRefundRequest,
} from '../../../nodes/PaymentsService/bodies/refundSchema';
import { fieldParameters } from '../../../nodes/PaymentsService/bodies/requestFields';

const lines = (body: unknown) => {
	const result = validateRefundRequest(body);
	return result.ok ? [] : result.problems.map((problem) => `${problem.field} ${problem.problem}`);
};

describe('validateRefundRequest (service rules §7)', () => {
	test('a deposit ID alone is a full refund; it is sent as a number', () => {
		expect(validateRefundRequest({ deposit_id: '300012345' })).toEqual({
			ok: true,
			value: { deposit_id: 300012345 },
		});
		expect(validateRefundRequest({ invoice_id: 'order-7', amount: '10.50' })).toEqual({
			ok: true,
			value: { invoice_id: 'order-7', amount: '10.50' },
		});
	});

	test('every field of the table is accepted, the bank account as a nested object', () => {
		const body = {
			deposit_id: 3,
			invoice_id: 'inv-3',
			amount: 12,
			bank_account: {
				beneficiary: 'Ana',
				bank_code: '341',
				branch: '1',
				account_number: '2',
				account_type: 'C',
			},
			comments: 'Returned',
			notification_url: 'https://shop.example.com/refunds',
		};
		expect(validateRefundRequest(body)).toEqual({ ok: true, value: body });
	});

	test('a body that names no deposit, or breaks rules, gets every problem', () => {
		expect(lines({})).toEqual(['deposit_id or invoice_id is required: name the deposit to refund']);
		expect(
			lines({
				deposit_id: 0,
				amount: '-1',
				comments: 'x'.repeat(256),
				notification_url: 'http://a.example',
				bank_account: { iban: 'x' },
			}),
		).toEqual([
			'deposit_id must be a positive whole number, the deposit_id of the deposit, e.g. 300012345',
			'amount must be a positive decimal with at most 18 integer digits and 2 decimals, e.g. 100.50',
			'bank_account.iban is not a field of the request; check the spelling against the API reference',
			'comments must be at most 255 characters',
			'notification_url must be an HTTPS URL (https://...)',
		]);
	});

	test('the node asks for the deposit by ID or by invoice ID, the bank account in its own collection', () => {
		const parameters = fieldParameters(REFUND_FIELDS, REFUND_COLLECTIONS);
		expect(
			parameters.map((parameter) => [
				parameter.name,
				parameter.required ?? false,
				parameter.displayOptions?.show?.identifyBy?.[0],
			]),
		).toEqual([
			['depositId', true, 'depositId'],
			['invoiceId', true, 'invoiceId'],
			['amount', false, undefined],
			['bankAccount', false, undefined],
			['additionalFields', false, undefined],
		]);
	});
});
