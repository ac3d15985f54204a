import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export interface OidcEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
}

/** The server fetches the well-known document (SSRF-safe) and returns its three endpoints. */
export function useOidcDiscovery() {
  return useMutation({
    meta: { silentError: true },
    mutationFn: (wellKnown: string) => api.post<OidcEndpoints>('/api/oauth/oidc/discovery', { well_known: wellKnown }),
  });
}
