import * as FakeTimers from '@sinonjs/fake-timers';

/**
 * n8n's clock in a test: `Date` alone is faked (@sinonjs/fake-timers), so sockets, timers and the
 * in-process sandbox keep real time. One fake at a time; `realDate()` ends it. One helper instead
 * of each test spelling out which of jest's fake timers to leave real.
 */
let installed: FakeTimers.Clock | undefined;
/** Whether the faked time moves on with real time. */
let flowing = false;

/**
 * Shows `ms` (epoch milliseconds) to every `Date` from now on. `flowing`: the shown time then moves
 * on with real time (as n8n's does while a poll runs); otherwise it stands still until set again.
 */
export function fakeDate(ms: number, options: { flowing?: boolean } = {}): void {
	installed?.uninstall();
	flowing = options.flowing ?? false;
	installed = FakeTimers.install({
		now: ms,
		toFake: ['Date'],
		shouldAdvanceTime: flowing,
	});
}

/** Moves the faked `Date` to `ms` (epoch milliseconds); fakes it first when it is real. */
export function setDate(ms: number): void {
	if (installed) installed.setSystemTime(ms);
	else fakeDate(ms);
}

/** Gives `Date` back its real time. */
export function realDate(): void {
	installed?.uninstall();
	installed = undefined;
}

/**
 * Whether n8n's clock stands still: `Date` is faked and not flowing. A wait then ends at once
 * (test/setup/n8nSleep.ts): no code can tell how long it lasted.
 */
export function dateStopped(): boolean {
	return installed !== undefined && !flowing;
}
