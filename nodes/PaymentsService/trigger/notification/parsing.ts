/**
 * Reading a status-change notification the service POSTs to a merchant's URL (service rules §10): its
 * fields, the id it names, and the limits of what is read at all. A notification carries no status:
 * it is only a hint to read the status (deposits §5.3, cashouts §6.1). Pure.
 */

import { positiveId } from '../../codes/ids';
import { MAX_EXTERNAL_ID_LENGTH } from '../../codes/service';

/** The two kinds of notification (service rules §10). */
export type NotificationKind = 'deposit' | 'cashout';

/** A notification whose body names something to read. */
export type Notification =
	| {
			kind: 'deposit';
			/** `deposit_id`, a positive whole number. */
			depositId: number;
			/** Every field received, as received (numbers stay numbers, texts stay texts). */
			fields: Record<string, unknown>;
	  }
	| {
			kind: 'cashout';
			/** `cashout_id`, when the body carries one (read by it first). */
			cashoutId?: number;
			/** `external_id`, when the body carries one (read by it when there is no `cashout_id`). */
			externalId?: string;
			/**
			 * Set once `control` matched (service rules §10.2): `external_id` is authenticated, so the
			 * status is read by it alone, and `cashout_id` is checked against it (statusRead.ts).
			 */
			verified?: boolean;
			fields: Record<string, unknown>;
	  };

/** Why a body is not a notification; `problem` is written for the sender and holds no body value. */
export interface MalformedNotification {
	problem: string;
}

/** A field value that is present: not undefined, null or empty (after trimming) text. */
function present(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	return typeof value !== 'string' || value.trim() !== '';
}

/**
 * The body as an object of fields. n8n hands a webhook JSON as an object and a form-urlencoded body
 * as an object of texts; a body it did not parse (another content type) arrives as text or bytes,
 * which is read as JSON, else as a form.
 */
export function bodyFields(body: unknown): Record<string, unknown> | undefined {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return undefined;
		try {
			value = JSON.parse(text) as unknown;
		} catch {
			const form: Record<string, unknown> = {};
			for (const [name, field] of new URLSearchParams(text)) {
				const before = form[name];
				form[name] =
					before === undefined ? field : [...(Array.isArray(before) ? before : [before]), field];
			}
			value = form;
		}
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	// Form bodies come with a null prototype: copy into a plain object.
	return { ...(value as Record<string, unknown>) };
}

/**
 * Reads a notification body (service rules §10): a deposit's `{"deposit_id": N}` or a cashout's
 * form fields (`cashout_id`, else `external_id`, names what to read).
 *
 * @returns the notification, or {@link MalformedNotification} when the body names nothing to read:
 *   no `deposit_id`, `cashout_id` or `external_id`; an id that is not a positive whole number; a
 *   field given twice; both a deposit and a cashout; an `external_id` over 100 characters.
 */
export function parseNotification(body: unknown): Notification | MalformedNotification {
	const fields = bodyFields(body);
	if (!fields)
		return {
			problem:
				'The body is not a JSON object or a form: expected {"deposit_id": N} or the cashout form fields',
		};
	for (const name of ['deposit_id', 'cashout_id', 'external_id']) {
		if (Array.isArray(fields[name])) return { problem: `${name} is given more than once` };
	}
	const isDeposit = present(fields.deposit_id);
	const isCashout = present(fields.cashout_id) || present(fields.external_id);
	if (isDeposit && isCashout) return { problem: 'The body names both a deposit and a cashout' };
	if (isDeposit) {
		const depositId = positiveId(fields.deposit_id);
		if (depositId === undefined) return { problem: 'deposit_id is not a positive whole number' };
		return { kind: 'deposit', depositId, fields };
	}
	if (isCashout) {
		if (present(fields.cashout_id)) {
			const cashoutId = positiveId(fields.cashout_id);
			if (cashoutId === undefined) return { problem: 'cashout_id is not a positive whole number' };
			const externalId = present(fields.external_id)
				? String(fields.external_id).trim()
				: undefined;
			return { kind: 'cashout', cashoutId, externalId, fields };
		}
		if (typeof fields.external_id !== 'string' && typeof fields.external_id !== 'number') {
			return { problem: 'external_id is not a text' };
		}
		const externalId = String(fields.external_id).trim();
		if (externalId.length > MAX_EXTERNAL_ID_LENGTH)
			return { problem: `external_id is longer than ${MAX_EXTERNAL_ID_LENGTH} characters` };
		return { kind: 'cashout', externalId, fields };
	}
	return { problem: 'The body has no deposit_id, cashout_id or external_id' };
}

/** Whether {@link parseNotification} found nothing to read. */
export function isMalformed(
	parsed: Notification | MalformedNotification,
): parsed is MalformedNotification {
	return 'problem' in parsed;
}

/** Largest notification body accepted, in bytes: 16 KiB (a real one is under 1 KiB). Service rules §10.4. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Deepest nesting of objects and arrays accepted in a body (a real one is flat: depth 1). §10.4. */
export const MAX_BODY_DEPTH = 4;

/** Most values (object fields and array elements, all levels) accepted in a body. §10.4. */
export const MAX_BODY_VALUES = 200;

/**
 * Whether a body is within the limits of service rules §10.4, checked without recursion (a body
 * nested thousands deep costs at most {@link MAX_BODY_VALUES} steps).
 *
 * @param rawSize the body's size in bytes as received (`rawBody`), or undefined when unknown.
 * @param body the body as n8n parsed it (object, array, text, bytes or undefined).
 * @returns undefined when within limits, else the HTTP status to answer (413 too large, 400 too
 *   deep or too many values) and a problem written for the sender (it holds no body value).
 */
export function bodyLimitProblem(
	rawSize: number | undefined,
	body: unknown,
): { status: 413 | 400; problem: string } | undefined {
	const size =
		rawSize ??
		(typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0);
	if (size > MAX_BODY_BYTES)
		return { status: 413, problem: `The body is larger than ${MAX_BODY_BYTES} bytes` };
	if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return undefined;
	const stack: Array<[unknown, number]> = [[body, 1]];
	let values = 0;
	while (stack.length) {
		const [value, depth] = stack.pop()!;
		if (depth > MAX_BODY_DEPTH)
			return { status: 400, problem: `The body is nested deeper than ${MAX_BODY_DEPTH} levels` };
		for (const child of Object.values(value as Record<string, unknown>)) {
			if (++values > MAX_BODY_VALUES)
				return { status: 400, problem: `The body has more than ${MAX_BODY_VALUES} values` };
			if (child && typeof child === 'object') stack.push([child, depth + 1]);
		}
	}
	return undefined;
}
