import { codeOptions } from '../../../reporting/filters';
import { hasStatus, recordStatuses } from '../../../reporting/lists';
import type { TriggerEventDefinition } from './types';

/**
 * Status Changed: the record's status differs from the last one the trigger saw; To Status narrows
 * it to changes into the chosen statuses.
 */
export const statusChanged: TriggerEventDefinition = {
	value: 'statusChanged',
	name: 'Status Changed',
	description: 'A record’s status differs from the last status this trigger saw',
	type: 'statusChanged',
	supports: (list) => hasStatus(list),
	changed: (previous, current) => previous.status !== current.status,
	countsFirstSighting: (config) => config.includeFirstSightings,
	wantedStatuses: (config) => config.toStatuses,
	usesStatusFilter: false,
	properties: (list) => [
		{
			displayName: 'To Status',
			name: 'toStatuses',
			type: 'multiOptions',
			default: [],
			options: codeOptions(recordStatuses(list)),
			description: 'Only changes to these statuses trigger; none selected means any status change',
		},
	],
};
