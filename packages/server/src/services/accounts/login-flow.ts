import { createHmac, timingSafeEqual } from 'node:crypto';
import { TWO_FA_LOGIN_FLOW_SECONDS, type TwoFactorLoginChallenge } from '@gateway/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';

/**
 * The token between a sign-in's password step and its second step: the user id and an expiry, signed with
 * SESSION_SECRET, so any node can check it and nobody can make one without the password. It is no session: it only
 * lets its holder try codes, under the account's lockout.
 */
export function signLoginFlow(userId: number, expiresAt: number, secret: string): string {
  const body = Buffer.from(JSON.stringify({ uid: userId, exp: expiresAt })).toString('base64url');
  return `${body}.${mac(body, secret)}`;
}

/** The user id of a valid, unexpired token; null otherwise. */
export function readLoginFlow(token: string | undefined, secret: string, now: number): number | null {
  if (!token) return null;
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(body, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { uid, exp } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { uid: unknown; exp: unknown };
    return typeof uid === 'number' && typeof exp === 'number' && exp > now ? uid : null;
  } catch {
    return null;
  }
}

function mac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(`two-fa-login:${body}`).digest('base64url');
}

/** Where the browser keeps the flow token, for consoles that send only the code (the family's older one). */
export const LOGIN_FLOW_COOKIE = 'two_fa_flow';
const FLOW_COOKIE_PATH = '/api/user/login';

/** The password was right and the account has 2FA: the family's answer asking for the second step. */
export function startSecondStep(ctx: AppContext, reply: FastifyReply, userId: number): TwoFactorLoginChallenge {
  const expiresAt = nowSeconds() + TWO_FA_LOGIN_FLOW_SECONDS;
  const flowToken = signLoginFlow(userId, expiresAt, ctx.config.sessionSecret);
  reply.setCookie(LOGIN_FLOW_COOKIE, flowToken, {
    path: FLOW_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.sessionCookieSecure,
    maxAge: TWO_FA_LOGIN_FLOW_SECONDS,
  });
  return { require_2fa: true, flow_token: flowToken, expires_at: expiresAt };
}

export function endSecondStep(reply: FastifyReply): void {
  reply.clearCookie(LOGIN_FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
}
