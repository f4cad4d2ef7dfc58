/**
 * Payments-service sandbox: a stateful HTTP simulation of the merchant payments service as
 * summarised in docs/service-rules.md (the provider's public documentation), served on 127.0.0.1 by
 * one fastify server (/v1 reporting + tickets, /v3 payment API, /_sandbox admin).
 * See README.md in this folder for every choice made where the service rules are silent.
 */
import type { AddressInfo } from 'node:net';
import { ManualClock, floorToSecond } from './clock';
import {
	DEFAULT_CASHOUTS_PER_DAY,
	DEFAULT_DAYS,
	DEFAULT_DEPOSITS_PER_DAY,
	DEFAULT_FLAG_REVIEW_MIN_AGE_MS,
	DEFAULT_SEED,
	MIN_DAYS,
} from './constants';
import { demoCredentials } from './demo';
import { FaultRegistry } from './faults';
import { RequestLogStore } from './log';
import { buildServer } from './server';
import { SandboxStore, type ResolvedOptions } from './store';
import type { Sandbox, SandboxOptions } from './types';

export * from './types';
export {
	MAX_ROWS_PER_PAGE,
	MAX_PERIOD_SECONDS,
	SESSION_IDLE_TIMEOUT_MS,
	X_DATE_MAX_SKEW_MS,
	DEFAULT_FLAG_REVIEW_MIN_AGE_MS,
	DEPOSIT_AUTH_PREFIX,
	NOTIFICATION_RETRY_DELAYS_MS,
	NOTIFICATION_TIMEOUT_MS,
	CASHOUT_MIN_AMOUNT_USD,
	CASHOUT_MAX_AMOUNT_USD,
	DEFAULT_CASHOUT_FUNDS_USD,
	CASHOUT_CONTACT_REQUIRED_COUNTRIES,
	KYC_REFUSAL_CODE,
} from './constants';
export { COUNTRIES, MERCHANTS, CASHOUT_STATUS_CODES, REJECTION_CODES } from './reference';

function nonNegativeNumber(name: string, value: number | undefined, fallback: number): number {
	const v = value ?? fallback;
	if (!Number.isFinite(v) || v < 0)
		throw new Error(`startSandbox: ${name} must be a non-negative number, got ${v}`);
	return v;
}

/** Applies the defaults of {@link SandboxOptions}; throws on invalid values (e.g. days < 180). */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
	const days = nonNegativeNumber('days', options.days, DEFAULT_DAYS);
	if (!Number.isInteger(days) || days < MIN_DAYS)
		throw new Error(`startSandbox: days must be an integer >= ${MIN_DAYS}, got ${days}`);
	const statusParamName = options.statusParamName ?? 'Status';
	if (statusParamName !== 'Status' && statusParamName !== 'status')
		throw new Error(`startSandbox: statusParamName must be 'Status' or 'status'`);
	return {
		port: nonNegativeNumber('port', options.port, 0),
		seed: options.seed ?? DEFAULT_SEED,
		now: options.now ?? floorToSecond(Date.now()),
		days,
		depositsPerDay: nonNegativeNumber(
			'depositsPerDay',
			options.depositsPerDay,
			DEFAULT_DEPOSITS_PER_DAY,
		),
		cashoutsPerDay: nonNegativeNumber(
			'cashoutsPerDay',
			options.cashoutsPerDay,
			DEFAULT_CASHOUTS_PER_DAY,
		),
		flagReviewMinAgeMs: nonNegativeNumber(
			'flagReviewMinAgeMs',
			options.flagReviewMinAgeMs,
			DEFAULT_FLAG_REVIEW_MIN_AGE_MS,
		),
		statusParamName,
		pluralRefundChargebackPaths: options.pluralRefundChargebackPaths ?? false,
		latencyMs: nonNegativeNumber('latencyMs', options.latencyMs, 0),
		cashoutStatusPair: options.cashoutStatusPair ?? 'both',
	};
}

/**
 * Generates the seeded dataset and starts the sandbox on 127.0.0.1 (`port` 0 = a random free port).
 * Resolves once listening. Throws on invalid options or when the port is taken.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const resolved = resolveOptions(options);
	const clock = new ManualClock(resolved.now);
	const store = new SandboxStore(resolved, clock);
	const log = new RequestLogStore();
	const faults = new FaultRegistry();
	let latency = resolved.latencyMs;
	let baseUrl = '';
	const app = await buildServer({
		store,
		options: resolved,
		baseUrl: () => baseUrl,
		log,
		faults,
		latencyMs: () => latency,
	});
	await app.listen({ host: '127.0.0.1', port: resolved.port });
	const address = app.server.address() as AddressInfo;
	baseUrl = `http://127.0.0.1:${address.port}`;
	return {
		baseUrl,
		apiUrl: baseUrl,
		credentials: demoCredentials(),
		clock,
		log,
		faults,
		control: store.control(),
		setLatency(ms: number): void {
			latency = nonNegativeNumber('latency', ms, 0);
		},
		close: async () => {
			// Abort the notification in flight (if any) and send nothing more, then stop the server.
			await store.notifier.close();
			await app.close();
		},
	};
}
