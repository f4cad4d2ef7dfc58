import {
	convertUnits,
	parseRate,
	RateConversion,
	rateCountryOf,
	type ExchangeRate,
} from '../../../nodes/PaymentsService/reporting/conversion';
import { parseDecimal, type Decimal } from '../../../nodes/PaymentsService/reporting/decimal';

const decimal = (text: string) => parseDecimal(text) as Decimal;
const rate = (currency: string, country: string, perUsd: string): ExchangeRate => ({
	currency,
	country,
	perUsd: decimal(perUsd),
	readAt: '2026-11-26T02:00:00.000Z',
});

describe('converting sums with the service’s rates (units per USD)', () => {
	test('amount × rate(to) ÷ rate(from), in cents rounded half away from zero', () => {
		// 543.00 BRL at 5.43 per USD is 100.00 USD.
		expect(convertUnits(decimal('543'), decimal('5.43'), decimal('1'))).toBe(10000n);
		// 1.00 BRL = 0.18416… USD → 18 cents; 0.005 USD sits on the half and goes away from zero.
		expect(convertUnits(decimal('1'), decimal('5.43'), decimal('1'))).toBe(18n);
		expect(convertUnits(decimal('0.005'), decimal('1'), decimal('1'))).toBe(1n);
		expect(convertUnits(decimal('-0.005'), decimal('1'), decimal('1'))).toBe(-1n);
		// 100 USD into MXN at 17.12: 1712.00.
		expect(convertUnits(decimal('100'), decimal('1'), decimal('17.12'))).toBe(171200n);
		// BRL into MXN goes through USD without rounding in between: 543 BRL = 1712.00 MXN.
		expect(convertUnits(decimal('543'), decimal('5.43'), decimal('17.12'))).toBe(171200n);
	});

	test('a currency without a rate is left out of the sum and named; the others are converted', () => {
		const conversion = new RateConversion('USD', new Map([['BRL', rate('BRL', 'BR', '5.43')]]));
		const result = conversion.convert(
			new Map([
				['BRL', decimal('543')],
				['USD', decimal('10.5')],
				['EUR', decimal('99')],
				['XXX', decimal('1')],
			]),
		);
		expect(result).toEqual({ sum: '110.50', notConverted: ['EUR', 'XXX'] });
		expect(conversion.ratesJson()).toEqual([
			{ currency: 'BRL', country: 'BR', perUsd: '5.43', readAt: '2026-11-26T02:00:00.000Z' },
		]);
	});

	test('a million amounts of 0.01 BRL convert as one sum, not a million roundings', () => {
		const conversion = new RateConversion('USD', new Map([['BRL', rate('BRL', 'BR', '5.43')]]));
		// 10,000.00 BRL / 5.43 = 1841.620626… USD.
		expect(conversion.convert(new Map([['BRL', { units: 1_000_000n, scale: 2 }]])).sum).toBe(
			'1841.62',
		);
	});

	test('rates: only positive decimals; the country asked is the one whose local currency it is', () => {
		expect(parseRate(5.43)).toEqual({ units: 543n, scale: 2 });
		expect(parseRate('3950.5')).toEqual({ units: 39505n, scale: 1 });
		for (const bad of [0, -1, 'x', null, undefined, Number.NaN])
			expect(parseRate(bad)).toBeUndefined();
		expect(rateCountryOf('BRL')).toBe('BR');
		expect(rateCountryOf('USD')).toBeUndefined();
		expect(rateCountryOf('EUR')).toBeUndefined();
	});
});
