import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isoSeconds } from '../../codes/dates';
import type { RecordListResource } from '../../reporting/lists';
import type { PaymentsClient } from '../../transport/client';
import { optionsCollection } from '../../parameters/options';
import type { OperationModule } from '../types';
import {
	binaryFieldProperty,
	columnsProperty,
	fileOptions,
	planFile,
	writeRecordsFile,
} from './file';
import { windowConcurrencyOption } from '../common/parameters';
import { planRead, readProperties, timeZoneOption } from './read';

/** The parameters of `resource` → Export to File. */
export function exportProperties(resource: RecordListResource): INodeProperties[] {
	return [
		...readProperties(resource),
		columnsProperty(resource),
		binaryFieldProperty,
		optionsCollection([...fileOptions(), timeZoneOption, windowConcurrencyOption]),
	];
}

/**
 * `resource` → Export to File for one item (service rules §3.5): the records of the period, each
 * once, as an RFC 4180 CSV file (reporting/csv.ts) streamed into n8n's binary data
 * (file.ts, writeRecordsFile). Outputs one item, `{fileName, list, rows, periodFrom, periodTo,
 * columns}`, with the file in `binaryPropertyName`.
 * @throws NodeOperationError for an unknown column, a bad period or filter, or an empty binary
 *   field name, before any request; NodeApiError when a request fails (no file is output).
 */
export async function executeExport(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	resource: RecordListResource,
): Promise<INodeExecutionData[]> {
	const read = planRead(context, itemIndex, resource);
	const file = planFile(context, itemIndex, resource, read);
	const written = await writeRecordsFile(context, client, itemIndex, read, file);
	const json: IDataObject = {
		fileName: file.fileName,
		list: resource,
		rows: written.rows,
		periodFrom: isoSeconds(read.period.from),
		periodTo: isoSeconds(read.period.to),
		columns: file.columns,
	};
	return [{ json, binary: { [file.binaryPropertyName]: written.binary } }];
}

/** `resource` → Export to File (registered in actions/registry.ts for each reporting list). */
export function exportToFileOperation(resource: RecordListResource): OperationModule {
	return {
		properties: exportProperties(resource),
		async execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
			return await executeExport(this, client, itemIndex, resource);
		},
	};
}
