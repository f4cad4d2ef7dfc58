import { REPORTING_LISTS } from '../../nodes/PaymentsService/reporting/lists';
import { rereadTiers } from '../../nodes/PaymentsService/trigger/poll/config';
import { TRIGGER_EVENTS } from '../../nodes/PaymentsService/trigger/poll/events';
import type {
	TriggerConfig,
	TriggerEventDefinition,
	TriggerEventName,
} from '../../nodes/PaymentsService/trigger/poll/types';

/**
 * A polling trigger configuration as the user picks it: the list and the event by name. Unless
 * given, the re-read tiers follow `rereadSeconds` for `version` (default 1) and the memory is full.
 */
export type TriggerSettings = Omit<
	TriggerConfig,
	'list' | 'event' | 'rereadTiers' | 'memory' | 'maxRemembered'
> &
	Partial<Pick<TriggerConfig, 'rereadTiers' | 'memory' | 'maxRemembered'>> & {
		resource: string;
		event: TriggerEventName;
		version?: number;
	};

/** The event named `value`. @throws Error for an unknown event. */
function triggerEvent(value: TriggerEventName): TriggerEventDefinition {
	const event = TRIGGER_EVENTS.find((candidate) => candidate.value === value);
	if (!event) throw new Error(`Unknown trigger event "${value}"`);
	return event;
}

/** `settings` with the list and the event resolved to their definitions, as the node does. */
export function resolveConfig({
	resource,
	event,
	version = 1,
	...rest
}: TriggerSettings): TriggerConfig {
	const list = REPORTING_LISTS[resource as keyof typeof REPORTING_LISTS];
	if (!list) throw new Error(`no reporting list "${resource}"`);
	return {
		list,
		event: triggerEvent(event),
		rereadTiers: rereadTiers(rest.rereadSeconds, version),
		memory: 'full',
		maxRemembered: Number.POSITIVE_INFINITY,
		...rest,
	};
}
