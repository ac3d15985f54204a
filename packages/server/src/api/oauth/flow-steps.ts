import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import {
  decodeFlow,
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
  type FlowIntent,
  type OAuthFlow,
  stateMatches,
} from '../../services/accounts/oauth/flow.js';
import { finishSignIn, optionalConsoleUser, queryText } from './sign-in.js';

/**
 * What an attempt is for, decided when it starts: a binding needs the signed-in console user (whose id the flow
 * keeps), anything else is a sign-in.
 */
export async function attemptIntent(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ intent: FlowIntent; userId: number }> {
  if (queryText(request, 'intent') !== 'bind') return { intent: 'login', userId: 0 };
  const user = await optionalConsoleUser(ctx, request);
  if (!user) throw new ApiFailure('not_logged_in', undefined, 401);
  return { intent: 'bind', userId: user.id };
}

/** One provider's side of a callback: which flows are its own, and what it does with the code. */
export interface CallbackSteps<Identity> {
  ownsFlow(flow: OAuthFlow): boolean;
  identify(code: string, flow: OAuthFlow): Promise<Identity>;
  bind(user: UserRow, identity: Identity): Promise<void>;
  accountFor(identity: Identity, aff: string): Promise<UserRow>;
}

/**
 * The callback page hands over what the provider put in the address bar: the state must be the flow cookie's and
 * the flow this provider's; a binding is checked against the session again, so a session that changed in between
 * binds nothing.
 */
export async function completeCallback<Identity>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  steps: CallbackSteps<Identity>,
) {
  const flow = decodeFlow(request.cookies[FLOW_COOKIE], ctx.config.sessionSecret, nowSeconds());
  const state = queryText(request, 'state');
  if (!flow || !state || !stateMatches(flow, state) || !steps.ownsFlow(flow)) {
    throw new ApiFailure('oauth_state_invalid');
  }
  const code = queryText(request, 'code');
  if (!code) throw new ApiFailure('oauth_code_required');

  if (flow.intent === 'bind') {
    const user = await optionalConsoleUser(ctx, request);
    if (!user || user.id !== flow.userId) throw new ApiFailure('oauth_bind_account_changed');
    await steps.bind(user, await steps.identify(code, flow));
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
    // The family's console reads the literal "bind" as "this was a binding".
    return ok(undefined, 'bind');
  }
  const user = await steps.accountFor(await steps.identify(code, flow), flow.aff);
  reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
  return finishSignIn(ctx, request, reply, user);
}
