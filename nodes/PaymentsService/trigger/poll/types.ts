import type { IDataObject } from 'n8n-workflow';

/*
 * The polling trigger's vocabulary, shared by its state (./state.ts) and its events (./events/):
 * what it watches and what it reads of a record. Nothing here imports from either.
 */

/** The three events the trigger offers. */
export type TriggerEventName = 'newRecord' | 'statusChanged' | 'anyChange';

/** The `event.type` of an emitted item. */
export type EmittedEventType = 'newRecord' | 'statusChanged' | 'changed';

/** What the trigger watches; any change of it starts over with a new starting point. */
export interface TriggerConfig {
	resource: string;
	event: TriggerEventName;
	/** Server-side list filters (country, paymentMethod, clientDocument, type). */
	filters: IDataObject;
	/** Status Changed: only changes to these statuses are emitted (empty = any). */
	toStatuses: string[];
	/** New Record / Any Change: only records currently in this status are emitted (empty = any). */
	status: string;
	/** How far back, by creation date, records are watched, in seconds. */
	lookBackSeconds: number;
	/** Status Changed / Any Change: a record first seen after activation counts as a change. */
	includeFirstSightings: boolean;
	/**
	 * Re-read period of older records, in seconds: records created within the last period are read
	 * every poll, older ones once per period (0: every record every poll). Not part of
	 * {@link configKey}: changing it changes only how soon a change is seen.
	 */
	rereadSeconds: number;
}

/** One record as read: its key and the facts the trigger compares. Times in Unix seconds. */
export interface Observation {
	key: string;
	status: string | null;
	lastChange: number | null;
	created: number;
	record: IDataObject;
}
