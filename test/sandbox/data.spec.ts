import { generateDataset, mulberry32, seededDataset } from './data';
import { MERCHANTS } from './reference';

const NOW = Date.UTC(2025, 0, 31, 17, 45, 12);

describe('sandbox data generator', () => {
	it('mulberry32 is deterministic and uniform-ish', () => {
		const a = mulberry32(7);
		const b = mulberry32(7);
		const xs = Array.from({ length: 1000 }, () => a());
		expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
		expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
		expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
	});

	// On 20 days, a tenth of the default volume: what holds per record holds for any number of days.
	it('byte-identical per seed; a sandbox starts from the first dataset of its options, moved in time', () => {
		const opts = { seed: 42, now: NOW, days: 20, depositsPerDay: 30, cashoutsPerDay: 20 };
		const text = JSON.stringify(generateDataset(opts));
		expect(text).toBe(JSON.stringify(generateDataset(opts)));
		expect(JSON.stringify(generateDataset({ ...opts, seed: 43 }))).not.toBe(text);
		const later = { ...opts, now: NOW + 3 * 86_400_000 + 7_250 };
		expect(JSON.stringify(seededDataset(opts))).toBe(text);
		expect(JSON.stringify(seededDataset(later))).toBe(JSON.stringify(generateDataset(later)));
		expect(JSON.stringify(seededDataset(later))).not.toBe(text);
	});

	// Its speed is the bench's business (a timed test fails on a loaded machine, not on slow code).
	it('default volumes: >= 180 days, thousands of deposits and cashouts', () => {
		const opts = { seed: 42, now: NOW, days: 200, depositsPerDay: 30, cashoutsPerDay: 20 };
		const a = generateDataset(opts);
		expect(a.deposits.length).toBeGreaterThan(5000);
		expect(a.cashouts.length).toBeGreaterThan(3000);
		const oldest = Math.min(...a.deposits.map((d) => d.createdMs));
		expect(NOW - oldest).toBeGreaterThan(180 * 86_400_000);

		for (const kind of [
			'deposits',
			'cashouts',
			'refunds',
			'chargebacks',
			'notes',
			'settlements',
		] as const) {
			const list = a[kind];
			expect(list.length).toBeGreaterThan(0);
			// One assertion per list, not per record (tens of thousands of expect calls took seconds).
			const outOfOrder = list
				.slice(1)
				.filter((entry, i) => !(entry.id > list[i].id && entry.createdMs >= list[i].createdMs))
				.map((entry) => `${kind} ${entry.id}`);
			expect(outOfOrder).toEqual([]);
		}
		// Changed no earlier than created; amounts in whole cents (toBeCloseTo(…, 6)'s tolerance).
		const badDeposits = a.deposits
			.filter(
				(d) =>
					!(Date.parse(d.rec.lastChangeDate) >= Date.parse(d.rec.creationDate)) ||
					!(Math.abs(Math.round(d.rec.amount * 100) - d.rec.amount * 100) < 10 ** -6 / 2),
			)
			.map((d) => d.id);
		expect(badDeposits).toEqual([]);
		expect(new Set(a.deposits.map((d) => d.rec.status))).toEqual(
			new Set(['PENDING', 'APPROVED', 'COMPLETED', 'CANCELLED', 'DECLINED', 'CREATED']),
		);
		expect(new Set(a.deposits.map((d) => d.rec.country))).toEqual(
			new Set(['BR', 'MX', 'CO', 'CL', 'PE', 'AR']),
		);
		expect(new Set(a.refunds.map((r) => r.rec.status))).toEqual(
			new Set(['PENDING', 'COMPLETED', 'CANCELLED', 'WAITING_DETAILS', 'REJECTED']),
		);
		expect(new Set(a.chargebacks.map((r) => r.rec.status))).toEqual(
			new Set(['PENDING', 'COMPLETED', 'CANCELLED', 'FAILED']),
		);
		expect(new Set(a.notes.map((n) => n.rec.category))).toEqual(new Set(['CREDIT', 'DEBIT']));
		const merchants = new Set(a.deposits.map((d) => d.merchantId));
		expect(merchants).toEqual(
			new Set(MERCHANTS.filter((m) => m.volume !== 'none').map((m) => m.id)),
		);
		const small = a.deposits.filter((d) => d.merchantId === 2001).length;
		expect(small).toBeLessThan(a.deposits.length / 3);
	});
});
