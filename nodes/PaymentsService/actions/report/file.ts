import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CsvWriter, exportFileName, UTF8_BOM } from '../../reporting/csv';
import { ChunkStream } from './chunkStream';
import { type RecordListResource, REPORTING_LISTS } from '../../reporting/lists';
import type { PaymentsClient } from '../../transport/client';
import { STREAM_WINDOW_PAGES } from '../../reporting/read/period';
import { toNodeError } from '../common/nodeError';
import { readIntoSinks, type ReadCounts, type RecordSink, type ReportRead } from './read';
import { checkChoices, readSwitch } from '../common/parameters';
import { showValue } from '../../parameters/values';

/**
 * The CSV file of a report (service rules §3.5): the file parameters Export to File and Summarize's
 * Write Records to File share, their checks before any request, and the file as one sink of the
 * report's read (read.ts), streamed into n8n's binary data.
 */

/**
 * Columns: the record fields of `resource` to write, in the order chosen (none: every field of
 * the list's `fields` in reporting/lists.ts, then otherFields; service rules §3.5).
 */
export function columnsProperty(resource: RecordListResource): INodeProperties {
	return {
		displayName: 'Columns',
		name: 'columns',
		type: 'multiOptions',
		default: [],
		options: REPORTING_LISTS[resource].fields
			.map((field) => ({ name: field, value: field }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		description:
			'Fields to write, in the order chosen. None: every field of the record, in the service’s order, and a last column otherFields with any field the service added (JSON).',
	};
}

/** Put Output File in Field: the binary field of the output item that holds the file. */
export const binaryFieldProperty: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	description: 'The binary field of the output item that holds the CSV file',
};

/**
 * The file's options under Options: Add Byte Order Mark (a UTF-8 BOM first, for Excel), Escape
 * Formulas (on: a text a spreadsheet would run as a formula starts with an apostrophe) and File
 * Name (empty: the list and the period's days, reporting/csv.ts exportFileName), each shown where
 * `shownWhen` (a display rule of the options themselves) says, always when it is undefined.
 */
export function fileOptions(shownWhen?: INodeProperties['displayOptions']): INodeProperties[] {
	const options: INodeProperties[] = [
		{
			displayName: 'Escape Formulas',
			name: 'escapeFormulas',
			type: 'boolean',
			default: true,
			description:
				'Whether to write a text that starts with =, +, -, @, a tab or a carriage return with an apostrophe first, so that a spreadsheet shows it as text instead of running it as a formula (OWASP’s advice against CSV injection: a payer’s name is typed by a stranger). Numbers are never changed. Turn off for a file read by a program, not a person.',
		},
		{
			displayName: 'Add Byte Order Mark (BOM)',
			name: 'bom',
			type: 'boolean',
			default: false,
			description:
				'Whether to start the file with a UTF-8 byte order mark, so that Excel reads accents and symbols right',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'deposits_2026-11-24.csv',
			description:
				'Empty: the list and the period’s days in the time zone, e.g. deposits_2026-11-24.csv',
		},
	];
	return shownWhen ? options.map((option) => ({ ...option, displayOptions: shownWhen })) : options;
}

/** What a report's file is: its writer, the columns it lists, where it goes and its name. */
export interface FilePlan {
	writer: CsvWriter;
	/** The header's column names (with `otherFields` when every field is written). */
	columns: string[];
	/** The binary field of the output item that holds the file. */
	binaryPropertyName: string;
	fileName: string;
	/** Whether the file starts with a UTF-8 byte order mark. */
	bom: boolean;
}

/**
 * Reads Columns, Put Output File in Field and the options BOM, Escape Formulas and File Name of
 * item `itemIndex`, for the read `read` (its list, period and time zone name the file by default).
 * @throws NodeOperationError naming the field, the item and the fix (a column the list's records do
 *   not have, an empty binary field name, an Escape Formulas that is not true or false); nothing
 *   has been sent.
 */
export function planFile(
	context: IExecuteFunctions,
	itemIndex: number,
	resource: RecordListResource,
	read: ReportRead,
): FilePlan {
	const chosen = checkChoices(
		context,
		itemIndex,
		'Columns',
		context.getNodeParameter('columns', itemIndex, []),
		REPORTING_LISTS[resource].fields,
		read.list.label,
	);
	const binaryPropertyName = outputField(context, itemIndex);
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const escapeFormulas = readSwitch(context, itemIndex, options, {
		name: 'escapeFormulas',
		label: 'Escape Formulas',
		fallback: true,
	});
	const all = chosen.length === 0;
	return {
		writer: new CsvWriter(all ? REPORTING_LISTS[resource].fields : chosen, all, escapeFormulas),
		columns: all ? [...REPORTING_LISTS[resource].fields, 'otherFields'] : chosen,
		binaryPropertyName,
		fileName:
			readFileName(context, itemIndex, options.fileName) ??
			exportFileName(`${REPORTING_LISTS[resource].label}s`, read.period, read.timeZone),
		bom: options.bom === true,
	};
}

/** What one read into a file gave. */
export interface WrittenFile {
	/** The file in n8n's binary data (on the filesystem, or in memory in n8n's default mode). */
	binary: IBinaryData;
	/** Rows written: the records of the period in the Status filter, each once. */
	rows: number;
	/** Windows read to their end, and copies of records their pages held (duplicates included). */
	counts: ReadCounts;
}

/**
 * The file's lines of the windows read to their end and not yet handed on: a sink of the read
 * (read.ts), emptied by the file's stream after each window.
 */
class FileLines implements RecordSink<string> {
	private pending: string[] = [];

	constructor(private readonly writer: CsvWriter) {}

	keep(record: Record<string, unknown>): string {
		return this.writer.line(record);
	}

	take(lines: string[]): void {
		if (lines.length) this.pending.push(lines.join(''));
	}

	/** The lines taken since the last call, as one text ('' when none). */
	flush(): string {
		const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
		this.pending = [];
		return text;
	}
}

/**
 * Reads the period of `read` once (read.ts, readIntoSinks) and streams the records in the Status
 * filter into n8n's binary data as the CSV file of `file`, window by window, in the order the
 * windows end (service rules §3.5). With binary data on the filesystem the rows go to disk as they
 * are read; in n8n's default in-memory mode n8n collects the stream into one buffer. `others`
 * (Summarize's totals) take the same records from the same read.
 * @throws NodeApiError when a request fails (naming the window and the page); NodeOperationError
 *   when n8n's binary data store stops reading the file. No file is output then, and what `others`
 *   took must not be used.
 */
export async function writeRecordsFile(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	read: ReportRead,
	file: FilePlan,
	others: ReadonlyArray<RecordSink<unknown>> = [],
): Promise<WrittenFile> {
	const lines = new FileLines(file.writer);
	const counts: ReadCounts = { windows: 0, copies: 0, records: 0 };
	// A row is held as text until its window ends, 10 times what Summarize keeps of it: half the
	// windows' pages keep a file's read within the memory of Summarize's.
	const reading = readIntoSinks(
		client,
		read,
		itemIndex,
		[lines, ...others],
		counts,
		STREAM_WINDOW_PAGES / 2,
	);
	const progress = { complete: false };
	let binary: IBinaryData;
	try {
		binary = await context.helpers.prepareBinaryData(
			// prepareBinaryData is typed for Node's Readable; n8n's stores read it as ChunkStream offers.
			new ChunkStream(fileChunks(file, reading, lines, progress)) as unknown as Parameters<
				IExecuteFunctions['helpers']['prepareBinaryData']
			>[0],
			file.fileName,
			'text/csv',
		);
	} catch (caught) {
		// The read's own error (it names the window and the page), as both stores pass it on.
		throw toNodeError(context.getNode(), caught, itemIndex, FILE_NOT_WRITTEN);
	}
	// A read that failed is never a file, whatever the binary store made of the stream's end.
	if (!progress.complete) {
		throw new NodeOperationError(
			context.getNode(),
			`The ${read.list.label} file was not finished (item ${itemIndex})`,
			{ itemIndex, description: 'n8n’s binary data store stopped reading it; nothing was output.' },
		);
	}
	return { binary, rows: counts.records, counts };
}

/** What a failure of n8n's binary data store means for the report. */
const FILE_NOT_WRITTEN = 'Writing the CSV file into n8n’s binary data failed; nothing was output.';

/**
 * The file's bytes as the read goes: the header (after a BOM when asked), then the lines of each
 * window once it was read to its end. `progress` is marked complete only when every window was
 * read, so a file whose read stopped is never output.
 */
async function* fileChunks(
	file: FilePlan,
	reading: AsyncGenerator<void>,
	lines: FileLines,
	progress: { complete: boolean },
): AsyncGenerator<Buffer> {
	yield Buffer.from((file.bom ? UTF8_BOM : '') + file.writer.header(), 'utf8');
	for (let step = await reading.next(); !step.done; step = await reading.next()) {
		const text = lines.flush();
		if (text) yield Buffer.from(text, 'utf8');
	}
	progress.complete = true;
}

/** Characters a file name can have at most on the common file systems. */
const MAX_FILE_NAME_LENGTH = 255;

/** Whether `name` holds a control character (U+0000 to U+001F, U+007F) or a path separator. */
function hasControlOrSeparator(name: string): boolean {
	for (let index = 0; index < name.length; index++) {
		const code = name.charCodeAt(index);
		if (code < 0x20 || code === 0x7f || name[index] === '/' || name[index] === '\\') return true;
	}
	return false;
}

/**
 * Reads the File Name option, trimmed; undefined when it is empty (the default name).
 * @throws NodeOperationError naming the value and the item when it is not a text, holds a control
 *   character or a path separator (the name of a file, not a place: it reaches e-mail attachments
 *   and downloads), or is longer than {@link MAX_FILE_NAME_LENGTH} characters.
 */
function readFileName(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	const name = typeof value === 'string' ? value.trim() : undefined;
	if (name === '') return undefined;
	if (name !== undefined && name.length <= MAX_FILE_NAME_LENGTH && !hasControlOrSeparator(name))
		return name;
	throw new NodeOperationError(
		context.getNode(),
		`File Name must be a file's name, got ${showValue(value)} (item ${itemIndex})`,
		{
			itemIndex,
			description: `Use a name such as deposits.csv: no folder (/ or \\), no control characters, at most ${MAX_FILE_NAME_LENGTH} characters; or leave it empty for the list and the period's days.`,
		},
	);
}

/**
 * The binary field the file goes into (Put Output File in Field), trimmed.
 * @throws NodeOperationError when it is empty (nothing is read).
 */
function outputField(context: IExecuteFunctions, itemIndex: number): string {
	const name = String(context.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	if (name) return name;
	throw new NodeOperationError(
		context.getNode(),
		`Put Output File in Field is empty (item ${itemIndex})`,
		{ itemIndex, description: 'Name the binary field for the file, e.g. data.' },
	);
}
