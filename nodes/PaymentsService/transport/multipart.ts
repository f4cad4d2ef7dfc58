import { randomBytes } from 'crypto';

/** A text field or a file of a multipart/form-data body. */
export type MultipartPart =
	| { name: string; value: string }
	| { name: string; fileName: string; contentType: string; data: Buffer };

const escapeQuoted = (text: string) =>
	text.replace(/["\\\r\n]/g, (char) => encodeURIComponent(char));

/**
 * Builds a multipart/form-data body (RFC 7578) as one Buffer, so n8n can send it again unchanged
 * after renewing an expired session (a stream could be read only once).
 * Returns the body and the Content-Type header value carrying its boundary.
 */
export function buildMultipartBody(
	parts: MultipartPart[],
	boundary = `----n8nPaymentsService${randomBytes(12).toString('hex')}`,
): { body: Buffer; contentType: string } {
	const chunks: Buffer[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(part.name)}"`;
		if ('data' in part) {
			head += `; filename="${escapeQuoted(part.fileName)}"\r\nContent-Type: ${part.contentType}\r\n\r\n`;
			chunks.push(Buffer.from(head, 'utf8'), part.data, Buffer.from('\r\n', 'utf8'));
		} else {
			head += '\r\n\r\n';
			chunks.push(Buffer.from(head + part.value + '\r\n', 'utf8'));
		}
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
