import { parse } from 'csv-parse/sync';

import fc from 'fast-check';

import {
	CsvWriter,
	csvField,
	csvLine,
	exportFileName,
	OTHER_FIELDS_COLUMN,
} from '../../../nodes/PaymentsService/reporting/csv';
import { REPORTING_LISTS } from '../../../nodes/PaymentsService/reporting/lists';

// The oracle is csv-parse (a maintained RFC 4180 parser), never a reader of our own.
const read = (text: string) => parse(text, { bom: true, relax_column_count: false }) as string[][];

describe('CSV lines (RFC 4180)', () => {
	test('fields with commas, quotes, CR, LF, accents and emoji read back exactly, one record per line', () => {
		const values = [
			'plain',
			'a,b',
			'say "hi"',
			'line\r\nbreak',
			'lone\nLF',
			'lone\rCR',
			'São Paulo – ñ 💸',
			'',
			' spaced ',
			'"',
		];
		const text = csvLine(values) + csvLine(values.map((value) => value.toUpperCase()));
		expect(read(text)).toEqual([values, values.map((value) => value.toUpperCase())]);
		expect(text.endsWith('\r\n')).toBe(true);
	});

	test('numbers as the service sent them, booleans as true/false, missing and null empty, arrays as JSON', () => {
		const writer = new CsvWriter(['a', 'b', 'c', 'd', 'e', 'f', 'g'], false);
		const line = writer.line({
			a: 1234.5,
			b: 0.1,
			c: 123456789012.34,
			d: true,
			e: null,
			g: ['RISK', 'MANUAL'],
		});
		expect(read(writer.header() + line)).toEqual([
			['a', 'b', 'c', 'd', 'e', 'f', 'g'],
			['1234.5', '0.1', '123456789012.34', 'true', '', '', '["RISK","MANUAL"]'],
		]);
	});

	test('all columns: the list’s fields in order, then otherFields with any field the service added', () => {
		const writer = new CsvWriter(REPORTING_LISTS.note.fields, true);
		const rows = read(
			writer.header() +
				writer.line({
					id: 7,
					amount: 10,
					currency: 'USD',
					extra: 'x,y',
					date: '2026-11-01T00:00:00Z',
				}) +
				writer.line({ id: 8 }),
		);
		expect(rows[0]).toEqual([...REPORTING_LISTS.note.fields, OTHER_FIELDS_COLUMN]);
		const at = (name: string) => rows[0].indexOf(name);
		expect(rows[1][at('id')]).toBe('7');
		expect(rows[1][at('date')]).toBe('2026-11-01T00:00:00Z');
		expect(JSON.parse(rows[1][at(OTHER_FIELDS_COLUMN)])).toEqual({ extra: 'x,y' });
		expect(rows[2][at(OTHER_FIELDS_COLUMN)]).toBe('');
	});

	test('file names come from the list and the period’s UTC days', () => {
		const day = Date.UTC(2026, 10, 24) / 1000;
		expect(exportFileName('deposits', { from: day, to: day + 86_399 })).toBe(
			'deposits_2026-11-24.csv',
		);
		expect(
			exportFileName('credit/debit notes', { from: day - 86_400 * 23, to: day + 86_399 }),
		).toBe('credit-debit-notes_2026-11-01_2026-11-24.csv');
	});
});

describe('Formulas escaped (OWASP, CSV injection): a file for people', () => {
	test('a text starting with =, +, -, @, tab or CR starts with an apostrophe; numbers, booleans and JSON never change; other texts as they are', () => {
		const values = [
			'=1+1',
			'+1',
			'-2+3+cmd|x',
			'@SUM(A1)',
			'\tx',
			'\r=1',
			'a=b',
			' =1',
			-5,
			-0.5,
			true,
			['=x'],
			{ a: '=x' },
		];
		expect(read(csvLine(values, true))[0]).toEqual([
			"'=1+1",
			"'+1",
			"'-2+3+cmd|x",
			"'@SUM(A1)",
			"'\tx",
			"'\r=1",
			'a=b',
			' =1',
			'-5',
			'-0.5',
			'true',
			'["=x"]',
			'{"a":"=x"}',
		]);
		expect(csvLine([-5, 'x'], true)).toBe('-5,x\r\n');
		expect(read(csvLine(['=1+1', '-5'], false))[0]).toEqual(['=1+1', '-5']);
	});

	test('whatever the text, the escaped cell reads back as the text, with an apostrophe exactly when it starts with a formula character', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				const [cell] = read(`${csvField(text, true)}\r\n`)[0] ?? [''];
				expect(cell).toBe(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
			}),
		);
	});

	test('CsvWriter escapes the columns and otherFields of a file for people, and nothing for a program', () => {
		const people = new CsvWriter(['name', 'amount'], true, true);
		const program = new CsvWriter(['name', 'amount'], true, false);
		const record = { name: '@cmd', amount: -7, note: '=x' };
		expect(read(people.line(record))[0]).toEqual(["'@cmd", '-7', '{"note":"=x"}']);
		expect(read(program.line(record))[0]).toEqual(['@cmd', '-7', '{"note":"=x"}']);
	});
});
