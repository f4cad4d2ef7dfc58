import * as FakeTimers from '@sinonjs/fake-timers';

/**
 * n8n's clock in a test: `Date` alone is faked (@sinonjs/fake-timers), so sockets, timers and the
 * in-process sandbox keep real time. One fake at a time; `realDate()` ends it. One helper instead
 * of each test spelling out which of jest's fake timers to leave real.
 */
let installed: FakeTimers.Clock | undefined;

/**
 * Shows `ms` (epoch milliseconds) to every `Date` from now on. `flowing`: the shown time then moves
 * on with real time (as n8n's does while a poll runs); otherwise it stands still until set again.
 */
export function fakeDate(ms: number, options: { flowing?: boolean } = {}): void {
	installed?.uninstall();
	installed = FakeTimers.install({
		now: ms,
		toFake: ['Date'],
		shouldAdvanceTime: options.flowing ?? false,
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
