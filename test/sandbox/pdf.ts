/**
 * A tiny, deterministic, structurally valid-enough PDF used for vouchers (ticket attachments and
 * refund vouchers). It starts with `%PDF-1.4` and carries `text` as a comment line.
 */

/** Bytes of a minimal PDF whose only content is the comment `text`. */
export function tinyPdf(text: string): Buffer {
	return Buffer.from(
		`%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 0/Kids[]>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
		'utf8',
	);
}
