import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { UserGroups } from '../types';

/** The groups the caller may put on a token, with their price ratios. */
export function useUserGroups(enabled = true) {
  return useQuery({
    queryKey: ['user', 'self', 'groups'],
    queryFn: () => api.get<UserGroups>('/api/user/self/groups'),
    enabled,
    staleTime: 5 * 60_000,
  });
}
