import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isoSeconds } from '../../codes/dates';
import {
	ChunkStream,
	CsvWriter,
	exportFileName,
	RECORD_FIELDS,
	UTF8_BOM,
} from '../../reporting/csv';
import { hasRecordStatus, REPORTING_LISTS } from '../../reporting/lists';
import type { PaymentsClient } from '../../transport/client';
import { completedWindows, STREAM_WINDOW_PAGES } from '../../reporting/read/period';
import { optionsCollection } from '../../parameters/options';
import type { OperationModule } from '../types';
import {
	checkChoices,
	planRead,
	readProperties,
	timeZoneOption,
	type ReportResource,
} from './shared';
import { windowConcurrencyOption } from '../common/parameters';

/** The parameters of `resource` → Export to File. */
export function exportProperties(resource: ReportResource): INodeProperties[] {
	return [
		...readProperties(resource),
		{
			displayName: 'Columns',
			name: 'columns',
			type: 'multiOptions',
			default: [],
			options: RECORD_FIELDS[resource]
				.map((field) => ({ name: field, value: field }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			description:
				'Fields to write, in the order chosen. None: every field of the record, in the service’s order, and a last column otherFields with any field the service added (JSON).',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			description: 'The binary field of the output item that holds the CSV file',
		},
		optionsCollection([
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
			timeZoneOption,
			windowConcurrencyOption,
		]),
	];
}

/**
 * `resource` → Export to File for one item (service rules §3.5): the records of the period, each
 * once (reporting/read/period.ts, completedWindows), as an RFC 4180 CSV file (UTF-8, CRLF, a header
 * line; see reporting/csv.ts), written into n8n's binary data as a stream made window by window:
 * with n8n's binary data on the filesystem the rows go to disk as they are read, and only the
 * windows being read are held. In n8n's default mode ("default", in memory) n8n itself collects
 * the stream into one buffer, so the file is held whole there. Rows come window by window, in the
 * order the windows end, each window's rows in the service's order.
 *
 * Outputs one item: `{fileName, list, rows, periodFrom, periodTo, columns}` and the file in
 * `binaryPropertyName`.
 *
 * @throws NodeOperationError for an unknown column, a bad period or filter, or an empty binary
 *   field name, before any request; NodeApiError when a request fails: the node fails, no file is
 *   output.
 */
export async function executeExport(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	resource: ReportResource,
): Promise<INodeExecutionData[]> {
	const read = planRead(context, itemIndex, resource);
	const columns = checkChoices(
		context,
		itemIndex,
		'Columns',
		context.getNodeParameter('columns', itemIndex, []),
		RECORD_FIELDS[resource],
		read.list.label,
	);
	const binaryPropertyName = outputField(context, itemIndex);
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const all = columns.length === 0;
	const writer = new CsvWriter(all ? RECORD_FIELDS[resource] : columns, all);
	const fileName =
		(typeof options.fileName === 'string' && options.fileName.trim()) ||
		exportFileName(`${REPORTING_LISTS[resource].label}s`, read.period, read.timeZone);
	const progress = { rows: 0, complete: false };
	const file = csvChunks(client, read, writer, options.bom === true, itemIndex, progress);
	let binary;
	try {
		binary = await context.helpers.prepareBinaryData(
			// prepareBinaryData is typed for Node's Readable; n8n's stores read it as ChunkStream offers.
			new ChunkStream(file) as unknown as Parameters<
				IExecuteFunctions['helpers']['prepareBinaryData']
			>[0],
			fileName,
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
	const json: IDataObject = {
		fileName,
		list: resource,
		rows: progress.rows,
		periodFrom: isoSeconds(read.period.from),
		periodTo: isoSeconds(read.period.to),
		columns: all ? [...RECORD_FIELDS[resource], 'otherFields'] : columns,
	};
	return [{ json, binary: { [binaryPropertyName]: binary } }];
}

/**
 * The file's bytes as they are read: the header (after a BOM when asked), then each window's rows
 * once the window was read to its end. `progress` counts the rows and is marked complete only when
 * every window was read, so a file whose read stopped is never output.
 */
async function* csvChunks(
	client: PaymentsClient,
	read: ReturnType<typeof planRead>,
	writer: CsvWriter,
	bom: boolean,
	itemIndex: number,
	progress: { rows: number; complete: boolean },
): AsyncGenerator<Buffer> {
	yield Buffer.from((bom ? UTF8_BOM : '') + writer.header(), 'utf8');
	for await (const settled of completedWindows(client, read.query, read.windows, {
		concurrency: read.concurrency,
		// A row is held as text until its window ends, 10 times what Summarize keeps of it: half
		// the windows' pages keep a file's read within the memory of Summarize's.
		windowPages: STREAM_WINDOW_PAGES / 2,
		itemIndex,
		keyOf: read.keyOf,
		valueOf: (record) => (hasRecordStatus(record, read.status) ? writer.line(record) : undefined),
	})) {
		if (!settled.values.length) continue;
		progress.rows += settled.values.length;
		yield Buffer.from(settled.values.join(''), 'utf8');
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

/** `resource` → Export to File (registered in actions/registry.ts for each reporting list). */
export function exportToFileOperation(resource: ReportResource): OperationModule {
	return {
		properties: exportProperties(resource),
		async execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
			return await executeExport(this, client, itemIndex, resource);
		},
	};
}
