/**
 * The one rule for the service's numeric identifiers (deposit, cashout, refund and ticket ids,
 * merchant IDs; service rules §5.3, §6.1, §7, §8): a positive whole number JavaScript carries
 * exactly (1 to 2^53 − 1), given as a number or as decimal digits (surrounding spaces ignored).
 *
 * @returns the id as a number, or undefined for anything else (0, negatives, fractions, exponents,
 *   hex, 2^53 and above, empty text, other types). Callers say what was wrong and how to fix it.
 */
export function positiveId(value: unknown): number | undefined {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!/^\d+$/.test(text)) return undefined;
	const id = Number(text);
	return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
