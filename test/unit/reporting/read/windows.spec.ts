import fc from 'fast-check';

import { MAX_WINDOW_SECONDS } from '../../../../nodes/PaymentsService/codes/service';
import {
	estimateRemainingPages,
	MIN_SPLIT_PAGES,
	MAX_SPLIT_PARTS,
	planSplit,
	splitByEstimate,
	splitEvenly,
	splitIntoBalancedWindows,
	splitIntoWindows,
	type TimeWindow,
} from '../../../../nodes/PaymentsService/reporting/read/windows';

const SIXTY_DAYS = 60 * 86_400;
const DAY = 86_400;

/** Every broken promise of splitIntoWindows for one result (empty when the result is right). */
function partitionProblems(
	windows: TimeWindow[],
	from: number,
	to: number,
	maxSpan: number,
): string[] {
	const problems: string[] = [];
	if (windows.length === 0) return ['no windows'];
	if (windows[0].from !== from)
		problems.push(`first window starts at ${windows[0].from}, not ${from}`);
	if (windows[windows.length - 1].to !== to)
		problems.push(`last window ends at ${windows[windows.length - 1].to}, not ${to}`);
	for (let i = 0; i < windows.length; i++) {
		const window = windows[i];
		if (!Number.isInteger(window.from) || !Number.isInteger(window.to))
			problems.push(`window ${i} has fractional bounds`);
		if (window.from > window.to) problems.push(`window ${i} is reversed`);
		if (window.to - window.from > maxSpan)
			problems.push(`window ${i} spans ${window.to - window.from} > ${maxSpan}`);
		if (i > 0 && window.from !== windows[i - 1].to + 1)
			problems.push(`gap or overlap before window ${i}`);
	}
	const minimal = Math.ceil((to - from + 1) / (maxSpan + 1));
	if (windows.length !== minimal) problems.push(`${windows.length} windows instead of ${minimal}`);
	return problems;
}

describe('splitIntoWindows', () => {
	test('the default span is strictly shorter than 60 days', () => {
		expect(MAX_WINDOW_SECONDS).toBeLessThan(SIXTY_DAYS);
	});

	test('a 70-day period gives exactly 2 windows, oldest first, each shorter than 60 days', () => {
		const from = Date.UTC(2026, 0, 1) / 1000;
		const to = from + 70 * DAY - 1;
		const windows = splitIntoWindows(from, to);
		expect(windows).toHaveLength(2);
		expect(windows[0]).toEqual({ from, to: from + MAX_WINDOW_SECONDS });
		expect(windows[1]).toEqual({ from: from + MAX_WINDOW_SECONDS + 1, to });
		for (const window of windows) expect(window.to - window.from).toBeLessThan(SIXTY_DAYS);
	});

	test('a period of exactly 60 days (to - from = 60 days) is split in two because one window must stay below 60 days', () => {
		const from = 1_700_000_000;
		const windows = splitIntoWindows(from, from + SIXTY_DAYS);
		expect(windows).toHaveLength(2);
		expect(windows[0].to - windows[0].from).toBeLessThan(SIXTY_DAYS);
	});

	test('a single second gives one window of that second', () => {
		expect(splitIntoWindows(100, 100)).toEqual([{ from: 100, to: 100 }]);
	});

	test('a zero span gives one window per second', () => {
		expect(splitIntoWindows(10, 13, 0)).toEqual([
			{ from: 10, to: 10 },
			{ from: 11, to: 11 },
			{ from: 12, to: 12 },
			{ from: 13, to: 13 },
		]);
	});

	test('windows are contiguous, cover [from, to] exactly, respect the span and are as few as possible (any span)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 4_000_000_000 }),
				fc.integer({ min: 0, max: 50_000_000 }),
				fc.integer({ min: 0, max: 500 }),
				fc.integer({ min: 0, max: 10_000_000 }),
				(from, length, windowsHint, extra) => {
					// keep the window count at most ~1000 so the run stays fast
					const minSpan = Math.ceil((length + 1) / (windowsHint + 1));
					const maxSpan = minSpan + (extra % (length + 2));
					const to = from + length;
					expect(partitionProblems(splitIntoWindows(from, to, maxSpan), from, to, maxSpan)).toEqual(
						[],
					);
				},
			),
			{ numRuns: 300 },
		);
	});

	test('with the default span every window is strictly shorter than 60 days and the partition is minimal', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -1_000_000_000, max: 4_000_000_000 }),
				fc.integer({ min: 0, max: 800 * DAY }),
				(from, length) => {
					const to = from + length;
					const windows = splitIntoWindows(from, to);
					expect(partitionProblems(windows, from, to, MAX_WINDOW_SECONDS)).toEqual([]);
					expect(windows.every((window) => window.to - window.from < SIXTY_DAYS)).toBe(true);
				},
			),
			{ numRuns: 300 },
		);
	});

	test('throws RangeError when from is after to', () => {
		expect(() => splitIntoWindows(200, 100)).toThrow(RangeError);
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 1e6 }), (to, gap) => {
				expect(() => splitIntoWindows(to + gap, to)).toThrow(RangeError);
			}),
			{ numRuns: 50 },
		);
	});

	test('throws RangeError on non-integer bounds (milliseconds fractions, NaN, Infinity)', () => {
		expect(() => splitIntoWindows(1.5, 10)).toThrow(RangeError);
		expect(() => splitIntoWindows(1, 10.25)).toThrow(RangeError);
		expect(() => splitIntoWindows(Number.NaN, 10)).toThrow(RangeError);
		expect(() => splitIntoWindows(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
	});

	test('throws RangeError on a negative or fractional span', () => {
		expect(() => splitIntoWindows(0, 10, -1)).toThrow(RangeError);
		expect(() => splitIntoWindows(0, 10, 2.5)).toThrow(RangeError);
	});
});

describe('splitIntoBalancedWindows', () => {
	/** Problems of a balanced split, other than the window count (checked by each test). */
	function balancedProblems(
		windows: TimeWindow[],
		from: number,
		to: number,
		maxSpan: number,
	): string[] {
		return partitionProblems(windows, from, to, maxSpan).filter(
			(problem) => !/windows instead of/.test(problem),
		);
	}

	test('every second in exactly one window, none longer than the limit, lengths within one second (property)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 2_000_000_000 }),
				fc.integer({ min: 0, max: 800 * DAY }),
				fc.integer({ min: 1, max: 10 }),
				(from, length, concurrency) => {
					const to = from + length;
					const windows = splitIntoBalancedWindows(from, to, concurrency);
					expect(balancedProblems(windows, from, to, MAX_WINDOW_SECONDS)).toEqual([]);
					const lengths = windows.map((window) => window.to - window.from + 1);
					expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
				},
			),
		);
	});

	test('one window when the period fits one; otherwise the fewest windows rounded up to a multiple of the concurrency (property)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 800 * DAY }),
				fc.integer({ min: 1, max: 10 }),
				(length, concurrency) => {
					const minimal = splitIntoWindows(0, length).length;
					const windows = splitIntoBalancedWindows(0, length, concurrency);
					if (minimal === 1) expect(windows).toHaveLength(1);
					else expect(windows).toHaveLength(Math.ceil(minimal / concurrency) * concurrency);
				},
			),
		);
	});

	test('the last 360 days: seven windows at concurrency 1, eight of about 45 days at 4 and 8', () => {
		// From now − 360 days to now, both ends included: 360 days and one second.
		const to = 360 * DAY;
		expect(splitIntoBalancedWindows(0, to, 1)).toHaveLength(7);
		expect(splitIntoBalancedWindows(0, to, 8)).toHaveLength(8);
		const windows = splitIntoBalancedWindows(0, to, 4);
		expect(windows).toHaveLength(8);
		expect(windows.every((window) => Math.abs(window.to - window.from + 1 - 45 * DAY) <= 1)).toBe(
			true,
		);
	});

	test('refuses a concurrency below 1', () => {
		expect(() => splitIntoBalancedWindows(0, DAY, 0)).toThrow(RangeError);
	});
});

/** Problems with `parts` as an exact, newest-first cover of `window` (empty when right). */
function coverProblems(parts: TimeWindow[], window: TimeWindow): string[] {
	const problems: string[] = [];
	if (parts.length === 0) return ['no parts'];
	if (parts[0].to !== window.to)
		problems.push(`newest part ends at ${parts[0].to}, not ${window.to}`);
	if (parts[parts.length - 1].from !== window.from)
		problems.push(`oldest part starts at ${parts[parts.length - 1].from}, not ${window.from}`);
	for (let i = 0; i < parts.length; i++) {
		if (
			!Number.isInteger(parts[i].from) ||
			!Number.isInteger(parts[i].to) ||
			parts[i].from > parts[i].to
		)
			problems.push(`part ${i} is not a window`);
		if (i > 0 && parts[i].to !== parts[i - 1].from - 1)
			problems.push(`gap or overlap between parts ${i - 1} and ${i}`);
	}
	return problems;
}

const windowArb = fc
	.tuple(
		fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }),
		fc.integer({ min: 0, max: 2 * MAX_WINDOW_SECONDS }),
	)
	.map(([from, length]) => ({ from, to: from + length }));

describe('splitEvenly', () => {
	test('covers the window exactly, newest first, with spans differing by at most one second (property)', () => {
		fc.assert(
			fc.property(windowArb, fc.integer({ min: 1, max: 100 }), (window, count) => {
				const parts = splitEvenly(window, count);
				expect(coverProblems(parts, window)).toEqual([]);
				expect(parts).toHaveLength(Math.min(count, window.to - window.from + 1));
				const spans = parts.map((part) => part.to - part.from);
				expect(Math.max(...spans) - Math.min(...spans)).toBeLessThanOrEqual(1);
			}),
		);
	});

	test('a one-second window stays one window; a bad count is refused', () => {
		expect(splitEvenly({ from: 10, to: 10 }, 8)).toEqual([{ from: 10, to: 10 }]);
		expect(() => splitEvenly({ from: 0, to: 10 }, 0)).toThrow(RangeError);
	});
});

describe('planSplit: dividing a window whose pages are full', () => {
	const progressArb = windowArb.chain((window) =>
		fc
			.tuple(
				fc.integer({ min: 1, max: 3_000 }),
				fc.integer({ min: window.from, max: window.to }),
				fc.integer({ min: window.from, max: window.to }),
				fc.integer({ min: 0, max: 1_000_000 }),
			)
			.map(([pagesRead, a, b, lastSpan]) => {
				const oldest = Math.min(a, b);
				const lastOldest = Math.max(a, b);
				return {
					window,
					pagesRead,
					oldest,
					lastPage: { oldest: lastOldest, newest: Math.min(window.to, lastOldest + lastSpan) },
				};
			}),
	);

	test('any split covers the window exactly, newest first, no second in two parts (property)', () => {
		fc.assert(
			fc.property(progressArb, fc.integer({ min: 1, max: 500 }), (progress, fair) => {
				const parts = planSplit(progress, fair);
				if (parts === undefined) return;
				expect(parts.length).toBeGreaterThanOrEqual(2);
				expect(coverProblems(parts, progress.window)).toEqual([]);
			}),
		);
	});

	test('splitting again and again, in any order, still leaves every second in exactly one window (property)', () => {
		fc.assert(
			fc.property(
				windowArb,
				fc.array(fc.tuple(fc.nat(), fc.nat({ max: 1_000 }), fc.integer({ min: 1, max: 40 })), {
					maxLength: 40,
				}),
				(root, steps) => {
					let leaves: TimeWindow[] = [root];
					for (const [pick, position, fair] of steps) {
						const at = pick % leaves.length;
						const window = leaves[at];
						// Pages read so far reached `oldest`, a point chosen in the window; the last page covered one second.
						const oldest = window.from + Math.floor(((window.to - window.from) * position) / 1_000);
						const parts = planSplit(
							{
								window,
								pagesRead: 1 + (position % 3),
								oldest,
								lastPage: { oldest, newest: oldest },
							},
							fair,
						);
						if (parts) leaves = [...leaves.slice(0, at), ...parts, ...leaves.slice(at + 1)];
					}
					expect(coverProblems(leaves, root)).toEqual([]);
				},
			),
		);
	});

	test('a dense first page splits the window into about 2 × remaining ÷ fair parts; a window whose rest fits twice the fair share is not split', () => {
		const day = { from: 0, to: DAY - 1 };
		// 50 records in the newest 432 s of a day: about 200 pages in all.
		const dense = {
			window: day,
			pagesRead: 1,
			oldest: DAY - 432,
			lastPage: { oldest: DAY - 432, newest: DAY - 1 },
		};
		expect(estimateRemainingPages(dense)).toBeCloseTo(199, 0);
		expect(planSplit(dense, 25)).toHaveLength(16);
		expect(planSplit(dense, 100)).toBeUndefined();
		// A read slot with nothing to read lowers the bar to the share itself.
		expect(planSplit(dense, 100, { margin: 1 })).toHaveLength(4);
		// Never below MIN_SPLIT_PAGES, never when the rest is no more than what was read already.
		const small = {
			window: day,
			pagesRead: 1,
			oldest: DAY / 2,
			lastPage: { oldest: DAY / 2, newest: DAY - 1 },
		};
		expect(planSplit(small, 1)).toBeUndefined();
		expect(MIN_SPLIT_PAGES).toBeGreaterThan(1);
	});

	test('reaching a peak mid-window splits the unread rest finely and keeps the read part as one window', () => {
		const day = { from: 0, to: DAY - 1 };
		// Ten quiet pages covered the newest 12 hours; the last page covered only 45 seconds.
		const parts = planSplit(
			{
				window: day,
				pagesRead: 10,
				oldest: DAY / 2,
				lastPage: { oldest: DAY / 2, newest: DAY / 2 + 44 },
			},
			20,
		);
		expect(parts?.[0]).toEqual({ from: DAY / 2, to: DAY - 1 });
		expect(parts!.length).toBeGreaterThan(20);
		expect(coverProblems(parts!, day)).toEqual([]);
	});

	test('pages that reached the start of the window leave nothing to split', () => {
		expect(
			estimateRemainingPages({
				window: { from: 0, to: 99 },
				pagesRead: 3,
				oldest: 0,
				lastPage: { oldest: 0, newest: 5 },
			}),
		).toBe(0);
	});
});

describe('splitByEstimate: the one splitter', () => {
	const window = { from: 1_000, to: 1_000 + 86_399 };

	test('⌈pages ÷ pagesPerPart⌉ equal parts, newest first, exactly covering the window', () => {
		const parts = splitByEstimate(window, 101, 20);
		expect(parts).toHaveLength(6);
		expect(parts[0].to).toBe(window.to);
		expect(parts[parts.length - 1].from).toBe(window.from);
		for (let index = 1; index < parts.length; index++)
			expect(parts[index].to).toBe(parts[index - 1].from - 1);
	});

	test('the window itself when under two parts; at most MAX_SPLIT_PARTS, at most one per second', () => {
		expect(splitByEstimate(window, 20, 20)).toEqual([window]);
		expect(splitByEstimate(window, 1e6, 1)).toHaveLength(MAX_SPLIT_PARTS);
		expect(splitByEstimate({ from: 5, to: 7 }, 100, 1)).toHaveLength(3);
	});
});
