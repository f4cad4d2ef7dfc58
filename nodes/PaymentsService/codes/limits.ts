/**
 * The package's own limits and defaults (the service's are in service.ts): how many items or
 * windows run at once, and the safety stop of one window's paging.
 */

/**
 * Items a creation (Deposit, Cashout, Refund → Create) sends at once by default from node version
 * 1.2 (option "Concurrency"); versions 1 and 1.1 keep 1, one item after another.
 */
export const DEFAULT_CREATION_CONCURRENCY = 8;

/** Most items a creation sends at once (option "Concurrency"). */
export const MAX_CREATION_CONCURRENCY = 16;

/** Windows fetched at once by Get Many when Return All is on (node option "Window Concurrency"). */
export const DEFAULT_WINDOW_CONCURRENCY = 4;

/**
 * Safety stop for one window: a service that always answered full pages would otherwise be paged
 * forever. 2,000 pages are 100,000 records in one window of under 60 days.
 */
export const MAX_PAGES_PER_WINDOW = 2_000;
