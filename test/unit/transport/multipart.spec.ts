import {
	buildMultipartBody,
	type MultipartPart,
} from '../../../nodes/PaymentsService/transport/multipart';

interface ParsedPart {
	headers: Record<string, string>;
	body: Buffer;
}

/**
 * A strict, independent reader of multipart/form-data (RFC 7578 / RFC 2046): splits on
 * CRLF--boundary, requires the closing delimiter, and returns each part's headers and raw bytes.
 */
function parseMultipart(body: Buffer, boundary: string): ParsedPart[] {
	const opening = Buffer.from(`--${boundary}\r\n`, 'latin1');
	const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
	expect(body.subarray(0, opening.length).equals(opening)).toBe(true);
	const parts: ParsedPart[] = [];
	let position = opening.length;
	for (;;) {
		const headerEnd = body.indexOf('\r\n\r\n', position, 'latin1');
		expect(headerEnd).toBeGreaterThan(-1);
		const headers: Record<string, string> = {};
		for (const line of body.subarray(position, headerEnd).toString('utf8').split('\r\n')) {
			const colon = line.indexOf(':');
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const contentStart = headerEnd + 4;
		const next = body.indexOf(delimiter, contentStart);
		expect(next).toBeGreaterThan(-1);
		parts.push({ headers, body: body.subarray(contentStart, next) });
		const after = body
			.subarray(next + delimiter.length, next + delimiter.length + 2)
			.toString('latin1');
		if (after === '--') {
			expect(body.subarray(next + delimiter.length + 2).toString('latin1')).toBe('\r\n');
			return parts;
		}
		expect(after).toBe('\r\n');
		position = next + delimiter.length + 2;
	}
}

const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const boundaryOf = (contentType: string) => {
	const match = /^multipart\/form-data; boundary=(\S+)$/.exec(contentType);
	expect(match).not.toBeNull();
	return (match as RegExpExecArray)[1];
};

describe('buildMultipartBody', () => {
	const parts: MultipartPart[] = [
		{ name: 'documentType', value: 'VOUCHER' },
		{ name: 'comment', value: 'Zahlung über PIX\r\nline two' },
		{
			name: 'file',
			fileName: 'voucher.bin',
			contentType: 'application/octet-stream',
			data: allBytes,
		},
	];

	test('Content-Type names the boundary that delimits the body', () => {
		const { body, contentType } = buildMultipartBody(parts);
		const boundary = boundaryOf(contentType);
		expect(boundary.length).toBeGreaterThanOrEqual(20);
		expect(body.subarray(0, boundary.length + 2).toString('latin1')).toBe(`--${boundary}`);
		expect(body.subarray(body.length - boundary.length - 6).toString('latin1')).toBe(
			`--${boundary}--\r\n`,
		);
	});

	test('a given boundary is used as is', () => {
		const { body, contentType } = buildMultipartBody([{ name: 'a', value: 'b' }], 'XyZ123boundary');
		expect(contentType).toBe('multipart/form-data; boundary=XyZ123boundary');
		expect(body.toString('utf8')).toBe(
			'--XyZ123boundary\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XyZ123boundary--\r\n',
		);
	});

	test('two calls use different random boundaries', () => {
		expect(buildMultipartBody(parts).contentType).not.toBe(buildMultipartBody(parts).contentType);
	});

	test('field values and file bytes 0..255 round-trip exactly through a strict parser', () => {
		const { body, contentType } = buildMultipartBody(parts);
		const parsed = parseMultipart(body, boundaryOf(contentType));
		expect(parsed).toHaveLength(3);
		expect(parsed[0].headers['content-disposition']).toBe('form-data; name="documentType"');
		expect(parsed[0].body.toString('utf8')).toBe('VOUCHER');
		expect(parsed[1].body.toString('utf8')).toBe('Zahlung über PIX\r\nline two');
		expect(parsed[2].headers['content-disposition']).toBe(
			'form-data; name="file"; filename="voucher.bin"',
		);
		expect(parsed[2].headers['content-type']).toBe('application/octet-stream');
		expect(parsed[2].body.equals(allBytes)).toBe(true);
	});

	test('the platform FormData parser (undici) reads the same fields and file', async () => {
		const { body, contentType } = buildMultipartBody(parts);
		const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
		expect(form.get('documentType')).toBe('VOUCHER');
		expect(form.get('comment')).toBe('Zahlung über PIX\r\nline two');
		const file = form.get('file');
		expect(typeof file).not.toBe('string');
		const blob = file as File;
		expect(blob.name).toBe('voucher.bin');
		expect(blob.type).toBe('application/octet-stream');
		expect(Buffer.from(await blob.arrayBuffer()).equals(allBytes)).toBe(true);
	});

	test('quotes and line breaks in a file name or field name are escaped, and a parser restores the name', async () => {
		const { body, contentType } = buildMultipartBody([
			{
				name: 'fi"le',
				fileName: 'my "quoted"\r\nname.pdf',
				contentType: 'application/pdf',
				data: Buffer.from('%PDF-1.4'),
			},
		]);
		const parsed = parseMultipart(body, boundaryOf(contentType));
		expect(parsed).toHaveLength(1);
		expect(parsed[0].headers['content-disposition']).toBe(
			'form-data; name="fi%22le"; filename="my %22quoted%22%0D%0Aname.pdf"',
		);
		expect(parsed[0].body.toString('latin1')).toBe('%PDF-1.4');
		const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
		const file = form.get('fi"le') as File;
		expect(file.name).toBe('my "quoted"\r\nname.pdf');
	});

	test('a UTF-8 file name is sent as UTF-8', () => {
		const { body, contentType } = buildMultipartBody([
			{
				name: 'file',
				fileName: 'comprovante-ção.png',
				contentType: 'image/png',
				data: Buffer.from([0x89, 0x50]),
			},
		]);
		const [part] = parseMultipart(body, boundaryOf(contentType));
		expect(part.headers['content-disposition']).toContain('filename="comprovante-ção.png"');
		expect(part.body.equals(Buffer.from([0x89, 0x50]))).toBe(true);
	});

	test('an empty file and an empty value are kept as empty parts', () => {
		const { body, contentType } = buildMultipartBody([
			{ name: 'note', value: '' },
			{ name: 'file', fileName: 'empty.txt', contentType: 'text/plain', data: Buffer.alloc(0) },
		]);
		const parsed = parseMultipart(body, boundaryOf(contentType));
		expect(parsed.map((part) => part.body.length)).toEqual([0, 0]);
	});
});
