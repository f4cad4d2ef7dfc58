/**
 * The countries the provider documents, with their names and local currencies (service rules §9:
 * the service publishes no country endpoint, so the package keeps this one table). It feeds the
 * Country pickers; it does not limit what may be sent: a code typed by hand or mapped from an
 * earlier node is sent as it is, and the service stays the authority on which countries a
 * merchant may use.
 */

/** One country: ISO 3166-1 alpha-2 code, English name, ISO 4217 code of the local currency. */
export interface CountryInfo {
	code: string;
	name: string;
	currency: string;
}

/** Every documented country, sorted by name. */
export const COUNTRIES: readonly CountryInfo[] = [
	{ code: 'AR', name: 'Argentina', currency: 'ARS' },
	{ code: 'BO', name: 'Bolivia', currency: 'BOB' },
	{ code: 'BR', name: 'Brazil', currency: 'BRL' },
	{ code: 'CM', name: 'Cameroon', currency: 'XAF' },
	{ code: 'CL', name: 'Chile', currency: 'CLP' },
	{ code: 'CN', name: 'China', currency: 'CNY' },
	{ code: 'CO', name: 'Colombia', currency: 'COP' },
	{ code: 'CR', name: 'Costa Rica', currency: 'CRC' },
	{ code: 'DO', name: 'Dominican Republic', currency: 'DOP' },
	{ code: 'EC', name: 'Ecuador', currency: 'USD' },
	{ code: 'SV', name: 'El Salvador', currency: 'USD' },
	{ code: 'GH', name: 'Ghana', currency: 'GHS' },
	{ code: 'GT', name: 'Guatemala', currency: 'GTQ' },
	{ code: 'IN', name: 'India', currency: 'INR' },
	{ code: 'ID', name: 'Indonesia', currency: 'IDR' },
	{ code: 'JP', name: 'Japan', currency: 'JPY' },
	{ code: 'KE', name: 'Kenya', currency: 'KES' },
	{ code: 'MY', name: 'Malaysia', currency: 'MYR' },
	{ code: 'MX', name: 'Mexico', currency: 'MXN' },
	{ code: 'NG', name: 'Nigeria', currency: 'NGN' },
	{ code: 'PA', name: 'Panama', currency: 'USD' },
	{ code: 'PY', name: 'Paraguay', currency: 'PYG' },
	{ code: 'PE', name: 'Peru', currency: 'PEN' },
	{ code: 'PH', name: 'Philippines', currency: 'PHP' },
	{ code: 'ZA', name: 'South Africa', currency: 'ZAR' },
	{ code: 'TH', name: 'Thailand', currency: 'THB' },
	{ code: 'UY', name: 'Uruguay', currency: 'UYU' },
	{ code: 'VN', name: 'Vietnam', currency: 'VND' },
];

/** Lower case without accents, so "peru" finds "Perú" and "mexico" "México". */
function folded(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}

/**
 * The countries whose code, name or currency contains `filter` (case and accents ignored), in table
 * order; every country when the filter is empty. An exact code match comes first, so typing "in"
 * offers India before Argentina, China, the Dominican Republic…
 */
export function matchCountries(filter = ''): CountryInfo[] {
	const wanted = folded(filter.trim());
	if (!wanted) return [...COUNTRIES];
	const matches = COUNTRIES.filter((country) =>
		[country.code, country.name, country.currency].some((text) => folded(text).includes(wanted)),
	);
	return [
		...matches.filter((country) => folded(country.code) === wanted),
		...matches.filter((country) => folded(country.code) !== wanted),
	];
}

/** An ISO 3166-1 alpha-2 country code in capitals, as the service takes it (service rules §5.1, §6.2). */
export const COUNTRY_CODE = /^[A-Z]{2}$/;

/** An ISO 4217 currency code in capitals, as the service takes it (service rules §5.1, §6.2). */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

/** Whether `value` is a 2-letter country code in any case (filters and pickers capitalise it). */
export function isCountryCode(value: string): boolean {
	return /^[A-Z]{2}$/i.test(value);
}
