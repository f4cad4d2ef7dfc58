/**
 * Whether a notification comes from the service (service rules §10.2, §10.3): a cashout
 * notification is signed (`control`), a deposit notification is not, so the URL carries a secret.
 * Pure.
 */

import { createHash, createHmac, timingSafeEqual } from 'crypto';

/**
 * The `control` of a cashout notification (service rules §10.2): upper-case hex of HMAC-SHA256
 * keyed with the cashout credential's API signature secret (UTF-8) over `"Be4" + external_id +
 * "Bo7"` (UTF-8). 64 characters.
 */
export function cashoutControl(secret: string, externalId: string): string {
	return createHmac('sha256', Buffer.from(secret, 'utf8'))
		.update(Buffer.from(`Be4${externalId}Bo7`, 'utf8'))
		.digest('hex')
		.toUpperCase();
}

/**
 * Compares two texts in constant time whatever their lengths: both are hashed (SHA-256) first, so
 * neither the position of the first difference nor the expected length shows in the time taken.
 */
export function sameSecret(expected: string, given: string): boolean {
	const a = createHash('sha256').update(expected, 'utf8').digest();
	const b = createHash('sha256').update(given, 'utf8').digest();
	return timingSafeEqual(a, b) && expected.length > 0;
}

/**
 * Whether a cashout notification's `control` is the one {@link cashoutControl} gives for its
 * `external_id`, compared in constant time (service rules §10.2). Upper- and lower-case hex are both
 * accepted. False when `control` or `external_id` is missing or not a text.
 */
export function controlMatches(secret: string, fields: Record<string, unknown>): boolean {
	const { control, external_id: externalId } = fields;
	if (
		typeof control !== 'string' ||
		(typeof externalId !== 'string' && typeof externalId !== 'number')
	)
		return false;
	const id = String(externalId).trim();
	if (id === '' || secret === '') return false;
	return sameSecret(cashoutControl(secret, id), control.trim().toUpperCase());
}

/** Characters a URL secret may hold: URL-safe, so it can sit in a path segment unescaped. */
export const URL_SECRET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
