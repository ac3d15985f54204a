import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Model names the caller can reach (same cache entry as the token form's). */
export function usePlaygroundModels() {
  return useQuery({
    queryKey: ['user', 'models'],
    queryFn: () => api.get<string[]>('/api/user/models'),
    staleTime: 5 * 60_000,
  });
}
