import { configKey } from '../../../../nodes/PaymentsService/trigger/poll/memory';
import { type TriggerSettings } from '../../../harness/triggerConfig';
import { LOOK_BACK, config } from '../../../harness/pollState';

describe('configKey', () => {
	test('equal configurations give equal keys, whatever the order of filters and To Statuses', () => {
		const a = config({
			filters: { country: 'BR', paymentMethod: 'PX' },
			toStatuses: ['REJECTED', 'COMPLETED'],
		});
		const b = config({
			filters: { paymentMethod: 'PX', country: 'BR' },
			toStatuses: ['COMPLETED', 'REJECTED'],
		});
		expect(configKey(a)).toBe(configKey(b));
	});

	test('empty and undefined filters are ignored', () => {
		const bare = config({ filters: { country: 'BR' } });
		const withEmpty = config({
			filters: { clientDocument: '', country: 'BR', paymentMethod: undefined },
		});
		expect(configKey(withEmpty)).toBe(configKey(bare));
	});

	test.each<[string, Partial<TriggerSettings>]>([
		['resource', { resource: 'deposit' }],
		['event', { event: 'anyChange' }],
		['a filter value', { filters: { country: 'MX' } }],
		['an added filter', { filters: { country: 'BR', clientDocument: '123' } }],
		['To Statuses', { toStatuses: ['REJECTED'] }],
		['status', { status: 'PENDING' }],
		['look-back', { lookBackSeconds: LOOK_BACK + 1 }],
		['Count New Records as Changes', { countNewRecords: false }],
	])('a different %s gives a different key', (_field, change) => {
		const base = config({ filters: { country: 'BR' } });
		expect(configKey(config({ filters: { country: 'BR' }, ...change }))).not.toBe(configKey(base));
	});
});
