import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

import { fakeDate, realDate } from '../../harness/clock';
import {
	CLOCK_SLACK_SECONDS,
	createdBeforeSent,
	differences,
	isComparable,
	lookUpPeriod,
	lookUpRecord,
	type CreationLookUp,
} from '../../../nodes/PaymentsService/idempotency/lookUp';
import type { PaymentsClient } from '../../../nodes/PaymentsService/transport/client';

/**
 * The look-up of the record a key made (idempotency/lookUp.ts, service rules §5.2): the period it
 * reads, how a found record is compared (amounts exactly), the read by key, and the reads of the
 * list, again while the list has not caught up with a record the service said exists.
 */

describe('comparing a found record with the request', () => {
	test('amounts are compared exactly: 250 = 250.00 = "250.0", 250.004 ≠ 250, whatever their form', () => {
		const differs = (asked: unknown, found: unknown) =>
			differences([{ field: 'amount', asked, found, amount: true }], 'cashout').length > 0;
		expect([
			differs(250, '250.00'),
			differs('250.0', 250),
			differs('250.004', 250),
			differs('0.1', 0.1),
			differs('12345678901234567.89', '12345678901234567.88'),
		]).toEqual([false, false, true, false, true]);
		/** `units` hundredths as decimal text: -1234 is "-12.34". */
		const text = (units: bigint) => {
			const magnitude = units < 0n ? -units : units;
			const cents = String(magnitude % 100n).padStart(2, '0');
			return `${units < 0n ? '-' : ''}${magnitude / 100n}.${cents}`;
		};
		fc.assert(
			fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.nat(6), (units, zeros) => {
				expect(differs(text(units), `${text(units)}${'0'.repeat(zeros)}`)).toBe(false);
				expect(differs(text(units), text(units + 1n))).toBe(true);
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
		expect([
			createdBeforeSent(record('2026-11-27T11:49:59Z'), 'creationDate', sent),
			createdBeforeSent(record('2026-11-27T11:50:01Z'), 'creationDate', sent),
			createdBeforeSent(record('2026-11-27T09:00:00Z'), 'creationDate', undefined),
			createdBeforeSent(record('not a date'), 'creationDate', sent),
		]).toEqual([true, false, false, false]);
	});

	test('the period read: from the key’s window start, or 7 days back for a given key, to now, with the slack on both ends', () => {
		const now = Date.UTC(2026, 10, 27, 12);
		const window = { label: '2026-11-27', startMs: Date.UTC(2026, 10, 27), endMs: 0 };
		expect(lookUpPeriod(window, now)).toEqual({
			from: window.startMs / 1000 - CLOCK_SLACK_SECONDS,
			to: now / 1000 + CLOCK_SLACK_SECONDS,
		});
		expect(lookUpPeriod(undefined, now).from).toBe(now / 1000 - 7 * 86_400 - CLOCK_SLACK_SECONDS);
	});
});

describe('lookUpRecord', () => {
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
	/** Deposits, found by their invoice ID (the key), narrowed first by country and document. */
	const deposits: CreationLookUp = {
		list: 'deposit',
		filters: { country: 'country', clientDocument: 'payer.document' },
		match: (_body, { key }) => ({ matches: (record) => record.externalId === key }),
	};
	const request = {
		body: { country: 'BR', payer: { document: '' } },
		noun: 'deposit',
		itemIndex: 0,
	};
	const target = (known = false) => ({
		key: 'inv-7',
		requestKey: 'inv-7',
		period: { from: 1_800_000_000, to: 1_800_003_600 },
		known,
	});
	const deposit = {
		idDeposit: 9,
		externalId: 'inv-7',
		creationDate: '2027-01-15T08:00:00Z',
		status: 'PENDING',
	};
	const found = { exists: true, record: deposit, label: 'deposit 9 (PENDING)', note: '' };
	const client = {} as PaymentsClient;

	test('without a Session credential nothing is read, and the note says what to select', async () => {
		const { context, queries } = listAnswering([[deposit]], false);
		expect(await lookUpRecord(context, client, deposits, request, target())).toEqual({
			exists: false,
			label: '',
			note: ' Select a Session credential on this node to have the existing deposit looked up and compared.',
		});
		expect(queries).toEqual([]);
	});

	test('the filtered read first, then without the filters; found: nothing more is read', async () => {
		const { context, queries } = listAnswering([[], [deposit]]);
		expect(await lookUpRecord(context, client, deposits, request, target())).toEqual(found);
		expect(queries.map((query) => query.country)).toEqual(['BR', undefined]);
	});

	test('a record the service said exists is read for again after 1, 2 and 4 s, with the filters, until the list shows it', async () => {
		fakeDate(Date.now());
		const { context, queries } = listAnswering([[], [], [], [deposit]]);
		expect(await lookUpRecord(context, client, deposits, request, target(true))).toEqual(found);
		expect(queries.map((query) => query.country)).toEqual(['BR', undefined, 'BR', 'BR']);
	});

	test.each([
		[true, ' (5 pages read in 5 reads)'],
		[false, ' (2 pages read)'],
	])('not shown, known to exist %s: the note counts what was read%s', async (known, read) => {
		fakeDate(Date.now());
		const { context } = listAnswering([]);
		expect(await lookUpRecord(context, client, deposits, request, target(known))).toEqual({
			exists: false,
			label: '',
			note: ` It was not found in the deposit list${read}; the list may show it a little later.`,
		});
	});

	test('a record nothing tells apart is not read for; its reason is the note', async () => {
		const { context, queries } = listAnswering([[deposit]]);
		const unmatched = {
			...deposits,
			match: () => ({ note: ' Without an Invoice ID it cannot be looked up.' }),
		};
		expect(await lookUpRecord(context, client, unmatched, request, target())).toEqual({
			exists: false,
			label: '',
			note: ' Without an Invoice ID it cannot be looked up.',
		});
		expect(queries).toEqual([]);
	});

	test('a read by key comes first: none there, the list is not read; read but not listed, the record exists by its key', async () => {
		const byKey = (status: string | undefined): CreationLookUp => ({
			...deposits,
			byKey: {
				read: async () => (status ? { state: { status }, status } : undefined),
				none: (key) => ` No deposit ${key}.`,
			},
		});
		const none = listAnswering([[deposit]]);
		expect(await lookUpRecord(none.context, client, byKey(undefined), request, target())).toEqual({
			exists: false,
			label: '',
			note: ' No deposit inv-7.',
		});
		expect(none.queries).toEqual([]);
		const unlisted = listAnswering([], false);
		expect(
			await lookUpRecord(unlisted.context, client, byKey('PENDING'), request, target()),
		).toMatchObject({
			exists: true,
			read: { status: 'PENDING' },
			label: 'a deposit in status PENDING',
		});
	});

	test('a list read that fails or stops at the page cap says so in the note', async () => {
		const failing = listAnswering([]);
		(failing.context.helpers as unknown as IDataObject).httpRequestWithAuthentication = async () =>
			await Promise.reject(Object.assign(new Error('socket hang up'), { code: 'EPROTO' }));
		expect((await lookUpRecord(failing.context, client, deposits, request, target())).note).toMatch(
			/^ Looking it up failed \(.+\)\.$/,
		);
		const other = { idDeposit: 1, externalId: 'inv-other', creationDate: '2027-01-15T08:00:00Z' };
		const full = listAnswering(Array.from({ length: 45 }, () => Array(50).fill(other)));
		expect((await lookUpRecord(full.context, client, deposits, request, target())).note).toBe(
			' It was not found in the deposit list (40 pages read, the most a look-up reads); the list may show it a little later.',
		);
	});
});
