import type { ReportingListDefinition } from '../../../reporting/lists';
import type { TriggerEventDefinition } from '../types';
import { anyChange } from './anyChange';
import { newRecord } from './newRecord';
import { statusChanged } from './statusChanged';

export type { PreviousObservation, TriggerEventDefinition } from '../types';

/**
 * The trigger's events, in the order the Event list shows them (alphabetical, as n8n lists
 * options). Adding an event is a file in this folder plus an entry here.
 */
export const TRIGGER_EVENTS: readonly TriggerEventDefinition[] = [
	anyChange,
	newRecord,
	statusChanged,
];

/** The events records of `list` can raise. */
export function eventsFor(list: ReportingListDefinition): TriggerEventDefinition[] {
	return TRIGGER_EVENTS.filter((event) => event.supports(list));
}
