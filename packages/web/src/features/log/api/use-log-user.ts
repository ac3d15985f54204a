import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { LogUserDetail } from '../types';

/** One user's record for the admin's user-detail window (`GET /api/user/{id}`); idle until an id is given. */
export function useLogUser(id: number | null) {
  return useQuery({
    queryKey: ['user', 'detail', id],
    queryFn: ({ signal }) => api.get<LogUserDetail>(`/api/user/${id}`, { signal }),
    enabled: id !== null,
    // The window shows the failure itself.
    meta: { silentError: true },
  });
}
