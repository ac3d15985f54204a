import type { CustomOAuthDiscoveryView, CustomOAuthProviderInput, CustomOAuthProviderView } from '@gateway/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { statusQueryKey } from '../../../hooks/use-status';
import { api } from '../../../lib/api';

const key = ['custom-oauth-providers'] as const;

/** The custom sign-in providers the root added (secrets never come back: only whether one is set). */
export function useCustomOAuthProviders() {
  return useQuery({ queryKey: key, queryFn: () => api.get<CustomOAuthProviderView[]>('/api/custom-oauth-provider/') });
}

/** Creates (no id) or changes a provider; the login page's buttons follow through the status. */
export function useSaveCustomOAuthProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: CustomOAuthProviderInput }) =>
      id
        ? api.put<CustomOAuthProviderView>(`/api/custom-oauth-provider/${id}`, input)
        : api.post<CustomOAuthProviderView>('/api/custom-oauth-provider/', input),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: key }),
        client.invalidateQueries({ queryKey: statusQueryKey }),
      ]),
  });
}

export function useDeleteCustomOAuthProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/custom-oauth-provider/${id}`),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: key }),
        client.invalidateQueries({ queryKey: statusQueryKey }),
      ]),
  });
}

/** The server reads the provider's well-known document (SSRF-safe) for the form to fill its endpoints from. */
export function useCustomOAuthDiscovery() {
  return useMutation({
    meta: { silentError: true },
    mutationFn: (wellKnown: string) =>
      api.post<CustomOAuthDiscoveryView>('/api/custom-oauth-provider/discovery', { well_known_url: wellKnown }),
  });
}
