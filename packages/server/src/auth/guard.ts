import { Role, UserStatus } from '@gateway/shared';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { ApiFailure } from '../http/envelope.js';
import { SESSION_COOKIE, verifySessionCookie } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    user?: UserRow;
    sessionId?: string;
    /** True when the caller used a system access token instead of the console cookie. */
    viaAccessToken?: boolean;
  }
}

/** Who is calling: a system access token (`Authorization: <token>`) or the signed session cookie. */
async function resolveUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | undefined> {
  const authorization = request.headers.authorization?.trim();
  if (authorization) {
    const token = authorization.replace(/^Bearer\s+/i, '');
    const user = token ? await ctx.repos.users.findByAccessToken(token) : undefined;
    if (!user) throw new ApiFailure('access_token_invalid', undefined, 401);
    request.viaAccessToken = true;
    return user;
  }
  const sessionId = verifySessionCookie(request.cookies[SESSION_COOKIE], ctx.config.sessionSecret);
  if (!sessionId) return undefined;
  const userId = await ctx.sessions.userIdOf(sessionId);
  if (userId === undefined) return undefined;
  request.sessionId = sessionId;
  return ctx.repos.users.findById(userId);
}

/**
 * The console user behind the session cookie alone, or undefined: for the few reads a page makes without the
 * console's headers (a `<video>` element playing a task's file sends only its cookie). Disabled or deleted users
 * have none.
 */
export async function sessionUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | undefined> {
  const sessionId = verifySessionCookie(request.cookies[SESSION_COOKIE], ctx.config.sessionSecret);
  if (!sessionId) return undefined;
  const userId = await ctx.sessions.userIdOf(sessionId);
  const user = userId === undefined ? undefined : await ctx.repos.users.findById(userId);
  return user && user.deleted_at === null && user.status === UserStatus.Enabled ? user : undefined;
}

/**
 * Route guard for a minimum role (1 user, 10 admin, 100 root). The `New-Api-User` header must name the same user
 * as the session: a page left open in another tab for a different account must not act as this one.
 */
export function requireRole(ctx: AppContext, minRole: number): preHandlerAsyncHookHandler {
  const guard = async (request: FastifyRequest, _reply: FastifyReply) => {
    const user = await resolveUser(ctx, request);
    if (!user || user.deleted_at !== null) throw new ApiFailure('not_logged_in', undefined, 401);
    const header = request.headers['new-api-user'];
    const claimed = Array.isArray(header) ? header[0] : header;
    if (!claimed) throw new ApiFailure('user_header_missing', undefined, 401);
    if (String(user.id) !== claimed.trim()) throw new ApiFailure('user_header_mismatch', undefined, 401);
    if (user.status !== UserStatus.Enabled) {
      if (request.sessionId) await ctx.sessions.destroy(request.sessionId);
      throw new ApiFailure('user_banned', undefined, 403);
    }
    // The family answers a role refusal with HTTP 200 and success:false; its console shows the message from the body.
    if (user.role < minRole) throw new ApiFailure('permission_denied');
    if (minRole >= Role.Admin && ctx.options.bool('AdminTwoFARequired')) {
      // Root requires two-factor sign-in for admins: until this one turns it on, only the user routes answer them
      // (among them the 2FA setup), in the family's refusal form.
      if (!(await ctx.repos.twoFas.find(user.id))?.enabled) throw new ApiFailure('two_fa_admin_setup_required');
    }
    request.user = user;
  };
  // Marks the routes that need a signed-in caller; the others are anonymous and get the small body limit.
  return Object.assign(guard, { [SIGNED_IN]: true });
}

export const SIGNED_IN = Symbol('signed-in route guard');

/** Whether a route's preHandlers include a role guard. */
export function isGuarded(preHandler: unknown): boolean {
  const handlers = Array.isArray(preHandler) ? preHandler : [preHandler];
  return handlers.some((handler) => typeof handler === 'function' && SIGNED_IN in handler);
}

export const guards = (ctx: AppContext) => ({
  user: requireRole(ctx, Role.Common),
  admin: requireRole(ctx, Role.Admin),
  root: requireRole(ctx, Role.Root),
});

export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new ApiFailure('not_logged_in', undefined, 401);
  return request.user;
}
