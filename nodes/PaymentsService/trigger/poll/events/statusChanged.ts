import { codeOptions } from '../../../parameters/codeOptions';
import { hasStatus, recordStatuses } from '../../../reporting/lists';
import type { TriggerEventDefinition } from '../types';

/**
 * Status Changed: the record's status differs from the last one the trigger saw; To Status narrows
 * it to changes into the chosen statuses.
 *
 * With To Status, a record in a chosen status whose lastChangeDate is later than the one remembered
 * is also a change into it, whatever status was remembered: it left the status and came back.
 * Without this, a return is lost when the poll that saw the record leave emitted nothing, so n8n
 * saved nothing, and n8n restarted from the older save (n8n's saving rule: static data is saved
 * only after a poll that emits). The record itself is all that survives, and its lastChangeDate
 * says it changed (service rules §3.4). So a record that leaves and comes back between two polls is
 * reported too, and so is one whose lastChangeDate moves while it stays in a chosen status.
 */
export const statusChanged: TriggerEventDefinition = {
	value: 'statusChanged',
	name: 'Status Changed',
	description: 'A record’s status differs from the last status this trigger saw',
	type: 'statusChanged',
	supports: (list) => hasStatus(list),
	changed: (previous, current, config) =>
		previous.left ||
		previous.status !== current.status ||
		(config.toStatuses.length > 0 &&
			previous.lastChange !== null &&
			current.lastChange !== null &&
			current.lastChange > previous.lastChange),
	countsNewRecord: (config) => config.countNewRecords,
	wantedStatuses: (config) => config.toStatuses,
	usesStatusFilter: false,
	properties: (list) => [
		{
			displayName: 'To Status',
			name: 'toStatuses',
			type: 'multiOptions',
			default: [],
			options: codeOptions(recordStatuses(list)),
			description:
				'Only changes to these statuses trigger; none selected means any status change. A record that leaves a chosen status and comes back (a later lastChangeDate) triggers again.',
		},
	],
};
