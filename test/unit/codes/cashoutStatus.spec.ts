import { describeCashoutStatus } from '../../../nodes/PaymentsService/codes/cashoutStatus';

describe('describeCashoutStatus', () => {
	test.each([
		[0, 'PENDING'],
		[1, 'COMPLETED'],
		[2, 'CANCELLED'],
		[3, 'REJECTED'],
		[4, 'DELIVERED'],
		[5, 'ON_HOLD'],
	])('cashout_status %p is named %p', (code, name) => {
		expect(describeCashoutStatus({ cashout_status: code }).cashout_status_name).toBe(name);
	});

	test('a rejected cashout gets its rejection name and keeps every original field unchanged', () => {
		const original = {
			cashout_status: 3,
			cashout_status_description: 'Rejected',
			rejection_code: 814,
			rejection_reason: 'Invalid PIX key',
			extra_field: { nested: [1, 2] },
		};
		const copy = JSON.parse(JSON.stringify(original)) as unknown;
		const described = describeCashoutStatus(original);
		expect(described).toEqual({
			...original,
			cashout_status_name: 'REJECTED',
			rejection_code_name: 'INVALID_PIX_KEY',
		});
		expect(original).toEqual(copy);
		expect(described).not.toBe(original);
	});

	test('codes sent as numeric strings are named too, the strings are kept', () => {
		const described = describeCashoutStatus({ cashout_status: '5', rejection_code: '826' });
		expect(described).toEqual({
			cashout_status: '5',
			rejection_code: '826',
			cashout_status_name: 'ON_HOLD',
			rejection_code_name: 'WITHDRAWAL_REVERSED',
		});
	});

	test('unknown status and rejection codes add nothing', () => {
		const original = { cashout_status: 9, rejection_code: 825, rejection_reason: 'new code' };
		const described = describeCashoutStatus(original);
		expect(described).toEqual(original);
		expect('cashout_status_name' in described).toBe(false);
		expect('rejection_code_name' in described).toBe(false);
	});

	test('a bank rejection code 0 with a free-text reason adds no rejection name', () => {
		const described = describeCashoutStatus({
			cashout_status: 3,
			rejection_code: 0,
			rejection_reason: 'free text',
		});
		expect(described.cashout_status_name).toBe('REJECTED');
		expect('rejection_code_name' in described).toBe(false);
	});

	test('a result without codes is returned with the same fields and no names', () => {
		expect(describeCashoutStatus({ message: 'ok' })).toEqual({ message: 'ok' });
	});

	test('a null or empty cashout_status is not a code and adds no status name', () => {
		expect('cashout_status_name' in describeCashoutStatus({ cashout_status: null })).toBe(false);
		expect('cashout_status_name' in describeCashoutStatus({ cashout_status: '' })).toBe(false);
	});
});
