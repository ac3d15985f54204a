import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';

/** Model names the caller can reach: the choices for a token's model limits. */
export function useUserModels(enabled = true) {
  return useQuery({
    queryKey: ['user', 'models'],
    queryFn: () => api.get<string[]>('/api/user/models'),
    enabled,
    staleTime: 5 * 60_000,
  });
}
