import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export function useNotice() {
  return useQuery({
    queryKey: ['content', 'notice'],
    queryFn: () => api.get<string>('/api/notice'),
    staleTime: 5 * 60_000,
    // A missing notice is not worth interrupting the visitor for.
    meta: { silentError: true },
  });
}
