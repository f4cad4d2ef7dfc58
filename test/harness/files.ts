/** Files the engine tests attach (through {@link WorkflowBuilder.files}) and the hash they compare. */
import { createHash } from 'crypto';

import type { FileSpec } from './fixtures';

/** A bank statement: a PNG signature, then 300 bytes of every value. */
export const STATEMENT = Buffer.from([
	0x89,
	0x50,
	0x4e,
	0x47,
	...Array.from({ length: 300 }, (_, index) => index % 256),
]);

/** A customer's voucher: the start of a PDF. */
export const VOUCHER = Buffer.from('%PDF-1.4\n% customer voucher\n');

/** Lower-case hex SHA-256 of `data` (what the sandbox stores of an upload). */
export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** {@link STATEMENT} as the binary property `property`, a PNG named `fileName`. */
export const statementFile = (property: string, fileName: string): FileSpec => ({
	property,
	fileName,
	mimeType: 'image/png',
	data: STATEMENT,
});

/** {@link VOUCHER} as the binary property `property`, a PDF named `fileName`. */
export const voucherFile = (property: string, fileName: string): FileSpec => ({
	property,
	fileName,
	mimeType: 'application/pdf',
	data: VOUCHER,
});
