/**
 * What the service's interface fixes: page sizes, period spans, field lengths, header and cookie
 * names. Each names the section of docs/service-rules.md ("service rules §N") it comes from.
 */

/** Records per page of every reporting list (service rules §3.1). */
export const MAX_ROWS_PER_PAGE = 50;

/** Number of the first page of every reporting list (service rules §3.1). */
export const FIRST_PAGE = 0;

/** Seconds in one day; reporting `from`/`to` are Unix timestamps in seconds (service rules §3.2). */
export const SECONDS_PER_DAY = 86_400;

/** Longest period one reporting request may span, in days (service rules §3.2). */
export const MAX_PERIOD_DAYS = 60;

/**
 * Largest `to - from`, in seconds, this package ever sends: strictly shorter than 60 days, because the
 * interface's error table refuses "60 days or more" (code 18) while its limits say "at most 60
 * days" (service rules §3.2). 60 days minus one second satisfies both readings.
 */
export const MAX_WINDOW_SECONDS = MAX_PERIOD_DAYS * SECONDS_PER_DAY - 1;

/** Longest cashout `external_id` the service accepts, in characters (service rules §6.2). */
export const MAX_EXTERNAL_ID_LENGTH = 100;

/** Maximum length of the cashout `login` and `pass` fields (service rules §2.4). */
export const CASHOUT_CREDENTIAL_MAX_LENGTH = 32;

/** Default authorization scheme of the deposit API's control hash (service rules §2.3). */
export const DEFAULT_DEPOSIT_AUTHORIZATION_SCHEME = 'D24 ';

/** Name of the cookie carrying the session token after login (service rules §2.1). */
export const SESSION_COOKIE_NAME = 'BEARER_TOKEN';

/** Header carrying the deposit idempotency key (service rules §5.2). */
export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';
