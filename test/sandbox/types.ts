/**
 * Public types of the payments-service sandbox (see README.md in this folder).
 *
 * Record shapes follow the service rules (docs/service-rules.md §3.4 Records).
 * Timestamps in records are ISO 8601 UTC strings `yyyy-MM-ddTHH:mm:ssZ`; amounts are numbers with
 * at most 2 decimals.
 */

/** Options of {@link startSandbox}. Every field is optional. */
export interface SandboxOptions {
	/** TCP port on 127.0.0.1; default 0 (a random free port). */
	port?: number;
	/** PRNG seed of the generated dataset; default 42. Same seed + same `now` => byte-identical dataset. */
	seed?: number;
	/** Initial manual clock, ms since epoch; default `Date.now()` rounded down to the second. */
	now?: number;
	/** Days of generated history before `now`; default 200, must be >= 180. */
	days?: number;
	/** Average generated deposits per day for merchant 1001 (2001 gets a third); default 30. */
	depositsPerDay?: number;
	/** Average generated cashouts per day for merchant 1001 (2001 gets a third); default 20. */
	cashoutsPerDay?: number;
	/** Minimum deposit age (ms, sandbox clock) for flagForReview(+Reversal); default 60 minutes. */
	flagReviewMinAgeMs?: number;
	/** Query parameter name honoured by the cashout and settlement status filters; default 'Status' (service rules §3.3). The other spelling is ignored. */
	statusParamName?: 'Status' | 'status';
	/** false (default): serve /v1/refund and /v1/chargeback (service rules §3); true: only the plural paths (newer docs), singular -> 404. */
	pluralRefundChargebackPaths?: boolean;
	/** Artificial latency (ms) added before each non-admin request is handled; default 0. */
	latencyMs?: number;
	/**
	 * POST /v3/cashout/status given both ids: 'both' (default) finds the cashout only when
	 * cashout_id and external_id name the same one (509 otherwise); 'cashout_id' reads by cashout_id
	 * and ignores external_id, as another implementation may (the spec promises nothing about a pair
	 * that disagrees, service rules §10.2).
	 */
	cashoutStatusPair?: 'both' | 'cashout_id';
}

/** A started sandbox. One fastify server serves both the /v1 and the /v3 prefixes. */
export interface Sandbox {
	/** 'http://127.0.0.1:<port>': the reporting + ticket API (/v1/...). */
	baseUrl: string;
	/** Same server as baseUrl: the payment API (/v3/...). */
	apiUrl: string;
	credentials: DemoCredentials;
	clock: SandboxClock;
	log: RequestLog;
	faults: FaultInjector;
	control: SandboxControl;
	/** Changes the artificial latency (ms) applied before handling each non-admin request. */
	setLatency(ms: number): void;
	/** Stops the server (open keep-alive connections are closed) and the notifications (the attempt in flight is aborted; nothing more is sent). */
	close(): Promise<void>;
}

/** Fixed demo credential values (they do not depend on the seed). */
export interface DemoCredentials {
	/** User of MIDs 1001 (default, generated data) and 1002 (EMPTY: no generated data). */
	session: {
		accessKey: string;
		secretKey: string;
		merchantIds: number[];
		defaultMerchantId: number;
	};
	/** User of MID 2001 only (has its own generated data). */
	otherSession: { accessKey: string; secretKey: string; merchantIds: number[] };
	/** Login always refused (when the secret is right): 403 {code: 83, description}. */
	refusedSession: { accessKey: string; secretKey: string };
	/** Bearer key of /v3/exchange_rates and /v3/banks. */
	readOnlyKey: string;
	/** Deposit API (X-Login + HMAC secret) of merchant 1001. */
	deposit: { apiKey: string; apiSignature: string; merchantId: number };
	/** Cashout API (login/pass <= 32 chars + Payload-Signature secret) of merchant 1001. */
	cashout: { login: string; pass: string; apiSignature: string; merchantId: number };
}

/** Manual clock (ms since epoch): time does NOT flow by itself. */
export interface SandboxClock {
	now(): number;
	advance(ms: number): void;
	set(ms: number): void;
}

/** One logged (non-admin) HTTP request. */
export interface RequestLogEntry {
	/** 1, 2, 3... in order of arrival. */
	seq: number;
	/** Sandbox clock (ms) at arrival. */
	at: number;
	method: string;
	/** Path without the query string. */
	path: string;
	query: Record<string, string>;
	/** Lower-cased header names; repeated headers joined with ', '. */
	headers: Record<string, string>;
	/** Exact body bytes received (utf8) for non-multipart requests with a body. */
	rawBody?: string;
	/** Parsed multipart body (files summarised by size and sha256). */
	multipart?: {
		fields: Record<string, string>;
		files: Array<{
			fieldName: string;
			fileName: string;
			mimeType: string;
			size: number;
			sha256: string;
		}>;
	};
	/** HTTP status sent; 0 when the socket was destroyed by a 'reset' fault (or before the answer). */
	status: number;
	/** Response body (parsed JSON when it was JSON). */
	responseBody?: unknown;
	/**
	 * Position of the answer (or the reset) in the same sequence as `seq`: requests with a higher
	 * `seq` arrived after this answer was sent. Unset while the request is being handled.
	 */
	answeredSeq?: number;
	/** Set when a fault answered or disrupted the request, e.g. 'status:429:before', 'reset:after'. */
	fault?: string;
}

/** Log of every non-admin request. */
export interface RequestLog {
	/** Deep copies of all entries, oldest first. */
	entries(): RequestLogEntry[];
	clear(): void;
	/** Entries whose method equals `method` (case-insensitive) and whose path matches (string: exact, `*` = one path segment; RegExp: test). */
	find(method: string, pathPattern: string | RegExp): RequestLogEntry[];
}

/** A fault to inject. */
export interface FaultSpec {
	/** HTTP method to match (case-insensitive); omitted = any. */
	method?: string;
	/** Path to match (string: exact, `*` = one path segment; RegExp: test); omitted = any. */
	path?: string | RegExp;
	/** Query parameters the request must carry with these exact values (e.g. `{page: '3'}`); omitted = any. */
	query?: Record<string, string>;
	/** Text the request's body must contain (e.g. `"external_id":"payout-7"`), to single out one item's requests; omitted = any. */
	bodyIncludes?: string;
	/** 'status' answers with `status` (429 gets a Retry-After header); 'reset' destroys the socket. */
	kind: 'status' | 'reset';
	/** HTTP status for kind 'status'; default 500. */
	status?: number;
	/** Retry-After seconds; default 1 for 429; sent for other statuses only when given. */
	retryAfterSeconds?: number;
	/** Response body; default `{code: status, description: 'Injected fault (sandbox)'}`. */
	body?: unknown;
	/** 'before' (default): request NOT processed; 'after': processed (state changed) then the answer is replaced/lost. */
	phase?: 'before' | 'after';
	/** How many matching requests get the fault; default 1. */
	times?: number;
	/** Let the first N matching requests through first; default 0. */
	skip?: number;
}

/** Fault injection control. */
export interface FaultInjector {
	add(spec: FaultSpec): void;
	clear(): void;
	/** Number of added fault specs not yet exhausted. */
	pending(): number;
}

/** Reporting deposit record (service rules §3.4, with clientDocument). */
export interface DepositRecord {
	idDeposit: number;
	externalId: string;
	creationDate: string;
	countryName: string;
	country: string;
	paymentMethodName: string;
	paymentMethodCode: string;
	requestedPaymentMethod: string;
	requestedPaymentMethodName: string;
	clientId: string;
	clientDocument: string;
	/** USD amount (balance currency). */
	amount: number;
	currency: string;
	balanceCurrency: string;
	requestedAmount: number;
	requestedCurrency: string;
	localAmount: number;
	localCurrency: string;
	localCountryTaxFee: number;
	usdCountryTaxFee: number;
	fee: number;
	feeCurrency: string;
	lastChangeDate: string;
	/** PENDING, APPROVED, COMPLETED, CANCELLED, DECLINED or CREATED. */
	status: string;
	idUser: string;
	flags: string[];
	idMerchant: number;
	merchantName: string;
	allowInstallments: boolean;
	refundAttempted: boolean;
}

/** Reporting cashout record (service rules §3.4). `reason` holds the rejection reason of REJECTED ones. */
export interface CashoutRecord {
	idCashout: number;
	externalId: string;
	creationDate: string;
	country: string;
	/** Local currency. */
	currency: string;
	/** Local amount. */
	amount: number;
	creditedCurrency: string;
	creditedAmount: number;
	merchantCurrency: string;
	merchantAmount: number;
	feeCurrency: string;
	fee: number;
	tax: number;
	lastChangeDate: string;
	/** ON_HOLD, PENDING, DELIVERED, COMPLETED, REJECTED, CANCELLED or DECLINED. */
	status: string;
	clientDocument: string;
	flags: string[];
	idMerchant: number;
	merchantName: string;
	reason: string;
	existVoucher: boolean;
}

/** Refund record (service rules §3.4 and §7); bank fields may be absent. */
export interface RefundRecord {
	id: number;
	/** The refunded deposit's id. */
	idBoleto: number;
	idMerchant: number;
	merchantName: string;
	date: string;
	lastChangeDate: string;
	country: string;
	paymentMethod: string;
	/** PENDING, COMPLETED, CANCELLED, WAITING_DETAILS (REJECTED also occurs). */
	status: string;
	amount: number;
	refundCurrency: string;
	/** 'FULL' or 'PARTIAL'. */
	amountType: string;
	/** 'BANK_TRANSFER', 'PIX' or 'CREDIT_CARD'. */
	type: string;
	apiVersion: string;
	comments: string;
	beneficiary?: string;
	cpf?: string;
	documentType?: string;
	bankName?: string;
	bankCode?: string;
	branchNumber?: string;
	bankAccount?: string;
	accountType?: string;
	allowPixApiRefund: boolean;
}

/** Chargeback record (service rules §3.4). */
export interface ChargebackRecord {
	idChargeback: number;
	creationDate: string;
	lastChangeDate: string;
	idMerchant: number;
	merchantName: string;
	inMediation: boolean;
	idDeposit: number;
	amount: number;
	currency: string;
	merchantAmount: number;
	merchantCurrency: string;
	country: string;
	countryName: string;
	/** PENDING, COMPLETED, CANCELLED or FAILED. */
	status: string;
	notified: boolean;
	externalId: string;
	comments: string;
}

/** Credit/debit note record (service rules §3.4). */
export interface NoteRecord {
	id: number;
	externalId: string;
	idMerchant: number;
	merchantName: string;
	date: string;
	amount: number;
	currency: string;
	/** One of NOTE_TYPES (service rules §3.3). */
	type: string;
	description: string;
	/** CREDIT or DEBIT (derived from the type). */
	category: string;
}

/** Settlement record (service rules §3.4). */
export interface SettlementRecord {
	id: number;
	creationDate: string;
	/** MANUAL or AUTOMATIC. */
	type: string;
	currency: string;
	requestedAmount: number;
	fee: number;
	amountToTransfer: number;
	/** PENDING, COMPLETED, CANCELLED or FAILED. */
	status: string;
	idMerchant: number;
	merchantName: string;
}

/** One entry of GET /v1/balance (service rules §3.4). */
export interface BalanceEntry {
	currency: string;
	type: string;
	data: {
		totalBalance: number;
		availableBalance: number;
		depositSettlementPeriod: number;
		accountNumber: string;
		rollingReserveBalance: number;
		usableBalance: number;
	};
}

/** Balance report record, one per UTC day with movements (service rules §3.4). */
export interface BalanceReportRecord {
	idMerchant: number;
	depositTotal: number;
	cashoutTotal: number;
	noteTotal: number;
	settlementTotal: number;
	cancelledSettlementTotal: number;
	depositFeeTotal: number;
	netAmount: number;
	totalBalance: number;
	date: string;
	currency: string;
}

/** A document attached to a ticket. `sha256` (hex of the bytes) is internal: not sent to clients. */
export interface TicketDocument {
	documentType: string;
	fileName: string;
	mimeType: string;
	/** Bytes. */
	size: number;
	uploadedAt: string;
	sha256: string;
}

/** Support ticket as stored (clients get it without `idMerchant` and the documents' `sha256`). */
export interface TicketRecord {
	idTicket: number;
	/** Merchant the ticket belongs to (internal). */
	idMerchant: number;
	type: string;
	category: string | null;
	description: string;
	referenceId: number | null;
	status: 'DRAFT' | 'CONFIRMED';
	uploadedDocuments: TicketDocument[];
	createdAt: string;
}

/** A deposit created through POST /v3/deposits. */
export interface CreatedDeposit {
	depositId: number;
	merchantId: number;
	idempotencyKey: string;
	checkoutType: 'ONE_SHOT' | 'HOSTED';
	/** Parsed request body. */
	request: Record<string, unknown>;
	/** Exact request body bytes (utf8). */
	rawBody: string;
	/** The 201 response body. */
	response: Record<string, unknown>;
	/** Sandbox clock ms at creation. */
	createdAt: number;
}

/** A cashout created through POST /v3/cashout (refused requests are not recorded here). */
export interface CreatedCashout {
	cashoutId: number;
	merchantId: number;
	/** PENDING, or ON_HOLD when the body had `on_hold: true`. */
	initialStatus: 'PENDING' | 'ON_HOLD';
	/** Parsed request body (login and pass included, as sent). */
	request: Record<string, unknown>;
	/** Exact request body bytes (utf8). */
	rawBody: string;
	/** The 200 response body: `{cashout_id: '<digits>'}`. */
	response: { cashout_id: string };
	/** Sandbox clock ms at creation. */
	createdAt: number;
}

/** A refund created through POST /v3/refunds (refused requests are not recorded here). */
export interface CreatedRefund {
	refundId: number;
	depositId: number;
	merchantId: number;
	idempotencyKey: string;
	/** Parsed request body. */
	request: Record<string, unknown>;
	/** Exact request body bytes (utf8). */
	rawBody: string;
	/** The 201 response body: `{refund_id}`, plus `refund_info` for card deposits. */
	response: Record<string, unknown>;
	/** Sandbox clock ms at creation. */
	createdAt: number;
}

/**
 * Targets of {@link SandboxControl.advanceRefund} (service rules §7): PENDING -> DELIVERED | REJECTED |
 * CANCELLED | INCORRECT_DETAILS; DELIVERED -> COMPLETED | REJECTED; INCORRECT_DETAILS -> PENDING |
 * CANCELLED. INCORRECT_DETAILS is stored (and listed in /v1/refund) as WAITING_DETAILS.
 */
export type RefundAdvanceTarget =
	'PENDING' | 'DELIVERED' | 'COMPLETED' | 'REJECTED' | 'CANCELLED' | 'INCORRECT_DETAILS';

/** Common extra fields of the control `add*` writers. */
export interface AddOptions {
	idMerchant: number;
	/** The record is listed only when clock.now() >= visibleAt (ms); default its creation time. */
	visibleAt?: number;
}

/**
 * Input of {@link SandboxControl.addDeposit}. `hasVoucher` (internal) makes flagForReview attach a
 * voucher; `notificationUrl` receives the deposit's status-change notifications (else the merchant's
 * default URL, see {@link SandboxControl.setDefaultNotificationUrl}).
 */
export type AddDepositInput = Partial<DepositRecord> &
	AddOptions & { hasVoucher?: boolean; notificationUrl?: string };
/**
 * Input of {@link SandboxControl.addCashout}: `onHold` => status ON_HOLD (default PENDING);
 * `notificationUrl` receives the cashout's status-change notifications (none without it).
 */
export type AddCashoutInput = Partial<CashoutRecord> &
	AddOptions & {
		onHold?: boolean;
		rejectionCode?: number;
		rejectionReason?: string;
		notificationUrl?: string;
	};
/** Input of {@link SandboxControl.addRefund}. */
export type AddRefundInput = Partial<RefundRecord> & AddOptions;
/** Input of {@link SandboxControl.addChargeback}. */
export type AddChargebackInput = Partial<ChargebackRecord> & AddOptions;
/** Input of {@link SandboxControl.addNote}. */
export type AddNoteInput = Partial<NoteRecord> & AddOptions;
/** Input of {@link SandboxControl.addSettlement}. */
export type AddSettlementInput = Partial<SettlementRecord> & AddOptions;

/** One delivery attempt of a notification (service rules §10). */
export interface NotificationAttempt {
	/** 1 = the first delivery, 2..6 = the retries. */
	attempt: number;
	/** Sandbox clock ms of the attempt: now for a first attempt, the due time for a retry. */
	at: number;
	url: string;
	/** Exact body sent (the same for every attempt). */
	body: string;
	/** HTTP status of the answer; absent on a network error. */
	status?: number;
	/** Network error (refused connection, timeout, bad URL, ...); absent when an HTTP answer came. */
	error?: string;
	/** First 1000 characters of the answer's body (absent on a network error). */
	responseBody?: string;
}

/**
 * State of a notification: 'held' (queued by hold(), not sent), 'sending' (an attempt is queued or in
 * flight), 'retrying' (the last attempt failed; the next is due at nextAttemptAt), 'delivered' (a 2xx
 * answer), 'failed' (6 attempts failed).
 */
export type NotificationState = 'held' | 'sending' | 'retrying' | 'delivered' | 'failed';

/** A status-change notification the sandbox sends (service rules §10). */
export interface SandboxNotification {
	/** 1, 2, 3... in order of creation (not reset by clear()). */
	id: number;
	kind: 'deposit' | 'cashout';
	merchantId: number;
	/** The deposit_id or cashout_id. */
	recordId: number;
	/** The status the record changed to (for tests: it is not part of the body). */
	recordStatus: string;
	url: string;
	/** 'application/json' (deposits) or 'application/x-www-form-urlencoded' (cashouts). */
	contentType: string;
	/** Exact body: deposits `{"deposit_id":N}`; cashouts date, bank_reference_id, comments, external_id, control, cashout_id, status_reason. */
	body: string;
	/** Sandbox clock ms of the status change. */
	createdAt: number;
	state: NotificationState;
	/** Sandbox clock ms when the next retry is due (state 'retrying' only). */
	nextAttemptAt?: number;
	/** Set on the second copy made by duplicate(n): the id of the original. */
	duplicateOf?: number;
	attempts: NotificationAttempt[];
}

/**
 * Notification control (`sandbox.control.notifications`). Deliveries are real HTTP POSTs, one at a
 * time, in the order they were queued.
 */
export interface NotificationControl {
	/** Deep copies of every notification (since the last clear()), oldest first. */
	list(): SandboxNotification[];
	/** Forgets every notification, including held ones and scheduled retries (ids keep counting). */
	clear(): void;
	/** Resolves once no delivery is queued or in flight. */
	settle(): Promise<void>;
	/** Sends every retry due at the sandbox clock's now (catching up, in due order); resolves with the number of attempts made. */
	deliverDue(): Promise<number>;
	/** The next `n` notifications (integer >= 0; replaces the previous count) are each queued twice: an identical copy follows the original. */
	duplicate(n: number): void;
	/** From now on, new notifications are queued as 'held' without being sent. */
	hold(): void;
	/** Ends hold() and sends the held notifications ('queued' order, default, or 'reverse'); resolves with their count once their first attempts are done. */
	release(options?: { order?: 'queued' | 'reverse' }): Promise<number>;
}

/** Kinds of record whose status {@link SandboxControl.setStatus} can set. */
export type StatusKind = 'deposit' | 'cashout' | 'refund' | 'chargeback' | 'settlement';

/** A live session token. */
export interface SessionInfo {
	token: string;
	accessKey: string;
	merchantId: number;
	lastUsedAt: number;
}

/**
 * Direct state access for tests. Reads return deep copies; writes stamp lastChangeDate = clock now
 * and throw an Error for unknown ids / merchants or refused transitions.
 */
export interface SandboxControl {
	deposits(merchantId?: number): DepositRecord[];
	cashouts(merchantId?: number): CashoutRecord[];
	refunds(merchantId?: number): RefundRecord[];
	chargebacks(merchantId?: number): ChargebackRecord[];
	notes(merchantId?: number): NoteRecord[];
	settlements(merchantId?: number): SettlementRecord[];
	tickets(): TicketRecord[];
	/** Deposits created through POST /v3/deposits, oldest first. */
	createdDeposits(): CreatedDeposit[];
	/** Cashouts created through POST /v3/cashout, oldest first. */
	createdCashouts(): CreatedCashout[];
	/** Refunds created through POST /v3/refunds, oldest first. */
	createdRefunds(): CreatedRefund[];
	/**
	 * The balances of `merchantId` as GET /v1/balance answers them (test/sandbox/balance.ts): the
	 * USD balance its records make, then the local-currency balances set with {@link setLocalBalance}.
	 */
	balances(merchantId: number): BalanceEntry[];
	/** Sets the available balance `merchantId` holds in a currency other than USD (listed after USD). */
	setLocalBalance(merchantId: number, currency: string, amount: number): void;
	/**
	 * Cashout funds (USD) `merchantId` has left: the configured funds (default 50,000) minus amount + fee
	 * of its cashouts created through POST /v3/cashout that are not CANCELLED, REJECTED or DECLINED.
	 */
	cashoutFunds(merchantId: number): number;
	/** Sets the configured cashout funds (USD, >= 0) of `merchantId`; a cashout whose amount + fee exceeds what is left gets 514. */
	setCashoutFunds(merchantId: number, usd: number): void;
	/** Sessions not idle-expired at clock now. */
	activeSessions(): SessionInfo[];
	/** Rejection code/reason of a cashout (internal), when it has one. */
	cashoutRejection(id: number): { code: number; reason: string } | undefined;
	/** Whether a deposit has a voucher (internal). */
	depositHasVoucher(id: number): boolean;
	addDeposit(p: AddDepositInput): DepositRecord;
	addCashout(p: AddCashoutInput): CashoutRecord;
	addRefund(p: AddRefundInput): RefundRecord;
	addChargeback(p: AddChargebackInput): ChargebackRecord;
	addNote(p: AddNoteInput): NoteRecord;
	addSettlement(p: AddSettlementInput): SettlementRecord;
	/** Sets any status string without state-machine checks (a change queues a notification, as every status change does). */
	setStatus(
		kind: StatusKind,
		id: number,
		status: string,
		extra?: { rejectionCode?: number; rejectionReason?: string },
	): void;
	/** Bank side of the cashout state machine: PENDING->DELIVERED, DELIVERED->COMPLETED|REJECTED, COMPLETED->REJECTED (late). */
	advanceCashout(
		id: number,
		to: 'DELIVERED' | 'COMPLETED' | 'REJECTED',
		rejection?: { code: number; reason: string },
	): void;
	/** Refund state machine (see {@link RefundAdvanceTarget}); throws for an unknown id or a refused move. */
	advanceRefund(id: number, to: RefundAdvanceTarget): void;
	/** Invalidates every session token. */
	expireSessions(): void;
	/** Status-change notifications (service rules §10). */
	notifications: NotificationControl;
	/** Sets (http(s) URL) or clears (undefined) the merchant panel's default notification URL, used by deposits without their own. Throws on a bad URL or merchant. */
	setDefaultNotificationUrl(merchantId: number, url: string | undefined): void;
	/** The merchant's default notification URL, if set. */
	defaultNotificationUrl(merchantId: number): string | undefined;
	/**
	 * How long (ms, sandbox clock) a deposit, cashout or refund created through the API stays out of
	 * the reporting lists (default 0): reports can lag behind creation (service rules §5.2).
	 */
	setReportLag(ms: number): void;
	/**
	 * Whether a status change moves the record's `lastChangeDate` (default true, service rules
	 * §3.4); false plays a service that leaves it at what it was, which the polling trigger must
	 * notice (docs/polling-trigger.md, "Memory").
	 */
	setLastChangeMoves(moves: boolean): void;
	/**
	 * Makes the merchant's cashouts a compact series for the volume benchmarks
	 * (store/series.ts): from `fromMs`, one every `everyMs`, created by {@link extendCashoutSeries};
	 * GET /v1/cashouts then lists the series instead, and setStatus changes its records. Returns
	 * the first id.
	 */
	addCashoutSeries(spec: { idMerchant: number; fromMs: number; everyMs: number }): number;
	/** Creates the series' records due by `untilMs`; returns how many it holds. */
	extendCashoutSeries(merchantId: number, untilMs: number): number;
	/**
	 * Makes the daily balance report leave deposit `id` out (its amount and fee, so its day's net and
	 * every later balance): a deposit missing from the report, which the lists still hold. Throws for
	 * an unknown deposit.
	 */
	omitFromBalanceReport(depositId: number): void;
	/**
	 * From UTC day `day` (`yyyy-MM-dd`, a day with a row) on, the report's totalBalance of `merchantId`
	 * is `amount` USD higher (lower when negative) than its nets carry: that day's balance does not
	 * carry over. Throws for an unknown merchant, a day without a row, or an amount that is 0, not
	 * finite or has more than 2 decimals.
	 */
	shiftBalanceReport(merchantId: number, day: string, amount: number): void;
}
