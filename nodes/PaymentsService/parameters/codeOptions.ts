/**
 * Display options for API code values: `WAITING_DETAILS` → "Waiting Details", `ID_DOCUMENT` →
 * "ID Document", sorted by name (n8n's rule for option lists).
 */
export function codeOptions(values: readonly string[]): Array<{ name: string; value: string }> {
	return values
		.map((value) => ({
			name: value
				.toLowerCase()
				.split('_')
				.map((word) => (word === 'id' ? 'ID' : word.charAt(0).toUpperCase() + word.slice(1)))
				.join(' '),
			value,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}
