import type { AppContext } from '../../../context.js';
import { ApiFailure } from '../../../http/envelope.js';
import { accessTokenFrom, claim, jsonObject, type ProviderCall, providerFetch } from './provider-http.js';
import type { ProviderIdentity, RedirectProvider } from './redirect-provider.js';
import { withQuery } from './redirect-provider.js';

// Endpoints come from the environment (LINUX_DO_*_ENDPOINT, the family's names): trusted like SQL_DSN.
const call: ProviderCall = { provider: 'LinuxDO', allowPrivate: true };

/**
 * LinuxDO Connect: a standard authorisation-code flow with the client authenticated by HTTP Basic at the token
 * endpoint; /api/user returns the forum account (id, username, name, active, silenced, trust_level).
 */
export const linuxdo: RedirectProvider = {
  name: 'linuxdo',
  label: 'LinuxDO',
  column: 'linux_do_id',
  usernamePrefix: 'linuxdo',
  fallbackDisplayName: 'LinuxDO User',
  pkce: false,
  sendsRedirectUri: false,
  enabled: (ctx) => ctx.options.bool('LinuxDOOAuthEnabled'),
  configured: (ctx) => ctx.options.get('LinuxDOClientId') !== '',

  authorizeUrl(ctx, flow) {
    return withQuery(ctx.config.oauthEndpoints.linuxdo.authorize, {
      client_id: ctx.options.get('LinuxDOClientId'),
      response_type: 'code',
      state: flow.state,
    });
  },

  async identify(ctx: AppContext, code: string): Promise<ProviderIdentity> {
    const endpoints = ctx.config.oauthEndpoints.linuxdo;
    const basic = Buffer.from(
      `${encodeURIComponent(ctx.options.get('LinuxDOClientId'))}:${encodeURIComponent(ctx.options.get('LinuxDOClientSecret'))}`,
    ).toString('base64');
    const serverAddress = ctx.options.get('ServerAddress').replace(/\/+$/, '');
    const form = new URLSearchParams({ grant_type: 'authorization_code', code });
    if (serverAddress) form.set('redirect_uri', `${serverAddress}/oauth/linuxdo`);
    const tokenResponse = await providerFetch(call, endpoints.token, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    const token = accessTokenFrom(call, tokenResponse);
    const userResponse = await providerFetch(call, endpoints.user, {
      headers: { accept: 'application/json', authorization: `Bearer ${String(token.access_token)}` },
    });
    const user = jsonObject(call, userResponse);
    const id = claim(user, 'id');
    if (userResponse.status !== 200 || !id) {
      throw new ApiFailure('oauth_provider_failed', {
        provider: call.provider,
        reason: `user HTTP ${userResponse.status}`,
      });
    }
    // A forum account that is not activated, or silenced by the moderators, does not get in.
    if (user.active === false || user.silenced === true) {
      throw new ApiFailure('oauth_account_inactive', { provider: call.provider });
    }
    return { id, legacyIds: [], displayName: claim(user, 'name') || claim(user, 'username'), email: '' };
  },
};
