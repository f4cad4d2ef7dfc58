import { REPORTING_LISTS } from '../../nodes/PaymentsService/reporting/lists';
import { triggerEvent } from '../../nodes/PaymentsService/trigger/poll/events';
import type {
	TriggerConfig,
	TriggerEventName,
} from '../../nodes/PaymentsService/trigger/poll/types';

/** A polling trigger configuration as the user picks it: the list and the event by name. */
export type TriggerSettings = Omit<TriggerConfig, 'list' | 'event'> & {
	resource: string;
	event: TriggerEventName;
};

/** `settings` with the list and the event resolved to their definitions, as the node does. */
export function resolveConfig({ resource, event, ...rest }: TriggerSettings): TriggerConfig {
	const list = REPORTING_LISTS[resource as keyof typeof REPORTING_LISTS];
	if (!list) throw new Error(`no reporting list "${resource}"`);
	return { list, event: triggerEvent(event), ...rest };
}
