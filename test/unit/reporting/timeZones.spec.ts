import {
	localCalendarPeriod,
	localDayStart,
} from '../../../nodes/PaymentsService/reporting/timeZones';

describe('calendar periods in a time zone', () => {
	test('a local day starts at its midnight, or where clocks skipped it', () => {
		expect(localDayStart('America/New_York', '2026-11-01')).toBe(Date.UTC(2026, 10, 1, 4) / 1000);
		expect(localDayStart('America/New_York', '2026-11-02')).toBe(Date.UTC(2026, 10, 2, 5) / 1000);
		// São Paulo, 4 November 2018: 00:00 became 01:00 (-02:00), at 03:00 UTC.
		expect(localDayStart('America/Sao_Paulo', '2018-11-04')).toBe(Date.UTC(2018, 10, 4, 3) / 1000);
		expect(localDayStart('UTC', '2026-02-28')).toBe(Date.UTC(2026, 1, 28) / 1000);
	});

	test('yesterday in São Paulo is not yesterday in UTC; last month in New York spans its clock change', () => {
		// 25 November 2026, 01:30 UTC: still the 24th in São Paulo (-03:00).
		const now = Date.UTC(2026, 10, 25, 1, 30) / 1000;
		expect(localCalendarPeriod('yesterday', 'America/Sao_Paulo', now)).toEqual({
			from: Date.UTC(2026, 10, 23, 3) / 1000,
			to: Date.UTC(2026, 10, 24, 3) / 1000 - 1,
		});
		expect(localCalendarPeriod('yesterday', 'UTC', now)).toEqual({
			from: Date.UTC(2026, 10, 24) / 1000,
			to: Date.UTC(2026, 10, 25) / 1000 - 1,
		});
		const december = Date.UTC(2026, 11, 10) / 1000;
		expect(localCalendarPeriod('lastMonth', 'America/New_York', december)).toEqual({
			from: Date.UTC(2026, 10, 1, 4) / 1000,
			to: Date.UTC(2026, 11, 1, 5) / 1000 - 1,
		});
		expect(localCalendarPeriod('last7Days', 'America/New_York', december)).toBeUndefined();
	});
});
