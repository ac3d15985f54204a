/**
 * A custom OAuth / OIDC provider as the root's settings page sees it (the family's CustomOAuthProviderResponse, its
 * oauth_code columns): everything but the client secret, which is never sent back; `client_secret_set` says
 * whether one is stored.
 */
export interface CustomOAuthProviderView {
  id: number;
  name: string;
  slug: string;
  icon: string;
  kind: 'oauth_code';
  enabled: boolean;
  client_id: string;
  client_secret_set: boolean;
  authorization_endpoint: string;
  token_endpoint: string;
  user_info_endpoint: string;
  scopes: string;
  user_id_field: string;
  username_field: string;
  display_name_field: string;
  email_field: string;
  well_known: string;
  /** 0 auto, 1 client id and secret in the form, 2 HTTP Basic. */
  auth_style: number;
}

/** What the settings form sends to create or change one; an absent or empty `client_secret` keeps the stored one. */
export type CustomOAuthProviderInput = Partial<
  Omit<CustomOAuthProviderView, 'id' | 'kind' | 'client_secret_set'> & { client_secret: string }
>;

/** What the sign-in page needs of an enabled provider (`/api/status` → custom_oauth_providers): no secret. */
export interface CustomOAuthLoginInfo {
  id: number;
  name: string;
  slug: string;
  icon: string;
  client_id: string;
  authorization_endpoint: string;
  scopes: string;
}

/** One of an account's custom-provider bindings (the family's UserOAuthBindingResponse). */
export interface UserOAuthBindingView {
  provider_id: number;
  provider_name: string;
  provider_slug: string;
  provider_icon: string;
  provider_user_id: string;
}

/** `POST /api/custom-oauth-provider/discovery`: the URL read and the well-known document. */
export interface CustomOAuthDiscoveryView {
  well_known_url: string;
  discovery: Record<string, unknown>;
}

/** Slugs a custom provider may not take: the built-in providers' and the other `/api/oauth/*` routes. */
export const RESERVED_OAUTH_SLUGS = [
  'github',
  'oidc',
  'linuxdo',
  'wechat',
  'telegram',
  'email',
  'state',
  'discord',
  'lark',
  'bind',
] as const;

export const CUSTOM_OAUTH_SLUG_PATTERN = /^[a-z0-9-]{1,64}$/;
