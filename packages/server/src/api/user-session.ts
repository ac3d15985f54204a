import { type ApiEnvelope, loginSchema, type SelfUser, type SessionUser, UserStatus } from '@gateway/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { newSessionId, SESSION_COOKIE, signSessionId, verifySessionCookie } from '../auth/session-cookie.js';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { startSecondStep } from '../services/accounts/login-flow.js';
import { turnstileCheck } from '../services/accounts/turnstile.js';
import { twoFactor } from '../services/accounts/two-factor.js';
import { recordAudit } from '../services/audit/audit-trail.js';

export function sessionUser(user: UserRow): SessionUser {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}

/** The caller's own record as the console shows it: no password hash, no access token. */
export function selfView(user: UserRow): SelfUser {
  const { password: _password, access_token: _token, deleted_at: _deleted, ...rest } = user;
  return rest;
}

// A fixed hash to compare against when the user does not exist, so both cases take the same time.
let dummyHash: Promise<string> | null = null;

export async function userSessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);

  const critical = criticalLimit(ctx);

  const humanCheck = turnstileCheck(ctx);
  app.post('/api/user/login', { preHandler: [critical, humanCheck], bodyLimit: 16 * 1024 }, async (request, reply) => {
    if (!ctx.options.bool('PasswordLoginEnabled')) throw new ApiFailure('password_login_disabled');
    const input = parseBody(loginSchema, request.body);
    const user = await ctx.repos.users.findForLogin(input.username);
    dummyHash ??= hashPassword('not-a-real-password');
    const valid = await verifyPassword(input.password, user?.password ?? (await dummyHash));
    if (!user || !valid || user.status !== UserStatus.Enabled) {
      // Nobody is signed in, so no actor: the target is the name as typed (never the password).
      const failed = { action: 'user.login_failed', targetType: 'user', targetId: input.username } as const;
      await recordAudit(ctx, request, [{ ...failed, changes: [], always: true }], null);
      throw new ApiFailure(user && valid ? 'user_banned' : 'login_failed');
    }
    // With two-factor sign-in the password only opens the second step (POST /api/user/login/2fa), as in the family.
    if (await twoFactor(ctx).isEnabled(user.id))
      return ok(startSecondStep(ctx, reply, user.id), messageFor(request, 'two_fa_login_required'));
    return finishLogin(ctx, request, reply, user);
  });

  app.get('/api/user/logout', async (request, reply) => {
    const id = verifySessionCookie(request.cookies[SESSION_COOKIE], ctx.config.sessionSecret);
    if (id) await ctx.sessions.destroy(id);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok(undefined, messageFor(request, 'logout_success'));
  });

  app.get('/api/user/self', { preHandler: requireUser }, async (request) => ok(selfView(currentUser(request))));
}

/**
 * A sign-in that passed its checks (password and any second step, or a passkey): the session, the last-login time
 * and the audit line.
 */
export async function signInAs(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<SessionUser> {
  await startSession(ctx, reply, user);
  await ctx.repos.users.update(user.id, { last_login_at: nowSeconds() });
  await recordAudit(
    ctx,
    request,
    [{ action: 'user.login', targetType: 'user', targetId: user.id, changes: [], always: true }],
    user,
  );
  return sessionUser(user);
}

/** The family's answer to a finished password sign-in (directly, or after its second step). */
export async function finishLogin(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<ApiEnvelope<SessionUser>> {
  return ok(await signInAs(ctx, request, reply, user), messageFor(request, 'login_success'));
}

export async function startSession(ctx: AppContext, reply: FastifyReply, user: UserRow): Promise<void> {
  const id = newSessionId();
  await ctx.sessions.create(id, user.id, ctx.config.sessionTtlSeconds);
  reply.setCookie(SESSION_COOKIE, signSessionId(id, ctx.config.sessionSecret), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.sessionCookieSecure,
    maxAge: ctx.config.sessionTtlSeconds,
  });
}
