import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { criticalLimit } from '../../auth/critical-limit.js';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import { accountForSignIn, bindIdentity } from '../../services/accounts/oauth/accounts.js';
import {
  encodeFlow,
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
  FLOW_TTL_SECONDS,
  type FlowIntent,
  type OAuthFlow,
  pkceChallenge,
  randomToken,
} from '../../services/accounts/oauth/flow.js';
import { github } from '../../services/accounts/oauth/github.js';
import { linuxdo } from '../../services/accounts/oauth/linuxdo.js';
import { oidc } from '../../services/accounts/oauth/oidc.js';
import type { RedirectProvider } from '../../services/accounts/oauth/redirect-provider.js';
import { attemptIntent, completeCallback } from './flow-steps.js';
import { optionalConsoleUser, queryText } from './sign-in.js';

const PROVIDERS: RedirectProvider[] = [github, oidc, linuxdo];

/** Where the browser comes back to: the configured server address, else the address this request used. */
export function siteOrigin(ctx: AppContext, request: FastifyRequest): string {
  const configured = ctx.options.get('ServerAddress').replace(/\/+$/, '');
  return configured || `${request.protocol}://${request.host}`;
}

export function setFlowCookie(ctx: AppContext, reply: FastifyReply, flow: OAuthFlow): void {
  reply.setCookie(FLOW_COOKIE, encodeFlow(flow, ctx.config.sessionSecret), {
    path: FLOW_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.sessionCookieSecure,
    maxAge: FLOW_TTL_SECONDS,
  });
}

function assertUsable(ctx: AppContext, provider: RedirectProvider): void {
  if (!provider.enabled(ctx)) throw new ApiFailure('oauth_provider_disabled', { provider: provider.label });
  if (!provider.configured(ctx)) throw new ApiFailure('oauth_not_configured', { provider: provider.label });
}

/**
 * The redirect providers (GitHub, OIDC, LinuxDO): create the state, send the browser to the provider, and take
 * the code back. Login or binding is decided when the attempt starts (a binding needs the signed-in console user)
 * and checked again when it ends, so a session that changed in between binds nothing.
 */
export async function redirectFlowRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const critical = criticalLimit(ctx);

  const newFlow = (
    request: FastifyRequest,
    provider: RedirectProvider | null,
    intent: FlowIntent,
    userId: number,
  ): OAuthFlow => ({
    state: randomToken(),
    provider: provider?.name ?? null,
    intent,
    userId,
    aff: queryText(request, 'aff').slice(0, 32),
    verifier: provider?.pkce ? randomToken(48) : '',
    nonce: provider === oidc ? randomToken(16) : '',
    redirectUri: `${siteOrigin(ctx, request)}/oauth/${provider?.name ?? 'oidc'}`,
    expiresAt: nowSeconds() + FLOW_TTL_SECONDS,
  });

  // The family's provider-neutral state (spec 000 §7): a console that builds the authorisation URL itself uses it.
  app.get('/api/oauth/state', { preHandler: critical }, async (request, reply) => {
    const user = await optionalConsoleUser(ctx, request);
    const flow = newFlow(request, null, user ? 'bind' : 'login', user?.id ?? 0);
    setFlowCookie(ctx, reply, flow);
    return ok(flow.state);
  });

  for (const provider of PROVIDERS) {
    // Our console's start: the whole authorisation URL, with PKCE and nonce where the provider takes them.
    app.get(`/api/oauth/${provider.name}/authorize`, { preHandler: critical }, async (request, reply) => {
      assertUsable(ctx, provider);
      const { intent, userId } = await attemptIntent(ctx, request);
      const flow = newFlow(request, provider, intent, userId);
      setFlowCookie(ctx, reply, flow);
      const challenge = flow.verifier ? pkceChallenge(flow.verifier) : '';
      return ok({ url: provider.authorizeUrl(ctx, flow, challenge), state: flow.state });
    });

    // The callback page of the console hands over what the provider put in the address bar.
    app.get(`/api/oauth/${provider.name}`, { preHandler: critical }, async (request, reply) => {
      if (!provider.enabled(ctx)) throw new ApiFailure('oauth_provider_disabled', { provider: provider.label });
      return completeCallback(ctx, request, reply, {
        ownsFlow: (flow) => !flow.provider || flow.provider === provider.name,
        identify: (code, flow) => provider.identify(ctx, code, flow),
        bind: (user, identity) => bindIdentity(ctx, provider, user, identity),
        accountFor: (identity, aff) => accountForSignIn(ctx, provider, identity, aff),
      });
    });
  }
}
