/**
 * The key of one status change (service rules §10.5): `<kind>:<id>:<status>:<since>`, the same for
 * every delivery of one change, a new one when a status comes back later. Pure.
 */

import { isoSeconds } from '../../codes/dates';
import type { NotificationKind } from './parsing';

/** `date` of a cashout notification: `YYYY-MM-DD HH:MM:SS`, GMT (service rules §10). */
const NOTIFICATION_DATE =
	/^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]00:?00| GMT| UTC)?$/;

/**
 * The time a cashout notification's `date` names, in Unix seconds, or undefined when the field is
 * absent or not a real GMT date-time in the service's form `YYYY-MM-DD HH:MM:SS` (service rules
 * §10; an ISO `T`, a `Z` and fractions of a second are also read). The service sends the same
 * `date` with every delivery of one change. Not authenticated by `control`: it only dates the
 * change key of a status that is read (`runStart`, memory.ts).
 */
export function notifiedChangeTime(fields: Record<string, unknown>): number | undefined {
	const { date } = fields;
	if (typeof date !== 'string') return undefined;
	const match = NOTIFICATION_DATE.exec(date.trim());
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const back = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
	if (
		back.getUTCFullYear() !== year ||
		back.getUTCMonth() !== month - 1 ||
		back.getUTCDate() !== day ||
		back.getUTCHours() !== hour ||
		back.getUTCMinutes() !== minute ||
		back.getUTCSeconds() !== second
	)
		return undefined;
	return back.getTime() / 1000;
}

/**
 * The change a notification reports, as one string (service rules §10.5):
 * `<kind>:<id>:<status>:<since>`, e.g. `cashout:4711:ON_HOLD:2026-11-02T12:00:00Z`. `id`: the
 * deposit id, the cashout id, or a cashout's external ID when it came without one; `status`: as read
 * from the service; `since`: when the status run began (`runStart`, memory.ts), for a cashout the
 * `date` of the notification that first reported it, for a deposit the time the trigger first read
 * it. Every delivery of one change gives one key; a status that comes back later gives another.
 * Where a record's memory is lost, a change can get a new key: handled again, never lost.
 */
export function changeKey(
	kind: NotificationKind,
	id: number | string,
	status: string,
	since: number,
): string {
	return `${kind}:${String(id)}:${status}:${isoSeconds(since)}`;
}
