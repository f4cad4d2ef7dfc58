import { isoSeconds, isoSecondsOf } from '../../../nodes/PaymentsService/codes/dates';

describe('dates as the service writes them: ISO 8601 in UTC to the second (service rules §2.3, §3.4)', () => {
	test('milliseconds are dropped, not rounded up', () => {
		expect(isoSecondsOf(new Date('2026-11-02T12:00:00.999Z'))).toBe('2026-11-02T12:00:00Z');
		expect(isoSecondsOf(new Date('2026-12-31T23:59:59.500Z'))).toBe('2026-12-31T23:59:59Z');
	});

	test('Unix seconds, fractions dropped too; the epoch and a leap day', () => {
		expect(isoSeconds(0)).toBe('1970-01-01T00:00:00Z');
		expect(isoSeconds(1_793_620_800.75)).toBe('2026-11-02T12:00:00Z');
		expect(isoSeconds(Date.UTC(2028, 1, 29, 6, 30, 15) / 1000)).toBe('2028-02-29T06:30:15Z');
	});
});
