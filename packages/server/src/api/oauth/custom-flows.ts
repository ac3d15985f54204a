import type { FastifyInstance, FastifyRequest } from 'fastify';
import { criticalLimit } from '../../auth/critical-limit.js';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import {
  bindCustomIdentity,
  type CustomProvider,
  customAccountForSignIn,
  customAuthorizeUrl,
  flowName,
  identifyCustom,
  isEnabled,
  isUsable,
  wantsNonce,
} from '../../services/accounts/oauth/custom.js';
import { FLOW_TTL_SECONDS, pkceChallenge, randomToken } from '../../services/accounts/oauth/flow.js';
import { attemptIntent, completeCallback } from './flow-steps.js';
import { setFlowCookie, siteOrigin } from './redirect-flows.js';
import { queryText } from './sign-in.js';

/**
 * The providers the root added: `/api/oauth/<slug>/authorize` and `/api/oauth/<slug>`, the same redirect flow as
 * the built-in ones (state in the signed flow cookie, PKCE S256, a nonce for OpenID Connect). The built-in routes
 * are static and win over these; the settings refuse a built-in provider's name as a slug.
 */
export async function customFlowRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const critical = criticalLimit(ctx);

  const enabledProvider = async (request: FastifyRequest): Promise<CustomProvider> => {
    const slug = (request.params as { slug: string }).slug;
    const provider = await ctx.repos.customOAuth.findBySlug(slug);
    if (!provider) throw new ApiFailure('not_found', undefined, 404);
    if (!isEnabled(provider)) throw new ApiFailure('oauth_provider_disabled', { provider: provider.name });
    return provider;
  };

  app.get('/api/oauth/:slug/authorize', { preHandler: critical }, async (request, reply) => {
    const provider = await enabledProvider(request);
    if (!isUsable(provider)) throw new ApiFailure('oauth_not_configured', { provider: provider.name });
    const { intent, userId } = await attemptIntent(ctx, request);
    const flow = {
      state: randomToken(),
      provider: flowName(provider),
      intent,
      userId,
      aff: queryText(request, 'aff').slice(0, 32),
      verifier: randomToken(48),
      nonce: wantsNonce(provider) ? randomToken(16) : '',
      redirectUri: `${siteOrigin(ctx, request)}/oauth/${provider.slug}`,
      expiresAt: nowSeconds() + FLOW_TTL_SECONDS,
    };
    setFlowCookie(ctx, reply, flow);
    return ok({ url: customAuthorizeUrl(provider, flow, pkceChallenge(flow.verifier)), state: flow.state });
  });

  app.get('/api/oauth/:slug', { preHandler: critical }, async (request, reply) => {
    const provider = await enabledProvider(request);
    // A state from another provider's attempt (or the family's neutral state, which carries no PKCE) is refused.
    return completeCallback(ctx, request, reply, {
      ownsFlow: (flow) => flow.provider === flowName(provider),
      identify: (code, flow) => identifyCustom(ctx, provider, code, flow),
      bind: (user, identity) => bindCustomIdentity(ctx, provider, user, identity),
      accountFor: (identity, aff) => customAccountForSignIn(ctx, provider, identity, aff),
    });
  });
}
