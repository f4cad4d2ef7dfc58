import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ReportingListDefinition } from '../../reporting/lists';

/*
 * The polling trigger's vocabulary, shared by its memory, plan and detection and by its events
 * (./events/): what it watches, what it reads of a record, and what an event is. Nothing here
 * imports from them.
 */

/** The three events the trigger offers. */
export type TriggerEventName = 'newRecord' | 'statusChanged' | 'anyChange';

/** The `event.type` of an emitted item. */
export type EmittedEventType = 'newRecord' | 'statusChanged' | 'changed';

/** What the trigger watches; any change of it starts over with a new starting point. */
export interface TriggerConfig {
	/** The reporting list watched (Resource). */
	list: ReportingListDefinition;
	/** The event watched for (Event), one that `list` supports. */
	event: TriggerEventDefinition;
	/** Server-side list filters (country, paymentMethod, clientDocument, type). */
	filters: IDataObject;
	/** Status Changed: only changes to these statuses are emitted (empty = any). */
	toStatuses: string[];
	/** New Record / Any Change: only records currently in this status are emitted (empty = any). */
	status: string;
	/** How far back, by creation date, records are watched, in seconds. */
	lookBackSeconds: number;
	/** Status Changed / Any Change: a record first seen after activation counts as a change. */
	countNewRecords: boolean;
	/**
	 * Re-Read Older Records Every, in seconds (P; 0: every record every poll): what
	 * {@link rereadTiers} are made of. Not part of {@link configKey}: changing it changes only how
	 * soon a change is seen.
	 */
	rereadSeconds: number;
	/**
	 * How often records are read again, by age, youngest first; records younger than the first
	 * tier are read every poll (empty: every record every poll). Version 1: one tier, older than P,
	 * every P; version 2: each step of age six times less often (./config.ts).
	 */
	rereadTiers: RereadTier[];
	/**
	 * How the trigger remembers records (docs/polling-trigger.md, "Memory"): `full`, each record of
	 * the look-back one by one (version 1; lists without `lastChangeDate`; Status Changed without
	 * To Status, which needs each record's status); `bounded`, the newest `maxRemembered` one by
	 * one and, for the others, when their part of the look-back was last read (./ranges.ts).
	 */
	memory: 'full' | 'bounded';
	/** Bounded memory: most records remembered one by one (records changed lately come on top). */
	maxRemembered: number;
}

/** Records older than `olderThan` seconds are read again at least once per `every` seconds. */
export interface RereadTier {
	olderThan: number;
	every: number;
}

/** One record as read: its key and the facts the trigger compares. Times in Unix seconds. */
export interface Observation {
	key: string;
	status: string | null;
	lastChange: number | null;
	created: number;
	record: IDataObject;
}

/** What the trigger remembers of a record it saw before. */
export interface PreviousObservation {
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
	changed(previous: PreviousObservation, current: Observation, config: TriggerConfig): boolean;
	/**
	 * A record seen for the first time after the starting point: whether that counts as this event
	 * (always for New Record; for changes only with Count New Records as Changes).
	 */
	countsNewRecord(config: TriggerConfig): boolean;
	/** The statuses an emitted record must be in (its current status); empty = any status. */
	wantedStatuses(config: TriggerConfig): string[];
	/** Whether the Filters collection's Status applies to this event. */
	usesStatusFilter: boolean;
	/** The event's own parameters for `list` (e.g. To Status), shown when the event is selected. */
	properties(list: ReportingListDefinition): INodeProperties[];
}
