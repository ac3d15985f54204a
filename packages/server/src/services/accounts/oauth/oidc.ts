import type { AppContext } from '../../../context.js';
import { ApiFailure } from '../../../http/envelope.js';
import type { OAuthFlow } from './flow.js';
import { accessTokenFrom, claim, jsonObject, type ProviderCall, providerFetch } from './provider-http.js';
import type { ProviderIdentity, RedirectProvider } from './redirect-provider.js';
import { withQuery } from './redirect-provider.js';

// The OIDC endpoints are typed by an admin in the settings form, so they follow fetch_setting.allow_private_ip.
const callFor = (ctx: AppContext): ProviderCall => ({
  provider: 'OIDC',
  allowPrivate: ctx.options.bool('fetch_setting.allow_private_ip'),
});

function fail(reason: string): never {
  throw new ApiFailure('oauth_provider_failed', { provider: 'OIDC', reason });
}

/** The claims of an ID token. The signature is not checked: the token came straight from the token endpoint over
 * the back channel (OIDC Core 3.1.3.7 allows TLS to stand in for it), and the identity is taken from userinfo.
 * What is checked is that it was meant for us and for this attempt. */
function idTokenClaims(idToken: string): Record<string, unknown> {
  const payload = idToken.split('.')[1];
  if (!payload) fail('malformed id_token');
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    if (claims && typeof claims === 'object' && !Array.isArray(claims)) return claims as Record<string, unknown>;
  } catch {
    // fall through
  }
  return fail('malformed id_token');
}

function checkIdToken(idToken: string, ctx: AppContext, flow: OAuthFlow, subject: string): void {
  const claims = idTokenClaims(idToken);
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(ctx.options.get('oidc.client_id'))) fail('id_token audience is not this client');
  if (flow.nonce && claims.nonce !== flow.nonce) fail('id_token nonce does not match');
  // OIDC Core 5.3.2: userinfo must describe the same subject as the ID token.
  if (claim(claims, 'sub') !== subject) fail('userinfo subject differs from the id_token');
}

/**
 * Generic OpenID Connect, authorisation-code flow with PKCE (S256), a nonce and the state. The endpoints are the
 * options the settings page fills from the well-known document; the subject (`sub`) is the stored id.
 */
export const oidc: RedirectProvider = {
  name: 'oidc',
  label: 'OIDC',
  column: 'oidc_id',
  usernamePrefix: 'oidc',
  fallbackDisplayName: 'OIDC User',
  pkce: true,
  sendsRedirectUri: true,
  enabled: (ctx) => ctx.options.bool('oidc.enabled'),
  configured: (ctx) =>
    ctx.options.get('oidc.client_id') !== '' &&
    ctx.options.get('oidc.authorization_endpoint') !== '' &&
    ctx.options.get('oidc.token_endpoint') !== '' &&
    ctx.options.get('oidc.user_info_endpoint') !== '',

  authorizeUrl(ctx, flow, challenge) {
    return withQuery(ctx.options.get('oidc.authorization_endpoint'), {
      response_type: 'code',
      client_id: ctx.options.get('oidc.client_id'),
      redirect_uri: flow.redirectUri,
      scope: 'openid profile email',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: challenge,
      code_challenge_method: challenge ? 'S256' : '',
    });
  },

  async identify(ctx: AppContext, code: string, flow: OAuthFlow): Promise<ProviderIdentity> {
    const call = callFor(ctx);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: flow.redirectUri,
      client_id: ctx.options.get('oidc.client_id'),
      client_secret: ctx.options.get('oidc.client_secret'),
    });
    if (flow.verifier) form.set('code_verifier', flow.verifier);
    const tokenResponse = await providerFetch(call, ctx.options.get('oidc.token_endpoint'), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const token = accessTokenFrom(call, tokenResponse);
    const userResponse = await providerFetch(call, ctx.options.get('oidc.user_info_endpoint'), {
      headers: { accept: 'application/json', authorization: `Bearer ${String(token.access_token)}` },
    });
    const user = jsonObject(call, userResponse);
    const subject = claim(user, 'sub');
    if (userResponse.status !== 200 || !subject) fail(`userinfo HTTP ${userResponse.status}`);
    if (typeof token.id_token === 'string' && token.id_token) checkIdToken(token.id_token, ctx, flow, subject);
    return {
      id: subject,
      legacyIds: [],
      displayName: claim(user, 'name') || claim(user, 'preferred_username'),
      // An address the provider has not verified could name someone else's mailbox.
      email: user.email_verified === false ? '' : claim(user, 'email'),
    };
  },
};
