import { REPORTING_LISTS } from '../../../../../nodes/PaymentsService/reporting/lists';
import { statusChanged } from '../../../../../nodes/PaymentsService/trigger/poll/events/statusChanged';
import type { PreviousObservation } from '../../../../../nodes/PaymentsService/trigger/poll/types';
import { config, NOW, obs } from '../../../../harness/pollState';

/** What the trigger remembered: a status and a lastChangeDate, not left. */
const seen = (status: string | null, lastChange: number | null): PreviousObservation => ({
	status,
	left: false,
	lastChange,
});

describe('the Status Changed event', () => {
	const any = config({ event: 'statusChanged' });
	const toRejected = config({ event: 'statusChanged', toStatuses: ['REJECTED'] });

	test('a status other than the one remembered is a change; the same status is none', () => {
		expect(
			statusChanged.changed(seen('PENDING', NOW), obs('1', 'REJECTED', NOW + 60, NOW), any),
		).toBe(true);
		expect(
			statusChanged.changed(seen('PENDING', NOW), obs('1', 'PENDING', NOW + 60, NOW), any),
		).toBe(false);
	});

	test('a record a narrowed read stopped listing (it left) changed, whatever status it shows now', () => {
		const left: PreviousObservation = { status: null, left: true, lastChange: NOW };
		expect(statusChanged.changed(left, obs('1', 'REJECTED', NOW, NOW), toRejected)).toBe(true);
	});

	test('with To Status, a later lastChangeDate in the same status is a return (it left and came back)', () => {
		const before = seen('REJECTED', NOW);
		expect(statusChanged.changed(before, obs('1', 'REJECTED', NOW + 1, NOW), toRejected)).toBe(
			true,
		);
		expect(statusChanged.changed(before, obs('1', 'REJECTED', NOW, NOW), toRejected)).toBe(false);
		// Without To Status the same status is no change; without dates nothing proves a return.
		expect(statusChanged.changed(before, obs('1', 'REJECTED', NOW + 1, NOW), any)).toBe(false);
		expect(
			statusChanged.changed(seen('REJECTED', null), obs('1', 'REJECTED', NOW + 1, NOW), toRejected),
		).toBe(false);
	});

	test('lists with a status raise it; its statuses are To Status; new records count when asked', () => {
		expect(statusChanged.supports(REPORTING_LISTS.cashout)).toBe(true);
		expect(statusChanged.supports(REPORTING_LISTS.balanceReport)).toBe(false);
		expect(statusChanged.wantedStatuses(toRejected)).toEqual(['REJECTED']);
		expect(statusChanged.countsNewRecord(config({ countNewRecords: false }))).toBe(false);
		expect(statusChanged.countsNewRecord(any)).toBe(true);
		const [toStatus] = statusChanged.properties(REPORTING_LISTS.cashout);
		expect(toStatus.name).toBe('toStatuses');
		expect(toStatus.options?.map((option) => (option as { value: string }).value)).toContain(
			'REJECTED',
		);
	});
});
