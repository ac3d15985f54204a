import { TWO_FA_LOGIN_FLOW_SECONDS, type TwoFactorLoginChallenge } from '@gateway/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { readSignedPayload, signPayload } from '../security/signed-payload.js';

const PURPOSE = 'two-fa-login';

/**
 * The token between a sign-in's password step and its second step: the user id and an expiry, signed with
 * SESSION_SECRET, so any node can check it and nobody can make one without the password. It is no session: it only
 * lets its holder try codes, under the account's lockout.
 */
export function signLoginFlow(userId: number, expiresAt: number, secret: string): string {
  return signPayload({ uid: userId, exp: expiresAt }, PURPOSE, secret);
}

/** The user id of a valid, unexpired token; null otherwise. */
export function readLoginFlow(token: string | undefined, secret: string, now: number): number | null {
  const flow = readSignedPayload(token, PURPOSE, secret) as { uid?: unknown; exp?: unknown } | null;
  if (!flow || typeof flow.uid !== 'number' || typeof flow.exp !== 'number' || flow.exp <= now) return null;
  return flow.uid;
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
