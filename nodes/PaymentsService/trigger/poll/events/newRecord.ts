import type { TriggerEventDefinition } from '../types';

/** New Record: a record created since the trigger was activated (first seen after the starting point). */
export const newRecord: TriggerEventDefinition = {
	value: 'newRecord',
	name: 'New Record',
	description: 'A record created since the trigger was activated',
	type: 'newRecord',
	supports: () => true,
	changed: () => false,
	countsNewRecord: () => true,
	wantedStatuses: (config) => (config.status ? [config.status] : []),
	usesStatusFilter: true,
	properties: () => [],
};
