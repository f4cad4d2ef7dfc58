/**
 * The signatures the service checks, computed here from the sandbox's secrets, to compare with what a
 * request carried: the Deposit API's `Authorization: D24 <hmac>` (service rules §2.3) and the
 * Cashout API's `Payload-Signature` (§2.4).
 */
import { createHmac } from 'crypto';

import type { RequestLogEntry } from '../sandbox/types';

const hmac = (secret: string, data: string) =>
	createHmac('sha256', secret).update(data).digest('hex');

/**
 * The Deposit API's `Authorization` of a request without a body: `D24 ` and the HMAC-SHA256 of its
 * `X-Date` and `X-Login` headers (and the empty body) under `apiSignature`.
 */
export function depositAuthorization(entry: RequestLogEntry, apiSignature: string): string {
	return `D24 ${hmac(apiSignature, String(entry.headers['x-date']) + String(entry.headers['x-login']))}`;
}

/** The Cashout API's `Payload-Signature`: the HMAC-SHA256 of the exact bytes received. */
export function cashoutPayloadSignature(entry: RequestLogEntry, apiSignature: string): string {
	return hmac(apiSignature, entry.rawBody ?? '');
}
