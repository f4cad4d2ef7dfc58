/**
 * What the service's error codes mean, per API family (service rules §4, with the creation codes of
 * §6.2 and §7). Used to write error descriptions a merchant can act on.
 */

/** The four API families; their error bodies and code spaces differ. */
export type ApiFamily = 'reporting' | 'tickets' | 'payments' | 'cashout';

export const ERROR_CODE_MEANINGS: Readonly<Record<ApiFamily, Readonly<Record<string, string>>>> = {
	reporting: {
		'11': 'wrong access key or secret key, or the API user is locked',
		'17': 'the period start (from) is after its end (to)',
		'18': 'the period spans 60 days or more',
		'19': 'the country code is not valid',
		'26': 'the API user lacks the privileges for this merchant account or operation',
		'83': 'login refused from this location: the API user is not allowed to log in from this network',
		'96': 'the user is not an API user',
		'401': 'the session expired or the token is invalid',
	},
	tickets: {
		UNAUTHORIZED: 'the session expired or the token is invalid',
		FORBIDDEN:
			'the ticket or deposit cannot be changed by this merchant (a confirmed ticket can no longer be modified)',
		NOT_FOUND: 'the ticket or deposit does not exist for this merchant',
		DEPOSIT_NOT_REVIEWABLE:
			'the deposit cannot be flagged: it does not exist, belongs to another merchant account, or was created too recently',
		INVALID_DOCUMENT:
			'the attachment was refused: send a file and a document type of VOUCHER, ID_DOCUMENT or BANK_STATEMENT',
	},
	payments: {
		'100': 'the API key (X-Login) or read-only key is not valid',
		'101': 'a required header is missing',
		'102':
			'the request signature does not match: check the API Signature secret of the deposit credential',
		'103': "the request date (X-Date) is outside the service's window: check this machine's clock",
		'104':
			'this idempotency key was already used: the deposit or refund was created by an earlier attempt, and nothing new was created',
		'105': 'a header was sent empty',
		'208': 'the resource was not found',
		'300': 'the request fields are not valid (see the details)',
		'802':
			'the amount cannot be refunded: it must be above 0, with at most 2 decimals, and not more than what is left to refund of the deposit',
		'804':
			'the deposit was paid by a method that refunds to a bank account, and the bank account (beneficiary, bank code, account number) is missing',
	},
	cashout: {
		'300': 'the request parameters are not valid',
		'302':
			'the payload signature does not match: check the API Signature secret of the cashout credential',
		'303':
			'the bank code is not one of the banks the service lists for the country (Bank → Get Many)',
		'401': 'the cashout login or pass is not valid',
		'402': "this machine's IP address is not registered for the cashout API in the merchant panel",
		'502': 'the request body is not valid JSON',
		'508': 'the amount is above a limit of the merchant or the beneficiary; no payout was made',
		'509': 'the cashout was not found for this merchant',
		'510': 'the status transition is not allowed from the cashout’s current status',
		'511':
			'the external ID was already used by a cashout of this merchant, so no new cashout was created',
		'514':
			'insufficient funds: the merchant balance does not cover the amount and its fee; no payout was made',
		'533': 'the amount is below the minimum cashout amount for the country; no payout was made',
		'540': 'the beneficiary’s e-mail or phone is required for cashouts to this country',
		'702': 'the cashout could not be cancelled',
	},
};

/** The meaning of `code` in `family`, or undefined when the code is not catalogued. */
export function meaningOf(
	family: ApiFamily,
	code: string | number | undefined,
): string | undefined {
	if (code === undefined || code === null) return undefined;
	return ERROR_CODE_MEANINGS[family][String(code)];
}
