import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { PlaygroundGroups } from '../types';

/** The groups the caller may chat in, with their price ratios (same cache entry as the token form's). */
export function usePlaygroundGroups() {
  return useQuery({
    queryKey: ['user', 'self', 'groups'],
    queryFn: () => api.get<PlaygroundGroups>('/api/user/self/groups'),
    staleTime: 5 * 60_000,
  });
}
