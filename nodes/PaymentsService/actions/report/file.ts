import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CsvWriter, exportFileName, UTF8_BOM } from '../../reporting/csv';
import { ChunkStream } from './chunkStream';
import { hasRecordStatus, type RecordListResource, REPORTING_LISTS } from '../../reporting/lists';
import type { Contribution, Summary } from '../../reporting/summary';
import type { PaymentsClient } from '../../transport/client';
import { completedWindows, STREAM_WINDOW_PAGES } from '../../reporting/read/period';
import { type ReportRead } from './read';
import { checkChoices } from '../common/parameters';

/**
 * The CSV file of a report (service rules §3.5): the file parameters Export to File and Summarize's
 * Write Records to File share, their checks before any request, and the one read that streams the
 * records into n8n's binary data (and, for Summarize, counts them into its totals as they go).
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
 * The file's options under Options: Add Byte Order Mark (a UTF-8 BOM first, for Excel) and File
 * Name (empty: the list and the period's days, reporting/csv.ts exportFileName), each shown where
 * `shownWhen` (a display rule of the options themselves) says, always when it is undefined.
 */
export function fileOptions(shownWhen?: INodeProperties['displayOptions']): INodeProperties[] {
	const options: INodeProperties[] = [
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
 * Reads Columns, Put Output File in Field and the options BOM and File Name of item `itemIndex`,
 * for the read `read` (its list, period and time zone name the file by default).
 * @throws NodeOperationError naming the field, the item and the fix (a column the list's records do
 *   not have, an empty binary field name); nothing has been sent.
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
	const all = chosen.length === 0;
	return {
		writer: new CsvWriter(all ? REPORTING_LISTS[resource].fields : chosen, all),
		columns: all ? [...REPORTING_LISTS[resource].fields, 'otherFields'] : chosen,
		binaryPropertyName,
		fileName:
			(typeof options.fileName === 'string' && options.fileName.trim()) ||
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
	/** Windows read to their end. */
	windows: number;
	/** Copies of records the windows' pages held (duplicates included). */
	copies: number;
}

/**
 * Reads the period of `read` once (completedWindows: each record once, as last seen) and streams the
 * records in the Status filter into n8n's binary data as the CSV file of `file`, window by window,
 * in the order the windows end (service rules §3.5). With binary data on the filesystem the rows go
 * to disk as they are read; in n8n's default in-memory mode n8n collects the stream into one buffer.
 * With `summary`, each record written is also counted into it: totals and file hold the same records.
 * @throws NodeApiError when a request fails (naming the window and the page); NodeOperationError
 *   when n8n's binary data store stops reading the file. No file is output then, and the summary's
 *   totals must not be used.
 */
export async function writeRecordsFile(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	read: ReportRead,
	file: FilePlan,
	summary?: Summary,
): Promise<WrittenFile> {
	const progress = { rows: 0, windows: 0, copies: 0, complete: false };
	const chunks = fileChunks(client, read, file, itemIndex, progress, summary);
	let binary: IBinaryData;
	try {
		binary = await context.helpers.prepareBinaryData(
			// prepareBinaryData is typed for Node's Readable; n8n's stores read it as ChunkStream offers.
			new ChunkStream(chunks) as unknown as Parameters<
				IExecuteFunctions['helpers']['prepareBinaryData']
			>[0],
			file.fileName,
			'text/csv',
		);
	} catch (caught) {
		// The read's own error (it names the window and the page), as both stores pass it on.
		throw nodeError(context, caught, itemIndex);
	}
	// A read that failed is never a file, whatever the binary store made of the stream's end.
	if (!progress.complete) {
		throw new NodeOperationError(
			context.getNode(),
			`The ${read.list.label} file was not finished (item ${itemIndex})`,
			{ itemIndex, description: 'n8n’s binary data store stopped reading it; nothing was output.' },
		);
	}
	return { binary, rows: progress.rows, windows: progress.windows, copies: progress.copies };
}

/** One record of a file read with a summary: its line, and its share of the totals. */
interface CountedLine {
	line: string;
	contribution: Contribution;
}

/**
 * The file's bytes as they are read: the header (after a BOM when asked), then each window's rows
 * once the window was read to its end (and, with `summary`, its records counted then). `progress`
 * counts the rows and is marked complete only when every window was read, so a file whose read
 * stopped is never output.
 */
async function* fileChunks(
	client: PaymentsClient,
	read: ReportRead,
	file: FilePlan,
	itemIndex: number,
	progress: { rows: number; windows: number; copies: number; complete: boolean },
	summary: Summary | undefined,
): AsyncGenerator<Buffer> {
	const { writer } = file;
	yield Buffer.from((file.bom ? UTF8_BOM : '') + writer.header(), 'utf8');
	for await (const completed of completedWindows<string | CountedLine>(
		client,
		read.query,
		read.windows,
		{
			concurrency: read.concurrency,
			// A row is held as text until its window ends, 10 times what Summarize keeps of it: half
			// the windows' pages keep a file's read within the memory of Summarize's.
			windowPages: STREAM_WINDOW_PAGES / 2,
			itemIndex,
			keyOf: read.keyOf,
			valueOf: (record) => {
				if (!hasRecordStatus(record, read.status)) return undefined;
				const line = writer.line(record);
				return summary ? { line, contribution: summary.contribution(record) } : line;
			},
		},
	)) {
		progress.windows++;
		progress.copies += completed.copies;
		if (!completed.values.length) continue;
		progress.rows += completed.values.length;
		let text: string;
		if (summary) {
			const lines = new Array<string>(completed.values.length);
			completed.values.forEach((value, index) => {
				const counted = value as CountedLine;
				summary.add(counted.contribution);
				lines[index] = counted.line;
			});
			text = lines.join('');
		} else text = (completed.values as string[]).join('');
		yield Buffer.from(text, 'utf8');
	}
	progress.complete = true;
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

/** `caught` as the node's error: n8n's own errors as they are, anything else wrapped for the item. */
function nodeError(
	context: IExecuteFunctions,
	caught: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (caught instanceof NodeApiError || caught instanceof NodeOperationError) return caught;
	return new NodeOperationError(context.getNode(), caught as Error, {
		itemIndex,
		description: 'Writing the CSV file into n8n’s binary data failed; nothing was output.',
	});
}
