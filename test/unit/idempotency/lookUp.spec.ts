import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

import { fakeDate, realDate } from '../../harness/clock';
import {
	CLOCK_SLACK_SECONDS,
	createdBeforeAttempt,
	differences,
	GIVEN_KEY_LOOKBACK_SECONDS,
	isComparable,
	lookUpInList,
	lookUpPeriod,
	REREAD_DELAYS_MS,
	sameAmount,
} from '../../../nodes/PaymentsService/idempotency/lookUp';
import { REPORTING_LISTS } from '../../../nodes/PaymentsService/reporting/lists';

/**
 * The look-up of the record a key made (idempotency/lookUp.ts, service rules §5.2): the period it
 * reads, how a found record is compared (amounts exactly), and the reads of the list, again while
 * the list has not caught up with a record the service said exists.
 */

describe('comparing a found record with the request', () => {
	test('amounts are compared exactly: 250 = 250.00 = "250.0", 250.004 ≠ 250, whatever their form', () => {
		expect(sameAmount(250, '250.00')).toBe(true);
		expect(sameAmount('250.0', 250)).toBe(true);
		expect(sameAmount('250.004', 250)).toBe(false);
		expect(sameAmount('0.1', 0.1)).toBe(true);
		expect(sameAmount('12345678901234567.89', '12345678901234567.88')).toBe(false);
		expect(sameAmount('BR', 'BR')).toBeUndefined();
		/** `units` hundredths as decimal text: -1234 is "-12.34". */
		const text = (units: bigint) => {
			const magnitude = units < 0n ? -units : units;
			const cents = String(magnitude % 100n).padStart(2, '0');
			return `${units < 0n ? '-' : ''}${magnitude / 100n}.${cents}`;
		};
		fc.assert(
			fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.nat(6), (units, zeros) => {
				expect(sameAmount(text(units), `${text(units)}${'0'.repeat(zeros)}`)).toBe(true);
				expect(sameAmount(text(units), text(units + 1n))).toBe(false);
			}),
		);
	});

	test('differences name each field that differs; absent fields are skipped; texts ignore case, a document is text', () => {
		expect(
			differences(
				[
					{ field: 'amount', asked: '300.00', found: 250, amount: true },
					{ field: 'amount2', asked: '250.00', found: 250, amount: true },
					{ field: 'country', asked: 'br', found: 'BR' },
					{ field: 'document_id', asked: '007', found: '7' },
					{ field: 'currency', asked: undefined, found: 'BRL' },
					{ field: 'payer', asked: 'x', found: '' },
				],
				'cashout',
			),
		).toEqual([
			'amount: 300.00 asked, 250 on the existing cashout',
			'document_id: 007 asked, 7 on the existing cashout',
		]);
		expect(isComparable({ field: 'a', asked: 0, found: 0 })).toBe(true);
		expect(isComparable({ field: 'a', asked: null, found: 0 })).toBe(false);
	});

	test('a record made before this execution first sent the key (less the clock slack) is another execution’s', () => {
		const sent = Date.parse('2026-11-27T12:00:00Z');
		const record = (at: string) => ({ creationDate: at });
		expect(createdBeforeAttempt(record('2026-11-27T11:49:59Z'), 'creationDate', sent)).toBe(true);
		expect(createdBeforeAttempt(record('2026-11-27T11:50:01Z'), 'creationDate', sent)).toBe(false);
		expect(createdBeforeAttempt(record('2026-11-27T09:00:00Z'), 'creationDate', undefined)).toBe(
			false,
		);
		expect(createdBeforeAttempt(record('not a date'), 'creationDate', sent)).toBe(false);
	});

	test('the period read: from the key’s window start, or 7 days back for a given key, to now, with the slack on both ends', () => {
		const now = Date.UTC(2026, 10, 27, 12);
		const window = { label: '2026-11-27', startMs: Date.UTC(2026, 10, 27), endMs: 0 };
		expect(lookUpPeriod(window, now)).toEqual({
			from: window.startMs / 1000 - CLOCK_SLACK_SECONDS,
			to: now / 1000 + CLOCK_SLACK_SECONDS,
		});
		expect(lookUpPeriod(undefined, now).from).toBe(
			now / 1000 - GIVEN_KEY_LOOKBACK_SECONDS - CLOCK_SLACK_SECONDS,
		);
	});
});

describe('lookUpInList', () => {
	afterEach(() => realDate());

	/**
	 * A node with the Session credential whose list reads answer from `pages` (one page per read,
	 * in order; then empty pages), recording the query of each.
	 */
	function listAnswering(pages: IDataObject[][], session = true) {
		const queries: IDataObject[] = [];
		const node = {
			name: 'Payments Service',
			credentials: session ? { paymentsServiceSessionApi: { id: '1', name: 's' } } : {},
		} as unknown as INode;
		const context = {
			getNode: () => node,
			getCredentials: async () => ({ baseUrl: 'https://reports.example.com' }),
			helpers: {
				async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions) {
					queries.push({ ...(options.qs as IDataObject) });
					const data = pages.shift() ?? [];
					return {
						statusCode: 200,
						headers: {},
						body: { data, page: 0, rows: data.length, maxRows: 50 },
					};
				},
			},
		} as unknown as IExecuteFunctions;
		return { context, queries };
	}
	const lookup = {
		list: REPORTING_LISTS.deposit,
		filters: { country: 'BR', clientDocument: '' },
		match: (record: IDataObject) => record.externalId === 'inv-7',
	};
	const period = { from: 1_800_000_000, to: 1_800_003_600 };
	const deposit = { idDeposit: 9, externalId: 'inv-7', creationDate: '2027-01-15T08:00:00Z' };

	test('without a Session credential nothing is read', async () => {
		const { context, queries } = listAnswering([[deposit]], false);
		expect(await lookUpInList(context, 0, lookup, period)).toEqual({ outcome: 'no-credential' });
		expect(queries).toEqual([]);
	});

	test('the filtered read first, then without the filters; found: nothing more is read', async () => {
		const { context, queries } = listAnswering([[], [deposit]]);
		expect(await lookUpInList(context, 0, lookup, period)).toEqual({
			outcome: 'found',
			record: deposit,
		});
		expect(queries.map((query) => query.country)).toEqual(['BR', undefined]);
	});

	test('a record the service said exists is read for again after 1, 2 and 4 s, with the filters, until the list shows it', async () => {
		fakeDate(Date.now());
		const { context, queries } = listAnswering([[], [], [], [deposit]]);
		expect(await lookUpInList(context, 0, lookup, period, { reread: true })).toEqual({
			outcome: 'found',
			record: deposit,
		});
		expect(queries.map((query) => query.country)).toEqual(['BR', undefined, 'BR', 'BR']);
		expect(REREAD_DELAYS_MS).toEqual([1_000, 2_000, 4_000]);
	});

	test('not shown within the reads again: not found, after 5 reads; without reread, after 2', async () => {
		fakeDate(Date.now());
		const again = listAnswering([]);
		expect(await lookUpInList(again.context, 0, lookup, period, { reread: true })).toEqual({
			outcome: 'not-found',
			pagesRead: 5,
			reads: 5,
			capped: false,
		});
		const once = listAnswering([]);
		expect(await lookUpInList(once.context, 0, lookup, period)).toMatchObject({
			outcome: 'not-found',
			reads: 2,
		});
	});
});
