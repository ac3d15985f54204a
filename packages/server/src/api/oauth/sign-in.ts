import { UserStatus } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, verifySessionCookie } from '../../auth/session-cookie.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { messageFor, ok } from '../../http/envelope.js';
import { sessionUser, startSession } from '../user-session.js';

/**
 * The signed-in console user behind a request, when there is one: a valid session cookie whose user is live and
 * enabled, and the `New-Api-User` header naming that same user (as the route guards demand). Undefined otherwise;
 * the family's OAuth routes work for visitors and signed-in users alike.
 */
export async function optionalConsoleUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | undefined> {
  const sessionId = verifySessionCookie(request.cookies[SESSION_COOKIE], ctx.config.sessionSecret);
  if (!sessionId) return undefined;
  const userId = await ctx.sessions.userIdOf(sessionId);
  if (userId === undefined) return undefined;
  const header = request.headers['new-api-user'];
  const claimed = (Array.isArray(header) ? header[0] : header)?.trim();
  if (claimed !== String(userId)) return undefined;
  const user = await ctx.repos.users.findById(userId);
  if (!user || user.deleted_at !== null || user.status !== UserStatus.Enabled) return undefined;
  return user;
}

/** A provider sign-in ends exactly like a password login: a new session, last login time, the stored user. */
export async function finishSignIn(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, user: UserRow) {
  await startSession(ctx, reply, user);
  await ctx.repos.users.update(user.id, { last_login_at: nowSeconds() });
  return ok(sessionUser(user), messageFor(request, 'login_success'));
}

/** One query value as a trimmed string ('' when absent or repeated oddly). */
export function queryText(request: FastifyRequest, key: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}
