import { COUNTRIES, matchCountries } from '../../../nodes/PaymentsService/reference/countries';
import { locatorValue, PICKERS } from '../../../nodes/PaymentsService/reference/pickers';

describe('the country table', () => {
	test('each country has a unique 2-letter code, a name and a 3-letter currency; the table is sorted by name', () => {
		expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(COUNTRIES.length);
		for (const country of COUNTRIES) {
			expect([
				country.code,
				/^[A-Z]{2}$/.test(country.code),
				/^[A-Z]{3}$/.test(country.currency),
				country.name.length > 2,
			]).toEqual([country.code, true, true, true]);
		}
		const names = COUNTRIES.map((country) => country.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	test('it holds the countries of the sandbox with the currencies the service uses', () => {
		const currencyOf = (code: string) =>
			COUNTRIES.find((country) => country.code === code)?.currency;
		expect(['AR', 'BR', 'CL', 'CO', 'MX', 'PE'].map(currencyOf)).toEqual([
			'ARS',
			'BRL',
			'CLP',
			'COP',
			'MXN',
			'PEN',
		]);
	});

	test('matchCountries matches code, name or currency, ignoring case and accents; an exact code comes first', () => {
		expect(matchCountries()).toEqual([...COUNTRIES]);
		expect(matchCountries('  ')).toHaveLength(COUNTRIES.length);
		expect(matchCountries('Perú').map((country) => country.code)).toEqual(['PE']);
		expect(matchCountries('in').map((country) => country.code)).toEqual([
			'IN',
			'AR',
			'CN',
			'DO',
			'ID',
			'PH',
		]);
		expect(matchCountries('usd').map((country) => country.code)).toEqual(['EC', 'SV', 'PA']);
		expect(matchCountries('atlantis')).toEqual([]);
	});
});

describe('picker values', () => {
	test('a resource locator gives its value; a plain value saved before the parameter was a picker is itself', () => {
		expect(
			locatorValue({ __rl: true, mode: 'list', value: 'BR', cachedResultName: 'Brazil' }),
		).toBe('BR');
		expect(locatorValue({ __rl: true, mode: 'id', value: 341 })).toBe(341);
		expect(locatorValue('MX')).toBe('MX');
		expect(locatorValue(undefined)).toBeUndefined();
		expect(locatorValue({ account_number: '1' })).toEqual({ account_number: '1' });
	});

	test('every picker offers a list and a typed code, and the list of payment methods and banks follows the country', () => {
		for (const picker of Object.values(PICKERS)) {
			expect(picker.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
		}
		expect(PICKERS.paymentMethod.typeOptions?.loadOptionsDependsOn).toEqual(['country.value']);
		expect(PICKERS.bank.typeOptions?.loadOptionsDependsOn).toEqual(['country.value']);
	});
});
