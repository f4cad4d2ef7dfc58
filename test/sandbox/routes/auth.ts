/**
 * Session routes (service rules §2.1: login, switch context, logout, session token).
 */
import type { FastifyInstance } from 'fastify';
import {
	isPlainObject,
	parseJson,
	rawBodyOf,
	reportingError,
	requireSession,
	type RouteContext,
} from '../http';

/** Text of the switchContext success message (service rules §2.1). */
export const SWITCH_CONTEXT_MESSAGE =
	'Context switched successfully. Your session now operates under the new merchant.';
/** Text of the logout success message (sandbox choice). */
export const LOGOUT_MESSAGE = 'Session destroyed successfully.';

/**
 * Registers:
 * - POST /v1/auth/login `{accessKey, secretKey}` -> 200 `{idUser, username, idMerchant}` + `Set-Cookie: BEARER_TOKEN=...`;
 *   wrong/missing credentials (or a body that is not a JSON object) -> 401 `{code: 11}`; refused user -> 403 `{code: 83}`.
 * - POST /v1/auth/:mid/switchContext -> 200 `{message}`; a MID the user lacks -> 403 `{code: 26}`.
 * - DELETE /v1/auth/session/destroy -> 200 `{message}`, the token is dead.
 * Without a live token: 401 `{code: 401, description}`.
 */
export function registerAuthRoutes(app: FastifyInstance, ctx: RouteContext): void {
	app.post('/v1/auth/login', async (request, reply) => {
		const parsed = parseJson(rawBodyOf(request));
		const body = parsed.ok && isPlainObject(parsed.value) ? parsed.value : {};
		const result = ctx.store.login(body.accessKey, body.secretKey);
		if (!result.ok) {
			if (result.reason === 'refused') {
				return reportingError(
					reply,
					403,
					83,
					'Login from this location is not permitted for this user',
				);
			}
			return reportingError(reply, 401, 11, 'Invalid credentials or user locked');
		}
		const { session } = result;
		reply.header('set-cookie', `BEARER_TOKEN=${session.token}; Path=/; HttpOnly`);
		return {
			idUser: session.user.idUser,
			username: session.user.accessKey,
			idMerchant: session.merchantId,
		};
	});

	app.post<{ Params: { mid: string } }>('/v1/auth/:mid/switchContext', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'reporting');
		if (!session) return reply;
		const mid = /^\d+$/.test(request.params.mid) ? Number(request.params.mid) : NaN;
		if (!session.user.merchantIds.includes(mid)) {
			return reportingError(
				reply,
				403,
				26,
				`Insufficient privileges: the user does not belong to merchant ${request.params.mid}`,
			);
		}
		session.merchantId = mid;
		return { message: SWITCH_CONTEXT_MESSAGE };
	});

	app.delete('/v1/auth/session/destroy', async (request, reply) => {
		const session = requireSession(ctx, request, reply, 'reporting');
		if (!session) return reply;
		ctx.store.destroySession(session.token);
		return { message: LOGOUT_MESSAGE };
	});
}
