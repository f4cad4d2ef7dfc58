import { codeOptions } from '../../../nodes/PaymentsService/parameters/codeOptions';

describe('codeOptions: the service’s code values as an options list', () => {
	test('each code keeps its value and reads as words (ID in capitals), sorted by name as n8n’s lint wants', () => {
		expect(codeOptions(['WAITING_DETAILS', 'ID_DOCUMENT', 'BANK_STATEMENT'])).toEqual([
			{ name: 'Bank Statement', value: 'BANK_STATEMENT' },
			{ name: 'ID Document', value: 'ID_DOCUMENT' },
			{ name: 'Waiting Details', value: 'WAITING_DETAILS' },
		]);
	});
});
