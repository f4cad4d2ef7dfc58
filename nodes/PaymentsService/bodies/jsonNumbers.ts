/**
 * Numbers that JSON text holds but a JavaScript number cannot carry exactly (service rules §5.1:
 * amounts have up to 18 integer digits and 2 decimals, more than a double's 15–17 significant
 * digits). `JSON.parse` would round them silently, and the request would ask for another amount.
 */

/** A decimal literal reduced to sign, digits without leading or trailing zeros, and exponent. */
function decimalKey(literal: string): string {
	const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal.trim());
	if (!match) return literal;
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	let digits = `${whole}${fraction}`.replace(/^0+/, '');
	let power = Number(exponent) - fraction.length;
	if (digits === '') return '0';
	while (digits.endsWith('0')) {
		digits = digits.slice(0, -1);
		power++;
	}
	return `${sign}${digits}e${power}`;
}

/**
 * The number literals of `jsonText` whose value changes when parsed into a JavaScript number and
 * written back (e.g. `123456789012345678` becomes `123456789012345680`), in order of appearance.
 * Text inside strings is skipped. `100.00` and `1e2` are exact (the value is kept) and not listed.
 */
export function findInexactNumbers(jsonText: string): string[] {
	const inexact: string[] = [];
	const tokens = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
	for (const [token] of jsonText.matchAll(tokens)) {
		if (token.startsWith('"')) continue;
		const parsed = Number(token);
		if (!Number.isFinite(parsed) || decimalKey(String(parsed)) !== decimalKey(token))
			inexact.push(token);
	}
	return inexact;
}

/** Significant digits of a number as JavaScript writes it (`1234567890123456.8` → 17). */
export function significantDigits(value: number): number {
	const key = decimalKey(String(value));
	return key === '0' ? 1 : key.replace(/^-/, '').replace(/e.*$/, '').length;
}

/**
 * Most significant digits every decimal keeps through a JavaScript number (IEEE 754 double): a
 * number written with more may have been rounded on the way.
 */
export const EXACT_SIGNIFICANT_DIGITS = 15;
