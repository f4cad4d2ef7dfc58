import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'net';

/** An e-mail the sink received. */
export interface ReceivedMail {
	from: string;
	to: string[];
	subject: string;
	text: string;
	raw: string;
}

/** Undoes quoted-printable transfer encoding (RFC 2045), as nodemailer uses for long text lines. */
function decodeQuotedPrintable(body: string): string {
	const bytes = body
		.replace(/=\r?\n/g, '')
		.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A local SMTP server (the `smtp-server` package) that keeps what it receives, so the demo's
 * Send Email nodes really send their e-mails. No TLS, no authentication, 127.0.0.1 only.
 */
export async function startSmtpSink(): Promise<{
	port: number;
	mails: ReceivedMail[];
	close(): Promise<void>;
}> {
	const mails: ReceivedMail[] = [];
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		onData(stream, session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				const split = raw.indexOf('\r\n\r\n');
				const headers = raw.slice(0, split);
				const body = raw.slice(split + 4);
				const subject =
					/^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(headers)?.[1].replace(/\r\n[ \t]/g, ' ') ?? '';
				const quoted = /^Content-Transfer-Encoding: quoted-printable/im.test(headers);
				mails.push({
					from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
					to: session.envelope.rcptTo.map((recipient) => recipient.address),
					subject,
					text: quoted ? decodeQuotedPrintable(body) : body,
					raw,
				});
				callback();
			});
		},
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.server.address() as AddressInfo;
	return {
		port,
		mails,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
