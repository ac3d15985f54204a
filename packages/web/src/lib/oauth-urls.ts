/**
 * A provider the browser is sent to: a built-in one, or a custom provider's slug (the root adds those in the
 * settings; their callback page is `/oauth/<slug>` too).
 */
export type RedirectTarget = OAuthProvider | (string & {});

/** The providers the browser is sent to and back from (`/oauth/<provider>` is their callback page). */
export type OAuthProvider = 'github' | 'oidc' | 'linuxdo';

export const REDIRECT_PROVIDERS: readonly OAuthProvider[] = ['github', 'oidc', 'linuxdo'];

export function isRedirectProvider(value: string): value is OAuthProvider {
  return (REDIRECT_PROVIDERS as readonly string[]).includes(value);
}

/**
 * Where the console asks for the authorisation URL. The server builds it from the configured endpoints (the
 * OIDC options, or the GitHub/LinuxDO endpoints of its environment) and adds state, PKCE and nonce, whose secret
 * halves stay in an HttpOnly cookie the browser cannot read.
 */
export function authorizeRequestPath(provider: OAuthProvider | string): string {
  return `/api/oauth/${provider}/authorize`;
}

/** The server route the callback page hands the provider's `code` and `state` to. */
export function callbackRequestPath(provider: OAuthProvider | string): string {
  return `/api/oauth/${provider}`;
}

/** Display names of the providers, the same in every language. */
export const PROVIDER_NAMES: Record<OAuthProvider | 'wechat' | 'telegram', string> = {
  github: 'GitHub',
  oidc: 'OIDC',
  linuxdo: 'LinuxDO',
  wechat: 'WeChat',
  telegram: 'Telegram',
};
