import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Every group name the admin has priced (`GET /api/group/`). */
export function useGroups() {
  return useQuery({
    queryKey: ['groups'],
    queryFn: () => api.get<string[]>('/api/group/'),
    staleTime: 5 * 60_000,
  });
}
