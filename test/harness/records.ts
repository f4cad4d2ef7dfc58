/** Helpers that compute, from the sandbox's own state, what a list request should return. */

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Records whose `dateField` lies in [from, to] (Unix seconds, inclusive), newest first then id desc. */
export function expectedList<T extends object>(
	records: T[],
	dateField: keyof T & string,
	idField: keyof T & string,
	from: number,
	to: number,
): T[] {
	return records
		.filter((record) => {
			const at = seconds(String(record[dateField] as unknown));
			return at >= from && at <= to;
		})
		.sort(
			(a, b) =>
				seconds(String(b[dateField] as unknown)) - seconds(String(a[dateField] as unknown)) ||
				Number(b[idField] as unknown) - Number(a[idField] as unknown),
		);
}

/** Unix seconds of an ISO date. */
export const unix = (iso: string) => seconds(iso);

/** ISO date (no milliseconds) of Unix seconds. */
export const iso = (unixSeconds: number) =>
	new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
