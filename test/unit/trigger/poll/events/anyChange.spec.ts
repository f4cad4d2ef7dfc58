import { REPORTING_LISTS } from '../../../../../nodes/PaymentsService/reporting/lists';
import { anyChange } from '../../../../../nodes/PaymentsService/trigger/poll/events/anyChange';
import type { PreviousObservation } from '../../../../../nodes/PaymentsService/trigger/poll/types';
import { config, NOW, obs } from '../../../../harness/pollState';

const seen = (status: string | null, lastChange: number | null): PreviousObservation => ({
	status,
	left: false,
	lastChange,
});

describe('the Any Change event', () => {
	const any = config({ event: 'anyChange' });

	test('a lastChangeDate moved forward, or a first one, is a change; the same or an older one is none', () => {
		expect(anyChange.changed(seen('PENDING', NOW), obs('1', 'PENDING', NOW + 1, NOW), any)).toBe(
			true,
		);
		expect(anyChange.changed(seen('PENDING', null), obs('1', 'PENDING', NOW, NOW), any)).toBe(true);
		expect(anyChange.changed(seen('PENDING', NOW), obs('1', 'PENDING', NOW, NOW), any)).toBe(false);
		expect(anyChange.changed(seen('PENDING', NOW), obs('1', 'PENDING', NOW - 5, NOW), any)).toBe(
			false,
		);
	});

	test('a status change counts without a date, and so does a record that left a narrowed read', () => {
		expect(anyChange.changed(seen('PENDING', null), obs('1', 'DELIVERED', null, NOW), any)).toBe(
			true,
		);
		expect(
			anyChange.changed(
				{ status: null, left: true, lastChange: NOW },
				obs('1', 'PENDING', NOW, NOW),
				any,
			),
		).toBe(true);
	});

	test('only lists with a lastChangeDate raise it; the Filters Status narrows it', () => {
		expect(anyChange.supports(REPORTING_LISTS.deposit)).toBe(true);
		expect(anyChange.supports(REPORTING_LISTS.settlement)).toBe(false);
		expect(anyChange.wantedStatuses(config({ event: 'anyChange', status: 'COMPLETED' }))).toEqual([
			'COMPLETED',
		]);
		expect(anyChange.wantedStatuses(any)).toEqual([]);
	});
});
