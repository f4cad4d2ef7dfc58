import {
	changeKey,
	notifiedChangeTime,
} from '../../../../nodes/PaymentsService/trigger/notification/changeKeys';

describe('change keys of the Notification Trigger (service rules §10.5)', () => {
	const at = Date.UTC(2026, 10, 2, 12, 0, 0) / 1000;

	test("a cashout notification's date in the service's form, GMT, and the forms also read", () => {
		expect(
			[
				'2026-11-02 12:00:00',
				'2026-11-02T12:00:00',
				'2026-11-02T12:00:00Z',
				'2026-11-02 12:00:00 GMT',
				'2026-11-02 12:00:00 UTC',
				'2026-11-02 12:00:00+00:00',
				'2026-11-02 12:00:00-0000',
				'2026-11-02 12:00:00.734',
				'  2026-11-02 12:00:00  ',
			].map((date) => notifiedChangeTime({ date })),
		).toEqual(Array(9).fill(at));
	});

	test('no time for a date that is absent, not text, in another zone, or not a real date-time', () => {
		expect(
			[
				{},
				{ date: 1793620800 },
				{ date: null },
				{ date: '' },
				{ date: '2026-11-02 12:00:00+02:00' },
				{ date: '2026-11-02' },
				{ date: '02/11/2026 12:00:00' },
				{ date: '2026-02-30 12:00:00' },
				{ date: '2026-11-02 24:00:00' },
				{ date: '2026-11-02 12:60:00' },
			].map((fields) => notifiedChangeTime(fields)),
		).toEqual(Array(10).fill(undefined));
	});

	test('one key per change: kind, id, status read and when the status began, to the second', () => {
		expect(changeKey('cashout', 4711, 'ON_HOLD', at)).toBe(
			'cashout:4711:ON_HOLD:2026-11-02T12:00:00Z',
		);
		expect(changeKey('deposit', '300012345', 'COMPLETED', at + 0.9)).toBe(
			'deposit:300012345:COMPLETED:2026-11-02T12:00:00Z',
		);
		// Hold, release, hold: the status comes back later, so the change is another.
		expect(changeKey('cashout', 4711, 'ON_HOLD', at + 600)).not.toBe(
			changeKey('cashout', 4711, 'ON_HOLD', at),
		);
	});
});
