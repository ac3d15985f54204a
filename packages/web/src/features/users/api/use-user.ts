import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { UserDetail } from '../types';
import { usersQueryKey } from './use-users';

/** The stored record behind the edit drawer; idle until an id is given. */
export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: [...usersQueryKey, 'one', id],
    queryFn: ({ signal }) => api.get<UserDetail>(`/api/user/${id}`, { signal }),
    enabled: id !== undefined,
    staleTime: 0,
    // The drawer shows this failure itself.
    meta: { silentError: true },
  });
}
