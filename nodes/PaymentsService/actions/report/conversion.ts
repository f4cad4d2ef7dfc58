import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	convertibleCurrencies,
	parseRate,
	RateConversion,
	rateCountryOf,
	type ExchangeRate,
} from '../../reporting/conversion';
import { CREDENTIAL_TYPES, PaymentsClient } from '../../transport/client';
import { showValue } from '../../parameters/values';

/**
 * Summarize's "Convert Totals To" (service rules §9.1): the parameter, its checks before any
 * request, and the exchange-rate reads with the Read-Only API credential once the period is read.
 */

/** The parameter. Top-level, so the Read-Only API credential can be shown only when it is set. */
export const convertToProperty: INodeProperties = {
	displayName: 'Convert Totals To',
	name: 'convertTo',
	type: 'string',
	default: '',
	placeholder: 'USD',
	description:
		'Also total every amount in this one currency (ISO 4217 code: USD, or the local currency of a country the service serves, such as BRL or MXN), with the service’s exchange rates read after the period. Needs the Read-Only API credential. Empty: no conversion.',
};

/**
 * The target currency of item `itemIndex`, upper case, or undefined when Convert Totals To is
 * empty. Checked before the first request.
 * @throws NodeOperationError when it is not a currency the service quotes, or when the Read-Only
 *   API credential that reads the rates is not selected.
 */
export function readConvertTo(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const raw = context.getNodeParameter('convertTo', itemIndex, '');
	if (raw === undefined || raw === null) return undefined;
	const currency = typeof raw === 'string' ? raw.trim().toUpperCase() : undefined;
	if (currency === '') return undefined;
	const known = convertibleCurrencies();
	if (currency === undefined || !known.includes(currency)) {
		throw new NodeOperationError(
			context.getNode(),
			`Convert Totals To ${showValue(raw)} of item ${itemIndex} is not a currency the service quotes`,
			{
				itemIndex,
				description: `Use one of ${known.join(', ')}, or leave Convert Totals To empty.`,
			},
		);
	}
	if (!context.getNode().credentials?.[CREDENTIAL_TYPES.readOnly]) {
		throw new NodeOperationError(
			context.getNode(),
			`Convert Totals To of item ${itemIndex} needs the Read-Only API credential, which reads the exchange rates`,
			{
				itemIndex,
				description:
					'Select a Read-Only API credential on the node, or leave Convert Totals To empty.',
			},
		);
	}
	return currency;
}

/**
 * Reads the exchange rate of each currency in `currencies` and of `target` (one `GET
 * /v3/exchange_rates?country=` per currency, with the Read-Only API credential; USD and currencies
 * no documented country uses are not read) and returns the conversion into `target`.
 * @throws NodeApiError when a read fails; NodeOperationError when an answer has no positive
 *   `fx_rate`, or quotes another currency than the one asked for. No partial totals are output.
 */
export async function readConversion(
	context: IExecuteFunctions,
	itemIndex: number,
	target: string,
	currencies: Iterable<string>,
): Promise<RateConversion> {
	const client = new PaymentsClient(context, 'readOnly');
	const rates = new Map<string, ExchangeRate>();
	for (const currency of [...new Set([...currencies, target])].sort()) {
		const country = rateCountryOf(currency);
		if (!country) continue;
		const answer = await client.request<IDataObject>(
			{ family: 'payments', method: 'GET', path: '/v3/exchange_rates', qs: { country } },
			{ action: `Reading the exchange rate of ${currency} (${country})`, itemIndex },
		);
		const readAt = new Date().toISOString();
		const perUsd = parseRate(answer?.fx_rate);
		const quoted = typeof answer?.currency === 'string' ? answer.currency.toUpperCase() : currency;
		if (!perUsd || quoted !== currency) {
			throw new NodeOperationError(
				context.getNode(),
				`The exchange rate read for ${country} cannot convert ${currency} (item ${itemIndex}): fx_rate ${JSON.stringify(answer?.fx_rate)}, currency ${JSON.stringify(answer?.currency)}`,
				{
					itemIndex,
					description:
						'The service answered without a positive rate for that currency. No totals were output; run it again later, or leave Convert Totals To empty.',
				},
			);
		}
		rates.set(currency, { currency, country, perUsd, readAt });
	}
	return new RateConversion(target, rates);
}
