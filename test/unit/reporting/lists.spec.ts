import {
	hasRecordStatus,
	RECORD_LISTS,
	recordKey,
	recordStatuses,
	REPORTING_LISTS,
	TRIGGER_LISTS,
} from '../../../nodes/PaymentsService/reporting/lists';
import { findOperation } from '../../../nodes/PaymentsService/actions/registry';
import { TOOL_DESCRIPTIONS } from '../../../nodes/PaymentsService/actions/toolDescriptions';

// Each list is described once; what is derived from it must only name fields its records have.
describe.each(RECORD_LISTS.map((list) => [list.resource, list] as const))(
	'the %s list',
	(_, list) => {
		const fields = new Set(list.fields);

		test('its id, date, Simplify, grouping and amount fields are fields of its records', () => {
			const named = [
				...list.idFields,
				list.recordDateField,
				...(list.hasLastChangeDate ? ['lastChangeDate'] : []),
				...(list.statusParam ? ['status'] : []),
				...list.simpleFields,
				...Object.values(list.summary.groups),
				...list.summary.amounts.flatMap((amount) =>
					typeof amount.currency === 'string' ? [amount.field, amount.currency] : [amount.field],
				),
			];
			expect(named.filter((field) => !fields.has(field))).toEqual([]);
			expect(fields.size).toBe(list.fields.length);
		});

		test('its operations and tool descriptions are made from it', () => {
			for (const operation of ['getMany', 'summarize', 'exportToFile'])
				expect(findOperation(list.resource, operation)?.action).toContain(list.plural);
			expect(TOOL_DESCRIPTIONS[`${list.resource}.getMany`]).toMatch(
				new RegExp(`^Lists ${list.plural}[ .(].*${list.recordSummary}$`),
			);
			expect(TOOL_DESCRIPTIONS[`${list.resource}.summarize`]).toMatch(
				new RegExp(`^Totals of ${list.plural}\\. `),
			);
			expect(TOOL_DESCRIPTIONS[`${list.resource}.exportToFile`]).toMatch(
				new RegExp(`^Exports ${list.plural}\\. `),
			);
		});
	},
);

describe('the reporting lists', () => {
	test('every list but the daily balance has records of its own, and the trigger watches those', () => {
		expect(RECORD_LISTS.map((list) => list.resource).sort()).toEqual(
			Object.keys(REPORTING_LISTS)
				.filter((resource) => resource !== 'balanceReport')
				.sort(),
		);
		expect([...TRIGGER_LISTS].sort()).toEqual(RECORD_LISTS.map((list) => list.resource).sort());
	});

	test('a record is known by its id fields, joined; without them it has no key', () => {
		expect(recordKey(REPORTING_LISTS.balanceReport, { date: '2024-01-01', currency: 'USD' })).toBe(
			'2024-01-01|USD',
		);
		expect(recordKey(REPORTING_LISTS.deposit, { idDeposit: 7 })).toBe('7');
		expect(recordKey(REPORTING_LISTS.deposit, { idDeposit: '' })).toBeUndefined();
		expect(recordKey(REPORTING_LISTS.balanceReport, { date: '2024-01-01' })).toBeUndefined();
	});

	test('statuses: the filter’s, then the record-only ones; compared without case', () => {
		expect(recordStatuses(REPORTING_LISTS.deposit).at(-1)).toBe('CREATED');
		expect(hasRecordStatus({ status: 'approved' }, 'APPROVED')).toBe(true);
		expect(hasRecordStatus({ status: 'PENDING' }, 'APPROVED')).toBe(false);
		expect(hasRecordStatus({}, undefined)).toBe(true);
	});
});
