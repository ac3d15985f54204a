import { type CustomOAuthLoginInfo, type CustomOAuthProviderView, UserStatus } from '@gateway/shared';
import type { AppContext } from '../../../context.js';
import type { CustomOAuthProviderRow } from '../../../db/repos/custom-oauth.js';
import type { UserRow } from '../../../db/schema.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import { ApiFailure } from '../../../http/envelope.js';
import { SecretBox } from '../../security/secret-box.js';
import { oneAtATime } from './accounts.js';
import { claimAt, claimText } from './custom-claims.js';
import type { OAuthFlow } from './flow.js';
import { createProviderAccount } from './new-account.js';
import { oauthErrorReason, type ProviderCall, providerFetch } from './provider-http.js';
import type { ProviderIdentity } from './redirect-provider.js';
import { withQuery } from './redirect-provider.js';

/** A provider the root added, with what the settings store (the family's `custom_oauth_providers` row). */
export type CustomProvider = CustomOAuthProviderRow;

const text = (value: string | null | undefined, fallback = ''): string => (value ?? '').trim() || fallback;

export const isEnabled = (provider: CustomProvider): boolean => Number(provider.enabled ?? 0) === 1;

/** Where the browser goes and what it sends: without these there is no sign-in to start. */
export function isUsable(provider: CustomProvider): boolean {
  return (
    text(provider.client_id) !== '' &&
    text(provider.authorization_endpoint) !== '' &&
    text(provider.token_endpoint) !== '' &&
    text(provider.user_info_endpoint) !== ''
  );
}

export const flowName = (provider: CustomProvider): `custom:${number}` => `custom:${provider.id}`;

/** The settings page's view: every setting but the client secret, of which only its presence is told. */
export function providerView(provider: CustomProvider): CustomOAuthProviderView {
  return {
    id: provider.id,
    name: provider.name,
    slug: provider.slug,
    icon: text(provider.icon),
    kind: 'oauth_code',
    enabled: isEnabled(provider),
    client_id: text(provider.client_id),
    client_secret_set: text(provider.client_secret) !== '',
    authorization_endpoint: text(provider.authorization_endpoint),
    token_endpoint: text(provider.token_endpoint),
    user_info_endpoint: text(provider.user_info_endpoint),
    scopes: text(provider.scopes),
    user_id_field: text(provider.user_id_field, 'sub'),
    username_field: text(provider.username_field),
    display_name_field: text(provider.display_name_field),
    email_field: text(provider.email_field),
    well_known: text(provider.well_known),
    auth_style: Number(provider.auth_style ?? 0),
  };
}

/** What the sign-in page needs to draw the button (`/api/status`). */
export function loginInfo(provider: CustomProvider): CustomOAuthLoginInfo {
  return {
    id: provider.id,
    name: provider.name,
    slug: provider.slug,
    icon: text(provider.icon),
    client_id: text(provider.client_id),
    authorization_endpoint: text(provider.authorization_endpoint),
    scopes: text(provider.scopes),
  };
}

/**
 * How long the sign-in buttons are served from memory. `/api/status` is read on every console page load, so it
 * must not cost a query each time; this node's own changes clear the memo at once, other nodes' show within this.
 */
const LOGIN_PROVIDERS_TTL_MS = 10_000;
const loginMemo = new WeakMap<AppContext, { readAt: number; list: Promise<CustomOAuthLoginInfo[]> }>();

/**
 * The enabled providers the sign-in page shows, oldest first. While the table cannot be read (a database outage)
 * the last list read stays, or none when there was none; the status answers then too (the console shows its
 * banner from it).
 */
export function loginProviders(ctx: AppContext): Promise<CustomOAuthLoginInfo[]> {
  const memo = loginMemo.get(ctx);
  if (memo && Date.now() - memo.readAt < LOGIN_PROVIDERS_TTL_MS) return memo.list;
  const previous = memo?.list ?? Promise.resolve([]);
  const list = ctx.repos.customOAuth
    .listEnabled()
    .then((rows) => rows.filter(isUsable).map(loginInfo))
    .catch(() => previous);
  loginMemo.set(ctx, { readAt: Date.now(), list });
  return list;
}

/** Root changed a provider here: the next status reads the table again. */
export function loginProvidersChanged(ctx: AppContext): void {
  loginMemo.delete(ctx);
}

const scopesOf = (provider: CustomProvider): string => text(provider.scopes, 'openid profile email');
const isOidc = (provider: CustomProvider): boolean => scopesOf(provider).split(/\s+/).includes('openid');

/** Whether a flow for this provider gets an OIDC nonce: only when it asks for an ID token. */
export const wantsNonce = isOidc;

/** Authorisation-code request with PKCE (S256) always, a nonce when the scopes ask for OpenID Connect. */
export function customAuthorizeUrl(provider: CustomProvider, flow: OAuthFlow, challenge: string): string {
  return withQuery(text(provider.authorization_endpoint), {
    response_type: 'code',
    client_id: text(provider.client_id),
    redirect_uri: flow.redirectUri,
    scope: scopesOf(provider),
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: challenge,
    code_challenge_method: challenge ? 'S256' : '',
  });
}

/** A token answer: JSON as RFC 6749 says, or the form encoding some older servers still send. */
function tokenBody(response: { text: string; json(): unknown }): Record<string, unknown> {
  try {
    const value = response.json();
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the form encoding
  }
  return Object.fromEntries(new URLSearchParams(response.text));
}

function idTokenClaims(idToken: string): Record<string, unknown> | null {
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export interface CustomIdentity extends ProviderIdentity {
  username: string;
}

/**
 * Exchanges the code (with the PKCE verifier and the exact redirect_uri) and reads userinfo, both through the
 * SSRF-safe client: the endpoints were typed by an admin, so private addresses follow
 * fetch_setting.allow_private_ip. The id, login, name and address are read by the configured claim paths.
 */
export async function identifyCustom(
  ctx: AppContext,
  provider: CustomProvider,
  code: string,
  flow: OAuthFlow,
): Promise<CustomIdentity> {
  const call: ProviderCall = {
    provider: provider.name,
    allowPrivate: ctx.options.bool('fetch_setting.allow_private_ip'),
  };
  const fail = (reason: string): never => {
    throw new ApiFailure('oauth_provider_failed', { provider: provider.name, reason });
  };
  const clientId = text(provider.client_id);
  const secret = text(provider.client_secret)
    ? new SecretBox(ctx.config.cryptoSecret).open(text(provider.client_secret))
    : '';
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: flow.redirectUri });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (Number(provider.auth_style ?? 0) === 2) {
    // RFC 6749 §2.3.1: both parts form-encoded before they are joined.
    const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  } else {
    form.set('client_id', clientId);
    if (secret) form.set('client_secret', secret);
  }
  if (flow.verifier) form.set('code_verifier', flow.verifier);
  const tokenResponse = await providerFetch(call, text(provider.token_endpoint), {
    method: 'POST',
    headers,
    body: form.toString(),
  });
  const token = tokenBody(tokenResponse);
  const reason = oauthErrorReason(token, tokenResponse.status);
  if (reason) fail(reason);
  if (typeof token.access_token !== 'string' || !token.access_token) fail('no access_token');

  const userResponse = await providerFetch(call, text(provider.user_info_endpoint), {
    headers: { accept: 'application/json', authorization: `Bearer ${String(token.access_token)}` },
  });
  let user: unknown;
  try {
    user = userResponse.json();
  } catch {
    user = undefined;
  }
  if (userResponse.status !== 200 || !user || typeof user !== 'object') fail(`userinfo HTTP ${userResponse.status}`);

  const idPath = text(provider.user_id_field, 'sub');
  const id = claimText(user, idPath);
  if (!id) {
    throw new ApiFailure('custom_oauth_claim_missing', { field: 'user_id_field', path: idPath });
  }
  if (typeof token.id_token === 'string' && token.id_token) {
    const claims = idTokenClaims(token.id_token);
    if (!claims) fail('malformed id_token');
    const audience = Array.isArray(claims!.aud) ? claims!.aud : [claims!.aud];
    if (!audience.includes(clientId)) fail('id_token audience is not this client');
    if (flow.nonce && claims!.nonce !== flow.nonce) fail('id_token nonce does not match');
    // OIDC Core 5.3.2: the userinfo must describe the ID token's subject.
    const subject = claimText(user, 'sub');
    if (subject && typeof claims!.sub === 'string' && claims!.sub !== subject) {
      fail('userinfo subject differs from the id_token');
    }
  }
  const username = claimText(user, text(provider.username_field));
  const emailPath = text(provider.email_field);
  // An address the provider says it has not verified could name someone else's mailbox.
  const verified = claimAt(user, 'email_verified') !== false;
  return {
    id,
    legacyIds: [],
    username,
    displayName: claimText(user, text(provider.display_name_field)) || username,
    email: emailPath && verified ? claimText(user, emailPath) : '',
  };
}

const lockKey = (provider: CustomProvider, identity: ProviderIdentity) => `custom:${provider.id}:${identity.id}`;

/**
 * The account this person signs in to: the bound one, or a new one when registration is open (with the same
 * invite rules as the built-in providers). Deregistered and banned accounts are refused.
 */
export async function customAccountForSignIn(
  ctx: AppContext,
  provider: CustomProvider,
  identity: CustomIdentity,
  affCode: string,
): Promise<UserRow> {
  return oneAtATime(ctx, lockKey(provider, identity), async () => {
    const boundId = await ctx.repos.customOAuth.userIdFor(provider.id, identity.id);
    if (boundId !== undefined) {
      const bound = await ctx.repos.users.findById(boundId);
      if (!bound || bound.deleted_at !== null) throw new ApiFailure('user_deleted');
      if (bound.status !== UserStatus.Enabled) throw new ApiFailure('user_banned');
      return bound;
    }
    if (!ctx.options.bool('RegisterEnabled')) throw new ApiFailure('register_disabled');
    const created = await createProviderAccount(
      ctx,
      { usernamePrefix: provider.slug, fallbackDisplayName: provider.name },
      identity,
      affCode,
    );
    await ctx.repos.customOAuth.bind(created.id, provider.id, identity.id, nowSeconds());
    return created;
  });
}

/** Binds the person to the signed-in account unless another account already holds them at this provider. */
export async function bindCustomIdentity(
  ctx: AppContext,
  provider: CustomProvider,
  user: UserRow,
  identity: CustomIdentity,
): Promise<void> {
  await oneAtATime(ctx, lockKey(provider, identity), async () => {
    const boundId = await ctx.repos.customOAuth.userIdFor(provider.id, identity.id);
    if (boundId !== undefined && boundId !== user.id) {
      throw new ApiFailure('oauth_already_bound', { provider: provider.name });
    }
    await ctx.repos.customOAuth.bind(user.id, provider.id, identity.id, nowSeconds());
  });
}
