import { type Fixture } from '../../../harness/fixtures';
import { PollRunner } from '../../../harness/poll';
import { iso } from '../../../harness/records';
import { Rng } from '../../../sandbox/data';
import {
	TRIGGER_NODE,
	triggerWorkflow,
	useTriggerWorld,
	addCashout,
	type SharedClock,
	MINUTE,
	DAY,
	MID,
	TRIGGER_START,
} from '../../../harness/trigger';

const START = TRIGGER_START;

describe('Payments Service Trigger at volume, polled through n8n-core’s PollContext', () => {
	let fx: Fixture;
	let clock: SharedClock;
	useTriggerWorld(START, (world) => ({ fx, clock } = world));

	const cashout = (ageMs = 0) => addCashout({ fx, clock }, ageMs, {}, MID);
	const listed = (path = '/v1/cashouts') => fx.sandbox.log.find('GET', path);

	test('at 20,000 cashouts a day every poll succeeds with first pages only, and the events are exactly the changes', async () => {
		// A day of cashouts, one every 4.32 s, watched over a 1-day look-back, older records re-read every 15 minutes.
		const gap = DAY / 20_000;
		const created: number[] = [];
		for (let age = DAY - gap; age >= 0; age -= gap)
			created.push(cashout(Math.round(age)).idCashout);
		const trigger = new PollRunner(
			fx.engine,
			triggerWorkflow({
				resource: 'cashout',
				event: 'anyChange',
				options: { lookBackDays: 1, rereadMinutes: '15' },
			}),
			TRIGGER_NODE,
		);
		fx.sandbox.log.clear();
		expect(await trigger.poll()).toEqual({ items: null });
		const startingPoint = listed();
		// One request per 49 records or so: each is a first page of a window that follows the data.
		expect(startingPoint.every((entry) => entry.query.page === '0' && entry.status === 200)).toBe(
			true,
		);
		expect(startingPoint.length).toBeLessThan((created.length / 49) * 1.1);
		// About 8 bytes a record here (each was stamped changed at insertion), against about 38 unpacked.
		expect(Buffer.byteLength(JSON.stringify(trigger.savedStaticData()))).toBeLessThan(200_000);

		const rng = new Rng(20_000);
		const expected = new Map<number, string>();
		const emitted: string[] = [];
		const keyOf = (item: { json: Record<string, unknown> }) =>
			`${String(item.json.idCashout)}@${String(item.json.lastChangeDate)}`;
		for (let minute = 1; minute <= 21; minute++) {
			clock.advance(MINUTE);
			if (minute <= 5) {
				for (let index = 0; index < 14; index++) {
					const fresh = cashout(index * 1_000);
					expected.set(fresh.idCashout, `${fresh.idCashout}@${fresh.lastChangeDate}`);
				}
				// Changes to recent and to older records (not to the first hours', which leave the look-back).
				for (let index = 0; index < 20; index++) {
					const id = created[rng.int(created.length / 8, created.length - 1)];
					fx.sandbox.control.setStatus('cashout', id, index % 2 ? 'ON_HOLD' : 'CANCELLED');
					expected.set(id, `${id}@${iso(Math.floor(clock.now() / 1000))}`);
				}
			}
			const polled = await trigger.poll();
			expect(polled.error).toBeUndefined();
			emitted.push(...(polled.items ?? []).map(keyOf));
		}
		expect(new Set(emitted).size).toBe(emitted.length);
		// A record changed in two different minutes is emitted for each change; the last is what counts here.
		const last = new Map(emitted.map((key) => [Number(key.split('@')[0]), key]));
		expect([...last.values()].sort()).toEqual([...expected.values()].sort());
	}, 120_000);
});
