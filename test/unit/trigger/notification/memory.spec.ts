import fc from 'fast-check';
import {
	emptyMemory,
	MEMORY_MAX_AGE_SECONDS,
	pruneMemory,
	readMemory,
	rememberStatus,
} from '../../../../nodes/PaymentsService/trigger/notification/memory';

describe('the notification memory', () => {
	const NOW = 1_790_000_000;

	test('a status is a repeat when it is the last one read for the record; a return to an earlier status is not', () => {
		const memory = emptyMemory();
		const statuses = ['PENDING', 'PENDING', 'ON_HOLD', 'ON_HOLD', 'PENDING', 'ON_HOLD'];
		const seen = statuses.map((status, index) =>
			rememberStatus(memory, 'c:1', status, NOW + index),
		);
		expect(seen.map((entry) => entry.repeat)).toEqual([false, true, false, true, false, false]);
		expect(seen.map((entry) => entry.previousStatus)).toEqual([
			null,
			'PENDING',
			'PENDING',
			'ON_HOLD',
			'ON_HOLD',
			'PENDING',
		]);
		// [last status, last notified, first read in that status]
		expect(memory.records).toEqual({ 'c:1': ['ON_HOLD', NOW + 5, NOW + 5] });
		expect(rememberStatus(memory, 'd:1', 'ON_HOLD', NOW).repeat).toBe(false);
	});

	test('records last notified more than 7 days ago are forgotten, then the oldest beyond the cap', () => {
		const memory = emptyMemory();
		rememberStatus(memory, 'd:old', 'PENDING', NOW - MEMORY_MAX_AGE_SECONDS - 1);
		rememberStatus(memory, 'd:edge', 'PENDING', NOW - MEMORY_MAX_AGE_SECONDS);
		for (let index = 0; index < 5; index++)
			rememberStatus(memory, `d:${index}`, 'PENDING', NOW - index);
		pruneMemory(memory, NOW);
		expect(Object.keys(memory.records)).toEqual(['d:edge', 'd:0', 'd:1', 'd:2', 'd:3', 'd:4']);
		pruneMemory(memory, NOW, { maxAgeSeconds: MEMORY_MAX_AGE_SECONDS, maxRecords: 3 });
		expect(Object.keys(memory.records).sort()).toEqual(['d:0', 'd:1', 'd:2']);
	});

	test('the memory never holds more than the cap, and keeps the most recently notified records', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 200 }), (ids) => {
				const memory = emptyMemory();
				ids.forEach((id, at) => {
					rememberStatus(memory, `d:${id}`, 'PENDING', NOW + at);
					pruneMemory(memory, NOW + at, { maxAgeSeconds: MEMORY_MAX_AGE_SECONDS, maxRecords: 10 });
				});
				const lastTouched = [...new Set([...ids].reverse())].slice(0, 10).map((id) => `d:${id}`);
				expect(Object.keys(memory.records).sort()).toEqual(lastTouched.sort());
			}),
		);
	});

	test('a stored memory that is not well formed reads as empty; bad entries are dropped', () => {
		for (const stored of [
			undefined,
			null,
			'x',
			[],
			{ version: 2, records: {} },
			{ version: 1, records: [] },
		]) {
			expect(readMemory(stored)).toEqual(emptyMemory());
		}
		expect(
			readMemory({
				version: 1,
				records: { 'd:1': ['PENDING', NOW], 'd:2': ['PENDING'], 'd:3': [1, NOW], 'd:4': 'x' },
			}),
		).toEqual({
			version: 1,
			records: { 'd:1': ['PENDING', NOW] },
		});
	});

	test('it survives being saved as JSON', () => {
		const memory = emptyMemory();
		rememberStatus(memory, 'x:p-7', 'REJECTED', NOW);
		expect(readMemory(JSON.parse(JSON.stringify(memory)))).toEqual(memory);
	});
});
