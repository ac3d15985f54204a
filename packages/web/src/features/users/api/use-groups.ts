import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Every group name the operator has priced (`GET /api/group/`): the search filter and the edit form's choices. */
export function useGroups() {
  return useQuery({
    queryKey: ['groups'],
    queryFn: () => api.get<string[]>('/api/group/'),
    staleTime: 5 * 60_000,
  });
}
