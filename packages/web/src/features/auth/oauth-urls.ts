import type { PublicStatus } from '@gateway/shared';

export type OAuthProvider = 'github' | 'oidc' | 'linuxdo';

/** Where to send the browser to start a redirect-based third-party login. */
export function oauthAuthorizeUrl(
  provider: OAuthProvider,
  status: Partial<PublicStatus>,
  state: string,
  origin: string,
): string {
  const params = new URLSearchParams({ state });
  switch (provider) {
    case 'github':
      params.set('client_id', status.github_client_id ?? '');
      params.set('scope', 'user:email');
      return `https://github.com/login/oauth/authorize?${params}`;
    case 'linuxdo':
      params.set('client_id', status.linuxdo_client_id ?? '');
      params.set('response_type', 'code');
      return `https://connect.linux.do/oauth2/authorize?${params}`;
    case 'oidc': {
      params.set('client_id', status.oidc_client_id ?? '');
      params.set('response_type', 'code');
      params.set('scope', 'openid profile email');
      params.set('redirect_uri', `${origin}/oauth/oidc`);
      const endpoint = status.oidc_authorization_endpoint ?? '';
      return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${params}`;
    }
  }
}
