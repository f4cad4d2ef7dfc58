import type { INodeProperties } from 'n8n-workflow';

import {
	CASHOUT_COLLECTIONS,
	CASHOUT_FIELDS,
	validateCashoutRequest,
} from '../../../nodes/PaymentsService/bodies/cashoutSchema';
import { MAX_EXTERNAL_ID_LENGTH } from '../../../nodes/PaymentsService/codes/service';
import { deriveRequestKey } from '../../../nodes/PaymentsService/idempotency/keys';
import {
	bodyFromParameters,
	fieldParameters,
	type FieldProblem,
} from '../../../nodes/PaymentsService/bodies/requestFields';

const minimal = {
	external_id: 'payout-1',
	country: 'BR',
	amount: '250.00',
	document_id: '84932495016',
	beneficiary_name: 'Ana',
	notification_url: 'https://shop.example.com/notify',
};

function problemsOf(body: unknown): FieldProblem[] {
	const result = validateCashoutRequest(body);
	if (result.ok) throw new Error(`expected ${JSON.stringify(body)} to be refused`);
	return result.problems;
}

describe('validateCashoutRequest (service rules §6.2)', () => {
	test('the six required fields make a valid body, returned unchanged', () => {
		expect(validateCashoutRequest(minimal)).toEqual({ ok: true, value: minimal, unchecked: [] });
	});

	test('a derived key is a valid external ID (≤ 100 characters), the same for a re-run request and another for the next item', () => {
		const identity = {
			workflowId: 'wf',
			nodeId: 'create-payout',
			runIndex: 0,
			itemIndex: 3,
			origin: { body: { withdrawalId: 'W-1001' } },
			content: { ...minimal, external_id: undefined },
			window: '2026-11-23',
		};
		const key = deriveRequestKey(identity);
		expect(key.length).toBeLessThanOrEqual(MAX_EXTERNAL_ID_LENGTH);
		expect(validateCashoutRequest({ ...minimal, external_id: key }).ok).toBe(true);
		expect(deriveRequestKey({ ...identity })).toBe(key);
		expect(deriveRequestKey({ ...identity, itemIndex: 4 })).not.toBe(key);
	});

	test('every required field is named when missing; the external ID is not one: the create-once flow derives it when none is given', () => {
		expect(problemsOf({}).map((problem) => `${problem.field} ${problem.problem}`)).toEqual([
			'country is required',
			'amount is required',
			'document_id is required',
			'beneficiary_name is required',
			'notification_url is required',
		]);
	});

	test('a full body with every optional field is valid; a picked bank code is sent as a number', () => {
		const full = {
			...minimal,
			on_hold: true,
			document_type: 'CPF',
			beneficiary_lastname: 'Souza',
			beneficiary_id: 'cust-9',
			email: 'ana@example.com',
			phone: '+5511999999999',
			address: 'Rua A, 1',
			city: 'São Paulo',
			postal_code: '01000-000',
			beneficiary_birthdate: '1990-01-31',
			bank_code: '341',
			bank_account: '12345-6',
			bank_branch: '0001',
			account_type: 'C',
			currency: 'USD',
			comments: 'Order 7',
			type: 'BANK',
		};
		const result = validateCashoutRequest(full);
		expect(result).toEqual({ ok: true, value: { ...full, bank_code: 341 }, unchecked: [] });
	});

	test.each([
		[{ external_id: 'x'.repeat(101) }, 'external_id must be at most 100 characters'],
		[{ external_id: 'x'.repeat(100) }, undefined],
		[{ country: 'br' }, 'country must be a 2-letter ISO country code in capitals, e.g. BR'],
		[{ amount: '0' }, 'amount must be greater than 0'],
		[
			{ amount: 12.345 },
			'amount must be a positive decimal with at most 18 integer digits and 2 decimals, e.g. 100.50',
		],
		[{ amount: 99.5 }, undefined],
		[{ document_id: 'x'.repeat(31) }, 'document_id must be at most 30 characters'],
		[
			{ notification_url: 'ftp://shop.example.com/n' },
			'notification_url must be an http or https URL',
		],
		[{ notification_url: 'http://shop.example.com/n' }, undefined],
		[
			{ notification_url: 'shop.example.com' },
			'notification_url must be a full URL, e.g. https://shop.example.com/payouts/notify',
		],
		[{ on_hold: 'yes' }, 'on_hold must be boolean, got string'],
		[{ email: 'ana@' }, 'email must be a valid e-mail address'],
		[{ beneficiary_birthdate: '19900131' }, undefined],
		[
			{ beneficiary_birthdate: '1990-02-30' },
			'beneficiary_birthdate must be a date written yyyyMMdd or yyyy-MM-dd, e.g. 19900131',
		],
		[
			{ bank_code: 'itau' },
			'bank_code must be a bank code made of digits, e.g. 341 (Bank → Get Many lists them)',
		],
		[
			{ bank_code: 0 },
			'bank_code must be a bank code made of digits, e.g. 341 (Bank → Get Many lists them)',
		],
		[{ currency: 'usd' }, 'currency must be a 3-letter ISO currency code in capitals, e.g. USD'],
		[{ comments: 'x'.repeat(256) }, 'comments must be at most 255 characters'],
	])('%j: %s', (change, expected) => {
		const result = validateCashoutRequest({ ...minimal, ...change });
		if (expected === undefined) expect(result.ok).toBe(true);
		else
			expect(
				problemsOf({ ...minimal, ...change }).map(
					(problem) => `${problem.field} ${problem.problem}`,
				),
			).toEqual([expected]);
	});
});

describe('the cashout fields as node parameters', () => {
	const parameters = fieldParameters(CASHOUT_FIELDS, CASHOUT_COLLECTIONS);
	const byName = (name: string) => parameters.find((parameter) => parameter.name === name)!;

	test('the required fields are required in the node, except External ID, which is derived when empty', () => {
		expect(
			parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
		).toEqual(['country', 'amount', 'documentId', 'beneficiaryName', 'notificationUrl']);
		expect(byName('externalId').required).toBe(false);
	});

	test('Country and Bank are pickers; the optional fields sit in Beneficiary, Bank Account and Additional Fields', () => {
		expect(byName('country').type).toBe('resourceLocator');
		const bank = (byName('bankAccount').options as INodeProperties[]).find(
			(option) => option.name === 'bankCode',
		)!;
		expect(bank).toMatchObject({ type: 'resourceLocator', displayName: 'Bank' });
		expect(parameters.map((parameter) => parameter.name)).toEqual([
			'externalId',
			'country',
			'amount',
			'documentId',
			'beneficiaryName',
			'notificationUrl',
			'onHold',
			'beneficiary',
			'bankAccount',
			'additionalFields',
		]);
	});

	test('the body is built from picker values in either shape, and empty fields are left out', () => {
		const values: Record<string, unknown> = {
			externalId: '',
			country: { __rl: true, mode: 'list', value: 'BR' },
			amount: '10',
			documentId: '1',
			beneficiaryName: 'Ana',
			notificationUrl: 'https://a.example/n',
			onHold: false,
		};
		const collections: Record<string, Record<string, unknown>> = {
			bankAccount: { bankCode: { __rl: true, mode: 'id', value: ' 341 ' }, bankAccount: '' },
		};
		const built = bodyFromParameters(CASHOUT_FIELDS, (param, collection) =>
			collection ? collections[collection]?.[param] : values[param],
		);
		expect(built).toEqual({
			body: {
				country: 'BR',
				amount: '10',
				document_id: '1',
				beneficiary_name: 'Ana',
				notification_url: 'https://a.example/n',
				on_hold: false,
				bank_code: '341',
			},
		});
	});
});
