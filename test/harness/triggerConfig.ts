import { REPORTING_LISTS } from '../../nodes/PaymentsService/reporting/lists';
import { TRIGGER_EVENTS } from '../../nodes/PaymentsService/trigger/poll/events';
import type {
	TriggerConfig,
	TriggerEventDefinition,
	TriggerEventName,
} from '../../nodes/PaymentsService/trigger/poll/types';

/** A polling trigger configuration as the user picks it: the list and the event by name. */
export type TriggerSettings = Omit<TriggerConfig, 'list' | 'event'> & {
	resource: string;
	event: TriggerEventName;
};

/** The event named `value`. @throws Error for an unknown event. */
function triggerEvent(value: TriggerEventName): TriggerEventDefinition {
	const event = TRIGGER_EVENTS.find((candidate) => candidate.value === value);
	if (!event) throw new Error(`Unknown trigger event "${value}"`);
	return event;
}

/** `settings` with the list and the event resolved to their definitions, as the node does. */
export function resolveConfig({ resource, event, ...rest }: TriggerSettings): TriggerConfig {
	const list = REPORTING_LISTS[resource as keyof typeof REPORTING_LISTS];
	if (!list) throw new Error(`no reporting list "${resource}"`);
	return { list, event: triggerEvent(event), ...rest };
}
