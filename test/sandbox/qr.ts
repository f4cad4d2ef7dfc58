/**
 * Payment artefacts of ONE_SHOT deposits: a real QR code PNG (base64, via the `qrcode` package),
 * a Pix "copia e cola" (EMV BR Code with CRC16) and a boleto-like digitable line.
 */
import QRCode from 'qrcode';

/** PNG image of a QR code encoding `text`, base64-encoded (no data: prefix). */
export async function qrPngBase64(text: string): Promise<string> {
	const png = await QRCode.toBuffer(text, {
		type: 'png',
		errorCorrectionLevel: 'M',
		margin: 2,
		scale: 4,
		// Rows unfiltered (PNG filter type 0): pngjs otherwise tries every filter on every row, which
		// took half the time of each code; the image decodes the same. The typings of qrcode leave out
		// pngjs's `filterType`.
		rendererOpts: { filterType: 0 } as QRCode.QRCodeToBufferOptions['rendererOpts'],
	});
	return png.toString('base64');
}

/** CRC16/CCITT-FALSE as used by EMV QR codes, 4 uppercase hex digits. */
export function crc16(text: string): string {
	let crc = 0xffff;
	for (const byte of Buffer.from(text, 'utf8')) {
		crc ^= byte << 8;
		for (let i = 0; i < 8; i++)
			crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc.toString(16).toUpperCase().padStart(4, '0');
}

function emv(id: string, value: string): string {
	return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** A Pix BR Code ("copia e cola") for `amount` BRL paying `merchantName`, reference `txid` (<= 25 chars). */
export function pixCopyPaste(
	key: string,
	amount: number,
	merchantName: string,
	txid: string,
): string {
	const account = emv('00', 'br.gov.bcb.pix') + emv('01', key);
	const payload =
		emv('00', '01') +
		emv('26', account) +
		emv('52', '0000') +
		emv('53', '986') +
		emv('54', amount.toFixed(2)) +
		emv('58', 'BR') +
		emv('59', merchantName.toUpperCase().slice(0, 25)) +
		emv('60', 'SAO PAULO') +
		emv('62', emv('05', txid.slice(0, 25))) +
		'6304';
	return payload + crc16(payload);
}

/** A 47-digit boleto-style digitable line derived from `depositId` and `amount` (formatted with dots and spaces). */
export function digitableLine(depositId: number, amount: number): string {
	const cents = String(Math.round(amount * 100))
		.padStart(10, '0')
		.slice(-10);
	const id = String(depositId).padStart(10, '0');
	const digits = `00190000090${id}0000000000${id.slice(0, 5)}1${cents}`
		.padEnd(47, '0')
		.slice(0, 47);
	return `${digits.slice(0, 5)}.${digits.slice(5, 10)} ${digits.slice(10, 15)}.${digits.slice(15, 21)} ${digits.slice(21, 26)}.${digits.slice(26, 32)} ${digits.slice(32, 33)} ${digits.slice(33)}`;
}
