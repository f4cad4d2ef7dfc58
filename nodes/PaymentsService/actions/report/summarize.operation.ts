import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { type GroupField, type RecordListResource, REPORTING_LISTS } from '../../reporting/lists';
import { type Contribution, GROUP_FIELDS, groupFieldsOf, Summary } from '../../reporting/summary';
import { isoSeconds } from '../../codes/dates';
import type { PaymentsClient } from '../../transport/client';
import { optionsCollection } from '../../parameters/options';
import { showValue } from '../../parameters/values';
import type { OperationModule } from '../types';
import { convertToProperty, readConversion, readConvertTo } from './conversion';
import {
	binaryFieldProperty,
	columnsProperty,
	fileOptions,
	planFile,
	writeRecordsFile,
	type FilePlan,
} from './file';
import {
	planRead,
	readAll,
	readProperties,
	timeZoneOption,
	type RecordSink,
	type ReportRead,
} from './read';
import { checkChoices, windowConcurrencyOption } from '../common/parameters';

const GROUP_NAMES: Record<GroupField, { name: string; description: string }> = {
	status: { name: 'Status', description: 'The record’s status' },
	currency: { name: 'Currency', description: 'The currency of the record’s amount' },
	country: { name: 'Country', description: 'The 2-letter country code' },
	paymentMethod: { name: 'Payment Method', description: 'The payment method code' },
	day: { name: 'Day', description: 'The day of the creation date, in the time zone' },
	hour: { name: 'Hour', description: 'The hour of the creation date, in the time zone' },
};

/** The parameters of `resource` → Summarize. */
export function summarizeProperties(resource: RecordListResource): INodeProperties[] {
	const groups = groupFieldsOf(resource);
	const amounts = REPORTING_LISTS[resource].summary.amounts;
	const groupBy: INodeProperties = {
		displayName: 'Group By',
		name: 'groupBy',
		type: 'multiOptions',
		default: [],
		options: groups
			.map((field) => ({ value: field, ...GROUP_NAMES[field] }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		description:
			'One output item per combination of these values, plus a totals item. None: the totals item only.',
	};
	groupBy.default = groups.filter((field) => field === 'status' || field === 'currency');
	const amountFields: INodeProperties = {
		displayName: 'Amount Fields',
		name: 'amountFields',
		type: 'multiOptions',
		default: [],
		options: amounts
			.map((entry) => ({ name: entry.name, value: entry.field }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		description:
			'Amounts to total: sum, minimum, maximum and average in each currency apart. None: counts only.',
	};
	amountFields.default = amounts.map((entry) => entry.field);
	const withFile = { show: { writeFile: [true] } };
	return [
		...readProperties(resource),
		groupBy,
		amountFields,
		convertToProperty,
		writeFileProperty,
		{ ...columnsProperty(resource), displayOptions: withFile },
		{ ...binaryFieldProperty, displayOptions: withFile },
		optionsCollection([
			...fileOptions({ show: { '/writeFile': [true] } }),
			timeZoneOption,
			windowConcurrencyOption,
		]),
	];
}

/**
 * Write Records to File: the totals and the CSV file of the same records from one read (service
 * rules §3.5). Off by default, so saved workflows keep their output.
 */
const writeFileProperty: INodeProperties = {
	displayName: 'Write Records to File',
	name: 'writeFile',
	type: 'boolean',
	default: false,
	description:
		'Whether to also write every record counted into a CSV file (as Export to File writes it), put on the totals item: the totals and the file come from one read of the period',
};

/**
 * Reads Write Records to File of item `itemIndex`.
 * @throws NodeOperationError when an expression gave something else than true or false.
 */
function readWriteFile(context: IExecuteFunctions, itemIndex: number): boolean {
	const value = context.getNodeParameter('writeFile', itemIndex, false);
	if (typeof value === 'boolean') return value;
	throw new NodeOperationError(
		context.getNode(),
		`Write Records to File must be true or false, got ${showValue(value)} (item ${itemIndex})`,
		{
			itemIndex,
			description:
				'Turn Write Records to File on or off, or make its expression give true or false.',
		},
	);
}

/** What Summarize does for one item, read from its parameters before any request. */
interface SummarizePlan {
	read: ReportRead;
	groupBy: GroupField[];
	amountFields: string[];
	/** Convert Totals To: the target currency, or undefined. */
	convertTo?: string;
	/** Write Records to File: the file, or undefined. */
	file?: FilePlan;
}

/**
 * Reads and checks every parameter of Summarize for item `itemIndex` (service rules §3.5).
 * @throws NodeOperationError for a grouping, amount field, column, time zone, period, filter,
 *   Convert Totals To or output field that is not valid; nothing has been sent.
 */
function planSummarize(
	context: IExecuteFunctions,
	itemIndex: number,
	resource: RecordListResource,
): SummarizePlan {
	const read = planRead(context, itemIndex, resource);
	const label = read.list.label;
	const chosen = checkChoices(
		context,
		itemIndex,
		'Group By',
		context.getNodeParameter('groupBy', itemIndex, []),
		groupFieldsOf(resource),
		label,
	) as GroupField[];
	const amountFields = checkChoices(
		context,
		itemIndex,
		'Amount Fields',
		context.getNodeParameter('amountFields', itemIndex, []),
		REPORTING_LISTS[resource].summary.amounts.map((entry) => entry.field),
		label,
	);
	return {
		read,
		groupBy: GROUP_FIELDS.filter((field) => chosen.includes(field)),
		amountFields,
		convertTo: readConvertTo(context, itemIndex),
		file: readWriteFile(context, itemIndex)
			? planFile(context, itemIndex, resource, read)
			: undefined,
	};
}

/** The totals as a sink of the report's read: a record's share made as it arrives, counted once its window ends. */
function totalsSink(summary: Summary): RecordSink<Contribution> {
	return {
		keep: (record) => summary.contribution(record),
		take: (shares) => {
			for (const share of shares) summary.add(share);
		},
	};
}

/**
 * `resource` → Summarize for one item (service rules §3.5; docs/reports.md): reads the period once
 * (read.ts) and outputs one item per group, then a totals item (`total: true`, with the list,
 * period, time zone and groupings). Convert Totals To adds `converted` to each item and
 * `exchangeRates` to the totals (conversion.ts); Write Records to File makes the CSV file a second
 * sink of the same read, put on the totals item (file.ts; `rows` equals `count`). Every check
 * precedes the first request.
 * @throws NodeOperationError for a parameter that is not valid (nothing sent, see planSummarize);
 *   NodeApiError when a request fails: no partial totals and no file are output.
 */
export async function executeSummarize(
	context: IExecuteFunctions,
	client: PaymentsClient,
	itemIndex: number,
	resource: RecordListResource,
): Promise<INodeExecutionData[]> {
	const plan = planSummarize(context, itemIndex, resource);
	const { read, groupBy, file } = plan;
	const summary = new Summary({
		list: read.list,
		groupBy,
		amountFields: plan.amountFields,
		timeZone: read.timeZone,
	});
	const totals = totalsSink(summary);
	const written = file
		? await writeRecordsFile(context, client, itemIndex, read, file, [totals])
		: undefined;
	const counts = written?.counts ?? (await readAll(client, read, itemIndex, [totals]));
	const conversion = plan.convertTo
		? await readConversion(context, itemIndex, plan.convertTo, summary.currencies())
		: undefined;
	const items: INodeExecutionData[] = groupBy.length
		? summary.groupsJson(conversion).map((json) => ({ json: { total: false, ...json } }))
		: [];
	const json: IDataObject = {
		total: true,
		...summary.totalsJson(conversion),
		...(conversion ? { exchangeRates: conversion.ratesJson() } : {}),
		list: resource,
		periodFrom: isoSeconds(read.period.from),
		periodTo: isoSeconds(read.period.to),
		timeZone: read.timeZone,
		groupBy,
		windowsRead: counts.windows,
		recordsRead: counts.copies,
	};
	if (!written || !file) return [...items, { json }];
	json.file = { fileName: file.fileName, rows: written.rows, columns: file.columns };
	return [...items, { json, binary: { [file.binaryPropertyName]: written.binary } }];
}

/** `resource` → Summarize (registered in actions/registry.ts for each reporting list). */
export function summarizeOperation(resource: RecordListResource): OperationModule {
	return {
		properties: summarizeProperties(resource),
		async execute(this: IExecuteFunctions, client: PaymentsClient, itemIndex: number) {
			return await executeSummarize(this, client, itemIndex, resource);
		},
	};
}
