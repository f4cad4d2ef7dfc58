/**
 * Numbers the service's interface fixes. Each names the spec section it comes from
 * (`payments-service-interface.md`, "the spec") or the API notes that fill its gaps.
 */

/** Records per page of every reporting list (spec: Limits, "Records per page"; Page envelope, `maxRows`). */
export const MAX_ROWS_PER_PAGE = 50;

/** Number of the first page of every reporting list (spec: Limits, "First page number"). */
export const FIRST_PAGE = 0;

/** Seconds in one day; reporting `from`/`to` are Unix timestamps in seconds (spec: List endpoints). */
export const SECONDS_PER_DAY = 86_400;

/** Longest period one reporting request may span, in days (spec: Limits, "Maximum span between from and to"). */
export const MAX_PERIOD_DAYS = 60;

/**
 * Largest `to - from`, in seconds, this package ever sends: strictly shorter than 60 days, because the
 * spec's error table refuses "60 days or more" (code 18) while its limits say "at most 60 days"
 * (API-NOTES: Ordering and filters). 60 days minus one second satisfies both readings.
 */
export const MAX_WINDOW_SECONDS = MAX_PERIOD_DAYS * SECONDS_PER_DAY - 1;

/** Session token lifetime after its last use, in minutes (spec: Authentication, Session token). */
export const SESSION_IDLE_TIMEOUT_MINUTES = 15;

/** Windows fetched at once by Get Many when Return All is on (node option "Window Concurrency"). */
export const DEFAULT_WINDOW_CONCURRENCY = 4;

/**
 * Safety stop for one window: a service that always answered full pages would otherwise be paged
 * forever. 2,000 pages are 100,000 records in one window of under 60 days.
 */
export const MAX_PAGES_PER_WINDOW = 2_000;

/** Maximum length of the cashout `login` and `pass` fields (spec: Cashout API; Limits). */
export const CASHOUT_CREDENTIAL_MAX_LENGTH = 32;

/** Default authorization scheme of the deposit API's control hash (API-NOTES: Signatures). */
export const DEFAULT_DEPOSIT_AUTHORIZATION_SCHEME = 'D24 ';

/** Name of the cookie carrying the session token after login (spec: Authentication, Session token). */
export const SESSION_COOKIE_NAME = 'BEARER_TOKEN';

/** Header carrying the deposit idempotency key (API-NOTES: Idempotency). */
export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';
