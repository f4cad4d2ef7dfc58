/** Characters of a value an error message shows at most: a pasted page of text stays out of the message. */
export const SHOWN_VALUE_LENGTH = 60;

/**
 * How an error message shows a value a user typed or an expression produced: in double quotes, as
 * a JSON string, so control characters and quotes are escaped (`"a\tb"`) and cannot break the
 * message; at most {@link SHOWN_VALUE_LENGTH} characters, then `…`. Texts as they are, numbers,
 * booleans, null and undefined as JavaScript writes them (`"NaN"`, `"1e+21"`), dates in ISO 8601,
 * arrays and objects as JSON (a value JSON cannot write, such as a cycle, by its kind). Never throws.
 */
export function showValue(value: unknown): string {
	let text: string;
	if (typeof value === 'string') text = value;
	else if (value instanceof Date)
		text = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	else if (typeof value === 'object' && value !== null) text = jsonOf(value);
	else text = String(value);
	const shown =
		text.length > SHOWN_VALUE_LENGTH ? `${text.slice(0, SHOWN_VALUE_LENGTH - 1)}…` : text;
	return JSON.stringify(shown);
}

/**
 * `value` as JSON (an object written as one string, such as Luxon's DateTime, as that string), or
 * its kind when JSON cannot write it (a cycle, a BigInt inside).
 */
function jsonOf(value: object): string {
	try {
		const json = JSON.stringify(value);
		if (json === undefined) return typeof value;
		return json.startsWith('"') ? (JSON.parse(json) as string) : json;
	} catch {
		return Array.isArray(value) ? 'array' : 'object';
	}
}

/**
 * The number a number parameter holds: a number as it is (NaN and the infinities too, for the
 * caller's range check to refuse), a text that is one number ("50", " 1e3 ") as that number;
 * anything else, a boolean, an empty text, an object, undefined. `Number()` would read true as 1
 * and "" as 0.
 */
export function numberOf(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const number = Number(value.trim());
	return Number.isNaN(number) ? undefined : number;
}
