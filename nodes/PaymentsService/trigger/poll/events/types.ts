import type { INodeProperties } from 'n8n-workflow';

import type { ReportingListDefinition } from '../../../reporting/lists';
import type { EmittedEventType, Observation, TriggerConfig, TriggerEventName } from '../types';

/** What the trigger remembers of a record it saw before. */
export interface PreviousSighting {
	/** The status it was seen in; null when it had none, or when it {@link left}. */
	status: string | null;
	/**
	 * Whether a narrowed read (the wanted statuses only) stopped listing it: it left the wanted
	 * statuses for a status the trigger did not read, so any status seen now is a change.
	 */
	left: boolean;
	/** `lastChangeDate` in Unix seconds, or null. */
	lastChange: number | null;
}

/**
 * One event of the polling trigger: how the user picks it, which lists can raise it, and the pure
 * rule that decides it. An event lives in its own file; the registry (./index.ts) lists them.
 */
export interface TriggerEventDefinition {
	value: TriggerEventName;
	/** Label in the Event list. */
	name: string;
	description: string;
	/** `event.type` of the emitted item. */
	type: EmittedEventType;
	/** Whether records of `list` carry what this event needs (a status, a `lastChangeDate`). */
	supports(list: ReportingListDefinition): boolean;
	/** A record seen before and read again: whether it changed the way this event reports. */
	changed(previous: PreviousSighting, current: Observation, config: TriggerConfig): boolean;
	/**
	 * A record seen for the first time after the starting point: whether that counts as this event
	 * (always for New Record; for changes only with Include First Sightings).
	 */
	countsFirstSighting(config: TriggerConfig): boolean;
	/** The statuses an emitted record must be in (its current status); empty = any status. */
	wantedStatuses(config: TriggerConfig): string[];
	/** Whether the Filters collection's Status applies to this event. */
	usesStatusFilter: boolean;
	/** The event's own parameters for `list` (e.g. To Status), shown when the event is selected. */
	properties(list: ReportingListDefinition): INodeProperties[];
}
