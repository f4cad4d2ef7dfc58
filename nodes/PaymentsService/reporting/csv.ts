import { localDate } from './timeZones';

/**
 * CSV of reporting records (RFC 4180; service rules §3.5): pure functions that turn records into
 * lines, for the report operation that streams them into a file.
 *
 * - Lines end with CRLF; a field holding a comma, a double quote, CR or LF is enclosed in double
 *   quotes, its quotes doubled (RFC 4180 §2).
 * - Values are written as the service sent them: texts as they are (dates stay the ISO 8601 UTC
 *   texts of the records, service rules §3.4), numbers as the shortest text that reads back as the
 *   same number (the text the service wrote, for amounts of up to 15 significant digits), booleans
 *   `true`/`false`, arrays and objects as JSON, missing and null as an empty field.
 * - With `escapeFormulas` (a file for people), a text a spreadsheet would run as a formula starts
 *   with an apostrophe ({@link FORMULA_START}); numbers are never changed.
 */

/**
 * The last column of an export of all columns: the fields a record carries beyond its list's
 * `fields` (reporting/lists.ts), as a JSON object (empty when none), so a field the service adds
 * later is in the file rather than dropped.
 */
export const OTHER_FIELDS_COLUMN = 'otherFields';

/** UTF-8 byte order mark: lets Excel read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The first characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a
 * formula: `=`, `+`, `-`, `@`, a tab, a carriage return (OWASP, "CSV Injection"; CWE-1236). A text
 * cell that starts with one of them is what a payer's name such as `=HYPERLINK(…)` turns into a
 * live formula on the screen of whoever opens the file.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field of a CSV line (RFC 4180 §2.6, §2.7). With `escapeFormulas`, a text that starts with
 * {@link FORMULA_START} is written with a leading apostrophe (`'=1+1`), which a spreadsheet shows as
 * text, as OWASP recommends; numbers, booleans, arrays and objects are never changed.
 */
export function csvField(value: unknown, escapeFormulas = false): string {
	let text: string;
	if (value === undefined || value === null) return '';
	if (typeof value === 'string')
		text = escapeFormulas && FORMULA_START.test(value) ? `'${value}` : value;
	else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		text = String(value);
	else text = JSON.stringify(value);
	return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A CSV line of `values`, ending with CRLF (`escapeFormulas` as {@link csvField}). Joined from an
 * array, so the line is one flat string: built with `+=`, V8 would keep a chain of pieces per line
 * (kilobytes), and a report holds a window's lines until the window ends (one piece for the line
 * end remains).
 */
export function csvLine(values: readonly unknown[], escapeFormulas = false): string {
	const fields = new Array<string>(values.length);
	for (let index = 0; index < values.length; index++)
		fields[index] = csvField(values[index], escapeFormulas);
	return `${fields.join(',')}\r\n`;
}

/**
 * Writes records as lines of `columns`. With `otherFields` (an export of all columns), the last
 * column holds, as JSON, the fields of the record that are not among `columns`. With
 * `escapeFormulas`, texts that a spreadsheet would run as formulas start with an apostrophe
 * ({@link csvField}).
 */
export class CsvWriter {
	private readonly known: Set<string>;

	constructor(
		readonly columns: readonly string[],
		private readonly otherFields: boolean,
		private readonly escapeFormulas = false,
	) {
		this.known = new Set(columns);
	}

	/** The header line. */
	header(): string {
		return csvLine(this.otherFields ? [...this.columns, OTHER_FIELDS_COLUMN] : this.columns);
	}

	/** The line of one record. */
	line(record: Record<string, unknown>): string {
		const values: unknown[] = this.columns.map((column) => record[column]);
		if (this.otherFields) {
			let other: Record<string, unknown> | undefined;
			for (const key of Object.keys(record)) {
				if (this.known.has(key)) continue;
				(other ??= {})[key] = record[key];
			}
			values.push(other ? other : '');
		}
		return csvLine(values, this.escapeFormulas);
	}
}

/**
 * The file name of an export: the list and the period's days in `timeZone` (default UTC),
 * `deposits_2026-11-24.csv` for one day, `deposits_2026-11-01_2026-11-30.csv` for several.
 */
export function exportFileName(
	plural: string,
	period: { from: number; to: number },
	timeZone = 'UTC',
): string {
	const day = (seconds: number) => localDate(timeZone, seconds);
	const from = day(period.from);
	const to = day(period.to);
	const slug = plural.toLowerCase().replace(/[^a-z0-9]+/g, '-');
	return from === to ? `${slug}_${from}.csv` : `${slug}_${from}_${to}.csv`;
}
