import type { AppContext } from '../../../context.js';
import { ApiFailure } from '../../../http/envelope.js';
import { accessTokenFrom, claim, jsonObject, type ProviderCall, providerFetch } from './provider-http.js';
import type { ProviderIdentity, RedirectProvider } from './redirect-provider.js';
import { withQuery } from './redirect-provider.js';

// Endpoints come from the environment (GITHUB_*_ENDPOINT), set by whoever runs the server: trusted like SQL_DSN.
const call: ProviderCall = { provider: 'GitHub', allowPrivate: true };

/**
 * GitHub OAuth apps: the browser goes to /login/oauth/authorize, the code is exchanged at /login/oauth/access_token
 * (JSON when asked with Accept: application/json; errors arrive as 200 with an `error` field), and /user names
 * the person. The numeric id is stored: logins can be renamed and then taken by someone else. Accounts from older
 * versions of the family hold the login, so that is matched once and replaced.
 */
export const github: RedirectProvider = {
  name: 'github',
  label: 'GitHub',
  column: 'github_id',
  usernamePrefix: 'github',
  fallbackDisplayName: 'GitHub User',
  pkce: false,
  sendsRedirectUri: false,
  enabled: (ctx) => ctx.options.bool('GitHubOAuthEnabled'),
  configured: (ctx) => ctx.options.get('GitHubClientId') !== '',

  authorizeUrl(ctx, flow) {
    return withQuery(ctx.config.oauthEndpoints.github.authorize, {
      client_id: ctx.options.get('GitHubClientId'),
      state: flow.state,
      scope: 'user:email',
    });
  },

  async identify(ctx: AppContext, code: string): Promise<ProviderIdentity> {
    const endpoints = ctx.config.oauthEndpoints.github;
    const tokenResponse = await providerFetch(call, endpoints.token, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: ctx.options.get('GitHubClientId'),
        client_secret: ctx.options.get('GitHubClientSecret'),
        code,
      }),
    });
    const token = accessTokenFrom(call, tokenResponse);
    const userResponse = await providerFetch(call, endpoints.user, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${String(token.access_token)}`,
        'user-agent': 'ai-gateway',
      },
    });
    const user = jsonObject(call, userResponse);
    const id = claim(user, 'id');
    const login = claim(user, 'login');
    if (userResponse.status !== 200 || !id) {
      throw new ApiFailure('oauth_provider_failed', {
        provider: call.provider,
        reason: `user HTTP ${userResponse.status}`,
      });
    }
    return {
      id,
      legacyIds: login ? [login] : [],
      displayName: claim(user, 'name') || login,
      email: claim(user, 'email'),
    };
  },
};
