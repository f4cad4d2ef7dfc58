import { parse } from 'csv-parse/sync';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	paymentsNode,
	startFixture,
	storeSandboxCredentials,
	useFixture,
	WorkflowBuilder,
	type Fixture,
} from '../../harness/fixtures';
import {
	customPeriod,
	DAY,
	listWorkflow,
	nowSeconds,
	SANDBOX_LISTS,
	sandboxRecords,
	type SandboxList,
} from '../../harness/lists';
import { useFilesystemBinaryData } from '../../harness/binaryData';
import { periodRead } from '../../harness/reads';
import { iso } from '../../harness/records';
import {
	type RecordListResource,
	REPORTING_LISTS,
} from '../../../nodes/PaymentsService/reporting/lists';

const SESSION = 'paymentsServiceSessionApi';
const NODE = 'Payments Service';

/** A workflow with one Payments Service node: `resource` → `operation` with `parameters`. */
const reportWorkflow = (
	resource: string,
	operation: string,
	parameters: Record<string, unknown>,
	settings: Record<string, unknown> = {},
) => listWorkflow(resource, parameters, operation, settings);

type Rec = Record<string, unknown>;
const seconds = (text: unknown) => Math.floor(Date.parse(String(text)) / 1000);
const inPeriod = (records: Rec[], field: string, from: number, to: number) =>
	records.filter((record) => seconds(record[field]) >= from && seconds(record[field]) <= to);
/** Cents of an amount the sandbox holds (at most 2 decimals). */
const cents = (value: unknown) => BigInt(Math.round(Number(value) * 100));
/** Cents of a decimal text the node output, by padding its decimals: no arithmetic on it. */
const textCents = (text: string) => {
	const [whole, fraction = ''] = text.replace('-', '').split('.');
	const value = BigInt(whole + fraction.padEnd(2, '0'));
	return text.startsWith('-') ? -value : value;
};

/**
 * The oracle: per group key (values joined by '|'), the count and, for `field` in the currency of
 * `currencyField`, the sum, minimum and maximum in cents, from the sandbox's own records.
 */
function expectedGroups(
	records: Rec[],
	key: (record: Rec) => string,
	field: string,
	currencyField: string,
) {
	const groups = new Map<
		string,
		{ count: number; byCurrency: Map<string, { sum: bigint; min: bigint; max: bigint; n: number }> }
	>();
	for (const record of records) {
		const group = groups.get(key(record)) ?? { count: 0, byCurrency: new Map() };
		groups.set(key(record), group);
		group.count++;
		const value = cents(record[field]);
		const currency = String(record[currencyField]);
		const stats = group.byCurrency.get(currency);
		if (!stats) group.byCurrency.set(currency, { sum: value, min: value, max: value, n: 1 });
		else {
			stats.sum += value;
			stats.min = value < stats.min ? value : stats.min;
			stats.max = value > stats.max ? value : stats.max;
			stats.n++;
		}
	}
	return groups;
}

/** What the node output for `field`, in the oracle's shape. */
function outputGroups(
	items: INodeExecutionData[],
	key: (json: IDataObject) => string,
	field: string,
) {
	const groups = new Map<string, { count: number; byCurrency: Map<string, unknown> }>();
	for (const { json } of items.filter((item) => item.json.total === false)) {
		const byCurrency = new Map<string, unknown>();
		for (const [currency, stats] of Object.entries(json[field] as Record<string, IDataObject>))
			byCurrency.set(currency, {
				sum: textCents(stats.sum as string),
				min: textCents(stats.min as string),
				max: textCents(stats.max as string),
				n: stats.count,
			});
		groups.set(key(json), { count: json.count as number, byCurrency });
	}
	return groups;
}

/** A CSV field as the file writes `value`: texts as they are, numbers as printed, objects as JSON. */
const asWritten = (value: unknown) =>
	value === undefined || value === null
		? ''
		: typeof value === 'object'
			? JSON.stringify(value)
			: String(value);

/**
 * Checks that the file's `rows` (csv-parse, with columns) are exactly `records`, each once, every
 * column of `columns` as the service sent it, and no other field (`otherFields` empty). The
 * differences are gathered and asserted at once: an `expect` per cell cost seconds on 150 days.
 */
function expectRowsAreRecords(
	rows: Array<Record<string, string>>,
	records: Rec[],
	idField: string,
	columns: readonly string[],
) {
	expect(rows).toHaveLength(records.length);
	const byId = new Map(records.map((record) => [String(record[idField]), record]));
	const header = [...columns, 'otherFields'];
	const notRecords: string[] = [];
	const otherHeaders: string[][] = [];
	const otherCells: Array<[string, string, string, string]> = [];
	const otherFields: Array<[string, string]> = [];
	for (const row of rows) {
		const record = byId.get(row[idField]);
		byId.delete(row[idField]);
		if (!record) {
			notRecords.push(row[idField]);
			continue;
		}
		const keys = Object.keys(row);
		if (keys.length !== header.length || keys.some((key, i) => key !== header[i]))
			otherHeaders.push(keys);
		for (const column of columns) {
			const written = asWritten(record[column]);
			if (row[column] !== written) otherCells.push([row[idField], column, row[column], written]);
		}
		if (row.otherFields !== '') otherFields.push([row[idField], row.otherFields]);
	}
	// Rows that are no record, or a record's second row; then [id, column, in the file, expected].
	expect(notRecords).toEqual([]);
	expect(otherHeaders).toEqual([]);
	expect(otherCells).toEqual([]);
	expect(otherFields).toEqual([]);
	expect(byId.size).toBe(0);
}

const listRequests = (fx: Fixture, path: string) =>
	fx.sandbox.log.entries().filter((entry) => entry.method === 'GET' && entry.path === path);

describe('Report → Summarize and Export to File through the n8n engine (generated data)', () => {
	const fx = useFixture();
	let now: number;
	let from: number;
	let to: number;
	beforeAll(() => {
		now = nowSeconds(fx);
		from = now - 12 * DAY;
		to = now - 2 * DAY;
	});

	const custom = () => customPeriod(from, to);
	/** The sandbox's deposits of MID 1001 created in the period of {@link custom}. */
	const periodDeposits = () =>
		inPeriod(fx.sandbox.control.deposits(1001) as unknown as Rec[], 'creationDate', from, to);

	const GROUPINGS: Array<[string, (record: Rec) => string, (json: IDataObject) => string]> = [
		['status', (record) => String(record.status), (json) => String(json.status)],
		['currency', (record) => String(record.currency), (json) => String(json.currency)],
		['country', (record) => String(record.country), (json) => String(json.country)],
		[
			'paymentMethod',
			(record) => String(record.paymentMethodCode),
			(json) => String(json.paymentMethod),
		],
		['day', (record) => String(record.creationDate).slice(0, 10), (json) => String(json.day)],
		[
			'hour',
			(record) => `${String(record.creationDate).slice(0, 13)}:00+00:00`,
			(json) => String(json.hour),
		],
	];

	test.each(GROUPINGS)(
		'deposits grouped by %s: each group’s count and its sum, min and max per currency equal the sandbox’s records to the cent',
		async (groupBy, recordKey, jsonKey) => {
			const run = await fx.engine.run(
				reportWorkflow('deposit', 'summarize', {
					...custom(),
					groupBy: [groupBy],
					options: { timeZone: 'UTC', windowConcurrency: 4 },
				}),
			);
			expect(run.error).toBeUndefined();
			const records = periodDeposits();
			expect(records.length).toBeGreaterThan(200);
			const items = run.output(NODE);
			for (const [field, currencyField] of [
				['amount', 'currency'],
				['localAmount', 'localCurrency'],
				['fee', 'feeCurrency'],
			])
				expect(outputGroups(items, jsonKey, field)).toEqual(
					expectedGroups(records, recordKey, field, currencyField),
				);
			const totals = items[items.length - 1].json;
			expect(totals).toMatchObject({
				total: true,
				count: records.length,
				list: 'deposit',
				timeZone: 'UTC',
			});
			expect(items.filter((item) => item.json.total === false).length).toBe(
				new Set(records.map(recordKey)).size,
			);
		},
	);

	test.each<[SandboxList, string, string, string]>([
		['cashout', 'country', 'amount', 'currency'],
		['refund', 'paymentMethod', 'amount', 'refundCurrency'],
		['chargeback', 'status', 'merchantAmount', 'merchantCurrency'],
		['settlement', 'status', 'amountToTransfer', 'currency'],
		['note', 'currency', 'amount', 'currency'],
	])(
		'%s grouped by %s: counts and sums per currency of each group equal the sandbox’s, and totals never add two currencies',
		async (resource, groupBy, amountField, currencyField) => {
			const run = await fx.engine.run(
				reportWorkflow(resource, 'summarize', {
					...customPeriod(now - 150 * DAY, now),
					groupBy: [groupBy],
					options: { timeZone: 'UTC' },
				}),
			);
			expect(run.error).toBeUndefined();
			const dateField = SANDBOX_LISTS[resource][2];
			const records = inPeriod(sandboxRecords(fx, resource), dateField, now - 150 * DAY, now);
			expect(records.length).toBeGreaterThan(0);
			const items = run.output(NODE);
			expect(outputGroups(items, (json) => String(json[groupBy]), amountField)).toEqual(
				expectedGroups(records, (record) => String(record[groupBy]), amountField, currencyField),
			);
			const totals = items[items.length - 1].json;
			expect(totals.count).toBe(records.length);
			expect(Object.keys(totals[amountField] as IDataObject).sort()).toEqual(
				[...new Set(records.map((record) => String(record[currencyField])))].sort(),
			);
		},
	);

	test('the Status filter counts only that status, judged on the records; the status is not sent, so a record changing status while read cannot shift a page', async () => {
		const run = await fx.engine.run(
			reportWorkflow('deposit', 'summarize', {
				...custom(),
				filters: { status: 'completed', country: 'BR' },
				groupBy: ['status'],
				options: { timeZone: 'UTC' },
			}),
		);
		expect(run.error).toBeUndefined();
		const records = periodDeposits().filter(
			(record) => record.status === 'COMPLETED' && record.country === 'BR',
		);
		const items = run.output(NODE);
		expect(items.map((item) => [item.json.status, item.json.count])).toEqual([
			['COMPLETED', records.length],
			[undefined, records.length],
		]);
		for (const entry of listRequests(fx, '/v1/deposits')) {
			expect(entry.query.country).toBe('BR');
			expect(entry.query.status).toBeUndefined();
		}
	});

	test('Yesterday in the workflow’s time zone (America/Sao_Paulo, -03:00) reads São Paulo’s yesterday, not the UTC day; the file is named after it', async () => {
		const before = Date.now();
		const run = await fx.engine.run(
			reportWorkflow(
				'deposit',
				'exportToFile',
				{ period: 'yesterday' },
				{ timezone: 'America/Sao_Paulo' },
			),
		);
		expect(run.error).toBeUndefined();
		// São Paulo keeps -03:00 all year since 2019: its today is the UTC date 3 hours earlier.
		const localToday = new Date(before - 3 * 3_600_000).toISOString().slice(0, 10);
		const start = Date.parse(`${localToday}T03:00:00Z`) / 1000 - DAY;
		const requested = listRequests(fx, '/v1/deposits');
		expect(Math.min(...requested.map((entry) => Number(entry.query.from)))).toBe(start);
		expect(Math.max(...requested.map((entry) => Number(entry.query.to)))).toBe(start + DAY - 1);
		expect(run.output(NODE)[0].binary!.data.fileName).toBe(
			`deposits_${iso(start - 3 * 3_600).slice(0, 10)}.csv`,
		);
		expect(run.output(NODE)[0].json.periodFrom).toBe(iso(start));
	});

	test('an empty period gives a totals item with count 0 and no group, after one request', async () => {
		const run = await fx.engine.run(
			reportWorkflow('deposit', 'summarize', {
				period: 'custom',
				createdFrom: '2020-01-01',
				createdTo: '2020-01-02',
				groupBy: ['status', 'currency'],
			}),
		);
		expect(run.error).toBeUndefined();
		const items = run.output(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ total: true, count: 0, amount: {}, fee: {} });
		expect(listRequests(fx, '/v1/deposits')).toHaveLength(1);
	});

	test.each<[string, string, IDataObject, string | RegExp, RegExp | undefined]>([
		[
			'deposit',
			'summarize',
			{ groupBy: ['merchantName'] },
			/Group By "merchantName" is not a field of deposits/,
			undefined,
		],
		[
			'deposit',
			'summarize',
			{ groupBy: ['status'], amountFields: ['amount', 'tip'] },
			/Amount Fields "tip" is not a field of deposits/,
			undefined,
		],
		[
			'deposit',
			'summarize',
			{ groupBy: ['day'], options: { timeZone: 'Mars/Olympus' } },
			/Time Zone "Mars\/Olympus" is not a time zone/,
			undefined,
		],
		[
			'deposit',
			'exportToFile',
			{ columns: ['idDeposit', 'iban'] },
			/Columns "iban" is not a field of deposits/,
			undefined,
		],
		[
			'deposit',
			'summarize',
			{ period: 'custom', createdFrom: '2026-03-01', createdTo: '2026-02-01' },
			/Invalid period in item 0/,
			undefined,
		],
		[
			'deposit',
			'exportToFile',
			{ period: 'custom', createdFrom: '2026-02-30' },
			/Invalid period in item 0/,
			undefined,
		],
		['deposit', 'summarize', { filters: { status: 'SETTLED' } }, /Filter "Status"/, undefined],
		[
			'deposit',
			'exportToFile',
			{ options: { fileName: '../../etc/deposits.csv' } },
			/^File Name must be a file's name, got "\.\.\/\.\.\/etc\/deposits\.csv" \(item 0\)$/,
			undefined,
		],
		[
			'deposit',
			'exportToFile',
			{ options: { fileName: 'deposits.csv\r\nBcc: someone@example.com' } },
			/^File Name must be a file's name, got "deposits\.csv\\r\\nBcc/,
			undefined,
		],
		// A list grouped by a field it does not have.
		[
			'settlement',
			'summarize',
			{ groupBy: ['country'] },
			/Group By "country" is not a field of settlements/,
			/status, currency|day, hour/,
		],
		// Write Records to File: the error names the item, the field and the fix.
		[
			'deposit',
			'summarize',
			{ writeFile: true, columns: ['idDeposit', 'iban'] },
			'Columns "iban" is not a field of deposits (item 0)',
			/^Use idDeposit, externalId, .* for Columns of deposits\.$/,
		],
		[
			'deposit',
			'summarize',
			{ writeFile: true, binaryPropertyName: '  ' },
			'Put Output File in Field is empty (item 0)',
			/^Name the binary field for the file, e\.g\. data\.$/,
		],
		[
			'deposit',
			'summarize',
			{ writeFile: '={{ "yes" }}' },
			'Write Records to File must be true or false, got "yes" (item 0)',
			/^Turn Write Records to File on or off/,
		],
	])(
		'bad input to %s → %s (%j) fails with a clear error before any request',
		async (resource, operation, parameters, message, description) => {
			const run = await fx.engine.run(
				reportWorkflow(resource, operation, { ...custom(), ...parameters }),
			);
			expect(run.error).toMatchObject({
				message: typeof message === 'string' ? message : expect.stringMatching(message),
				...(description && { description: expect.stringMatching(description) }),
			});
			expect(fx.sandbox.log.entries()).toHaveLength(0);
		},
	);

	test.each<[string, IDataObject]>([
		['summarize', { groupBy: ['status'] }],
		['exportToFile', { groupBy: ['status'] }],
		['summarize', { writeFile: true }],
	])(
		'%s (%j): a request failing mid-read fails the node: no totals, no file, nothing presented as complete',
		async (operation, parameters) => {
			fx.sandbox.faults.add({
				method: 'GET',
				path: '/v1/deposits',
				query: { page: '1' },
				skip: 1,
				kind: 'status',
				status: 500,
				times: 1_000,
			});
			const run = await fx.engine.run(
				reportWorkflow('deposit', operation, {
					...custom(),
					...parameters,
					options: { retryReads: false, windowConcurrency: 2 },
				}),
			);
			expect(run.error).toBeDefined();
			expect(run.error?.message).toMatch(/page 1/);
			expect(run.output(NODE)).toEqual([]);
			// One window's page 1 was read and counted before another's failed: its records are not output.
			expect(
				listRequests(fx, '/v1/deposits').filter(
					(entry) => entry.query.page === '1' && entry.status === 200,
				),
			).toHaveLength(1);
		},
	);

	test('Summarize with Write Records to File: the totals and the file from one read (each page requested once), the file’s rows the records, the totals exact; Summarize then Export to File requests every page twice', async () => {
		const parameters = {
			...custom(),
			groupBy: ['status'],
			writeFile: true,
			options: { windowConcurrency: 4, bom: true, timeZone: 'UTC' },
		};
		const run = await fx.engine.run(reportWorkflow('deposit', 'summarize', parameters));
		expect(run.error).toBeUndefined();
		const records = periodDeposits();
		expect(records.length).toBeGreaterThan(200);
		// One read: every page of the period once, its windows read to their end covering it.
		const once = periodRead(fx.sandbox.log.entries(), '/v1/deposits', from, to);
		expect(once.repeated).toEqual([]);
		expect(once.covers).toBe(true);
		expect(once.unfinished).toEqual([]);
		expect(once.requests).toBeGreaterThanOrEqual(Math.ceil(records.length / 50));
		const items = run.output(NODE);
		const totals = items.at(-1)!;
		expect(totals.json).toMatchObject({
			total: true,
			count: records.length,
			windowsRead: once.leaves.length,
			file: {
				fileName: `deposits_${iso(from).slice(0, 10)}_${iso(to).slice(0, 10)}.csv`,
				rows: records.length,
				columns: [...REPORTING_LISTS.deposit.fields, 'otherFields'],
			},
		});
		// The totals, exact: each group's count, sum, min and max per currency.
		for (const [field, currencyField] of [
			['amount', 'currency'],
			['localAmount', 'localCurrency'],
			['fee', 'feeCurrency'],
		])
			expect(outputGroups(items, (json) => String(json.status), field)).toEqual(
				expectedGroups(records, (record) => String(record.status), field, currencyField),
			);
		// The file, on the totals item only: the records, each once, values as the service sent them.
		expect(items.slice(0, -1).every((item) => item.binary === undefined)).toBe(true);
		const binary = totals.binary!.data;
		expect(binary).toMatchObject({
			mimeType: 'text/csv',
			fileName: totals.json.file && (totals.json.file as IDataObject).fileName,
		});
		const bytes = Buffer.from(binary.data, 'base64');
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		expectRowsAreRecords(
			parse(bytes, { bom: true, columns: true }) as Array<Record<string, string>>,
			records,
			'idDeposit',
			REPORTING_LISTS.deposit.fields,
		);

		// The same two reports as two operations, one after the other: the period is read twice.
		fx.sandbox.log.clear();
		const builder = new WorkflowBuilder('Summarize then Export to File');
		builder.then(
			paymentsNode(
				{ resource: 'deposit', operation: 'summarize', ...parameters, writeFile: false },
				SESSION,
			),
		);
		builder.then(
			paymentsNode(
				{
					resource: 'deposit',
					operation: 'exportToFile',
					...custom(),
					options: parameters.options,
				},
				SESSION,
				{
					name: 'Export',
					executeOnce: true,
				},
			),
		);
		const twice = await fx.engine.run({ ...builder.build(), settings: {} });
		expect(twice.error).toBeUndefined();
		const twoReads = periodRead(fx.sandbox.log.entries(), '/v1/deposits', from, to);
		expect(twoReads.repeated.length).toBeGreaterThanOrEqual(Math.ceil(records.length / 50));
		expect(twoReads.requests).toBeGreaterThan(once.requests);
	});

	test('without Write Records to File (off, as in saved workflows) Summarize outputs no file and no file field', async () => {
		for (const writeFile of [undefined, false]) {
			const run = await fx.engine.run(
				reportWorkflow('deposit', 'summarize', {
					...custom(),
					groupBy: ['status'],
					...(writeFile === undefined ? {} : { writeFile }),
					options: { timeZone: 'UTC' },
				}),
			);
			expect(run.error).toBeUndefined();
			const items = run.output(NODE);
			expect(items.at(-1)!.json.total).toBe(true);
			expect(items.filter((item) => item.binary !== undefined || 'file' in item.json)).toEqual([]);
		}
	});

	test.each<SandboxList>(['cashout', 'refund', 'chargeback', 'settlement', 'note'])(
		'Write Records to File on %s: the file holds the period’s records, each once, and the totals count them, from one read',
		async (resource) => {
			const start = now - 150 * DAY;
			const run = await fx.engine.run(
				reportWorkflow(resource, 'summarize', {
					...customPeriod(start, now),
					writeFile: true,
					options: { timeZone: 'UTC' },
				}),
			);
			expect(run.error).toBeUndefined();
			const [path, , dateField, idField] = SANDBOX_LISTS[resource];
			const records = inPeriod(sandboxRecords(fx, resource), dateField, start, now);
			expect(records.length).toBeGreaterThan(0);
			const totals = run.output(NODE).at(-1)!;
			expect([totals.json.count, (totals.json.file as IDataObject).rows]).toEqual([
				records.length,
				records.length,
			]);
			const columns = REPORTING_LISTS[resource as RecordListResource].fields;
			expectRowsAreRecords(
				parse(Buffer.from(totals.binary!.data.data, 'base64'), { columns: true }) as Array<
					Record<string, string>
				>,
				records,
				idField,
				columns,
			);
			const read = periodRead(fx.sandbox.log.entries(), path, start, now);
			expect([read.repeated, read.covers]).toEqual([[], true]);
		},
	);

	test('Write Records to File with chosen columns, a status filter and a file name: the same records in the totals and the file', async () => {
		const run = await fx.engine.run(
			reportWorkflow('cashout', 'summarize', {
				...custom(),
				groupBy: ['country'],
				amountFields: ['amount'],
				filters: { status: 'REJECTED' },
				writeFile: true,
				columns: ['status', 'idCashout', 'amount', 'currency'],
				binaryPropertyName: 'rejected',
				options: { fileName: 'rejected.csv', timeZone: 'UTC' },
			}),
		);
		expect(run.error).toBeUndefined();
		const expected = inPeriod(
			fx.sandbox.control.cashouts(1001) as unknown as Rec[],
			'creationDate',
			from,
			to,
		).filter((record) => record.status === 'REJECTED');
		expect(expected.length).toBeGreaterThan(0);
		const totals = run.output(NODE).at(-1)!;
		expect(totals.json).toMatchObject({
			count: expected.length,
			file: {
				fileName: 'rejected.csv',
				rows: expected.length,
				columns: ['status', 'idCashout', 'amount', 'currency'],
			},
		});
		const rows = parse(Buffer.from(totals.binary!.rejected.data, 'base64')) as string[][];
		expect(rows[0]).toEqual(['status', 'idCashout', 'amount', 'currency']);
		expect(rows.slice(1).sort()).toEqual(
			expected
				.map((record) => [
					'REJECTED',
					String(record.idCashout),
					String(record.amount),
					String(record.currency),
				])
				.sort(),
		);
	});

	test('Export to File: an RFC 4180 file that csv-parse reads back as the sandbox’s records, each once, values as sent', async () => {
		const run = await fx.engine.run(
			reportWorkflow('deposit', 'exportToFile', {
				...custom(),
				// The file is named after the period's days in the report's time zone: UTC here, as
				// the expected name is written (the workflow's default zone would differ by the hour).
				options: { windowConcurrency: 4, bom: true, timeZone: 'UTC' },
			}),
		);
		expect(run.error).toBeUndefined();
		const [item] = run.output(NODE);
		const records = periodDeposits();
		const binary = item.binary!.data;
		expect(binary.mimeType).toBe('text/csv');
		expect(binary.fileName).toBe(`deposits_${iso(from).slice(0, 10)}_${iso(to).slice(0, 10)}.csv`);
		const bytes = Buffer.from(binary.data, 'base64');
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		const rows = parse(bytes, { bom: true, columns: true }) as Array<Record<string, string>>;
		expect(item.json).toMatchObject({ rows: records.length, list: 'deposit' });
		expect(rows).toHaveLength(records.length);
		const byId = new Map(records.map((record) => [String(record.idDeposit), record]));
		for (const row of rows) {
			const record = byId.get(row.idDeposit)!;
			expect(record).toBeDefined();
			byId.delete(row.idDeposit);
			expect(row.amount).toBe(String(record.amount));
			expect(row.localAmount).toBe(String(record.localAmount));
			expect(row.creationDate).toBe(record.creationDate);
			expect(row.merchantName).toBe(record.merchantName);
			expect(row.flags).toBe(JSON.stringify(record.flags));
			expect(row.otherFields).toBe('');
		}
		expect(byId.size).toBe(0);
	});

	test('Export to File with chosen columns and a status filter writes those columns in that order, no BOM', async () => {
		const run = await fx.engine.run(
			reportWorkflow('cashout', 'exportToFile', {
				...custom(),
				columns: ['status', 'idCashout', 'amount', 'currency'],
				filters: { status: 'REJECTED' },
				binaryPropertyName: 'report',
				options: { fileName: 'rejected.csv' },
			}),
		);
		expect(run.error).toBeUndefined();
		const [item] = run.output(NODE);
		const bytes = Buffer.from(item.binary!.report.data, 'base64');
		expect(bytes[0]).toBe('s'.charCodeAt(0));
		expect(item.binary!.report.fileName).toBe('rejected.csv');
		const rows = parse(bytes) as string[][];
		const expected = inPeriod(
			fx.sandbox.control.cashouts(1001) as unknown as Rec[],
			'creationDate',
			from,
			to,
		)
			.filter((record) => record.status === 'REJECTED')
			.map((record) => [
				'REJECTED',
				String(record.idCashout),
				String(record.amount),
				String(record.currency),
			]);
		expect(rows[0]).toEqual(['status', 'idCashout', 'amount', 'currency']);
		expect(rows.slice(1).sort()).toEqual(expected.sort());
	});
});

describe('Report → Summarize with Write Records to File on a busy day (n8n’s binary data on the filesystem)', () => {
	const DEPOSITS = 6_000;
	let fx: Fixture;
	let binaryData: Awaited<ReturnType<typeof useFilesystemBinaryData>>;
	let dayFrom: number;
	let dayTo: number;

	beforeAll(async () => {
		binaryData = await useFilesystemBinaryData();
		fx = await startFixture({ sandbox: { depositsPerDay: 0, cashoutsPerDay: 0 } });
		storeSandboxCredentials(fx.engine, fx.sandbox, '1002');
		dayTo = Math.floor(fx.sandbox.clock.now() / 1000) - 1;
		dayFrom = dayTo - DAY + 1;
		// 80% of the day's deposits in two hours, the rest spread over the other 22.
		for (let index = 0; index < DEPOSITS; index++) {
			const inPeak = index < DEPOSITS * 0.8;
			const second = inPeak
				? dayFrom + 10 * 3_600 + Math.floor((index * 2 * 3_600) / (DEPOSITS * 0.8))
				: dayFrom + Math.floor(((index - DEPOSITS * 0.8) * DAY) / (DEPOSITS * 0.2));
			fx.sandbox.control.addDeposit({
				idMerchant: 1002,
				creationDate: iso(second),
				amount: (100 + (index % 997)) / 100,
				status: index % 5 === 0 ? 'PENDING' : 'COMPLETED',
			});
		}
	});
	afterAll(async () => {
		await fx.close();
		binaryData.restore();
	});

	test('one read whose windows hold at most 2 × 20 pages, where a slot’s share of the day is 60; the file streamed into n8n’s filesystem store holds every deposit; the totals exact', async () => {
		const run = await fx.engine.run(
			reportWorkflow('deposit', 'summarize', {
				period: 'custom',
				createdFrom: iso(dayFrom),
				createdTo: iso(dayTo),
				groupBy: ['status'],
				amountFields: ['amount'],
				writeFile: true,
				options: { windowConcurrency: 2, timeZone: 'UTC' },
			}),
		);
		expect(run.error).toBeUndefined();
		const records = fx.sandbox.control.deposits(1002) as unknown as Rec[];
		expect(records).toHaveLength(DEPOSITS);
		const pages = Math.ceil(DEPOSITS / 50);

		// One read: each page once, the day covered, and nowhere near the 2 × pages of a second read.
		const read = periodRead(fx.sandbox.log.entries(), '/v1/deposits', dayFrom, dayTo);
		expect(read.repeated).toEqual([]);
		expect(read.covers).toBe(true);
		expect(read.unfinished).toEqual([]);
		expect(read.requests).toBeLessThan(1.25 * pages);

		// What the node holds is the windows being read: at 2 at once, a slot's fair share of the day
		// is 60 pages; the file's read divides a window estimated beyond 2 × 20 pages.
		const byWindow = new Map<string, number>();
		for (const entry of listRequests(fx, '/v1/deposits'))
			byWindow.set(
				`${entry.query.from}-${entry.query.to}`,
				(byWindow.get(`${entry.query.from}-${entry.query.to}`) ?? 0) + 1,
			);
		expect(pages / 2).toBeGreaterThan(41);
		expect(Math.max(...byWindow.values())).toBeLessThanOrEqual(41);

		// The file went to n8n's filesystem store as it was read: the item holds its id, not its bytes.
		const totals = run.output(NODE).at(-1)!;
		const binary = totals.binary!.data;
		expect(binary.id).toMatch(/^filesystem(-v2)?:/);
		expect(binary.data).not.toMatch(/^aWREZXBvc2l0/); // base64 of "idDeposit"
		const rows = parse(await binaryData.read(binary), { columns: true }) as Array<
			Record<string, string>
		>;
		expect(rows.map((row) => Number(row.idDeposit)).sort((a, b) => a - b)).toEqual(
			records.map((record) => Number(record.idDeposit)).sort((a, b) => a - b),
		);
		expect(totals.json).toMatchObject({ count: DEPOSITS, file: { rows: DEPOSITS } });
		const amount = totals.json.amount as Record<string, { sum: string; count: number }>;
		expect(textCents(amount.USD.sum)).toBe(
			records.reduce((sum, record) => sum + cents(record.amount), 0n),
		);
	});
});

describe('Report → Summarize: days and hours in a time zone (deposits placed around clock changes)', () => {
	const fx = useFixture({ merchantId: '1002' });

	beforeAll(() => {
		const add = (creationDate: string, amount: number) =>
			fx.sandbox.control.addDeposit({
				idMerchant: 1002,
				creationDate,
				amount,
				status: 'COMPLETED',
			});
		// New York sets its clocks back on 1 November 2026 (02:00 EDT → 01:00 EST): a 25-hour day.
		add('2026-11-01T03:59:59Z', 1.1); // 31 October 23:59:59 EDT
		add('2026-11-01T04:00:00Z', 2.2); // 1 November 00:00 EDT
		add('2026-11-01T05:30:00Z', 3.3); // 01:30 EDT
		add('2026-11-01T06:30:00Z', 4.4); // 01:30 EST, the same wall time an hour later
		add('2026-11-02T04:59:59Z', 5.5); // 1 November 23:59:59 EST
		// São Paulo set its clocks forward on 4 November 2018 (00:00 → 01:00): a 23-hour day.
		add('2018-11-04T02:59:59Z', 10); // 3 November 23:59:59 -03:00
		add('2018-11-04T03:00:00Z', 20); // 4 November 01:00 -02:00
		add('2018-11-05T01:59:59Z', 30); // 4 November 23:59:59 -02:00
	});

	test('by day in the workflow’s time zone (America/New_York): the 25-hour day holds four deposits; in UTC the days differ', async () => {
		const period = { period: 'custom', createdFrom: '2026-10-31', createdTo: '2026-11-02' };
		const local = await fx.engine.run(
			reportWorkflow(
				'deposit',
				'summarize',
				{ ...period, groupBy: ['day'], amountFields: ['amount'] },
				{ timezone: 'America/New_York' },
			),
		);
		expect(local.error).toBeUndefined();
		expect(
			local
				.output(NODE)
				.map((item) => [
					item.json.day ?? 'total',
					item.json.count,
					(item.json.amount as Record<string, { sum: string }>).USD?.sum,
				]),
		).toEqual([
			['2026-10-31', 1, '1.1'],
			['2026-11-01', 4, '15.4'],
			['total', 5, '16.5'],
		]);
		const utc = await fx.engine.run(
			reportWorkflow(
				'deposit',
				'summarize',
				{ ...period, groupBy: ['day'], amountFields: ['amount'] },
				{ timezone: 'UTC' },
			),
		);
		expect(utc.output(NODE).map((item) => [item.json.day ?? 'total', item.json.count])).toEqual([
			['2026-11-01', 4],
			['2026-11-02', 1],
			['total', 5],
		]);
	});

	test('by hour in New York: 01:00 appears twice, with its two offsets, in the order they happened', async () => {
		const run = await fx.engine.run(
			reportWorkflow(
				'deposit',
				'summarize',
				{
					period: 'custom',
					createdFrom: '2026-11-01',
					createdTo: '2026-11-01',
					groupBy: ['hour'],
					amountFields: [],
				},
				{ timezone: 'America/New_York' },
			),
		);
		expect(run.error).toBeUndefined();
		// The period is the UTC day: it starts at 20:00 EDT on 31 October.
		expect(run.output(NODE).map((item) => item.json.hour ?? 'total')).toEqual([
			'2026-10-31T23:00-04:00',
			'2026-11-01T00:00-04:00',
			'2026-11-01T01:00-04:00',
			'2026-11-01T01:00-05:00',
			'total',
		]);
	});

	test('Time Zone America/Sao_Paulo overrides the workflow’s: the 23-hour day of 4 November 2018 starts at 01:00', async () => {
		const run = await fx.engine.run(
			reportWorkflow(
				'deposit',
				'summarize',
				{
					period: 'custom',
					createdFrom: '2018-11-03',
					createdTo: '2018-11-05',
					groupBy: ['day', 'hour'],
					amountFields: ['amount'],
					options: { timeZone: 'America/Sao_Paulo' },
				},
				{ timezone: 'America/New_York' },
			),
		);
		expect(run.error).toBeUndefined();
		expect(
			run
				.output(NODE)
				.map((item) => [item.json.day ?? 'total', item.json.hour ?? '', item.json.count]),
		).toEqual([
			['2018-11-03', '2018-11-03T23:00-03:00', 1],
			['2018-11-04', '2018-11-04T01:00-02:00', 1],
			['2018-11-04', '2018-11-04T23:00-02:00', 1],
			['total', '', 3],
		]);
		expect(run.output(NODE).at(-1)!.json.timeZone).toBe('America/Sao_Paulo');
	});
});
