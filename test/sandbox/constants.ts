/**
 * Every number the service rules (docs/service-rules.md) give, plus the sandbox's own documented choices.
 * Comments cite the section ("service rules §3.1") or say "Sandbox choice" where the rules are silent.
 */

/** Service rules §3.1: maximum records per page (maxRows). */
export const MAX_ROWS_PER_PAGE = 50;
/** Service rules §3.2 and §4: from..to must span strictly less than 60 days (60 days or more -> 412/18). */
export const MAX_PERIOD_SECONDS = 60 * 86400;
/** Service rules §2.1: the token expires 15 minutes after its last use. */
export const SESSION_IDLE_TIMEOUT_MS = 15 * 60_000;
/** Service rules §3.3: country and paymentMethod filter parameters are at most 2 characters. */
export const FILTER_CODE_MAX_LENGTH = 2;
/** Service rules §2.4: login and pass are at most 32 characters. */
export const CASHOUT_CREDENTIAL_MAX_LENGTH = 32;

/** Service rules §5.1: invoice_id max 128. */
export const INVOICE_ID_MAX_LENGTH = 128;
/** Service rules §5.1: description max 100. */
export const DESCRIPTION_MAX_LENGTH = 100;
/** Service rules §5.1: merchant_external_reference max 255. */
export const MERCHANT_EXTERNAL_REFERENCE_MAX_LENGTH = 255;
/** Service rules §5.1: device_id max 100. */
export const DEVICE_ID_MAX_LENGTH = 100;
/** Service rules §5.1: back/success/error/notification URL and logo max 2048. */
export const URL_MAX_LENGTH = 2048;
/** Service rules §5.1 (amount format): up to 18 integer digits. */
export const AMOUNT_MAX_INTEGER_DIGITS = 18;
/** Service rules §5.1 (amount format): up to 2 decimals. */
export const AMOUNT_MAX_DECIMALS = 2;
/** Service rules §5.1 (expiration): up to 5 digits (minutes). */
export const EXPIRATION_MAX_DIGITS = 5;
/** Service rules §5.1: language, one of es, en, pt, ja, id, fr. */
export const DEPOSIT_LANGUAGES: readonly string[] = ['es', 'en', 'pt', 'ja', 'id', 'fr'];

/** Service rules §5.1 (payer): id max 128. */
export const PAYER_ID_MAX_LENGTH = 128;
/** Service rules §5.1 (payer): document max 30. */
export const PAYER_DOCUMENT_MAX_LENGTH = 30;
/** Service rules §5.1 (payer): document_type max 10. */
export const PAYER_DOCUMENT_TYPE_MAX_LENGTH = 10;
/** Service rules §5.1 (payer): email max 255. */
export const PAYER_EMAIL_MAX_LENGTH = 255;
/** Service rules §5.1 (payer): first_name / last_name max 128. */
export const PAYER_NAME_MAX_LENGTH = 128;
/** Service rules §5.1 (payer): birth_date / registration_date max 8 (yyyyMMdd). */
export const PAYER_DATE_LENGTH = 8;
/** Service rules §5.1 (payer.address): street max 255. */
export const ADDRESS_STREET_MAX_LENGTH = 255;
/** Service rules §5.1 (payer.address): city max 128. */
export const ADDRESS_CITY_MAX_LENGTH = 128;
/** Service rules §5.1 (payer.address): state max 3. */
export const ADDRESS_STATE_MAX_LENGTH = 3;
/** Service rules §5.1 (reported_info): bank_account_number / bank_branch max 45. */
export const REPORTED_INFO_SHORT_MAX_LENGTH = 45;
/** Service rules §5.1 (reported_info): bank_beneficiary max 255. */
export const REPORTED_INFO_BENEFICIARY_MAX_LENGTH = 255;

/** Service rules §2.3 (window size not published). Sandbox choice: 5 minutes either side of the SYSTEM clock. */
export const X_DATE_MAX_SKEW_MS = 5 * 60_000;
/** Service rules §2.3: scheme prefix of the deposit Authorization header. */
export const DEPOSIT_AUTH_PREFIX = 'D24 ';

/** Sandbox choice (service rules §8: interval not published): minimum deposit age for flagForReview, default 60 minutes. */
export const DEFAULT_FLAG_REVIEW_MIN_AGE_MS = 60 * 60_000;
/** Sandbox choice (service rules §8: attachment limits not published): maximum attachment size, 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Sandbox choice: maximum request body (non-multipart), 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Sandbox choice: Retry-After default of an injected 429. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** Service rules §6.2: cashout external_id max 100. */
export const CASHOUT_EXTERNAL_ID_MAX_LENGTH = 100;
/** Sandbox choice (service rules §6.2: not published): document_id max 30, like the deposit payer document. */
export const CASHOUT_DOCUMENT_ID_MAX_LENGTH = 30;
/** Sandbox choice (service rules §6.2: not published): beneficiary names max 128, like the deposit payer names. */
export const CASHOUT_NAME_MAX_LENGTH = 128;
/** Sandbox choice (service rules §6.2: not published): other optional text fields of a cashout, max 255. */
export const CASHOUT_TEXT_MAX_LENGTH = 255;
/** Sandbox choice (service rules §6.2, code 533: minimum not published): smallest cashout, 5.00 USD or equivalent. */
export const CASHOUT_MIN_AMOUNT_USD = 5;
/** Sandbox choice (service rules §6.2, code 508: limits not published): largest single cashout, 10,000.00 USD or equivalent. */
export const CASHOUT_MAX_AMOUNT_USD = 10_000;
/** Sandbox choice (service rules §6.2, code 514): default cashout funds of every merchant, 50,000 USD. */
export const DEFAULT_CASHOUT_FUNDS_USD = 50_000;
/** Sandbox choice (service rules §6.2, code 540: countries not published): countries whose cashouts need an e-mail or a phone. */
export const CASHOUT_CONTACT_REQUIRED_COUNTRIES: readonly string[] = ['CO', 'PE'];
/** Sandbox choice (service rules §6.2, KYC refusal): a document_id of one digit repeated (e.g. 00000000000) is blocked. */
export const KYC_BLOCKED_DOCUMENT_PATTERN = /^(\d)\1+$/;
/** Sandbox choice (service rules §6.2: KYC code not published): code of the KYC refusal, as the provider's public pages use it. */
export const KYC_REFUSAL_CODE = 101;

/** Sandbox choice (service rules §7: not published): refund `comments` max 255. */
export const REFUND_COMMENTS_MAX_LENGTH = 255;

/**
 * Service rules §10: a failed notification (no 2xx answer) is tried again up to 5 more times, backing
 * off 5, 25, 125 and 625 minutes; the fifth delay is not published: sandbox choice 3125 minutes (the
 * same x5 progression). Each delay counts from the previous failed attempt, on the sandbox clock.
 */
export const NOTIFICATION_RETRY_DELAYS_MS: readonly number[] = [5, 25, 125, 625, 3125].map(
	(minutes) => minutes * 60_000,
);
/** Sandbox choice: a notification attempt without an answer after 5 s (real time) fails with a timeout. */
export const NOTIFICATION_TIMEOUT_MS = 5000;
/** Sandbox choice: characters of a receiver's response body kept in the notification record. */
export const NOTIFICATION_RESPONSE_BODY_LIMIT = 1000;
/** Sandbox choice: User-Agent of notification requests. */
export const NOTIFICATION_USER_AGENT = 'payments-service-sandbox-notifier/1.0';

/** Sandbox default: PRNG seed. */
export const DEFAULT_SEED = 42;
/** Sandbox default: days of generated history. */
export const DEFAULT_DAYS = 200;
/** Sandbox rule: at least 180 days of history so 3 full 60-day windows exist. */
export const MIN_DAYS = 180;
/** Sandbox default: deposits per day for merchant 1001. */
export const DEFAULT_DEPOSITS_PER_DAY = 30;
/** Sandbox default: cashouts per day for merchant 1001. */
export const DEFAULT_CASHOUTS_PER_DAY = 20;
/** Sandbox choice: merchant 2001 gets this fraction of 1001's volumes. */
export const SMALL_MERCHANT_VOLUME_FACTOR = 1 / 3;

/** Milliseconds per second. */
export const MS_PER_SECOND = 1000;
/** Milliseconds per day. */
export const MS_PER_DAY = 86_400_000;
/** Milliseconds per minute. */
export const MS_PER_MINUTE = 60_000;
