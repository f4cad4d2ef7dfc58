/**
 * Exact decimal money arithmetic for the reports (service rules §3.5): an amount as an integer of
 * minor units at a scale (BigInt), read from the JSON numbers and texts the service sends, summed,
 * divided and written back without a rounding error. Pure.
 */

/** An amount as an integer of minor units at a scale: `units` ÷ 10^`scale`. */
export interface Decimal {
	units: bigint;
	scale: number;
}

/** Below this size a number's hundredths are exact integers in a double (|x| · 100 < 2^53). */
const FAST_LIMIT = 1e13;

/**
 * The fast path of {@link parseDecimal} for the common amount, a number of at most 2 decimals: its
 * hundredths when `value` is exactly the double nearest to hundredths ÷ 100 (then its shortest text,
 * which the slow path reads, has at most 2 decimals and these digits), else undefined. Below
 * {@link FAST_LIMIT}, `value × 100` is within 0.25 of the integer, so rounding finds it.
 */
function hundredthsOf(value: number): number | undefined {
	if (value >= FAST_LIMIT || value <= -FAST_LIMIT) return undefined;
	const hundredths = Math.round(value * 100);
	return hundredths / 100 === value ? hundredths : undefined;
}

/** Hundredths as a {@link Decimal} without trailing zeros: 1250 is 12.5 (scale 1), as the text path gives. */
function atNaturalScale(hundredths: number): Decimal {
	if (hundredths % 100 === 0) return { units: BigInt(hundredths / 100), scale: 0 };
	if (hundredths % 10 === 0) return { units: BigInt(hundredths / 10), scale: 1 };
	return { units: BigInt(hundredths), scale: 2 };
}

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads an amount as the service sent it: a JSON number (its shortest round-trip text, exponents
 * included) or a decimal text. Undefined for anything else (NaN, Infinity, a word, a boolean).
 */
export function parseDecimal(value: unknown): Decimal | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return undefined;
		const hundredths = hundredthsOf(value);
		if (hundredths !== undefined) return atNaturalScale(hundredths);
		text = String(value);
	} else if (typeof value === 'string') text = value.trim();
	else return undefined;
	const match = DECIMAL_TEXT.exec(text);
	if (!match) return undefined;
	const [, sign, whole, fraction = '', exponentText] = match;
	const exponent = exponentText ? Number(exponentText) : 0;
	let digits = whole + fraction;
	let scale = fraction.length - exponent;
	if (scale < 0) {
		digits += '0'.repeat(-scale);
		scale = 0;
	}
	// Trailing zeros of the fraction carry no value: 12.50 and 12.5 are the same amount.
	while (scale > 0 && digits.endsWith('0')) {
		digits = digits.slice(0, -1);
		scale--;
	}
	const units = BigInt(digits);
	return { units: sign === '-' ? -units : units, scale };
}

const TEN = 10n;

export function rescale(units: bigint, from: number, to: number): bigint {
	return to > from ? units * TEN ** BigInt(to - from) : units;
}

/** `units` ÷ 10^`scale` as decimal text: units -1234 at scale 2 is "-12.34"; exact for any size. */
export function formatDecimal(units: bigint, scale: number): string {
	const negative = units < 0n;
	const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
	const text =
		scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(-scale)}`;
	return negative ? `-${text}` : text;
}

/** `numerator` ÷ `denominator` (> 0) rounded half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
	const negative = numerator < 0n;
	const magnitude = negative ? -numerator : numerator;
	const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
	return negative ? -quotient : quotient;
}

/**
 * Whether two amounts are the same amount, exactly: decimal texts or JSON numbers read as exact
 * decimals (`250` = `250.00` = `"250.0"`; `250.004` ≠ `250`), never through a double (service
 * rules §3.5). Undefined when either is not an amount.
 */
export function sameAmount(asked: unknown, found: unknown): boolean | undefined {
	const a = parseDecimal(asked);
	const b = parseDecimal(found);
	if (!a || !b) return undefined;
	return a.units === b.units && a.scale === b.scale;
}
