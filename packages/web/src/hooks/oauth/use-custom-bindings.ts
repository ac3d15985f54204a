import type { UserOAuthBindingView } from '@gateway/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const customBindingsKey = (userId: number | 'self') => ['custom-oauth-bindings', userId] as const;

/** The signed-in user's bindings to the custom providers the root added. */
export function useMyCustomBindings(enabled = true) {
  return useQuery({
    queryKey: customBindingsKey('self'),
    queryFn: () => api.get<UserOAuthBindingView[]>('/api/user/oauth/bindings'),
    enabled,
  });
}

/** A user's custom-provider bindings, for an admin on the user's detail. */
export function useUserCustomBindings(userId: number | undefined) {
  return useQuery({
    queryKey: customBindingsKey(userId ?? 0),
    queryFn: () => api.get<UserOAuthBindingView[]>(`/api/user/${userId}/oauth/bindings`),
    enabled: Boolean(userId),
  });
}

/** Unbinds one custom provider: the user's own (no userId) or, for an admin, another user's. */
export function useUnbindCustom(userId?: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (providerId: number) =>
      api.delete(
        userId ? `/api/user/${userId}/oauth/bindings/${providerId}` : `/api/user/oauth/bindings/${providerId}`,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: customBindingsKey(userId ?? 'self') }),
  });
}
