import type { TriggerEventDefinition } from '../types';

/** Any Change: the record's `lastChangeDate` moved forward, or its status changed. */
export const anyChange: TriggerEventDefinition = {
	value: 'anyChange',
	name: 'Any Change',
	description: 'A record’s lastChangeDate moved (or its status changed)',
	type: 'changed',
	supports: (list) => list.hasLastChangeDate,
	changed: (previous, current) =>
		(current.lastChange !== null &&
			(previous.lastChange === null || current.lastChange > previous.lastChange)) ||
		previous.left ||
		previous.status !== current.status,
	countsNewRecord: (config) => config.countNewRecords,
	wantedStatuses: (config) => (config.status ? [config.status] : []),
	usesStatusFilter: true,
	properties: () => [],
};
