import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The caller's invitation code (`GET /api/user/aff`); the server makes one on first ask. */
export function useAffCode() {
  return useQuery({
    queryKey: ['user', 'aff'],
    queryFn: () => api.get<string>('/api/user/aff'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
