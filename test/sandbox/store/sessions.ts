/** Session tokens (service rules §2.1) and the merchants' idempotency keys (service rules §5.2). */
import { randomBytes } from 'node:crypto';
import { SESSION_IDLE_TIMEOUT_MS } from '../constants';
import { USERS, type UserAccount } from '../demo';
import type { SessionInfo } from '../types';
import type { StoreState } from './state';

/** A live session token; the MID is per token. */
export interface Session {
	token: string;
	user: UserAccount;
	merchantId: number;
	lastUsedAt: number;
}

/** Result of {@link login}. */
export type LoginResult =
	{ ok: true; session: Session } | { ok: false; reason: 'invalid' | 'refused' };

// ---- sessions (service rules §2.1) ----

/** Checks credentials; on success creates a new token bound to the user's default MID. */
export function login(state: StoreState, accessKey: unknown, secretKey: unknown): LoginResult {
	const user = USERS.find((u) => u.accessKey === accessKey && u.secretKey === secretKey);
	if (!user) return { ok: false, reason: 'invalid' };
	if (user.refused) return { ok: false, reason: 'refused' };
	const session: Session = {
		token: randomBytes(24).toString('base64url'),
		user,
		merchantId: user.defaultMerchantId,
		lastUsedAt: state.clock.now(),
	};
	state.sessions.set(session.token, session);
	return { ok: true, session };
}

function isExpired(state: StoreState, session: Session): boolean {
	return state.clock.now() - session.lastUsedAt >= SESSION_IDLE_TIMEOUT_MS;
}

/** First live session among `tokens`; refreshes its lastUsedAt. Expired ones are removed. */
export function useSession(state: StoreState, tokens: string[]): Session | undefined {
	for (const token of tokens) {
		const session = state.sessions.get(token);
		if (!session) continue;
		if (isExpired(state, session)) {
			state.sessions.delete(token);
			continue;
		}
		session.lastUsedAt = state.clock.now();
		return session;
	}
	return undefined;
}

/** Invalidates a token. */
export function destroySession(state: StoreState, token: string): void {
	state.sessions.delete(token);
}

/** Sessions not idle-expired now. */
export function activeSessions(state: StoreState): SessionInfo[] {
	return [...state.sessions.values()]
		.filter((s) => !isExpired(state, s))
		.map((s) => ({
			token: s.token,
			accessKey: s.user.accessKey,
			merchantId: s.merchantId,
			lastUsedAt: s.lastUsedAt,
		}));
}

/** Invalidates every token. */
export function expireSessions(state: StoreState): void {
	state.sessions.clear();
}

// ---- idempotency (service rules §5.2) ----

/** Whether `key` was already used by a successful deposit or refund creation of `merchantId` (one key space). */
export function isIdempotencyKeyUsed(state: StoreState, merchantId: number, key: string): boolean {
	return state.idempotencyKeys.get(merchantId)?.has(key) ?? false;
}

/** Marks `key` as used by `merchantId`. */
export function useIdempotencyKey(state: StoreState, merchantId: number, key: string): void {
	const set = state.idempotencyKeys.get(merchantId) ?? new Set<string>();
	set.add(key);
	state.idempotencyKeys.set(merchantId, set);
}
