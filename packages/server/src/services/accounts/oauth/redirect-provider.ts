import type { AppContext } from '../../../context.js';
import type { BindingColumn } from '../../../db/schema.js';
import type { OAuthFlow, RedirectProviderName } from './flow.js';

export type { BindingColumn };

/** Who the provider says the person is, reduced to what an account needs. */
export interface ProviderIdentity {
  /** The stable id stored in the account's binding column. */
  id: string;
  /** Ids the family stored for the same person in older versions (matched once, then replaced by `id`). */
  legacyIds: string[];
  displayName: string;
  /** Only when the provider vouches for it; '' otherwise. */
  email: string;
}

/** The parts of a provider an account flow needs: its name for messages, its column and its switch. */
export interface ProviderAccountInfo {
  label: string;
  column: BindingColumn;
  /** Prefix of usernames given to accounts it creates (`github_12`). */
  usernamePrefix: string;
  /** Display name when the provider gives none. */
  fallbackDisplayName: string;
  enabled(ctx: AppContext): boolean;
}

/** A provider the browser is redirected to and back from with `code` and `state` (RFC 6749 §4.1). */
export interface RedirectProvider extends ProviderAccountInfo {
  name: RedirectProviderName;
  /** Whether the authorisation request carries a PKCE challenge (and the token request the verifier). */
  pkce: boolean;
  /** Whether the authorisation request names a redirect_uri (and the token request repeats it). */
  sendsRedirectUri: boolean;
  /** Client id and authorisation endpoint are set: without them there is nowhere to send the browser. */
  configured(ctx: AppContext): boolean;
  authorizeUrl(ctx: AppContext, flow: OAuthFlow, challenge: string): string;
  identify(ctx: AppContext, code: string, flow: OAuthFlow): Promise<ProviderIdentity>;
}

export function withQuery(endpoint: string, params: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '')).toString();
  return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${query}`;
}
