/**
 * Cashout status and bank rejection codes (service rules §6.1,
 * §6.3).
 */

/** `cashout_status` number -> status name. */
export const CASHOUT_STATUS_BY_CODE: Readonly<Record<number, string>> = {
	0: 'PENDING',
	1: 'COMPLETED',
	2: 'CANCELLED',
	3: 'REJECTED',
	4: 'DELIVERED',
	5: 'ON_HOLD',
};

/** `cashout_status` number -> the service's description text (service rules §6.1). */
export const CASHOUT_STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
	0: 'Pending',
	1: 'Completed',
	2: 'Canceled',
	3: 'Rejected',
	4: 'Delivered',
	5: 'On hold',
};

/**
 * The status a cashout is created in (service rules §6.1): ON_HOLD when it was created with
 * `on_hold: true`, otherwise PENDING, as a status result with its name
 * (`{cashout_status, cashout_status_description, cashout_status_name}`). It leaves that status only
 * later, when the service sends it to the bank (or the merchant holds, releases or cancels it).
 */
export function statusAtCreation(onHold: boolean): {
	cashout_status: number;
	cashout_status_description: string;
	cashout_status_name: string;
} {
	const code = onHold ? 5 : 0;
	return {
		cashout_status: code,
		cashout_status_description: CASHOUT_STATUS_DESCRIPTIONS[code],
		cashout_status_name: CASHOUT_STATUS_BY_CODE[code],
	};
}

/** `rejection_code` number -> rejection name (service rules §6.3). */
export const REJECTION_CODE_NAMES: Readonly<Record<number, string>> = {
	800: 'ERROR_ACCOUNT_INCORRECT',
	801: 'ERROR_ACCOUNT_CLOSED',
	802: 'ERROR_AMOUNT_INCORRECT',
	803: 'ERROR_BANK_INVALID',
	804: 'ERROR_BANK_BRANCH_INCORRECT',
	805: 'ERROR_BENEFICIARY_DOCUMENT_ID_INVALID',
	806: 'ERROR_BENEFICIARY_NAME_INCORRECT',
	807: 'ERROR_REJECTED_BY_BANK',
	808: 'ERROR_OTHER',
	809: 'WITHDRAWAL_EXPIRED',
	810: 'LIMIT_EXCEEDED',
	811: 'RISK_POLICY',
	812: 'BLOCKED_FROZEN_ACCOUNT',
	813: 'DOCUMENT_ACCOUNT_MISMATCH',
	814: 'INVALID_PIX_KEY',
	815: 'INVALID_IFSC_CODE',
	816: 'INVALID_ACCOUNT_OR_IFSC_CODE',
	817: 'INVALID_NBIN',
	818: 'ACCOUNT_UNABLE',
	819: 'INVALID_ACCOUNT_TYPE',
	820: 'REJECTED_BY_MERCHANT_REQUEST',
	821: 'MONTHLY_LIMIT_EXCEEDED_FOR_USER',
	822: 'ACCOUNT_NAME_MUST_BE_KATAKANA',
	823: 'EMAIL_FIELD_CANNOT_BE_EMPTY',
	824: 'REJECTED_BY_THIRD_PARTY_CONTROL',
	826: 'WITHDRAWAL_REVERSED',
};

/** A status or rejection code as a whole number; null, '' and other non-codes give undefined. */
function asCode(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

/**
 * Adds readable names next to the service's numbers in a cashout status result, without changing
 * any field the service sent: `cashout_status_name` (e.g. `ON_HOLD`) and, for a known
 * `rejection_code`, `rejection_code_name`.
 */
export function describeCashoutStatus<T extends Record<string, unknown>>(
	result: T,
): T & {
	cashout_status_name?: string;
	rejection_code_name?: string;
} {
	const described: Record<string, unknown> = { ...result };
	const status = asCode(result.cashout_status);
	if (status !== undefined && CASHOUT_STATUS_BY_CODE[status] !== undefined) {
		described.cashout_status_name = CASHOUT_STATUS_BY_CODE[status];
	}
	const rejection = asCode(result.rejection_code);
	if (rejection !== undefined && REJECTION_CODE_NAMES[rejection] !== undefined) {
		described.rejection_code_name = REJECTION_CODE_NAMES[rejection];
	}
	return described as T & { cashout_status_name?: string; rejection_code_name?: string };
}
